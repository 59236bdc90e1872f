// What viewers see of a step while its model writes (docs/architecture.md, "A run"): the raw
// answer goes through an AnswerStream, and only its prose goes out as `token` events, each
// claim, question or citation as a `step-part` once written in full, and the step's spend so far
// as a `step-usage` now and then, so the token counter and the cost grow with the answer. While a
// claim (or another listed part) is being written, its text so far goes out as a
// `step-part-draft` every few dozen characters, so a model that writes its claims before its prose
// is read from its first words; so, as a `step-field`, is any other readable field of the answer
// (a report's objective, a closing's concessions), for answers that write those before the prose.
// One per attempt: a repair starts a fresh one, and so does a wait,
// after which the provider starts its answer again.
import { AnswerStream, type AnswerUpdate } from '@/lib/debate/answer-stream';
import { sourceKeys, withSourceNames } from '@/lib/domain/source-keys';
import type { OutputKind } from '@/lib/domain/outputs';
import type { RunEvent, StepWait, Usage } from '@/lib/domain/protocol';

/** A `step-usage` goes out once the estimate has grown by this many tokens: a few a second at most. */
export const USAGE_EVERY_TOKENS = 32;

/**
 * A part's draft (or a field) goes out when it starts, once it has grown by this many characters
 * since the last one (each carries the text so far, at most MAX_DRAFT_CHARS), and when it is
 * complete: about eight a second at 50 tokens a second, and a claim of 600 characters in some 25 events.
 */
export const DRAFT_EVERY_CHARS = 24;

export type LiveStep = {
  onToken: (raw: string) => void;
  onWait: (wait: StepWait) => void;
  /** The call returned: the rest of the prose, and the spend as it now stands. */
  end: () => void;
};

/** `sources`: the run's source table, so a citation the model wrote with a key shows its source's name. */
export function liveStep(options: { publish: (event: RunEvent) => void; runId: string; stepId: string; kind: OutputKind; spent: () => Usage; sources?: readonly string[] }): LiveStep {
  const { publish, runId, stepId, kind, spent } = options;
  const keys = sourceKeys(options.sources);
  let reader = new AnswerStream(kind);
  let shown: number | null = null;
  /** The last draft sent: its part and length. */
  let drafted: { key: string; length: number } | null = null;
  /** The length of each field as last sent, by name and index. */
  let fields = new Map<string, number>();
  const send = (update: AnswerUpdate) => {
    if (update.prose) publish({ type: 'token', runId, stepId, text: update.prose });
    for (const part of update.parts) publish({ type: 'step-part', runId, stepId, part: withSourceNames(part, keys) });
    // After the prose: a field it takes back goes as its words arrive in the prose.
    for (const { done, ...field } of update.fields) {
      const key = `${field.name}:${field.index}`;
      const last = fields.get(key);
      // Taken back (the prose holds it now): only if it was ever shown.
      if (!field.text && last === undefined) continue;
      const grown = last === undefined ? Infinity : field.text.length - last;
      if (field.text && (grown <= 0 || (grown < DRAFT_EVERY_CHARS && !done))) continue;
      fields.set(key, field.text.length);
      publish({ type: 'step-field', runId, stepId, field });
    }
    const draft = update.draft;
    if (!draft) return;
    const key = `${draft.kind}:${draft.index}`;
    const grown = drafted?.key === key ? draft.text.length - drafted.length : Infinity;
    if (grown <= 0 || (grown < DRAFT_EVERY_CHARS && !draft.done)) return;
    drafted = { key, length: draft.text.length };
    publish({ type: 'step-part-draft', runId, stepId, draft: { kind: draft.kind, index: draft.index, text: draft.text } });
  };
  const usage = (always: boolean) => {
    const s = spent();
    const tokens = s.promptTokens + s.completionTokens;
    if (tokens === 0 || tokens === shown) return;
    if (!always && shown !== null && tokens - shown < USAGE_EVERY_TOKENS) return;
    shown = tokens;
    publish({ type: 'step-usage', runId, stepId, usage: { promptTokens: s.promptTokens, completionTokens: s.completionTokens, costUsd: s.costUsd } });
  };
  return {
    onToken: (raw) => {
      send(reader.push(raw));
      usage(false);
    },
    onWait: (wait) => {
      reader = new AnswerStream(kind);
      drafted = null;
      fields = new Map();
      publish({ type: 'step-waiting', runId, stepId, at: new Date().toISOString(), ...wait });
    },
    end: () => {
      send(reader.finish());
      usage(true);
    },
  };
}
