// Evaluators' pseudonyms (issue 30, item 2): the CSV and the audit page showed each evaluator's
// name next to their answers, while /ratings promised that nobody else saw them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { deriveAuditKey } from '@/lib/db/audit-key';
import { appendAudit, listAuditEntries, verifyAuditChain } from '@/lib/db/queries/audit';
import { users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { evaluatorPseudonym, pseudonymiseRatingEntries } from '@/lib/eval/study-pseudonym';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';

describe('evaluatorPseudonym', () => {
  const study = randomUUID();
  const eva = randomUUID();

  it('is one pseudonym per evaluator and study: stable, different for another evaluator or another study', () => {
    const p = evaluatorPseudonym(study, eva);
    expect(p).toMatch(/^E-[0-9A-F]{8}$/);
    expect(evaluatorPseudonym(study, eva)).toBe(p);
    expect(evaluatorPseudonym(study, randomUUID())).not.toBe(p);
    expect(evaluatorPseudonym(randomUUID(), eva)).not.toBe(p);
  });

  it('is keyed: someone who knows the ids but not the key cannot compute it', () => {
    const one = deriveAuditKey('x'.repeat(32));
    const two = deriveAuditKey('y'.repeat(32));
    expect(evaluatorPseudonym(study, eva, one)).not.toBe(evaluatorPseudonym(study, eva, two));
  });
});

describe.each(testBackends())('the audit page’s rows on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(() => handle?.close());

  it('shows a rating’s submitter by pseudonym only, leaves other rows named, never lists a rating under a chosen person, and leaves the chain intact', async () => {
    const { db } = handle;
    const [eva] = await db.insert(users).values({ email: 'eva@bank.example', name: 'Eva Evaluator', role: 'evaluator' }).returning();
    const studyId = randomUUID();
    const assignmentId = randomUUID();
    await db.transaction(async (tx) => {
      await appendAudit({ tx, actorId: eva.id, action: 'auth.sign_in', entityType: 'user', entityId: eva.id });
      await appendAudit({
        tx,
        actorId: eva.id,
        action: 'rating.submit',
        entityType: 'study_assignment',
        entityId: assignmentId,
        detail: { studyId, answers: { trustworthiness: 2 } },
      });
    });

    const { rows } = await listAuditEntries({ db });
    const shown = pseudonymiseRatingEntries(rows);
    const rating = shown.find((r) => r.action === 'rating.submit')!;
    expect(rating.actorName).toBe(evaluatorPseudonym(studyId, eva.id));
    expect(rating.actorEmail).toBeNull();
    expect(JSON.stringify(rating)).not.toContain('Eva Evaluator');
    expect(JSON.stringify(rating)).not.toContain('eva@bank.example');
    expect(rating.detail).toEqual({ studyId, answers: { trustworthiness: 2 } });
    // Her sign-in is hers, by name.
    expect(shown.find((r) => r.action === 'auth.sign_in')).toMatchObject({ actorName: 'Eva Evaluator', actorEmail: 'eva@bank.example' });

    // Filtering by Eva would pin the pseudonym on her: her ratings are not listed there.
    const byEva = await listAuditEntries({ db, filters: { actorId: eva.id } });
    expect(byEva.rows.map((r) => r.action)).toEqual(['auth.sign_in']);
    expect(byEva.total).toBe(1);
    // By action, the rating is listed (under the pseudonym).
    const ratings = await listAuditEntries({ db, filters: { action: 'rating.submit' } });
    expect(ratings.total).toBe(1);

    // Only what is shown changes: the stored entries still verify.
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: true });
  });
});

// What /ratings tells an evaluator must match what the code does: admins see answers under a
// pseudonym in the results, the CSV and the audit log, and their progress by name.
describe('what /ratings says about who sees the ratings', () => {
  const en = ratingMessages.en;
  const ko = ratingMessages.ko;

  it('no longer promises that nobody else sees them, in either language', () => {
    expect(Object.values(en).join(' ')).not.toMatch(/nobody else sees/i);
    expect(Object.values(ko).join(' ')).not.toContain('다른 사람에게 공개되지 않습니다');
  });

  it('names who sees what: admins by pseudonym in the CSV and audit log, counted in the results, progress by name, nobody in the other roles', () => {
    expect(en.privacyAdmins).toMatch(/pseudonym/);
    for (const place of ['results', 'CSV', 'audit log']) expect(en.privacyAdmins).toContain(place);
    expect(en.privacyProgress).toMatch(/under your name/);
    expect(en.privacyProgress).toMatch(/pseudonymous, not anonymous/);
    expect(en.privacyOthers).toMatch(/Other evaluators, relationship managers and committee members never see/);
    expect(ko.privacyAdmins).toContain('가명');
    for (const place of ['연구 결과', 'CSV', '감사 로그']) expect(ko.privacyAdmins).toContain(place);
    // The example has the shape the code makes.
    expect(en.privacyAdmins.match(/E-[0-9A-F]{8}/)?.[0]).toMatch(/^E-[0-9A-F]{8}$/);
  });
});
