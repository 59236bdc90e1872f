// The cover note an RM sends with a case to the credit committee, through the submit action on a
// seeded database: checked on the server (bounded, trimmed, line breaks as the textarea counts
// them), stored with the submission and replaced by the next one, refused to anyone but the
// owning RM, and read back by the case page's and the committee queue's queries.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getCaseDetail } from '@/lib/db/queries/cases';
import { listReviewQueue } from '@/lib/db/queries/review';
import { auditLog, cases, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { SUBMISSION_NOTE_MAX } from '@/lib/domain/submission';
import { submissionNoteInput } from '@/lib/domain/submission-input';
import { translator } from '@/lib/i18n';

type User = { id: string; role: 'rm' | 'committee' | 'evaluator' | 'admin'; name: string; email: string; demo: boolean };
const state = vi.hoisted(() => ({ db: null as unknown, user: null as User | null }));
vi.mock('@/lib/auth/session', () => ({
  getSessionUser: async () => state.user,
  requireUser: async () => state.user,
  requirePermission: async () => state.user,
}));
vi.mock('@/lib/db/client', async (original) => ({ ...(await original<object>()), getDb: async () => state.db }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('@/lib/i18n/server', () => ({ getLocale: async () => 'en', getT: async (messages: Parameters<typeof translator>[0]) => translator(messages, 'en') }));

const { submitCase } = await import('@/app/(signed-in)/(workspace)/cases/[id]/actions');

const caseId = DEMO_IDS.submittedCase;
const NOTE = 'Please read the 2024 governance evidence first.\r\nThe patent suit was settled in March.';

describe('the cover note as the server takes it', () => {
  const parse = (note: unknown) => submissionNoteInput.safeParse(note);

  it('trims it, keeps line breaks as one character each, and treats blank or absent as none', () => {
    expect(parse(`  ${NOTE}  `)).toEqual({ success: true, data: 'Please read the 2024 governance evidence first.\nThe patent suit was settled in March.' });
    expect(parse(' \r\n ')).toEqual({ success: true, data: null });
    expect(parse(undefined)).toEqual({ success: true, data: null });
  });

  it('takes exactly the bound the textarea allows, line breaks sent as CRLF included, and refuses one more', () => {
    // 1,000 short lines: 2,000 characters in the textarea, 2,999 as the browser sends them (CRLF).
    const lines = `${Array.from({ length: 1000 }, () => '가').join('\r\n')}다`;
    expect(lines).toHaveLength(2999);
    expect(parse(lines).data).toHaveLength(SUBMISSION_NOTE_MAX);
    expect(parse('x'.repeat(SUBMISSION_NOTE_MAX)).data).toHaveLength(2000);
    const tooLong = parse('x'.repeat(SUBMISSION_NOTE_MAX + 1));
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues.map((i) => i.message)).toEqual(['errNoteTooLong']);
  });
});

describe.each(testBackends())('submitting with a cover note on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const people: Record<'rm' | 'otherRm' | 'committee', User> = {} as never;

  const row = async () => (await db.select({ status: cases.status, note: cases.submissionNote }).from(cases).where(eq(cases.id, caseId)))[0];
  const submitAs = (who: User, note?: string) => {
    state.user = who;
    const form = new FormData();
    form.set('case_id', caseId);
    if (note !== undefined) form.set('note', note);
    return submitCase(form);
  };
  /** The committee hands the case back, as a "return" decision does (lib/db/queries/review.ts). */
  const returnCase = () => db.update(cases).set({ status: 'returned' }).where(eq(cases.id, caseId));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    state.db = db;
    await seedDemo(db, { accounts: true });
    const seeded = await db.select().from(users);
    const pick = (role: User['role']) => seeded.find((u) => u.role === role)!;
    people.rm = { ...pick('rm'), role: 'rm' } as User;
    people.committee = { ...pick('committee'), role: 'committee' } as User;
    const [other] = await db.insert(users).values({ email: 'other-rm@example.test', name: 'Other RM', role: 'rm' }).returning();
    people.otherRm = { ...other, role: 'rm' } as User;
    // The demo case was submitted without a note; the committee has returned it to its RM.
    await returnCase();
  }, 120_000);
  afterAll(() => handle?.close());

  it('refuses a note over the bound with a field message, and changes nothing', async () => {
    const result = await submitAs(people.rm, 'x'.repeat(SUBMISSION_NOTE_MAX + 1));
    expect(result).toMatchObject({ ok: false, code: 'bad_request', fieldErrors: { note: ['errNoteTooLong'] } });
    expect(await row()).toEqual({ status: 'returned', note: null });
  });

  it('lets only the owning RM submit: another RM and a committee member store nothing', async () => {
    expect(await submitAs(people.otherRm, 'Mine now.')).toMatchObject({ ok: false, code: 'not_found' });
    expect(await submitAs(people.committee, 'Submitted by the committee.')).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await row()).toEqual({ status: 'returned', note: null });
  });

  it('stores the note with the submission, audits it, and the case page and the queue read it', async () => {
    expect(await submitAs(people.rm, `  ${NOTE}\r\n`)).toEqual({ ok: true, data: { submitted: true } });
    const stored = 'Please read the 2024 governance evidence first.\nThe patent suit was settled in March.';
    expect(await row()).toEqual({ status: 'submitted', note: stored });
    expect((await getCaseDetail({ db, id: caseId }))?.submissionNote).toBe(stored);
    const { waiting } = await listReviewQueue({ db });
    expect(waiting.map((c) => [c.id, c.submissionNote])).toEqual([[caseId, stored]]);
    const audit = await db
      .select({ detail: auditLog.detail, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'case.submit'), eq(auditLog.entityId, caseId)));
    // The demo run passes every final check: nothing to acknowledge (lib/report/acknowledgements.test.ts sets one failed).
    expect(audit).toEqual([{ actorId: people.rm.id, detail: { fromStatus: 'returned', withNote: true } }]);
  });

  it('is refused a second time while the case is with the committee, keeping the first note', async () => {
    expect(await submitAs(people.rm, 'A different note.')).toMatchObject({ ok: false, code: 'conflict', message: 'This case has already been submitted.' });
    expect((await row()).note).toBe('Please read the 2024 governance evidence first.\nThe patent suit was settled in March.');
  });

  it('replaces the note on resubmission, and clears it when the new round has none', async () => {
    await returnCase();
    expect(await submitAs(people.rm, 'Second round: the FinDebate run is added.')).toMatchObject({ ok: true });
    expect(await row()).toEqual({ status: 'submitted', note: 'Second round: the FinDebate run is added.' });
    await returnCase();
    expect(await submitAs(people.rm, '   ')).toMatchObject({ ok: true });
    expect(await row()).toEqual({ status: 'submitted', note: null });
    expect((await listReviewQueue({ db })).waiting.map((c) => [c.id, c.submissionNote])).toEqual([[caseId, null]]);
  });
});
