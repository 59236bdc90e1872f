// The hard rules of a step (StepDef.rules, maxChars), checked on its validated output. A
// violation is treated like invalid JSON: one repair attempt with the problems listed, then a
// clear step failure.
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import type { Claim } from '@/lib/domain/outputs';
import type { StepDef, StepRules } from '@/lib/domain/protocol';

type Shaped = { text?: string };

export type RuleContext = {
  /** Outputs of the step's declared context steps, by step id. */
  context: Map<string, unknown>;
  /**
   * Distinct factors among the evidence the step may see. A thin pool (one filing for a
   * distressed borrower) cannot carry three signals on three factors; the minimums shrink
   * to what the evidence allows rather than forcing the agent to invent support.
   */
  availableFactors?: Set<string>;
};

export function checkStepRules(step: StepDef, output: unknown, { context, availableFactors }: RuleContext): string[] {
  const problems: string[] = [];
  const cap = (n: number | undefined) => (n === undefined || availableFactors === undefined ? n : Math.min(n, availableFactors.size));
  const rules: StepRules = { ...step.rules, minClaims: cap(step.rules?.minClaims), minFactors: cap(step.rules?.minFactors) };
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
  if (rules.polarity) {
    const allowed = rules.polarity === 'adverse-or-context' ? ['adverse', 'context'] : [rules.polarity];
    const off = claims.filter((c) => !allowed.includes(c.polarity)).map((c) => c.id);
    if (off.length) problems.push(`claims must read ${allowed.join(' or ')}; these do not: ${off.join(', ')}.`);
  }

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
    if (factors.size < rules.questionFactors) problems.push(`questions must address at least ${rules.questionFactors} of the examined turn's factors; got ${factors.size}.`);
  }
  if (rules.freshFactorsVersus?.length) {
    const used = new Set(rules.freshFactorsVersus.flatMap((id) => claimsOf(context.get(id)).map((c) => c.factor)));
    const reused = claims.filter((c) => used.has(c.factor) && c.factor !== 'other');
    // Reuse is a problem only while the pool still offers a factor the step has not used.
    const mine = new Set(claims.map((c) => c.factor));
    const fresh = availableFactors ? [...availableFactors].filter((f) => !used.has(f) && !mine.has(f)) : ['(unknown)'];
    if (reused.length && fresh.length) {
      problems.push(`use factors the opposing constructive did not; reused: ${reused.map((c) => `${c.id} (${c.factor})`).join(', ')}.`);
    }
  }
  if (rules.noNewMaterial) {
    const factors = new Set([...contextClaims.values()].map((c) => c.factor));
    const evidence = new Set([...context.values()].flatMap((out) => citationsOf(out).map((c) => c.evidenceId).filter(Boolean)));
    const newFactors = claims.filter((c) => !factors.has(c.factor)).map((c) => c.factor);
    const newEvidence = citationsOf(output)
      .map((c) => c.evidenceId)
      .filter((id): id is string => Boolean(id) && !evidence.has(id!));
    if (newFactors.length) problems.push(`a closing brings no new factors; new: ${[...new Set(newFactors)].join(', ')}.`);
    if (newEvidence.length) problems.push(`a closing brings no new evidence; new: ${[...new Set(newEvidence)].join(', ')}.`);
  }
  return problems;
}
