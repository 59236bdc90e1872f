// The SSE route with a run that executes elsewhere: events arrive through bus.receive (as the
// relay delivers them), and a resync (after the relay lost its connection) sends a new snapshot
// that carries the bus's text at that point among the events.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runBus, type RunSnapshot } from '@/lib/debate/bus';
import type { WireMessage } from '@/lib/report/run-state';

const status = { value: 'running' as string };
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => ({ id: 'u1', role: 'rm', name: 'RM', email: 'rm@example.test' }) }));
vi.mock('@/lib/auth/run-access', () => ({ assertRunAccess: async () => {} }));
vi.mock('@/lib/db/client', () => ({ getDb: async () => ({}) }));
vi.mock('@/lib/db/queries/audit', () => ({ recordRunView: async () => {} }));
vi.mock('@/lib/report/live-state', () => ({
  // The database's part is a stub: the state names the bus text it was given.
  loadLiveState: async ({ runId, live }: { runId: string; live: RunSnapshot }) => ({ runId, status: status.value, live: live.steps.D1?.text ?? null }),
  evidenceForOutput: async ({ output }: { output: { fail?: boolean } }) => {
    if (output.fail) throw new Error('lookup failed');
    return {};
  },
}));

const { GET } = await import('@/app/api/runs/[id]/events/route');
const at = '2026-01-01T00:00:00.000Z';

/** Reads SSE data messages until the stream ends or `count` arrived. */
async function open(runId: string) {
  const response = await GET(new Request(`http://localhost/api/runs/${runId}/events`), { params: Promise.resolve({ id: runId }) });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  const take = async (count: number): Promise<WireMessage[]> => {
    const out: WireMessage[] = [];
    while (out.length < count && !ended) {
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const block of blocks) if (block.startsWith('data: ')) out.push(JSON.parse(block.slice(6)) as WireMessage);
      if (out.length >= count) break;
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffer += value;
    }
    return out;
  };
  return { take, ended: () => ended };
}

describe('run events route with a run executing in another process', () => {
  beforeEach(() => {
    status.value = 'running';
  });

  it('answers a resync with a fresh snapshot in order among the relayed events', async () => {
    const runId = `route-relay-${Math.random()}`;
    const bus = runBus();
    bus.receive({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    const partial = (text: string) => ({ type: 'step-partial' as const, runId, stepId: 'D1', text, output: { text } });
    bus.receive(partial('가나'));
    const stream = await open(runId);
    expect(await stream.take(1)).toEqual([{ type: 'snapshot', state: { runId, status: 'running', live: '가나' } }]);

    bus.receive(partial('가나다'));
    // The relay restored the publisher's state (an answer lost on the way included), then resynced.
    bus.restore(runId, { D1: { status: 'running', text: '가나다라마', output: { text: '가나다라마' } } });
    bus.resync([runId]);
    bus.receive(partial('가나다라마바'));
    status.value = 'succeeded';
    bus.receive({ type: 'run-finished', runId, at, status: 'succeeded' });

    expect(await stream.take(4)).toEqual([
      partial('가나다'),
      { type: 'snapshot', state: { runId, status: 'succeeded', live: '가나다라마' } },
    ]);
    // The fresh snapshot says the run is over: the stream ends there.
    expect(stream.ended()).toBe(true);
  });

  it('ends the stream when an event cannot be sent, so the browser reconnects to a fresh snapshot', async () => {
    const runId = `route-relay-${Math.random()}`;
    const stream = await open(runId);
    await stream.take(1);
    const usage = { promptTokens: 0, completionTokens: 0, costUsd: 0 };
    // The logger writes errors to stderr: one line naming the failure, the run and the cause.
    const quiet = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    runBus().receive({ type: 'step-done', runId, stepId: 'D1', at, text: 'x', output: { fail: true }, usage });
    runBus().receive({ type: 'step-partial', runId, stepId: 'D2', text: 'after', output: { text: 'after' } });
    expect(await stream.take(1)).toEqual([]);
    expect(stream.ended()).toBe(true);
    const lines = quiet.mock.calls.map(([chunk]) => String(chunk));
    expect(lines.filter((l) => l.includes('could not send an event') && l.includes('events') && l.includes(runId) && l.includes('lookup failed'))).toHaveLength(1);
    quiet.mockRestore();
  });
});
