// The hard rules of a step (StepDef.rules, maxChars), checked on its validated output. A
// violation is treated like invalid JSON: one repair attempt with the problems listed, then a
// clear step failure.
import { citationListsOf, citationsOf, claimsOf, isCitation, questionsOf } from '@/lib/domain/output-parts';
import type { Citation, Claim } from '@/lib/domain/outputs';
import type { StepDef, StepRules } from '@/lib/domain/protocol';

type Shaped = { text?: string };

/**
 * The direction a step argues: its polarity rule, else, for numbered arguments (three-round
 * round 1), its team's side.
 */
function directionOf(step: Pick<StepDef, 'rules' | 'team'>): StepRules['polarity'] {
  return (
    step.rules?.polarity ??
    (step.rules?.argumentCount ? ({ affirmative: 'favorable', negative: 'adverse-or-context', neutral: undefined } as const)[step.team] : undefined)
  );
}

/**
 * The factors the evidence a step sees offers in the direction it argues, one signal each (an
 * item read the other way is not one); undefined for a step that sees no evidence block. The
 * minimums of its rules shrink to this count: the prompt states the shrunk number and the check
 * applies the same one (lib/debate/prompts.ts, constraintsSection).
 */
export function signalFactors(
  step: Pick<StepDef, 'rules' | 'team' | 'evidence'>,
  visible: readonly { factor: string | null; polarity: string | null }[],
): Set<string> | undefined {
  if (step.evidence === 'none') return undefined;
  const direction = directionOf(step);
  const readable = (e: { polarity: string | null }) =>
    direction === 'favorable' ? e.polarity !== 'adverse' : direction === 'adverse-or-context' ? e.polarity !== 'favorable' : true;
  return new Set(visible.filter(readable).map((e) => e.factor ?? 'other'));
}

/**
 * A step's minimum counts (claims, factors, numbered arguments) for the signals it can draw on,
 * what both the prompt and the check hold it to: a thin pool cannot carry three signals on three
 * factors, so the minimums shrink to what the evidence allows rather than force an invention.
 */
export function minimumsFor(
  rules: StepRules | undefined,
  signals: number | undefined,
): Pick<StepRules, 'minClaims' | 'minFactors'> & { minArguments?: number } {
  const cap = (n: number | undefined) => (n === undefined || signals === undefined ? n : Math.min(n, signals));
  return { minClaims: cap(rules?.minClaims), minFactors: cap(rules?.minFactors), minArguments: cap(rules?.argumentCount?.min) };
}

/** A claim that cites red-flag items only: a reading of a decisive event, never favorable whatever side makes it. */
export function onRedFlag(claim: Pick<Claim, 'citations'>, redFlagIds: ReadonlySet<string> | undefined): boolean {
  return Boolean(redFlagIds?.size) && claim.citations.length > 0 && claim.citations.every((c) => Boolean(c.evidenceId) && redFlagIds!.has(c.evidenceId!));
}

export type RuleContext = {
  /** Outputs of the step's declared context steps, by step id. */
  context: Map<string, unknown>;
  /**
   * Distinct factors among the evidence the step may see. A thin pool (one filing for a
   * distressed borrower) cannot carry three signals on three factors; the minimums shrink
   * to what the evidence allows rather than forcing the agent to invent support.
   */
  availableFactors?: Set<string>;
  /**
   * Set when the step can search the web (a search provider is configured and the provider
   * searches; the offline analyst never does): the searches it made for this answer and the new
   * web results they brought. A step with `searchBelowSignals` whose evidence offers fewer
   * signals than that must search (KPD-MADS, as published), and its minimums then shrink only to
   * the pool's factors plus those results; without search the minimums shrink to the pool's.
   */
  webSearch?: { searches: number; results: number };
  /**
   * The evidence ids of the run's red flags (every prompt's header names them). A claim citing
   * only these reads a decisive event: it must read adverse or context, even in a step that
   * argues the favorable side (a favorable opening may address the flag, never read it well).
   */
  redFlagIds?: ReadonlySet<string>;
};

export function checkStepRules(step: StepDef, output: unknown, { context, availableFactors, webSearch, redFlagIds }: RuleContext): string[] {
  const problems: string[] = [];
  // Signals the step can draw on in its direction: one per factor of its evidence, plus, for a
  // step that searched, one per web result it found (untagged: each may carry a factor).
  const signals = availableFactors === undefined ? undefined : availableFactors.size + (webSearch?.results ?? 0);
  const searchBelow = step.rules?.searchBelowSignals;
  if (searchBelow !== undefined && webSearch && availableFactors !== undefined && availableFactors.size < searchBelow && webSearch.searches === 0) {
    problems.push(
      `the evidence you were shown offers ${availableFactors.size} signal${availableFactors.size === 1 ? '' : 's'} in your direction, fewer than ${searchBelow}: search the web for more before you answer, and cite what you find.`,
    );
  }
  const minimums = minimumsFor(step.rules, signals);
  const rules: StepRules = { ...step.rules, minClaims: minimums.minClaims, minFactors: minimums.minFactors };
  if (step.rules?.argumentCount) rules.argumentCount = { ...step.rules.argumentCount, min: minimums.minArguments! };
  const text = (output as Shaped).text;
  const claims = claimsOf(output);
  const questions = questionsOf(output);

  if (step.maxChars && typeof text === 'string' && text.length > step.maxChars) {
    problems.push(`text is ${text.length} characters; the limit is ${step.maxChars}.`);
  }
  if (rules.minClaims && claims.length < rules.minClaims) problems.push(`needs at least ${rules.minClaims} claims; got ${claims.length}.`);
  if (rules.minFactors) {
    const factors = new Set(claims.map((c) => c.factor));
    if (factors.size < rules.minFactors) problems.push(`claims must cover at least ${rules.minFactors} distinct factors; got ${factors.size}.`);
  }
  if (rules.citationsRequired) {
    // A citation dated after the as-of date (flagged by resolveCitations in lib/debate/checks.ts) supports nothing.
    const bare = claims.filter((c) => !c.citations.some((ci) => !(ci as { afterAsOf?: boolean }).afterAsOf)).map((c) => c.id);
    if (bare.length) problems.push(`every claim needs a citation dated on or before the as-of date; these have none: ${bare.join(', ')}.`);
  }
  if (rules.findingsOrNothing) problems.push(...findingsOrNothingProblems(output, claims));
  if (rules.polarity) {
    const allowed = rules.polarity === 'adverse-or-context' ? ['adverse', 'context'] : [rules.polarity];
    const off = claims.filter((c) => !onRedFlag(c, redFlagIds) && !allowed.includes(c.polarity)).map((c) => c.id);
    if (off.length) problems.push(`claims must read ${allowed.join(' or ')}; these do not: ${off.join(', ')}.`);
    const flagReadWell = claims.filter((c) => onRedFlag(c, redFlagIds) && c.polarity === 'favorable').map((c) => c.id);
    if (flagReadWell.length) problems.push(`a claim on a red flag reads adverse or context, never favorable; these do not: ${flagReadWell.join(', ')}.`);
  }

  problems.push(...argumentProblems(rules, output, context));

  const contextClaims = new Map<string, Claim>();
  for (const out of context.values()) for (const c of claimsOf(out)) contextClaims.set(c.id, c);

  if (rules.exactQuestions !== undefined && questions.length !== rules.exactQuestions) {
    problems.push(`needs exactly ${rules.exactQuestions} questions; got ${questions.length}.`);
  }
  if (questions.length) {
    // A question may also take on a whole turn (by its step id), e.g. one that made no claim.
    const unknown = questions.filter((q) => !contextClaims.has(q.targetClaimId) && !context.has(q.targetClaimId)).map((q) => q.id);
    if (unknown.length) problems.push(`questions must target claims of the turn under examination; these do not: ${unknown.join(', ')}.`);
  }
  if (rules.questionFactors) {
    const examined = new Set([...contextClaims.values()].map((c) => c.factor));
    const factors = new Set(questions.map((q) => contextClaims.get(q.targetClaimId)?.factor).filter(Boolean));
    // Questions cannot spread over more factors than the examined turn used.
    rules.questionFactors = Math.min(rules.questionFactors, examined.size);
    if (factors.size < rules.questionFactors)
      problems.push(`questions must address at least ${rules.questionFactors} of the examined turn's factors; got ${factors.size}.`);
  }
  if (rules.freshFactorsVersus?.length) {
    const used = new Set(rules.freshFactorsVersus.flatMap((id) => claimsOf(context.get(id)).map((c) => c.factor)));
    // `other` is open to both sides, and a red flag may be argued whatever factor it carries.
    const reused = claims.filter((c) => used.has(c.factor) && c.factor !== 'other' && !onRedFlag(c, redFlagIds));
    // Reuse is a problem only while the pool still offers a factor the step has not used.
    const mine = new Set(claims.map((c) => c.factor));
    const fresh = availableFactors ? [...availableFactors].filter((f) => !used.has(f) && !mine.has(f)) : ['(unknown)'];
    if (reused.length && fresh.length) {
      problems.push(`use factors the opposing constructive did not; reused: ${reused.map((c) => `${c.id} (${c.factor})`).join(', ')}.`);
    }
  }
  if (rules.noNewMaterial) {
    const factors = new Set([...contextClaims.values()].map((c) => c.factor));
    const evidence = citableInClosing(context, redFlagIds);
    // A red flag is shown to every step: a closing may read it whatever its factor.
    const newFactors = claims.filter((c) => !factors.has(c.factor) && !onRedFlag(c, redFlagIds)).map((c) => c.factor);
    const newEvidence = citationsOf(output)
      .map((c) => c.evidenceId)
      .filter((id): id is string => Boolean(id) && !evidence.has(id!));
    if (newFactors.length) problems.push(`a closing brings no new factors; new: ${[...new Set(newFactors)].join(', ')}.`);
    if (newEvidence.length) problems.push(`a closing brings no new evidence; new: ${[...new Set(newEvidence)].join(', ')}.`);
  }
  return problems;
}

/**
 * A specialist's briefing holds a finding or says, in its `nothingInMaterial` field, that the
 * material has nothing on its topic; never neither, never both. A finding is a claim citing what
 * the step was shown (resolveCitations marks a citation that matches nothing `verified: false`)
 * dated on or before the as-of date: with no material, an invented citation cannot pass, and the
 * explicit "nothing" is the one answer that does.
 */
function findingsOrNothingProblems(output: unknown, claims: Claim[]): string[] {
  const nothing = (output as { nothingInMaterial?: unknown } | null)?.nothingInMaterial === true;
  if (nothing) {
    return claims.length
      ? [
          `nothingInMaterial is true but the answer has ${claims.length} claim${claims.length === 1 ? '' : 's'}: either keep the findings and set nothingInMaterial to false, or drop the claims.`,
        ]
      : [];
  }
  type Checked = Citation & { verified?: boolean; afterAsOf?: boolean };
  const found = claims.some((c) => c.citations.some((ci) => (ci as Checked).verified !== false && !(ci as Checked).afterAsOf));
  if (found) return [];
  return [
    'the briefing has no finding: give at least one claim citing an item or passage you were shown, dated on or before the as-of date; if the material holds nothing on your topic, set nothingInMaterial to true, leave claims empty and say so in text.',
  ];
}

/**
 * What a closing may cite: the evidence the turns it receives cite (their claims, and the items
 * their questions point to), and the run's red flags, which every prompt's header shows.
 */
export function citableInClosing(context: Map<string, unknown>, redFlagIds?: ReadonlySet<string>): Set<string> {
  return new Set([...[...context.values()].flatMap((out) => citationsOf(out).flatMap((c) => (c.evidenceId ? [c.evidenceId] : []))), ...(redFlagIds ?? [])]);
}

/**
 * Takes out of a step with no new material (a closing) every citation of evidence its context
 * did not cite, in place, and returns what it took out. The engine does this only when the
 * model's repair still brought new evidence (docs/protocols.md, "Taking answers in"): the rule
 * then holds in what is kept, the run goes on, and a reviewer sees each citation dropped.
 */
export function dropNewEvidence(step: StepDef, output: unknown, context: Map<string, unknown>, redFlagIds?: ReadonlySet<string>): Citation[] {
  if (!step.rules?.noNewMaterial) return [];
  const evidence = citableInClosing(context, redFlagIds);
  const dropped: Citation[] = [];
  for (const list of citationListsOf(output)) {
    const kept = list.filter((c) => !(isCitation(c) && c.evidenceId && !evidence.has(c.evidenceId)));
    if (kept.length === list.length) continue;
    dropped.push(...(list.filter((c) => !kept.includes(c)) as Citation[]));
    list.splice(0, list.length, ...kept);
  }
  return dropped;
}

type Argument = { id?: unknown; evidence?: { afterAsOf?: boolean }[] };
type Shapes = { arguments?: Argument[]; responses?: { targetId?: unknown }[]; scores?: { argumentId?: unknown }[] };

/**
 * The three-round debate's rules (docs/protocols.md): round 1 gives 3–5 arguments, each citing
 * evidence; round 2 answers every argument of the other side; the judge scores every argument.
 */
function argumentProblems(rules: StepRules, output: unknown, context: Map<string, unknown>): string[] {
  const problems: string[] = [];
  const shaped = (output ?? {}) as Shapes;
  const args = Array.isArray(shaped.arguments) ? shaped.arguments : undefined;
  if (args && rules.argumentCount) {
    const { min, max } = rules.argumentCount;
    if (args.length < min || args.length > max) {
      problems.push(`give ${min === max ? min : `${min} to ${max}`} numbered arguments; got ${args.length}.`);
    }
  }
  if (args && rules.citationsRequired) {
    // As for claims, a citation dated after the as-of date supports nothing.
    const bare = args.filter((a) => !(a.evidence ?? []).some((c) => !c.afterAsOf)).map((a, i) => String(a.id ?? `#${i + 1}`));
    if (bare.length) problems.push(`every argument needs evidence dated on or before the as-of date; these have none: ${bare.join(', ')}.`);
  }
  if (rules.coverArguments?.length) {
    const expected = rules.coverArguments.flatMap((id) => ((context.get(id) as Shapes | undefined)?.arguments ?? []).map((a) => String(a.id)));
    const taken = Array.isArray(shaped.responses)
      ? { list: shaped.responses.map((r) => String(r.targetId)), verb: 'answered', noun: 'responses' }
      : Array.isArray(shaped.scores)
        ? { list: shaped.scores.map((r) => String(r.argumentId)), verb: 'scored', noun: 'scores' }
        : undefined;
    if (taken) {
      const missing = expected.filter((id) => !taken.list.includes(id));
      if (missing.length) problems.push(`every argument of ${rules.coverArguments.join(' and ')} must be ${taken.verb}; these are not: ${missing.join(', ')}.`);
      const known = new Set(expected);
      const stray = [...new Set(taken.list.filter((id) => !known.has(id)))];
      if (stray.length) problems.push(`${taken.noun} must name arguments of ${rules.coverArguments.join(' and ')}; these do not: ${stray.join(', ')}.`);
    }
  }
  return problems;
}
