// The step rules of lib/domain/protocol.ts as the engine checks them, written out for the offline
// analyst's tests: a violation here is a repair and then a failure in a real run.
import { checkStepRules } from '@/lib/debate/rules';
import type { Citation, Claim, Question } from '@/lib/domain/outputs';
import type { StepRun } from './test-fixtures';

const key = (c: Citation) => `${c.evidenceId ?? ''}|${c.source}|${c.date}`;

type Parsed = { text?: string; claims?: Claim[]; questions?: Question[] };

/** Everything a step's output breaks of its rules and of citation grounding; empty when sound. */
export function ruleProblems(run: StepRun, runs: Map<string, StepRun>): string[] {
  const { step, request } = run;
  const out = run.output as Parsed;
  const claims = out.claims ?? [];
  const questions = out.questions ?? [];
  const rules = step.rules ?? {};
  const problems: string[] = [];
  const context = step.context.map((id) => runs.get(id)!.output as Parsed);
  const contextClaims = context.flatMap((o) => o.claims ?? []);
  const contextQuestions = context.flatMap((o) => o.questions ?? []);
  const say = (p: string) => problems.push(`${step.id}: ${p}`);

  // The three-round rules, by the engine's own check (lib/debate/rules.ts): 3–5 arguments with evidence, every argument answered or scored.
  if (rules.argumentCount || rules.coverArguments) {
    const only = {
      ...step,
      maxChars: undefined,
      rules: {
        argumentCount: rules.argumentCount,
        coverArguments: rules.coverArguments,
        citationsRequired: step.output === 'argumentsRound' ? rules.citationsRequired : undefined,
      },
    };
    for (const p of checkStepRules(only, run.output, { context: new Map(step.context.map((id) => [id, runs.get(id)!.output])) })) say(p);
  }
  // A specialist's finding or its explicit "nothing in the material", by the engine's own check.
  if (rules.findingsOrNothing)
    for (const p of checkStepRules({ ...step, maxChars: undefined, rules: { findingsOrNothing: true } }, run.output, { context: new Map() })) say(p);
  if (step.maxChars !== undefined && typeof out.text === 'string' && out.text.length > step.maxChars) say(`text ${out.text.length} > ${step.maxChars}`);
  if (rules.minClaims && claims.length < rules.minClaims) say(`${claims.length} claims < ${rules.minClaims}`);
  if (rules.minFactors && new Set(claims.map((c) => c.factor)).size < rules.minFactors) say('too few factors');
  if (rules.exactQuestions !== undefined && questions.length !== rules.exactQuestions) say(`${questions.length} questions ≠ ${rules.exactQuestions}`);
  if (rules.questionFactors) {
    const factors = new Set(questions.map((q) => contextClaims.find((c) => c.id === q.targetClaimId)?.factor));
    if (factors.size < rules.questionFactors) say(`questions on ${factors.size} factors < ${rules.questionFactors}`);
  }
  if (rules.citationsRequired) for (const c of claims) if (!c.citations.length) say(`${c.id} has no citation`);
  if (rules.polarity) {
    const allowed = rules.polarity === 'adverse-or-context' ? ['adverse', 'context'] : [rules.polarity];
    for (const c of claims) if (!allowed.includes(c.polarity)) say(`${c.id} polarity ${c.polarity}`);
  }
  if (rules.freshFactorsVersus) {
    const used = new Set(rules.freshFactorsVersus.flatMap((id) => ((runs.get(id)!.output as Parsed).claims ?? []).map((c) => c.factor)));
    for (const c of claims) if (used.has(c.factor)) say(`${c.id} reuses factor ${c.factor}`);
  }
  if (rules.noNewMaterial) {
    const factors = new Set(contextClaims.map((c) => c.factor));
    const cited = new Set(contextClaims.flatMap((c) => c.citations.map(key)));
    for (const c of claims) {
      if (!factors.has(c.factor)) say(`${c.id} brings new factor ${c.factor}`);
      for (const ci of c.citations) if (!cited.has(key(ci))) say(`${c.id} brings new evidence ${key(ci)}`);
    }
  }
  // Grounding: every citation names something the step could see.
  const visible = new Set([...request.evidence.map((e) => e.id), ...request.passages.map((p) => p.id)]);
  const citedInContext = new Set(contextClaims.flatMap((c) => c.citations.map(key)));
  for (const c of claims) {
    for (const ci of c.citations) {
      if (!ci.source || !ci.date) say(`${c.id} citation without source or date`);
      const ok = (ci.evidenceId !== undefined && visible.has(ci.evidenceId)) || citedInContext.has(key(ci));
      if (!ok) say(`${c.id} cites ${key(ci)}, which the step could not see`);
    }
  }
  // Links: questions aim at context claims (or a context step); responses at context claims or questions.
  const ids = new Set([...contextClaims.map((c) => c.id), ...contextQuestions.map((q) => q.id), ...step.context]);
  for (const q of questions) if (!ids.has(q.targetClaimId)) say(`${q.id} targets unknown ${q.targetClaimId}`);
  for (const c of claims) if (c.respondsTo && !ids.has(c.respondsTo)) say(`${c.id} responds to unknown ${c.respondsTo}`);
  const claimIds = claims.map((c) => c.id);
  if (new Set(claimIds).size !== claimIds.length) say('duplicate claim ids');
  return problems;
}

export function hangul(text: string): number {
  return (text.match(/[\uac00-\ud7a3]/g) ?? []).length;
}

/** Prose with quotations and parenthesised references removed: what the analyst itself wrote. */
export function ownProse(text: string): string {
  // Innermost parentheses first, then those that held them: a reference nested once goes whole.
  const innermost = /\([^()]*\)/g;
  return text
    .replace(/“[^”]*”/g, '')
    .replace(innermost, '')
    .replace(innermost, '');
}
