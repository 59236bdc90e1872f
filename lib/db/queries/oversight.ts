// Committee votes, the quorum and the oversight record of each decision (docs/oversight.md).
// A vote is cast in the caller's transaction with the case row locked, so two members voting at
// once are serialised: the second sees the first's vote, and at most one of them makes the round final.
import 'server-only';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { recordDecision, type DecisionInput } from '@/lib/db/queries/review';
import { cases, companies, decisions, decisionVotes, runs, settings, users } from '@/lib/db/schema';
import { effectiveQuorum, QUORUM_SETTING, quorumOf, type VoteConfirmation, type VoteOverride, type VoteView } from '@/lib/domain/oversight';

export type { VoteView };

/** The admin's quorum setting (1 when never set). */
export async function getQuorumSetting({ db }: { db: Executor }): Promise<number> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, QUORUM_SETTING));
  return quorumOf(row?.value);
}

/** Stores the quorum setting; returns the value it replaced. The caller audits, in the same transaction. */
export async function setQuorumSetting({ db, value, actorId }: { db: Executor; value: number; actorId: string }): Promise<number> {
  const before = await getQuorumSetting({ db });
  await db
    .insert(settings)
    .values({ key: QUORUM_SETTING, value, updatedById: actorId })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedById: actorId, updatedAt: new Date() } });
  return before;
}

/** The quorum a case needs now, and why: the setting, raised to two for a sole proprietor. */
export async function caseQuorum({ db, caseId }: { db: Executor; caseId: string }) {
  const [row] = await db
    .select({ soleProprietor: companies.soleProprietor })
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .where(eq(cases.id, caseId));
  const setting = await getQuorumSetting({ db });
  const soleProprietor = row?.soleProprietor ?? false;
  return { setting, soleProprietor, quorum: effectiveQuorum(setting, soleProprietor) };
}

export type VoteInput = DecisionInput & { confirmed: VoteConfirmation; overrides: VoteOverride[] };

export type VoteResult =
  | { kind: 'closed' }
  | {
      kind: 'recorded';
      voteId: string;
      changed: boolean;
      quorum: number;
      /** Votes in this round for the voter's outcome, theirs included. */
      agreeing: number;
      submittedAt: Date;
      decision: Awaited<ReturnType<typeof recordDecision>> | null;
    };

/**
 * Records (or changes) `voterId`'s vote on the case's open round and, when the voter's outcome now
 * has the quorum's agreeing votes, the decision. Must run inside a transaction: the case row is
 * locked first. `closed` when the case is not with the committee (decided meanwhile).
 */
export async function castVote({ db, caseId, voterId, vote }: { db: Executor; caseId: string; voterId: string; vote: VoteInput }): Promise<VoteResult> {
  const [kase] = await db.select({ status: cases.status, submittedAt: cases.submittedAt }).from(cases).where(eq(cases.id, caseId)).for('update');
  if (!kase || kase.status !== 'submitted' || !kase.submittedAt) return { kind: 'closed' };
  const { quorum } = await caseQuorum({ db, caseId });
  const round = and(eq(decisionVotes.caseId, caseId), eq(decisionVotes.submittedAt, kase.submittedAt));
  const [earlier] = await db
    .select({ id: decisionVotes.id })
    .from(decisionVotes)
    .where(and(round, eq(decisionVotes.voterId, voterId)));
  const values = {
    outcome: vote.outcome,
    rationale: vote.rationale.trim(),
    conditions: vote.conditions?.trim() || null,
    confirmed: vote.confirmed,
    overrides: vote.overrides,
    quorum,
  };
  const [row] = await db
    .insert(decisionVotes)
    .values({ caseId, submittedAt: kase.submittedAt, voterId, ...values })
    .onConflictDoUpdate({
      target: [decisionVotes.caseId, decisionVotes.submittedAt, decisionVotes.voterId],
      set: { ...values, updatedAt: new Date() },
    })
    .returning({ id: decisionVotes.id });
  const votes = await db.select({ id: decisionVotes.id, outcome: decisionVotes.outcome }).from(decisionVotes).where(round);
  // The voter's own outcome decides: a quorum lowered since earlier votes never finalises another outcome.
  const agreeing = votes.filter((v) => v.outcome === vote.outcome);
  let decision: Awaited<ReturnType<typeof recordDecision>> | null = null;
  if (agreeing.length >= quorum) {
    decision = await recordDecision({ db, caseId, deciderId: voterId, outcome: vote.outcome, rationale: vote.rationale, conditions: vote.conditions });
    if (decision)
      await db
        .update(decisionVotes)
        .set({ decisionId: decision.id })
        .where(
          inArray(
            decisionVotes.id,
            agreeing.map((v) => v.id),
          ),
        );
  }
  return { kind: 'recorded', voteId: row.id, changed: Boolean(earlier), quorum, agreeing: agreeing.length, submittedAt: kase.submittedAt, decision };
}

const voteColumns = {
  id: decisionVotes.id,
  voterId: decisionVotes.voterId,
  voterName: users.name,
  outcome: decisionVotes.outcome,
  rationale: decisionVotes.rationale,
  conditions: decisionVotes.conditions,
  confirmed: decisionVotes.confirmed,
  overrides: decisionVotes.overrides,
  quorum: decisionVotes.quorum,
  decisionId: decisionVotes.decisionId,
  createdAt: decisionVotes.createdAt,
  updatedAt: decisionVotes.updatedAt,
};

/** The votes of a case's current round (its latest submission), oldest first. */
export async function listRoundVotes({ db, caseId, submittedAt }: { db: Executor; caseId: string; submittedAt: Date }): Promise<VoteView[]> {
  return db
    .select(voteColumns)
    .from(decisionVotes)
    .innerJoin(users, eq(users.id, decisionVotes.voterId))
    .where(and(eq(decisionVotes.caseId, caseId), eq(decisionVotes.submittedAt, submittedAt)))
    .orderBy(asc(decisionVotes.createdAt), asc(decisionVotes.id));
}

/** The votes that made each of the case's decisions, by decision id, oldest vote first. */
export async function listDecisionVotes({ db, caseId }: { db: Executor; caseId: string }): Promise<Record<string, VoteView[]>> {
  const rows = await db
    .select(voteColumns)
    .from(decisionVotes)
    .innerJoin(users, eq(users.id, decisionVotes.voterId))
    .where(eq(decisionVotes.caseId, caseId))
    .orderBy(asc(decisionVotes.createdAt), asc(decisionVotes.id));
  const out: Record<string, VoteView[]> = {};
  for (const r of rows) if (r.decisionId) (out[r.decisionId] ??= []).push(r);
  return out;
}

/** Active committee members, by name: who may still vote. */
export async function listCommitteeMembers({ db }: { db: Executor }) {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'committee'), eq(users.disabled, false)))
    .orderBy(asc(users.name));
}

/** Marks a borrower as a sole proprietor (or not); false when there is no such company. The caller audits. */
export async function setSoleProprietor({ db, companyId, value }: { db: Executor; companyId: string; value: boolean }) {
  const rows = await db
    .update(companies)
    .set({ soleProprietor: value, updatedAt: new Date() })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id });
  return rows.length > 0;
}

/** For a run's exports: its case, and the case's latest decision with the votes that made it (null before one). */
export async function loadRunOversight({ db, runId }: { db: Executor; runId: string }) {
  const [run] = await db.select({ caseId: runs.caseId }).from(runs).where(eq(runs.id, runId));
  const caseId = run?.caseId ?? null;
  if (!caseId) return { caseId: null, decision: null };
  const [latest] = await db
    .select({ id: decisions.id, outcome: decisions.outcome, createdAt: decisions.createdAt, decidedById: decisions.decidedById, deciderName: users.name })
    .from(decisions)
    .innerJoin(users, eq(users.id, decisions.decidedById))
    .where(eq(decisions.caseId, caseId))
    .orderBy(desc(decisions.createdAt))
    .limit(1);
  if (!latest) return { caseId, decision: null };
  const votes = (await listDecisionVotes({ db, caseId }))[latest.id] ?? [];
  return { caseId, decision: { outcome: latest.outcome, createdAt: latest.createdAt, votes, deciderName: latest.deciderName } };
}
