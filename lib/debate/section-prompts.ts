// The prompt of one call of a sectioned step (docs/protocols.md, "Sections"): the step's own
// prompt (lib/debate/prompts.ts), unchanged, then what this call writes of the answer. Every
// call of the step shares the step's prompt as its start, so a provider's prompt cache serves
// them all; only the last block differs.
import { createHash } from 'node:crypto';
import { describeJsonShape, neutralise, type Prompt } from '@/lib/debate/prompts';
import type { OutputKind } from '@/lib/domain/outputs';
import { sectionSchema, type SectionCall } from '@/lib/domain/sections';
import { z } from 'zod';

/** The marker of a call in its prompt: `Part governance of step AG` (the benchmark's script matches it). */
export function partMarker(stepId: string, key: string): string {
  return `Part ${key} of step ${stepId}`;
}

/** The JSON Schema of a call's answer, computed once per kind and fields. */
const schemas = new Map<string, Record<string, unknown>>();
export function sectionJsonSchema(kind: OutputKind, fields: readonly string[]): Record<string, unknown> {
  const key = `${kind}:${fields.join(',')}`;
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = z.toJSONSchema(sectionSchema(kind, fields)) as Record<string, unknown>));
  return schema;
}

export function sectionPrompt(
  step: { id: string; output: OutputKind },
  whole: Prompt,
  call: SectionCall,
  written: readonly { key: string; output: Record<string, unknown> }[] = [],
): Prompt {
  const lines = [
    `# ${partMarker(step.id, call.key)}`,
    call.overview
      ? 'This answer is written in parts by separate calls. The sections are done; you write the rest of the answer.'
      : 'This answer is written in parts by separate calls at the same time; you write one of them.',
    call.task,
  ];
  if (written.length) {
    // An overview that writes no citations reads the sections without theirs: what they cite is
    // in the turns above, by key (lib/debate/source-keys.ts), and the names would come back in full.
    const cites = JSON.stringify(sectionJsonSchema(step.output, call.fields)).includes('"citations"');
    const data = (output: Record<string, unknown>) => JSON.stringify(output, (key, value) => (!cites && key === 'citations' ? undefined : value));
    // Fenced as the turns a step receives are: data, never instructions (the prompt's data rule).
    lines.push(
      'What the sections wrote, in order, each as a turn of this step:',
      ...written.map((w) => `<turn step="${step.id}" part="${w.key}">\n${neutralise(data(w.output))}\n</turn>`),
    );
  }
  lines.push(
    'Answer with one JSON object of this shape and nothing else (it takes the place of the whole shape above):',
    describeJsonShape(sectionJsonSchema(step.output, call.fields)),
  );
  return { system: whole.system, user: `${whole.user}\n\n${lines.join('\n')}` };
}

/**
 * What identifies one call of a sectioned step: its model and its whole prompt. A call kept as it
 * finished (run_steps.sections) is used again only when this is the same, so a resumed run whose
 * evidence, context or model changed in between asks the call again rather than mix answers.
 */
export function sectionFingerprint(model: string, prompt: Prompt): string {
  return createHash('sha256').update(JSON.stringify(['crosscheck-section-call-v1', model, prompt.system, prompt.user])).digest('hex');
}
