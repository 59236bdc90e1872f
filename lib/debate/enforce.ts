// What the engine decides itself instead of taking the model's word (docs/protocols.md, "Checks
// that do not take the model's word"), on every provider, once a step's answer has passed its
// schema and rules:
// - FinDebate's safety check: the engine compares the draft's and the leader's stance and
//   horizon outlooks, and keeps the draft when they changed or when the debate round recommended
//   nothing; otherwise it keeps the leader's version. The safety checker's own flags, choice and
//   report are corrected where they disagree, and the correction is recorded on the step.
// - The three-round rubric judge: each argument's weighted score is recomputed from its four
//   criteria (0.30 / 0.30 / 0.25 / 0.15) and each side's total is the average of its arguments'
//   weighted scores, not their sum (a sum favours the side with more arguments).
// Steps are told apart by their output kind and by the roles, acts and teams of their context,
// never by a step id.
import { rubricJudgment as rubricSchema, safetyCheck as safetySchema, stanceDraft as draftSchema, type StepOutput } from '@/lib/domain/outputs';
import type { Language, StepDef } from '@/lib/domain/protocol';
import { sideAverage, weightedScore } from '@/lib/domain/rubric';
import type { StepRepair } from '@/lib/domain/stored';
import { translator } from '@/lib/i18n';
import { enforcementMessages } from '@/lib/i18n/messages/enforcement';

/** A step of the context with its declaration, as the engine holds it. */
export type EnforceContext = { step: StepDef; output: unknown }[];

export type Enforced = { output: unknown; repairs: Omit<StepRepair, 'attempt'>[] };

type Draft = StepOutput<'stanceDraft'>;
type Safety = StepOutput<'safetyCheck'>;
type Judgment = StepOutput<'rubricJudgment'>;

/** The engine's own decision on a step's validated output; the output unchanged when it has none. */
export function enforce(step: StepDef, output: unknown, { context, language }: { context: EnforceContext; language: Language }): Enforced {
  if (step.output === 'safetyCheck') return enforceSafety(output, context, language);
  if (step.output === 'rubricJudgment') return enforceRubric(output, context);
  return { output, repairs: [] };
}

// ---------------------------------------------------------------------------------------------
// FinDebate: the safety check.

/** A horizon's label as written, without case, spacing or punctuation: `12 months` = `12-Months`. */
const labelKey = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

type Outlook = Draft['stance'];
export type HorizonChange = { horizon: string; from: Outlook | null; to: Outlook | null };

/**
 * The horizons whose outlook the final version changed; a horizon dropped or added counts as
 * changed (`null` on the side that lacks it). A confidence that moved is calibration, not a
 * change. Horizons are paired by label, else (when the labels were reworded) by position.
 */
export function horizonChanges(draft: Draft['horizons'], final: Draft['horizons']): HorizonChange[] {
  const byLabel = new Map(final.map((h) => [labelKey(h.horizon), h]));
  const paired = draft.length === final.length && draft.every((h) => byLabel.has(labelKey(h.horizon)));
  const changes: HorizonChange[] = [];
  draft.forEach((h, i) => {
    const other = paired ? byLabel.get(labelKey(h.horizon)) : final[i];
    if (!other || other.outlook !== h.outlook) changes.push({ horizon: h.horizon, from: h.outlook, to: other?.outlook ?? null });
  });
  for (const h of final.slice(draft.length)) changes.push({ horizon: h.horizon, from: null, to: h.outlook });
  return changes;
}

const changeLine = (c: HorizonChange, word: (o: Outlook | null) => string) => `${c.horizon}: ${word(c.from)} → ${word(c.to)}`;

const sameView = (a: Draft, b: Draft) => a.stance === b.stance && horizonChanges(a.horizons, b.horizons).length === 0;

/** How much of a version a report carries: its claims (by id) and its prose. */
function likeness(report: Draft, version: Draft): number {
  const ids = new Set(version.claims.map((c) => c.id));
  return report.claims.filter((c) => ids.has(c.id)).length + (report.text === version.text ? 1 : 0);
}

/**
 * Whether the safety checker's report is the version kept: it carries that version's stance and
 * horizon outlooks, and is no closer to the other version (a report may be tidied — citations
 * deduplicated, a sentence added — but not swapped for the version that was not kept).
 */
function reportsKept(report: Draft, kept: Draft, other: Draft): boolean {
  return sameView(report, kept) && likeness(report, kept) >= likeness(report, other);
}

/**
 * What the engine keeps: the draft when the leader moved its stance or a horizon's outlook, or
 * when the debate turns made no point at all ("no recommendations → keep the draft"); else the
 * leader's version. Undefined when the context lacks the draft or the leader's version.
 */
export function safetyDecision(context: EnforceContext) {
  const draftOf = (role: StepDef['role']) => {
    const found = context.find((c) => c.step.role === role);
    const parsed = found && draftSchema.safeParse(found.output);
    return parsed?.success ? parsed.data : undefined;
  };
  const draft = draftOf('draft-writer');
  const final = draftOf('leader');
  if (!draft || !final) return undefined;
  const debate = context.filter((c) => c.step.act === 'debate');
  const points = debate.reduce((n, c) => n + (((c.output as { claims?: unknown[] } | null)?.claims ?? []).length), 0);
  const noRecommendations = debate.length > 0 && points === 0;
  const stanceChanged = draft.stance !== final.stance;
  const changes = horizonChanges(draft.horizons, final.horizons);
  const horizonsChanged = changes.length > 0;
  const kept: Safety['kept'] = stanceChanged || horizonsChanged || noRecommendations ? 'draft' : 'final';
  return { draft, final, stanceChanged, horizonsChanged, changes, noRecommendations, kept };
}

function enforceSafety(output: unknown, context: EnforceContext, language: Language): Enforced {
  const parsed = safetySchema.safeParse(output);
  const decision = safetyDecision(context);
  if (!parsed.success || !decision) return { output, repairs: [] };
  const answer = parsed.data;
  const { draft, final, stanceChanged, horizonsChanged, changes, noRecommendations, kept } = decision;
  const chosen = kept === 'draft' ? draft : final;
  const decidedAlike = answer.kept === kept && answer.stanceChanged === stanceChanged && answer.horizonsChanged === horizonsChanged;
  // The model's report stands when it is the kept version; otherwise the kept version does.
  const reportAlike = reportsKept(answer.report, chosen, kept === 'draft' ? final : draft);
  if (decidedAlike && reportAlike) return { output, repairs: [] };

  const t = translator(enforcementMessages, language);
  const stance = (s: Outlook | null) => (s ? t(`stance_${s}`) : t('stance_none'));
  const what = [
    stanceChanged ? t('stanceMoved', { from: stance(draft.stance), to: stance(final.stance) }) : '',
    horizonsChanged ? t('horizonsMoved', { changes: changes.map((c) => changeLine(c, stance)).join('; ') }) : '',
  ].filter(Boolean);
  const decided = kept === 'final' ? t('unchangedKeepFinal', { stance: stance(final.stance) }) : what.length ? t('movedKeepDraft', { what: what.join(t('and')) }) : t('nothingRecommended');
  const reason = decidedAlike ? answer.reason : `${t('checkedByEngine')} ${decided}`;
  const corrected: Safety = { ...answer, reason, stanceChanged, horizonsChanged, kept, report: reportAlike ? answer.report : chosen };

  // The record, in English like the engine's other repairs: what the model answered, what stands.
  const said = `the safety checker answered stanceChanged ${answer.stanceChanged}, horizonsChanged ${answer.horizonsChanged}, kept ${answer.kept}${reportAlike ? '' : `, with ${sameView(answer.report, chosen) ? 'the other version' : `a report of stance ${answer.report.stance}`} as the report`}`;
  const why = [
    stanceChanged ? `the leader moved the stance from ${draft.stance} to ${final.stance}` : '',
    horizonsChanged ? `the leader changed horizon outlooks (${changes.map((c) => changeLine(c, (o) => o ?? 'none')).join('; ')})` : '',
    noRecommendations ? 'the trust agent and the skeptic made no point between them (no recommendations)' : '',
  ].filter(Boolean);
  const detail =
    kept === 'draft'
      ? `the draft (stance ${draft.stance}) is kept because ${why.join(', and ')}; ${said}`
      : `the leader's version (stance ${final.stance}) is kept: stance and horizon outlooks are unchanged and the debate made ${noRecommendations ? 'no' : 'its'} points; ${said}`;
  const kind = kept === 'draft' && (answer.kept !== 'draft' || !reportAlike) ? 'draft-restored' : 'safety-corrected';
  return { output: corrected, repairs: [{ kind, detail }] };
}

// ---------------------------------------------------------------------------------------------
// Three-round: the rubric judge's arithmetic.

const differs = (a: number, b: number) => Math.abs(a - b) > 0.005;

function enforceRubric(output: unknown, context: EnforceContext): Enforced {
  const parsed = rubricSchema.safeParse(output);
  if (!parsed.success) return { output, repairs: [] };
  const judgment: Judgment = parsed.data;
  // Whose argument is whose: the team of the round that put it forward.
  const team = new Map<string, StepDef['team']>();
  for (const c of context) {
    if (c.step.output !== 'argumentsRound') continue;
    for (const a of (c.output as { arguments?: { id: string }[] } | null)?.arguments ?? []) team.set(a.id, c.step.team);
  }
  // The side totals first: they are what a reader compares.
  const notes: string[] = [];
  const scoreNotes: string[] = [];
  const scores = judgment.scores.map((s) => {
    const weighted = weightedScore(s);
    if (differs(weighted, s.weighted)) scoreNotes.push(`${s.argumentId} weighted ${s.weighted} → ${weighted}`);
    return { ...s, weighted };
  });
  let overall = judgment.overall;
  if (team.size) {
    const average = (side: StepDef['team']) => sideAverage(scores.filter((s) => team.get(s.argumentId) === side).map((s) => s.weighted));
    const affirmativeTotal = average('affirmative');
    const negativeTotal = average('negative');
    if (differs(affirmativeTotal, overall.affirmativeTotal)) notes.push(`affirmative ${overall.affirmativeTotal} → ${affirmativeTotal} (the average of its weighted scores)`);
    if (differs(negativeTotal, overall.negativeTotal)) notes.push(`negative ${overall.negativeTotal} → ${negativeTotal} (the average of its weighted scores)`);
    overall = { ...overall, affirmativeTotal, negativeTotal };
  }
  notes.push(...scoreNotes);
  if (!notes.length) return { output, repairs: [] };
  const shown = notes.slice(0, 8).join('; ') + (notes.length > 8 ? `; and ${notes.length - 8} more` : '');
  return { output: { ...judgment, scores, overall }, repairs: [{ kind: 'scores-recomputed', detail: `the judge's arithmetic was recomputed: ${shown}` }] };
}
