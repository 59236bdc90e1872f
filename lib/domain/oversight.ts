// Human oversight of a committee decision (docs/oversight.md): what a member confirms having
// read, the AI outputs they overrode, and the quorum of agreeing votes that makes a decision
// final. Pure: the database side is lib/db/queries/oversight.ts.
import type { DecisionOutcome } from '@/lib/domain/vocabulary';

/** The `settings` row an admin sets: how many committee members must agree. */
export const QUORUM_SETTING = 'committee.quorum';
export const QUORUM_DEFAULT = 1;
export const QUORUM_MAX = 5;
/** A sole proprietor is a natural person in business: never decided by one member alone. */
export const SOLE_PROPRIETOR_QUORUM = 2;

export const OVERRIDES_MAX = 20;
export const OVERRIDE_REASON_MAX = 2000;

/** One failed final check as the member was shown it (lib/report/failed-checks.ts), in English. */
export type ConfirmedCheck = { runId: string; checkId: string; count: number; text: string };

/** `report`: the member read the report(s); `failedChecks`: the failed checks listed on the form when they confirmed. */
export type VoteConfirmation = { report: true; failedChecks: ConfirmedCheck[] };

/**
 * An AI output the member did not follow: a topic of a run's report or a claim of a turn.
 * `ref` is `topic:<runId>:<index>` or `claim:<runId>:<step>:<claimId>`; `label` the output as it read.
 */
export type VoteOverride = { ref: string; kind: 'topic' | 'claim'; runId: string; label: string; reason: string };

/** A vote as pages and exports read it (lib/db/queries/oversight.ts). */
export type VoteView = {
  id: string;
  voterId: string;
  voterName: string;
  outcome: DecisionOutcome;
  rationale: string;
  conditions: string | null;
  confirmed: VoteConfirmation;
  overrides: VoteOverride[];
  quorum: number;
  decisionId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The quorum a case needs: the admin's setting, at least two for a sole proprietor, never above the maximum. */
export function effectiveQuorum(setting: number, soleProprietor: boolean): number {
  const base = Number.isInteger(setting) && setting >= 1 ? Math.min(setting, QUORUM_MAX) : QUORUM_DEFAULT;
  return soleProprietor ? Math.max(base, SOLE_PROPRIETOR_QUORUM) : base;
}

/**
 * What the committee cannot decide with `members` active committee accounts: every case when the
 * quorum is more than them, a sole proprietor's when they are fewer than its two. Null when both
 * can be decided. The settings page says it, so a quorum is never set that leaves cases stuck.
 */
export function quorumShortfall(quorum: number, members: number): { blocks: 'every-case' | 'sole-proprietors'; needed: number; members: number } | null {
  if (members < quorum) return { blocks: 'every-case', needed: quorum, members };
  if (members < SOLE_PROPRIETOR_QUORUM) return { blocks: 'sole-proprietors', needed: SOLE_PROPRIETOR_QUORUM, members };
  return null;
}

/** A stored setting's value as a quorum; anything else is the default. */
export function quorumOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= QUORUM_MAX ? value : QUORUM_DEFAULT;
}

/** The outcome with `quorum` agreeing votes, or null while none has them. Ties cannot reach a quorum twice: one vote per member. */
export function finalOutcome(votes: readonly { outcome: DecisionOutcome }[], quorum: number): DecisionOutcome | null {
  const counts = new Map<DecisionOutcome, number>();
  for (const v of votes) counts.set(v.outcome, (counts.get(v.outcome) ?? 0) + 1);
  for (const [outcome, n] of counts) if (n >= quorum) return outcome;
  return null;
}

/** How many more agreeing votes the leading outcome needs (the quorum when nobody has voted). */
export function votesStillNeeded(votes: readonly { outcome: DecisionOutcome }[], quorum: number): number {
  const counts = new Map<DecisionOutcome, number>();
  for (const v of votes) counts.set(v.outcome, (counts.get(v.outcome) ?? 0) + 1);
  const best = Math.max(0, ...counts.values());
  return Math.max(0, quorum - best);
}

/** Parses an override reference; null when it is not one. */
export function parseOverrideRef(ref: string): { kind: 'topic' | 'claim'; runId: string } | null {
  const m = /^(topic|claim):([0-9a-f-]{36}):/.exec(ref);
  return m ? { kind: m[1] as 'topic' | 'claim', runId: m[2] } : null;
}
