// Committee votes and the quorum (docs/oversight.md): one vote per member and round, changeable
// until final; final when the quorum agrees; two members at once never make two decisions; a
// sole proprietor needs two; overrides and confirmations are kept with the votes that decided.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { markCaseSubmitted } from '@/lib/db/queries/cases';
import { castVote, caseQuorum, getQuorumSetting, listDecisionVotes, listRoundVotes, setQuorumSetting, setSoleProprietor } from '@/lib/db/queries/oversight';
import { listDecisionsForCase } from '@/lib/db/queries/review';
import { cases, decisions, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { effectiveQuorum, finalOutcome, quorumOf, quorumShortfall, votesStillNeeded, type VoteOverride } from '@/lib/domain/oversight';
import { countActive } from '@/lib/db/queries/users';
import type { DecisionOutcome } from '@/lib/domain/vocabulary';

describe('quorum rules', () => {
  it('takes the setting, raises a sole proprietor to two and never goes above five', () => {
    expect(effectiveQuorum(1, false)).toBe(1);
    expect(effectiveQuorum(1, true)).toBe(2);
    expect(effectiveQuorum(3, true)).toBe(3);
    expect(effectiveQuorum(9, false)).toBe(5);
    expect(effectiveQuorum(0, false)).toBe(1);
    expect(quorumOf(4)).toBe(4);
    expect(quorumOf('4')).toBe(1);
    expect(quorumOf(6)).toBe(1);
    expect(quorumOf(undefined)).toBe(1);
  });

  it('is final only when one outcome has the quorum', () => {
    const v = (...o: DecisionOutcome[]) => o.map((outcome) => ({ outcome }));
    expect(finalOutcome(v('approve'), 1)).toBe('approve');
    expect(finalOutcome(v('approve', 'decline'), 2)).toBeNull();
    expect(finalOutcome(v('approve', 'decline', 'approve'), 2)).toBe('approve');
    expect(votesStillNeeded(v(), 2)).toBe(2);
    expect(votesStillNeeded(v('approve', 'decline'), 3)).toBe(2);
    expect(votesStillNeeded(v('approve', 'approve'), 2)).toBe(0);
  });

  it('says what the committee cannot decide with the members it has', () => {
    expect(quorumShortfall(3, 2)).toEqual({ blocks: 'every-case', needed: 3, members: 2 });
    expect(quorumShortfall(1, 0)).toEqual({ blocks: 'every-case', needed: 1, members: 0 });
    // Every ordinary case can be decided by the one member; a sole proprietor's needs two.
    expect(quorumShortfall(1, 1)).toEqual({ blocks: 'sole-proprietors', needed: 2, members: 1 });
    expect(quorumShortfall(2, 2)).toBeNull();
    expect(quorumShortfall(1, 2)).toBeNull();
  });
});

describe.each(testBackends())('committee votes on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let adminId: string;
  const members: string[] = [];
  const caseId: string = DEMO_IDS.submittedCase;
  const confirmed = { report: true as const, failedChecks: [{ runId: DEMO_IDS.run, checkId: 'citations', count: 2, text: '2 citations do not resolve' }] };
  const vote = (voterId: string, outcome: DecisionOutcome, overrides: VoteOverride[] = []) =>
    db.transaction((tx) => castVote({ db: tx, caseId, voterId, vote: { outcome, rationale: `${outcome} because`, conditions: null, confirmed, overrides } }));
  const resubmit = async () => {
    // A new round: the latest decision hands the case back, as "return" would.
    await db.update(cases).set({ status: 'returned' }).where(eq(cases.id, caseId));
    expect(await markCaseSubmitted({ db, id: caseId })).toBe(true);
  };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: adminId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'committee'));
    members.push(demo.id);
    for (const n of [2, 3]) {
      const [row] = await db
        .insert(users)
        .values({ email: `member${n}@example.org`, name: `Member ${n}`, role: 'committee' })
        .returning({ id: users.id });
      members.push(row.id);
    }
  }, 90_000);
  afterAll(() => handle?.close());

  it('counts the committee accounts that can sign in, the disabled left out', async () => {
    expect(await countActive({ db, role: 'committee' })).toBe(3);
    await db.update(users).set({ disabled: true }).where(eq(users.id, members[2]));
    expect(await countActive({ db, role: 'committee' })).toBe(2);
    await db.update(users).set({ disabled: false }).where(eq(users.id, members[2]));
    expect(await countActive({ db, role: 'admin' })).toBe(1);
  });

  it('decides on the first vote with the default quorum of one, keeping the confirmation and overrides', async () => {
    expect(await getQuorumSetting({ db })).toBe(1);
    const override: VoteOverride = {
      ref: `claim:${DEMO_IDS.run}:D1:D1-c1`,
      kind: 'claim',
      runId: DEMO_IDS.run,
      label: 'Governance is sound',
      reason: 'The 2024 board change is not weighed.',
    };
    const result = await vote(members[0], 'return', [override]);
    expect(result).toMatchObject({ kind: 'recorded', quorum: 1, agreeing: 1, changed: false });
    expect(result.kind === 'recorded' && result.decision?.outcome).toBe('return');
    const [decided] = await db.select().from(cases).where(eq(cases.id, caseId));
    expect(decided.status).toBe('returned');
    const byDecision = await listDecisionVotes({ db, caseId });
    const decisionId = result.kind === 'recorded' ? result.decision!.id : '';
    expect(byDecision[decisionId]).toHaveLength(1);
    expect(byDecision[decisionId][0]).toMatchObject({ voterName: 'Demo Committee Member', outcome: 'return', confirmed, overrides: [override] });
    // The round is over: another vote is refused.
    expect(await vote(members[1], 'approve')).toEqual({ kind: 'closed' });
  });

  it('with a quorum of two, the first vote is not final, a member may change theirs, and the second agreeing vote decides', async () => {
    await db.transaction((tx) => setQuorumSetting({ db: tx, value: 2, actorId: adminId }));
    await resubmit();
    const [{ submittedAt }] = await db.select({ submittedAt: cases.submittedAt }).from(cases).where(eq(cases.id, caseId));
    const first = await vote(members[0], 'approve');
    expect(first).toMatchObject({ kind: 'recorded', quorum: 2, agreeing: 1, decision: null });
    const other = await vote(members[1], 'decline');
    expect(other).toMatchObject({ agreeing: 1, decision: null });
    // Member 2 changes their vote: still one vote each, now both approve, so the round is final.
    const changed = await vote(members[1], 'approve');
    expect(changed).toMatchObject({ changed: true, agreeing: 2 });
    expect(changed.kind === 'recorded' && changed.decision?.outcome).toBe('approve');
    const round = await listRoundVotes({ db, caseId, submittedAt: submittedAt! });
    expect(round.map((v) => [v.voterName, v.outcome])).toEqual([
      ['Demo Committee Member', 'approve'],
      ['Member 2', 'approve'],
    ]);
    expect(round.every((v) => v.decisionId === (changed.kind === 'recorded' ? changed.decision!.id : null))).toBe(true);
    const [latest] = await listDecisionsForCase({ db, caseId });
    expect(latest).toMatchObject({ outcome: 'approve', deciderName: 'Member 2' });
  });

  it('two members voting at once make exactly one final decision', async () => {
    // Quorum two, a fresh round, both agreeing votes at once. Without the case row locked each
    // transaction would see only its own vote on PostgreSQL, and neither would make the round final.
    await resubmit();
    const before = (await db.select().from(decisions).where(eq(decisions.caseId, caseId))).length;
    const both = await Promise.all([vote(members[0], 'decline'), vote(members[1], 'decline')]);
    expect(both.filter((r) => r.kind === 'recorded' && r.decision)).toHaveLength(1);
    expect(both.map((r) => (r.kind === 'recorded' ? r.agreeing : 0)).sort()).toEqual([1, 2]);
    const after = await db.select().from(decisions).where(eq(decisions.caseId, caseId));
    expect(after.length - before).toBe(1);
    const [decided] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, caseId));
    expect(decided.status).toBe('decided');
    // A third member arriving after the decision finds the round closed.
    expect(await vote(members[2], 'approve')).toEqual({ kind: 'closed' });
  });

  it('a sole proprietor needs two agreeing votes even with the quorum at one', async () => {
    await db.transaction((tx) => setQuorumSetting({ db: tx, value: 1, actorId: adminId }));
    const [kase] = await db.select({ companyId: cases.companyId }).from(cases).where(eq(cases.id, caseId));
    expect(await setSoleProprietor({ db, companyId: kase.companyId, value: true })).toBe(true);
    expect(await caseQuorum({ db, caseId })).toEqual({ setting: 1, soleProprietor: true, quorum: 2 });
    await resubmit();
    expect(await vote(members[0], 'approve')).toMatchObject({ quorum: 2, decision: null });
    const [open] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, caseId));
    expect(open.status).toBe('submitted');
    const second = await vote(members[1], 'approve');
    expect(second.kind === 'recorded' && second.decision?.outcome).toBe('approve');
    await setSoleProprietor({ db, companyId: kase.companyId, value: false });
    expect((await caseQuorum({ db, caseId })).quorum).toBe(1);
    expect(await setSoleProprietor({ db, companyId: 'no-such-company', value: true })).toBe(false);
    // Every round's votes stay, each linked to the decision it made or to none.
    const rows = await db
      .select()
      .from(decisions)
      .where(and(eq(decisions.caseId, caseId), eq(decisions.outcome, 'approve')));
    expect(rows).toHaveLength(2);
  });
});
