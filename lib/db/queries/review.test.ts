import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupThreads, toThreadComments } from '@/components/review/threads';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { appendAudit, listAuditEntries, verifyAuditChain } from '@/lib/db/queries/audit';
import { markCaseSubmitted } from '@/lib/db/queries/cases';
import {
  anchorProblem,
  commentRight,
  decisionProblems,
  insertComment,
  listCommentsForCase,
  listDecisionsForCase,
  listReviewQueue,
  recordDecision,
  statusAfterDecision,
} from '@/lib/db/queries/review';
import { auditLog, cases, runSteps, users } from '@/lib/db/schema';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { claimsOf } from '@/lib/domain/output-parts';

describe('review rules', () => {
  const rm = { id: 'rm-1', role: 'rm' as const };
  const committee = { id: 'c-1', role: 'committee' as const };

  it('lets the committee open threads only while the case is submitted, and the owning RM only reply', () => {
    expect(commentRight(committee, { ownerId: 'rm-1', status: 'submitted' })).toBe('start');
    expect(commentRight(committee, { ownerId: 'rm-1', status: 'decided' })).toBe('none');
    expect(commentRight(committee, { ownerId: 'rm-1', status: 'returned' })).toBe('none');
    expect(commentRight(rm, { ownerId: 'rm-1', status: 'submitted' })).toBe('reply');
    expect(commentRight(rm, { ownerId: 'rm-1', status: 'decided' })).toBe('reply');
    expect(commentRight({ id: 'rm-2', role: 'rm' }, { ownerId: 'rm-1', status: 'submitted' })).toBe('none');
    expect(commentRight({ id: 'e-1', role: 'evaluator' }, { ownerId: 'rm-1', status: 'submitted' })).toBe('none');
    expect(commentRight({ id: 'a-1', role: 'admin' }, { ownerId: 'rm-1', status: 'submitted' })).toBe('none');
  });

  it('needs a rationale always and conditions for an approval with conditions', () => {
    expect(decisionProblems({ outcome: 'approve', rationale: 'Sound governance.' })).toBeNull();
    expect(decisionProblems({ outcome: 'decline', rationale: '   ' })).toEqual({ rationale: ['errRationale'] });
    expect(decisionProblems({ outcome: 'approve_with_conditions', rationale: 'Fine', conditions: ' ' })).toEqual({ conditions: ['errConditions'] });
    expect(decisionProblems({ outcome: 'approve_with_conditions', rationale: '', conditions: null })).toEqual({
      rationale: ['errRationale'],
      conditions: ['errConditions'],
    });
    expect(decisionProblems({ outcome: 'approve_with_conditions', rationale: 'Fine', conditions: 'Quarterly covenant report' })).toBeNull();
  });

  it('returns a case to the RM only on "return"', () => {
    expect(statusAfterDecision('return')).toBe('returned');
    expect(statusAfterDecision('approve')).toBe('decided');
    expect(statusAfterDecision('approve_with_conditions')).toBe('decided');
    expect(statusAfterDecision('decline')).toBe('decided');
  });
});

describe.each(testBackends())('committee review on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;
  let committeeId: string;
  const caseId: string = DEMO_IDS.submittedCase;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: rmId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'rm'));
    [{ id: committeeId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'committee'));
  }, 90_000);
  afterAll(() => handle?.close());

  it('queues the submitted demo case with its RM and analysis count', async () => {
    const { waiting, decided } = await listReviewQueue({ db });
    expect(waiting.map((c) => c.id)).toEqual([caseId]);
    expect(waiting[0]).toMatchObject({ runCount: 1, commentCount: 0, outcome: null, ownerName: 'Demo RM' });
    expect(decided).toEqual([]);
  });

  it('accepts anchors that exist in the case and names what does not', async () => {
    const [d1] = await db.select().from(runSteps).where(eq(runSteps.stepId, 'D1'));
    const claim = claimsOf(d1.output)[0];
    expect(claim?.id).toBeTruthy();
    const at = (runId: string | null, stepId: string | null, claimId: string | null, onCase = caseId) =>
      anchorProblem({ db, caseId: onCase, runId, stepId, claimId });
    expect(await at(null, null, null)).toBeNull();
    expect(await at(DEMO_IDS.run, null, null)).toBeNull();
    expect(await at(DEMO_IDS.run, 'D1', null)).toBeNull();
    expect(await at(DEMO_IDS.run, 'D1', claim.id)).toBeNull();
    expect(await at(null, 'D1', null)).toBe('run');
    expect(await at(DEMO_IDS.run, 'D1', null, DEMO_IDS.draftCase)).toBe('run');
    expect(await at('00000000-0000-4000-8000-0000000000ff', 'D1', null)).toBe('run');
    expect(await at(DEMO_IDS.run, 'D99', null)).toBe('step');
    expect(await at(DEMO_IDS.run, null, claim.id)).toBe('step');
    expect(await at(DEMO_IDS.run, 'D1', 'no-such-claim')).toBe('claim');
  });

  it('keeps threads one level deep, in the order they were written', async () => {
    const root = await insertComment({
      db,
      values: { caseId, runId: DEMO_IDS.run, stepId: 'D1', claimId: null, parentId: null, authorId: committeeId, body: 'Is the 2024 figure audited?' },
    });
    const general = await insertComment({
      db,
      values: { caseId, runId: null, stepId: null, claimId: null, parentId: null, authorId: committeeId, body: 'Overall: thin evidence on succession.' },
    });
    await insertComment({
      db,
      values: { caseId, runId: DEMO_IDS.run, stepId: 'D1', claimId: null, parentId: root.id, authorId: rmId, body: 'Yes, by the external auditor.' },
    });
    const threads = groupThreads(toThreadComments(await listCommentsForCase({ db, caseId })));
    expect(threads.map((t) => [t.root.body, t.replies.map((r) => [r.authorRole, r.body])])).toEqual([
      ['Is the 2024 figure audited?', [['rm', 'Yes, by the external auditor.']]],
      ['Overall: thin evidence on succession.', []],
    ]);
    expect(threads[0].root).toMatchObject({ runId: DEMO_IDS.run, stepId: 'D1', authorName: 'Demo Committee Member', authorRole: 'committee' });
    expect(threads[1].root.id).toBe(general.id);
    expect((await listReviewQueue({ db })).waiting[0].commentCount).toBe(3);
  });

  it('records one decision per submission round; a returned case can be resubmitted and decided again', async () => {
    const first = await db.transaction((tx) =>
      recordDecision({ db: tx, caseId, deciderId: committeeId, outcome: 'return', rationale: ' Needs a FinDebate run. ' }),
    );
    expect(first).toMatchObject({ outcome: 'return', rationale: 'Needs a FinDebate run.', conditions: null });
    const [returned] = await db.select().from(cases).where(eq(cases.id, caseId));
    expect(returned.status).toBe('returned');
    // The round is over: a second decision on it is refused.
    expect(await recordDecision({ db, caseId, deciderId: committeeId, outcome: 'approve', rationale: 'x' })).toBeNull();

    expect(await markCaseSubmitted({ db, id: caseId })).toBe(true);
    // Two members deciding the same round at once: exactly one decision is recorded.
    const both = await Promise.all(
      (['approve_with_conditions', 'decline'] as const).map((outcome) =>
        db.transaction((tx) =>
          recordDecision({ db: tx, caseId, deciderId: committeeId, outcome, rationale: 'Second round', conditions: 'Quarterly covenant report' }),
        ),
      ),
    );
    expect(both.filter(Boolean)).toHaveLength(1);
    const decisions = await listDecisionsForCase({ db, caseId });
    expect(decisions.map((d) => d.outcome)).toEqual([both.find(Boolean)!.outcome, 'return']);
    expect(decisions[0].deciderName).toBe('Demo Committee Member');
    const [decided] = await db.select().from(cases).where(eq(cases.id, caseId));
    expect(decided.status).toBe('decided');
    const { waiting, decided: done } = await listReviewQueue({ db });
    expect(waiting).toEqual([]);
    expect(done[0]).toMatchObject({ id: caseId, outcome: decisions[0].outcome });
    expect(done[0].decidedAt).toBeInstanceOf(Date);
  });

  it('lists, filters and pages the audit log, and names an edited entry on verification', async () => {
    for (const n of [1, 2, 3]) {
      await db.transaction((tx) =>
        appendAudit({ tx, actorId: committeeId, action: 'comment.create', entityType: 'comment', entityId: `c${n}`, detail: { caseId, n } }),
      );
    }
    const mine = await listAuditEntries({ db, filters: { action: 'comment.create', actorId: committeeId }, limit: 2 });
    expect(mine.total).toBe(3);
    expect(mine.rows.map((r) => r.entityId)).toEqual(['c3', 'c2']);
    expect(mine.rows[0]).toMatchObject({ actorName: 'Demo Committee Member', entityType: 'comment' });
    const page2 = await listAuditEntries({ db, filters: { action: 'comment.create' }, limit: 2, offset: 2 });
    expect(page2.rows.map((r) => r.entityId)).toEqual(['c1']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAuditEntries({ db, filters: { entityType: 'comment', from: today, to: today } })).total).toBe(3);
    expect((await listAuditEntries({ db, filters: { entityType: 'comment', to: '2000-01-01' } })).total).toBe(0);

    expect(await verifyAuditChain({ db, batch: 2 })).toMatchObject({ ok: true });
    const target = mine.rows[1];
    // The database refuses the edit; a superuser attacker switches its trigger off first.
    await expect(
      db
        .update(auditLog)
        .set({ detail: { caseId, n: 99 } })
        .where(eq(auditLog.seq, target.seq)),
    ).rejects.toThrow();
    await db.execute(sql`alter table audit_log disable trigger user`);
    await db
      .update(auditLog)
      .set({ detail: { caseId, n: 99 } })
      .where(eq(auditLog.seq, target.seq));
    await db.execute(sql`alter table audit_log enable trigger user`);
    const broken = await verifyAuditChain({ db, batch: 2 });
    expect(broken).toMatchObject({ ok: false, brokenAt: target.seq, reason: 'content', action: 'comment.create' });
    expect(broken.ok ? null : broken.at.toISOString()).toBe(target.at.toISOString());
  });
});
