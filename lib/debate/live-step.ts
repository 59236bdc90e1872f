// What viewers see of a step while its model writes (docs/architecture.md, "A run"): the raw
// answer so far, read as far as it goes by partial-json, goes out as one `step-partial` (the
// object so far and its prose) at most every PARTIAL_EVERY_MS and once more when the call
// returns, and the step's spend so far as a `step-usage` now and then, so the token counter and
// the cost grow with the answer. A viewer renders the partial object as it renders a finished
// turn. One per attempt: a repair starts a fresh one, and so does a wait, after which the
// provider starts its answer again.
import { Allow, parse } from 'partial-json';
import { sourceKeys, withSourceNames } from '@/lib/domain/source-keys';
import { proseSoFar, type OutputKind } from '@/lib/domain/outputs';
import type { RunEvent, StepWait, Usage } from '@/lib/domain/protocol';

/** A `step-usage` goes out once the estimate has grown by this many tokens: a few a second at most. */
export const USAGE_EVERY_TOKENS = 32;

/** A `step-partial` goes out at most this often per step (each carries the whole answer so far), and always when a call returns. */
export const PARTIAL_EVERY_MS = 150;

/**
 * The answer written so far as an object: read from its first `{` (past a ```json fence or a
 * sentence before it), with the string, list or object being written cut where it stands. Null
 * before the object starts or when the text cannot be read as JSON.
 */
export function partialAnswer(raw: string): Record<string, unknown> | null {
  const start = raw.indexOf('{');
  if (start < 0) return null;
  try {
    const value: unknown = parse(raw.slice(start), Allow.ALL);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export type LiveStep = {
  onToken: (raw: string) => void;
  onWait: (wait: StepWait) => void;
  /** The call returned: the answer as it ends, and the spend as it now stands. */
  end: () => void;
};

/**
 * `sources`: the run's source table, so a citation the model wrote with a key shows its source's
 * name. `now`: the clock the partials are spaced by (tests pass their own).
 */
export function liveStep(options: {
  publish: (event: RunEvent) => void;
  runId: string;
  stepId: string;
  kind: OutputKind;
  spent: () => Usage;
  sources?: readonly string[];
  now?: () => number;
}): LiveStep {
  const { publish, runId, stepId, kind, spent, now = Date.now } = options;
  const keys = sourceKeys(options.sources);
  let raw = '';
  let sentAt = -Infinity;
  let sentLength = 0;
  // The last partial sent, as JSON: one that adds nothing (an empty object, a key half written) is
  // not sent and does not hold back the next.
  let sent = '{}';
  let shown: number | null = null;
  const partial = () => {
    sentLength = raw.length;
    const read = partialAnswer(raw);
    const json = read ? JSON.stringify(read) : sent;
    if (!read || json === sent) return;
    sent = json;
    sentAt = now();
    const output = withSourceNames(read, keys);
    publish({ type: 'step-partial', runId, stepId, text: proseSoFar(kind, output), output });
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
    onToken: (chunk) => {
      raw += chunk;
      if (now() - sentAt >= PARTIAL_EVERY_MS) partial();
      usage(false);
    },
    onWait: (wait) => {
      raw = '';
      sentAt = -Infinity;
      sentLength = 0;
      sent = '{}';
      publish({ type: 'step-waiting', runId, stepId, at: new Date().toISOString(), ...wait });
    },
    end: () => {
      if (raw.length !== sentLength) partial();
      usage(true);
    },
  };
}
