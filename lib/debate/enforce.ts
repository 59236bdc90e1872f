// What the engine decides itself instead of taking the model's word (docs/protocols.md, "Checks
// that do not take the model's word"), on every provider, once a step's answer has passed its
// schema and rules:
// - FinDebate's safety check: the engine compares the draft's and the leader's stance and
//   horizon outlooks, and keeps the draft when they changed or when the debate round recommended
//   nothing; otherwise it keeps the leader's version. The safety checker answers with its decision
//   and its edits (rewordings of the kept version's claims), not a copy of the version: the
//   engine assembles the kept `report` from that version and the edits. Flags and a choice that
//   disagree with the comparison are corrected, and the correction is recorded on the step.
// - The three-round rubric judge: each argument's weighted score is recomputed from its four
//   criteria (0.30 / 0.30 / 0.25 / 0.15) and each side's total is the average of its arguments'
//   weighted scores, not their sum (a sum favours the side with more arguments).
// Steps are told apart by their output kind and by the roles, acts and teams of their context,
// never by a step id.
import {
  horizonCode,
  rubricJudgment as rubricSchema,
  safetyCheck as safetySchema,
  storedStanceDraft as draftSchema,
  type StepOutput,
  type StoredSafetyCheck,
  type StoredStanceDraft,
} from '@/lib/domain/outputs';
import type { Language, StepDef } from '@/lib/domain/protocol';
import { sideAverage, weightedScore } from '@/lib/domain/rubric';
import type { StepRepair } from '@/lib/domain/stored';
import { translator } from '@/lib/i18n';
import { enforcementMessages } from '@/lib/i18n/messages/enforcement';

/** A step of the context with its declaration, as the engine holds it. */
export type EnforceContext = { step: StepDef; output: unknown }[];

export type Enforced = { output: unknown; repairs: Omit<StepRepair, 'attempt'>[] };

// Drafts as stored: an older run's horizons are free-text labels (horizonCode reads them).
type Draft = StoredStanceDraft;
type Answer = StepOutput<'safetyCheck'>;
type Edit = Answer['edits'][number];
type Judgment = StepOutput<'rubricJudgment'>;

/** The engine's own decision on a step's validated output; the output unchanged when it has none. */
export function enforce(step: StepDef, output: unknown, { context, language }: { context: EnforceContext; language: Language }): Enforced {
  if (step.output === 'safetyCheck') return enforceSafety(output, context, language);
  if (step.output === 'rubricJudgment') return enforceRubric(output, context);
  return { output, repairs: [] };
}

// ---------------------------------------------------------------------------------------------
// FinDebate: the safety check.

/**
 * A horizon's key: its code (`12m`; an older run's `12 months` or `12개월` reads as `12m`), else
 * its label without case, spacing or punctuation.
 */
const labelKey = (s: string) =>
  horizonCode(s) ??
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

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

/** One changed horizon: its label (`named`: a code in the reader's words), then the outlook before and after. */
const changeLine = (c: HorizonChange, word: (o: Outlook | null) => string, named: (h: string) => string = (h) => h) =>
  `${named(c.horizon)}: ${word(c.from)} → ${word(c.to)}`;

const citationKey = (c: Draft['claims'][number]['citations'][number]) => c.evidenceId ?? `${c.source}|${c.date}`;

/**
 * The version kept as the report: its claims reworded where the safety checker's edits name them
 * (an edit changes a claim's text only, never its reading or its sources), each claim's citations
 * once. Edits naming no claim of the version, or with no wording, are set aside and returned.
 */
export function keptReport(version: Draft, edits: Edit[]): { report: Draft; setAside: Edit[] } {
  const ids = new Set(version.claims.map((c) => c.id));
  const usable = edits.filter((e) => ids.has(e.claimId) && e.wording.trim());
  const reworded = new Map(usable.map((e) => [e.claimId, e.wording.trim()]));
  const claims = version.claims.map((c) => ({
    ...c,
    text: reworded.get(c.id) ?? c.text,
    citations: c.citations.filter((x, i, all) => all.findIndex((y) => citationKey(y) === citationKey(x)) === i),
  }));
  return { report: { ...version, claims }, setAside: edits.filter((e) => !usable.includes(e)) };
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
  const points = debate.reduce((n, c) => n + ((c.output as { claims?: unknown[] } | null)?.claims ?? []).length, 0);
  const noRecommendations = debate.length > 0 && points === 0;
  const stanceChanged = draft.stance !== final.stance;
  const changes = horizonChanges(draft.horizons, final.horizons);
  const horizonsChanged = changes.length > 0;
  const kept: Answer['kept'] = stanceChanged || horizonsChanged || noRecommendations ? 'draft' : 'final';
  return { draft, final, stanceChanged, horizonsChanged, changes, noRecommendations, kept };
}

/** The answer without its edits: they are applied to the stored `report`, not kept beside it. */
const decisionOf = ({ edits: _edits, ...decision }: Answer) => decision;

function enforceSafety(output: unknown, context: EnforceContext, language: Language): Enforced {
  const parsed = safetySchema.safeParse(output);
  const decision = safetyDecision(context);
  if (!parsed.success || !decision) return { output, repairs: [] };
  const answer = parsed.data;
  const { draft, final, stanceChanged, horizonsChanged, changes, noRecommendations, kept } = decision;
  const chosen = kept === 'draft' ? draft : final;
  const decidedAlike = answer.kept === kept && answer.stanceChanged === stanceChanged && answer.horizonsChanged === horizonsChanged;
  // Edits reword the version the model chose: when the engine keeps the other one, none applies.
  const { report, setAside } = keptReport(chosen, answer.kept === kept ? answer.edits : []);
  const ignored = answer.kept === kept ? setAside : answer.edits;
  const setAsideNote = ignored.length
    ? `${ignored.length} edit${ignored.length === 1 ? '' : 's'} set aside (${ignored.map((e) => e.claimId || '(no id)').join(', ')}): ${answer.kept === kept ? 'no claim of the kept version has that id, or the edit has no wording' : 'they reword the version that is not kept'}`
    : '';
  if (decidedAlike) {
    const stored: StoredSafetyCheck = { ...decisionOf(answer), report };
    return { output: stored, repairs: setAsideNote ? [{ kind: 'safety-corrected', detail: setAsideNote }] : [] };
  }

  const t = translator(enforcementMessages, language);
  const stance = (s: Outlook | null) => (s ? t(`stance_${s}`) : t('stance_none'));
  const horizon = (h: string) => {
    const code = horizonCode(h);
    return code ? t(`horizon_${code}`) : h;
  };
  const what = [
    stanceChanged ? t('stanceMoved', { from: stance(draft.stance), to: stance(final.stance) }) : '',
    horizonsChanged ? t('horizonsMoved', { changes: changes.map((c) => changeLine(c, stance, horizon)).join('; ') }) : '',
  ].filter(Boolean);
  const decided =
    kept === 'final'
      ? t('unchangedKeepFinal', { stance: stance(final.stance) })
      : what.length
        ? t('movedKeepDraft', { what: what.join(t('and')) })
        : t('nothingRecommended');
  const corrected: StoredSafetyCheck = { ...decisionOf(answer), reason: `${t('checkedByEngine')} ${decided}`, stanceChanged, horizonsChanged, kept, report };

  // The record, in English like the engine's other repairs: what the model answered, what stands.
  const said = `the safety checker answered stanceChanged ${answer.stanceChanged}, horizonsChanged ${answer.horizonsChanged}, kept ${answer.kept}`;
  const why = [
    stanceChanged ? `the leader moved the stance from ${draft.stance} to ${final.stance}` : '',
    horizonsChanged ? `the leader changed horizon outlooks (${changes.map((c) => changeLine(c, (o) => o ?? 'none')).join('; ')})` : '',
    noRecommendations ? 'the trust agent and the skeptic made no point between them (no recommendations)' : '',
  ].filter(Boolean);
  const detail =
    (kept === 'draft'
      ? `the draft (stance ${draft.stance}) is kept because ${why.join(', and ')}; ${said}`
      : `the leader's version (stance ${final.stance}) is kept: stance and horizon outlooks are unchanged and the debate made ${noRecommendations ? 'no' : 'its'} points; ${said}`) +
    (setAsideNote ? `; ${setAsideNote}` : '');
  const kind = kept === 'draft' && answer.kept !== 'draft' ? 'draft-restored' : 'safety-corrected';
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
    if (differs(affirmativeTotal, overall.affirmativeTotal))
      notes.push(`affirmative ${overall.affirmativeTotal} → ${affirmativeTotal} (the average of its weighted scores)`);
    if (differs(negativeTotal, overall.negativeTotal)) notes.push(`negative ${overall.negativeTotal} → ${negativeTotal} (the average of its weighted scores)`);
    overall = { ...overall, affirmativeTotal, negativeTotal };
  }
  notes.push(...scoreNotes);
  if (!notes.length) return { output, repairs: [] };
  const shown = notes.slice(0, 8).join('; ') + (notes.length > 8 ? `; and ${notes.length - 8} more` : '');
  return { output: { ...judgment, scores, overall }, repairs: [{ kind: 'scores-recomputed', detail: `the judge's arithmetic was recomputed: ${shown}` }] };
}
