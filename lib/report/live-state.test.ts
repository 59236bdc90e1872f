// The server and the browser build a run's live state with one reducer (reduceRun): a viewer
// who arrives mid-run gets a snapshot (the database's view with the log's live part reduced onto
// it, lib/report/live-state.ts) and then reduces the log's later events as the browser does. So
// a snapshot taken at any later point, or at the end, must be what that viewer holds by then.
// A real run (the offline analyst, its answers streamed in chunks, a wait, steps running at
// once) is paused at points where its log stands still, to compare the two there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { runEventSeq } from '@/lib/db/queries/run-events';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import type { LoggedEvent } from '@/lib/debate/event-log';
import { LogTail } from '@/lib/debate/log-tail';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';
import { evidenceForOutput, loadLiveState } from '@/lib/report/live-state';
import { reduceRun, type LiveRunState, type WireMessage } from '@/lib/report/run-state';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The offline analyst's answers streamed in chunks a little apart, every stream holding still
 * while paused; a call that `waits` says it waits for quota first, until `endWaits`.
 */
function chunked(waits: (req: GenerateRequest) => boolean) {
  const inner = createOfflineAnalyst();
  let open: Promise<void> = Promise.resolve();
  let reopen = () => {};
  let endWaits = () => {};
  const waited = new Promise<void>((r) => (endWaits = r));
  const calls: string[] = [];
  const provider: ModelProvider = {
    name: inner.name,
    model: inner.model,
    isLLM: inner.isLLM,
    async generate(req) {
      const result = await inner.generate({ ...req, onToken: () => {} });
      calls.push(req.step.id);
      if (waits(req)) {
        req.onWait?.({ reason: 'provider-limit', until: new Date(Date.now() + 1_000).toISOString() });
        await waited;
      }
      const size = Math.ceil(result.raw.length / 8);
      for (let i = 0; i < result.raw.length; i += size) {
        await open;
        req.onToken(result.raw.slice(i, i + size));
        await sleep(40);
      }
      await open;
      return result;
    },
  };
  return {
    provider,
    calls,
    pause() {
      open = new Promise((r) => (reopen = r));
    },
    resume() {
      reopen();
    },
    endWaits,
  };
}

/** Resolves once the run's log has not grown for a while (every stream held, every write done). */
async function logStill(db: Db, runId: string) {
  let last = -1;
  for (;;) {
    const seq = await runEventSeq(db, runId);
    if (seq === last) return seq!;
    last = seq!;
    await sleep(700);
  }
}

/** What may differ between the two without their disagreeing: times (the event's clock, the database's) and tool calls, which events do not carry. */
function comparable(state: LiveRunState) {
  return {
    ...state,
    startedAt: undefined,
    finishedAt: undefined,
    priorElapsedMs: undefined,
    turns: state.turns.map((t) => ({ ...t, startedAt: undefined, finishedAt: undefined, toolCalls: undefined, repairs: undefined })),
  };
}

describe.each(testBackends())('one reducer for the live run page, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it("a snapshot taken mid-run, with the log's later events reduced the browser's way, is the snapshot taken later, and at the end", async () => {
    const model = chunked((req) => req.step.id === 'D6');
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: model.provider, mode: 'dag' });
    const executing = executeRun({ db, runId: run.id, provider: model.provider });

    // The viewer arrives while steps stream: a snapshot, then the log after it.
    while (!model.calls.includes('D3')) await sleep(20);
    await sleep(150);
    model.pause();
    await logStill(db, run.id);
    const first = await loadLiveState({ db, runId: run.id });
    expect(first.status).toBe('running');
    expect(first.turns.some((t) => t.status === 'running' && t.text)).toBe(true);
    const heard: LoggedEvent[] = [];
    const tail = new LogTail(async () => db, { checkEveryMs: 50 });
    const stop = tail.follow(
      run.id,
      first.seq!,
      (events) => heard.push(...events),
      (err) => {
        throw err;
      },
    );
    // The browser's state: each message as the route sends it (a step's end with its evidence).
    const reduced = async (from: LiveRunState, upTo: number) => {
      let state = from;
      for (const { seq, event } of heard.filter((e) => e.seq <= upTo)) {
        const message: WireMessage =
          event.type === 'step-done' ? { ...event, seq, evidence: await evidenceForOutput({ db, runId: run.id, output: event.output }) } : { ...event, seq };
        state = reduceRun(state, message);
      }
      return state;
    };

    // Later, with one step waiting for quota and others streaming.
    model.resume();
    while (!model.calls.includes('D6')) await sleep(20);
    await sleep(200);
    model.pause();
    const seq = await logStill(db, run.id);
    while ((heard.at(-1)?.seq ?? first.seq!) < seq) await sleep(20);
    const later = await loadLiveState({ db, runId: run.id });
    expect(later.seq).toBe(seq);
    expect(Object.keys(later.waiting ?? {})).toEqual(['D6']);
    expect(later.turns.some((t) => t.status === 'running' && t.text && later.streaming?.[t.step]?.usage)).toBe(true);
    expect(comparable(await reduced(first, seq))).toEqual(comparable(later));

    // And at the end.
    model.endWaits();
    model.resume();
    expect((await executing).status).toBe('succeeded');
    const end = await loadLiveState({ db, runId: run.id });
    while ((heard.at(-1)?.seq ?? 0) < end.seq!) await sleep(20);
    stop();
    tail.stop();
    expect(comparable(await reduced(first, end.seq!))).toEqual(comparable(end));
  }, 60_000);
});
