// A viewer of one run's event stream outside a browser: reads /api/runs/<id>/events with a
// session cookie, as EventSource would, and keeps every message in arrival order.
import type { WireMessage } from '../../lib/report/run-state';

export type Viewer = {
  messages: WireMessage[];
  /** Arrival time (ms since epoch) of each message, same index as `messages`. */
  arrivals: number[];
  /** Resolves when the server ends the stream (after run-finished) or it is closed. */
  done: Promise<void>;
  close: () => void;
};

export function watchRun(baseUrl: string, runId: string, cookie: string): Viewer {
  const controller = new AbortController();
  const messages: WireMessage[] = [];
  const arrivals: number[] = [];
  const done = (async () => {
    const response = await fetch(`${baseUrl}/api/runs/${runId}/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`events of ${runId}: HTTP ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) {
            messages.push(JSON.parse(data) as WireMessage);
            arrivals.push(Date.now());
          }
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  return { messages, arrivals, done, close: () => controller.abort() };
}

/**
 * Replays a viewer's messages as the page would: per step, the text so far from the snapshot,
 * then each partial answer's prose in its place; a new attempt of a step, or a wait (after which
 * the provider starts its answer again), starts its text again. Returns, per step, the streamed
 * text at the moment its step-done arrived and the step-done text itself.
 */
export function replayPartials(messages: WireMessage[]) {
  const text = new Map<string, string>();
  const finished: { stepId: string; streamed: string; final: string }[] = [];
  for (const m of messages) {
    if (m.type === 'snapshot') {
      for (const turn of m.state.turns) text.set(turn.step, turn.text);
    } else if (m.type === 'step-started' || m.type === 'step-waiting') text.set(m.stepId, '');
    else if (m.type === 'step-partial') text.set(m.stepId, m.text);
    else if (m.type === 'step-done') finished.push({ stepId: m.stepId, streamed: text.get(m.stepId) ?? '', final: m.text });
  }
  return finished;
}
