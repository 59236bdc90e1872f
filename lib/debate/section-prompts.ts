// The prompt of one call of a sectioned step (docs/protocols.md, "Sections"): the step's prompt
// (lib/debate/prompts.ts) cut to what this call needs, then what this call writes of the answer.
// A section on some factors is shown the material on them only, and the overview the sections'
// answers instead of the debate: a call that resent the whole debate cost more prompt than a
// shared cached prefix saves.
import { createHash } from 'node:crypto';
import { buildRunHeader, describeJsonShape, languageLine, neutralise, promptParts, type Prompt, type PromptInput } from '@/lib/debate/prompts';
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import type { OutputKind } from '@/lib/domain/outputs';
import { coversFactor, sectionSchema, type SectionCall } from '@/lib/domain/sections';
import { z } from 'zod';

/** The marker of a call in its prompt: `Part governance of step AG` (the benchmark's script matches it). */
export function partMarker(stepId: string, key: string): string {
  return `Part ${key} of step ${stepId}`;
}

/** The JSON Schema of a call's answer (its entries on its own factors), computed once per kind, fields and factors. */
const schemas = new Map<string, Record<string, unknown>>();
export function sectionJsonSchema(kind: OutputKind, fields: readonly string[], factors?: readonly string[]): Record<string, unknown> {
  const key = `${kind}:${fields.join(',')}:${factors?.join(',') ?? ''}`;
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = z.toJSONSchema(sectionSchema(kind, fields, factors)) as Record<string, unknown>));
  return schema;
}

/**
 * What one call is shown of the step's input. A section on some factors gets the evidence items
 * on them and, of each turn, the claims on them and the questions aimed at those claims (no
 * prose: what it writes are topics on its factors); a turn with none of them is left out. A
 * section on no factors (the summaries) gets every turn's claims, without the prose or the
 * questions. The overview gets none of the debate: it writes from what the sections wrote (the
 * topics by their titles, the summaries in full). Only a call that writes citations is
 * offered the web_search tool.
 */
export function sectionInput(input: PromptInput, call: SectionCall): PromptInput {
  if (call.overview) return { ...input, evidence: [], passages: [], context: [], searchTool: false };
  // A call that writes no citation could not use a web result: the engine sends it no tool.
  if (!JSON.stringify(sectionJsonSchema(input.step.output, call.fields)).includes('"citations"')) input = { ...input, searchTool: false };
  // The summaries read the turns' claims, which carry every point each side made and its date,
  // without the speeches around them or the questions put to them.
  if (!call.factors) {
    const context = input.context.flatMap((turn) => {
      const claims = claimsOf(turn.output);
      return claims.length ? [{ ...turn, text: '', output: { claims } }] : [];
    });
    return { ...input, context };
  }
  const factors = call.factors;
  const claims = new Map(input.context.flatMap((t) => claimsOf(t.output)).map((c) => [c.id, c.factor]));
  const context = input.context.flatMap((turn) => {
    const kept = claimsOf(turn.output).filter((c) => coversFactor(factors, c.factor));
    const asked = questionsOf(turn.output).filter((q) => claims.has(q.targetClaimId) && coversFactor(factors, claims.get(q.targetClaimId)));
    return kept.length || asked.length ? [{ ...turn, text: '', output: { claims: kept, questions: asked } }] : [];
  });
  return { ...input, evidence: input.evidence.filter((e) => coversFactor(factors, e.factor)), evidenceOnFactors: factors, context };
}

export function sectionPrompt(input: PromptInput, call: SectionCall, written: readonly { key: string; output: Record<string, unknown> }[] = []): Prompt {
  const step = input.step;
  const parts = promptParts(sectionInput(input, call));
  const lines = [
    `# ${partMarker(step.id, call.key)}`,
    call.overview
      ? 'This answer is written in parts by separate calls. The sections are done; you write the rest of the answer.'
      : 'This answer is written in parts by separate calls at the same time; you write one of them.',
    // Say the evidence items are shown only when the step has an evidence block: KPD-MADS's
    // aggregator has none, and a model told otherwise looks for items it cannot cite.
    call.factors && !call.overview
      ? `You are shown the material on these factors only: ${step.evidence === 'none' ? '' : 'the evidence items on them and, '}of each turn, its claims on them and the questions aimed at those claims.`
      : null,
    call.task,
  ].filter((l): l is string => Boolean(l));
  if (written.length) {
    // An overview that writes no citations reads the sections without theirs: the names would come back in full.
    const cites = JSON.stringify(sectionJsonSchema(step.output, call.fields)).includes('"citations"');
    // The topics come by their titles: the summaries, written over every factor, carry the points.
    const titled = (key: string, output: Record<string, unknown>) =>
      step.sections?.parts.find((p) => p.key === key)?.factors && Array.isArray(output.topics)
        ? { topics: (output.topics as { topic?: unknown; factor?: unknown }[]).map((t) => ({ topic: t.topic, factor: t.factor })) }
        : output;
    const data = (key: string, output: Record<string, unknown>) =>
      JSON.stringify(titled(key, output), (k, value) => (!cites && k === 'citations' ? undefined : value));
    // Fenced as the turns a step receives are: data, never instructions (the prompt's data rule).
    lines.push(
      'What the sections wrote, in order, each as a turn of this step:',
      ...written.map((w) => `<turn step="${step.id}" part="${w.key}">\n${neutralise(data(w.key, w.output))}\n</turn>`),
    );
    // A step that may search tells its overview whether the report rests on the pool alone (NAS's
    // task); the overview reads the topics without their citations, so it is told what they cite.
    if (!cites && step.webSearch) {
      const web = written.some((w) => citationsOf(w.output).some((c) => c.evidenceId?.startsWith('web-')));
      lines.push(web ? 'Some of these topics cite a web result.' : 'No topic of these sections cites a web result.');
    }
  }
  lines.push('Answer with one JSON object of this shape and nothing else:', describeJsonShape(sectionJsonSchema(step.output, call.fields, call.factors)));
  // The step's own part, without the whole answer's shape (this call writes its share) and, for
  // the overview, without the debate, the material and how to cite it (it writes no citation).
  const user = call.overview
    ? [parts.role, parts.task, `# Output\n${languageLine(input.params.language)}`]
    : [
        parts.evidence,
        parts.context,
        parts.passages,
        parts.role,
        parts.task,
        parts.constraints,
        parts.sources,
        `# Output\n${languageLine(input.params.language)}`,
      ];
  return { system: buildRunHeader(input), user: [...user.filter(Boolean), lines.join('\n')].join('\n\n') };
}

/**
 * What identifies one call of a sectioned step: its model and its whole prompt. A call kept as it
 * finished (run_steps.sections) is used again only when this is the same, so a resumed run whose
 * evidence, context or model changed in between asks the call again rather than mix answers.
 */
export function sectionFingerprint(model: string, prompt: Prompt): string {
  return createHash('sha256')
    .update(JSON.stringify(['crosscheck-section-call-v1', model, prompt.system, prompt.user]))
    .digest('hex');
}
