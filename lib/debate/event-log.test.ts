// A run's event log (lib/debate/event-log.ts) and following it (lib/debate/log-tail.ts), on both
// backends: numbers in commit order with no gaps a reader could fall into, a running step's
// answer so far kept once, the live part a late viewer reads, and viewers at different points
// handed exactly the events past their own, in order, by one read per growth of the log.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies, runs } from '@/lib/db/schema';
import { createTestDatabase, onDatabase, testBackends, testDatabaseUrl } from '@/lib/db/test-db';
import { eventsAfter, KEPT_ONCE_EVERY_MS, liveEvents, recordEvent, recordIn, eventRecorder, type LoggedEvent } from '@/lib/debate/event-log';
import { LogTail } from '@/lib/debate/log-tail';
import type { RunEvent } from '@/lib/domain/protocol';

const at = '2026-01-01T00:00:00.000Z';
const steps = ['D1', 'D2'].map((id) => ({ id, agent: 'A1', team: 'affirmative' as const, act: 'constructive' as const, context: [] }));
const partial = (runId: string, stepId: string, text: string): RunEvent => ({ type: 'step-partial', runId, stepId, text, output: { text } });
const usage = (runId: string, stepId: string, promptTokens: number): RunEvent => ({
  type: 'step-usage',
  runId,
  stepId,
  usage: { promptTokens, completionTokens: 1, costUsd: 0 },
});

/** Resolves once `check` holds, polling; rejects after `ms`. */
async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(testBackends())('the run event log on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
  });
  afterAll(() => handle?.close());

  async function newRun() {
    const [run] = await db
      .insert(runs)
      .values({ companyId: 'acme', protocol: 'kpd-mads', provider: 'offline', model: 'm', status: 'running' })
      .returning({ id: runs.id });
    return run.id;
  }

  it("numbers events in order, keeps a running step's latest answer and spend once, and drops them by the run's end", async () => {
    const runId = await newRun();
    expect(await recordEvent(db, { type: 'run-started', runId, at, steps })).toBe(1);
    await recordEvent(db, { type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    await recordEvent(db, { type: 'step-started', runId, stepId: 'D2', at, attempt: 1 });
    await recordEvent(db, partial(runId, 'D1', 'a'));
    await recordEvent(db, usage(runId, 'D1', 10));
    await recordEvent(db, partial(runId, 'D2', 'x'));
    await recordEvent(db, partial(runId, 'D1', 'ab'));
    await recordEvent(db, usage(runId, 'D1', 20));

    // Each answer so far once, the latest, under its own new number.
    const log = await eventsAfter(db, runId, 0);
    expect(log.map((e) => [e.seq, e.event.type, 'stepId' in e.event ? e.event.stepId : null])).toEqual([
      [1, 'run-started', null],
      [2, 'step-started', 'D1'],
      [3, 'step-started', 'D2'],
      [6, 'step-partial', 'D2'],
      [7, 'step-partial', 'D1'],
      [8, 'step-usage', 'D1'],
    ]);
    // The live part a late viewer reads: what the database's view of the steps does not hold.
    const live = async (upTo = 1_000) =>
      (await liveEvents(db, runId, upTo)).map((e) =>
        e.type === 'step-partial'
          ? `${e.stepId} ${e.text}`
          : e.type === 'step-usage'
            ? `${e.stepId} spent ${e.usage.promptTokens}`
            : `${e.type} ${'stepId' in e ? e.stepId : ''}`,
      );
    expect(await live(8)).toEqual(['step-started D1', 'step-started D2', 'D2 x', 'D1 ab', 'D1 spent 20']);
    expect(await live(6)).toEqual(['step-started D1', 'step-started D2', 'D2 x']);

    // A wait restarts D2's answer (its partial goes); D1 ends (its spend goes, its last partial
    // stays for a viewer reading behind).
    await recordEvent(db, { type: 'step-waiting', runId, stepId: 'D2', at, reason: 'provider-limit', until: at });
    await recordEvent(db, {
      type: 'step-done',
      runId,
      stepId: 'D1',
      at,
      text: 'done',
      output: { text: 'done' },
      usage: { promptTokens: 20, completionTokens: 5, costUsd: 0 },
    });
    expect((await eventsAfter(db, runId, 0)).map((e) => e.event.type)).toEqual([
      'run-started',
      'step-started',
      'step-started',
      'step-partial',
      'step-waiting',
      'step-done',
    ]);
    // Not the ended step's end: its saved text is in the database's view.
    expect(await live()).toEqual(['step-started D1', 'step-started D2', 'D1 ab', 'step-waiting D2']);
    // A reader who has seen up to 6 gets what came after, in order.
    expect((await eventsAfter(db, runId, 6)).map((e) => e.seq)).toEqual([7, 9, 10]);

    // The run's end drops the answers so far; a new execution (a retry) starts the live part
    // afresh, the earlier one's events staying in the log.
    await recordEvent(db, partial(runId, 'D2', 'late'));
    await recordEvent(db, { type: 'run-finished', runId, at, status: 'failed' });
    expect((await eventsAfter(db, runId, 0)).filter((e) => e.event.type === 'step-partial')).toEqual([]);
    await recordEvent(db, partial(runId, 'D2', 'stray'));
    await recordEvent(db, { type: 'run-started', runId, at, steps });
    expect(await live()).toEqual([]);
    expect((await eventsAfter(db, runId, 0)).filter((e) => e.event.type === 'step-partial')).toEqual([]);
  });

  it('events recorded at once from many calls take distinct numbers in the order they were committed', async () => {
    const runId = await newRun();
    await Promise.all(Array.from({ length: 30 }, (_, i) => recordEvent(db, { type: 'step-started', runId, stepId: `S${i}`, at, attempt: 1 })));
    const log = await eventsAfter(db, runId, 0);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(new Set(log.map((e) => (e.event as { stepId: string }).stepId)).size).toBe(30);
  });

  it("a recorder writes a run's events in the order handed in, and its flush waits for them", async () => {
    const runId = await newRun();
    const heard: string[] = [];
    const recorder = eventRecorder(db, (e) => heard.push(e.type));
    recorder.record({ type: 'run-started', runId, at, steps });
    recorder.record({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    recorder.record({ type: 'step-done', runId, stepId: 'D1', at, text: 't', output: {}, usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } });
    recorder.record({ type: 'run-finished', runId, at, status: 'succeeded' });
    await recorder.flush();
    expect(heard).toEqual(['run-started', 'step-started', 'step-done', 'run-finished']);
    expect((await eventsAfter(db, runId, 0)).map((e) => e.event.type)).toEqual(heard);
    // An event of a run that is gone is no error: there is nothing to record it against.
    expect(await recordEvent(db, { type: 'report-ready', runId: crypto.randomUUID(), at })).toBeNull();
  });

  it('a state change and its event commit together, or neither does, after the events handed in before them', async () => {
    const runId = await newRun();
    const recorder = eventRecorder(db);
    recorder.record({ type: 'run-started', runId, at, steps });
    const finished: RunEvent = { type: 'run-finished', runId, at, status: 'succeeded' };
    const order: string[] = [];
    const status = await recorder.together(
      async (tx) => {
        await tx.update(runs).set({ status: 'succeeded' }).where(eq(runs.id, runId));
        return 'saved';
      },
      async () => finished,
      (result) => order.push(`committed ${result}`),
    );
    expect(status).toBe('saved');
    expect(order).toEqual(['committed saved']);
    expect((await eventsAfter(db, runId, 0)).map((e) => [e.seq, e.event.type])).toEqual([
      [1, 'run-started'],
      [2, 'run-finished'],
    ]);

    // The event cannot be recorded: the change is undone with it.
    await expect(
      recorder.together(
        (tx) => tx.update(runs).set({ status: 'failed' }).where(eq(runs.id, runId)),
        async () => {
          throw new Error('no event');
        },
      ),
    ).rejects.toThrow('no event');
    // The change fails: no event.
    await expect(
      recorder.together(
        async () => {
          throw new Error('lease lost');
        },
        async () => finished,
      ),
    ).rejects.toThrow('lease lost');
    const [row] = await db.select({ status: runs.status, seq: runs.eventSeq }).from(runs).where(eq(runs.id, runId));
    expect(row).toEqual({ status: 'succeeded', seq: 2 });
    // The recorder goes on after a failure.
    recorder.record({ type: 'report-ready', runId, at });
    await recorder.flush();
    expect((await eventsAfter(db, runId, 2)).map((e) => e.event.type)).toEqual(['report-ready']);
  });

  /** The database with its transactions counted, and the first `failing` of them failing. */
  function counted(failing = 0) {
    const stats = { transactions: 0 };
    const wrapped = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'transaction') return Reflect.get(target, key, receiver);
        return (...args: Parameters<Db['transaction']>) => {
          stats.transactions++;
          if (stats.transactions <= failing) return Promise.reject(new Error('connection reset'));
          return target.transaction(...args);
        };
      },
    });
    return { db: wrapped as Db, stats };
  }

  it('writes the events handed in behind a write in progress in one transaction, the latest answer so far of each step replacing the waiting one', async () => {
    const runId = await newRun();
    const { db: countedDb, stats } = counted();
    const recorder = eventRecorder(countedDb);
    recorder.record({ type: 'run-started', runId, at, steps });
    await recorder.flush();
    const before = stats.transactions;
    // A write in progress (a state change with its event) holds the recorder.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const blocked = recorder.together(
      async () => held,
      async () => ({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 }),
    );
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 1; i <= 50; i++) {
      recorder.record(partial(runId, 'D1', `a${i}`));
      recorder.record(usage(runId, 'D1', i));
      if (i === 20) recorder.record({ type: 'step-waiting', runId, stepId: 'D2', at, reason: 'provider-limit', until: at });
      if (i === 30) recorder.record(partial(runId, 'D2', 'b'));
    }
    recorder.record({ type: 'report-ready', runId, at });
    release();
    await blocked;
    await recorder.flush();
    // The state change, then everything that waited behind it in one more transaction.
    expect(stats.transactions - before).toBe(2);
    // Events as they would have been had each been written alone: the durable ones all there,
    // in order; each step's answer and spend so far the latest; numbers in order.
    const log = await eventsAfter(db, runId, 0);
    expect(log.map((e) => [e.event.type, 'stepId' in e.event ? e.event.stepId : null])).toEqual([
      ['run-started', null],
      ['step-started', 'D1'],
      ['step-waiting', 'D2'],
      ['step-partial', 'D2'],
      ['step-partial', 'D1'],
      ['step-usage', 'D1'],
      ['report-ready', null],
    ]);
    expect(log.find((e) => e.event.type === 'step-partial' && e.event.stepId === 'D1')?.event).toEqual(partial(runId, 'D1', 'a50'));
    expect(log.find((e) => e.event.type === 'step-usage')?.event).toEqual(usage(runId, 'D1', 50));
    const seqs = log.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Few numbers taken: the replaced answers so far were never written.
    expect(seqs.at(-1)).toBeLessThanOrEqual(10);
  });

  it('a state change handed in behind waiting events commits after all of them, and what follows it after it', async () => {
    const runId = await newRun();
    const { db: countedDb, stats } = counted();
    const recorder = eventRecorder(countedDb);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = recorder.together(
      async () => held,
      async () => ({ type: 'run-started', runId, at, steps }),
    );
    await new Promise((r) => setTimeout(r, 20));
    recorder.record({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    for (let i = 1; i <= 50; i++) recorder.record(partial(runId, 'D1', `a${i}`));
    let seen: string[] = [];
    const done = recorder.together(
      async (tx) => {
        seen = (await eventsAfter(tx, runId, 0)).map((e) => (e.event.type === 'step-partial' ? `partial ${e.event.text}` : e.event.type));
        return 'saved';
      },
      async () => ({ type: 'step-done', runId, stepId: 'D1', at, text: 'a50', output: {}, usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } }),
    );
    for (let i = 1; i <= 10; i++) recorder.record(partial(runId, 'D2', `b${i}`));
    release();
    await first;
    expect(await done).toBe('saved');
    await recorder.flush();
    // The change saw every event handed in before it, the last answer so far included.
    expect(seen).toEqual(['run-started', 'step-started', 'partial a50']);
    expect((await eventsAfter(db, runId, 0)).map((e) => (e.event.type === 'step-partial' ? `partial ${e.event.text}` : e.event.type))).toEqual([
      'run-started',
      'step-started',
      'partial a50',
      'step-done',
      'partial b10',
    ]);
    // run-started, the events before step-done, step-done, the partials after it.
    expect(stats.transactions).toBe(4);
  });

  it("writes a run's answers so far a few times a second, each time the latest, without holding back its other events", async () => {
    const runId = await newRun();
    const { db: countedDb, stats } = counted();
    const recorder = eventRecorder(countedDb);
    recorder.record({ type: 'run-started', runId, at, steps });
    await recorder.flush();
    const before = stats.transactions;
    const started = Date.now();
    for (let i = 1; i <= 30; i++) {
      recorder.record(partial(runId, 'D1', `a${i}`));
      recorder.record(usage(runId, 'D1', i));
      await new Promise((r) => setTimeout(r, 10));
    }
    const elapsed = Date.now() - started;
    // One write per KEPT_ONCE_EVERY_MS at most, not one per event.
    expect(stats.transactions - before).toBeLessThanOrEqual(Math.ceil(elapsed / KEPT_ONCE_EVERY_MS) + 1);
    // A state change does not wait for the next turn: it goes at once, after the answer held back.
    const t0 = Date.now();
    await recorder.together(
      async () => 'saved',
      async () => ({ type: 'step-done', runId, stepId: 'D1', at, text: 'a30', output: {}, usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } }),
    );
    expect(Date.now() - t0).toBeLessThan(KEPT_ONCE_EVERY_MS / 2);
    const log = (await eventsAfter(db, runId, 0)).map((e) => (e.event.type === 'step-partial' ? `partial ${e.event.text}` : e.event.type));
    expect(log).toEqual(['run-started', 'partial a30', 'step-done']);
    // Nor does a flush.
    recorder.record(partial(runId, 'D2', 'b'));
    const t1 = Date.now();
    await recorder.flush();
    expect(Date.now() - t1).toBeLessThan(KEPT_ONCE_EVERY_MS / 2);
    expect((await eventsAfter(db, runId, 0)).at(-1)?.event).toEqual(partial(runId, 'D2', 'b'));
  });

  it("writes a step's first answer so far at once, and paces the ones after it", async () => {
    const runId = await newRun();
    const recorder = eventRecorder(db, undefined, { keptOnceEveryMs: 5_000 });
    recorder.record({ type: 'run-started', runId, at, steps });
    recorder.record({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    await recorder.flush();
    const texts = async () => (await eventsAfter(db, runId, 0)).flatMap((e) => (e.event.type === 'step-partial' ? [e.event.text] : []));
    const t0 = Date.now();
    recorder.record(partial(runId, 'D1', 'first words'));
    while (!(await texts()).includes('first words') && Date.now() - t0 < 2_000) await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - t0).toBeLessThan(1_000);
    // The next one waits its turn, five seconds here.
    recorder.record(partial(runId, 'D1', 'more words'));
    await new Promise((r) => setTimeout(r, 300));
    expect(await texts()).toEqual(['first words']);
    await recorder.flush();
    expect(await texts()).toEqual(['more words']);
  });

  it('tries a failed write again with its durable events only, and flush waits for the retry', async () => {
    const runId = await newRun();
    const { db: failingDb, stats } = counted(1);
    const recorder = eventRecorder(failingDb);
    recorder.record({ type: 'run-started', runId, at, steps });
    recorder.record(partial(runId, 'D1', 'a'));
    recorder.record({ type: 'step-waiting', runId, stepId: 'D2', at, reason: 'provider-limit', until: at });
    await recorder.flush();
    expect(stats.transactions).toBe(2);
    expect((await eventsAfter(db, runId, 0)).map((e) => e.event.type)).toEqual(['run-started', 'step-waiting']);
    // Kept-once events alone get one try.
    const { db: failingAgain } = counted(1);
    const other = eventRecorder(failingAgain);
    other.record(partial(runId, 'D1', 'b'));
    await other.flush();
    other.record(partial(runId, 'D1', 'c'));
    await other.flush();
    expect((await eventsAfter(db, runId, 0)).map((e) => (e.event.type === 'step-partial' ? e.event.text : e.event.type))).toEqual([
      'run-started',
      'step-waiting',
      'c',
    ]);
  });

  it('viewers at different points each get exactly the events past their own, in order, with one read per growth', async () => {
    const runId = await newRun();
    await recordEvent(db, { type: 'run-started', runId, at, steps });
    await recordEvent(db, { type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    let reads = 0;
    const counted = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'select') reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const tail = new LogTail(async () => counted, { checkEveryMs: 60_000 });
    const fromStart: LoggedEvent[] = [];
    const fromTwo: LoggedEvent[] = [];
    const stopA = tail.follow(
      runId,
      0,
      (events) => fromStart.push(...events),
      (err) => {
        throw err;
      },
    );
    const stopB = tail.follow(
      runId,
      2,
      (events) => fromTwo.push(...events),
      (err) => {
        throw err;
      },
    );
    await until(() => fromStart.length === 2);

    for (let i = 1; i <= 20; i++) await recordEvent(db, partial(runId, 'D1', 'x'.repeat(i)));
    await recordEvent(db, {
      type: 'step-done',
      runId,
      stepId: 'D1',
      at,
      text: 'done',
      output: {},
      usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 },
    });
    await until(() => fromStart.at(-1)?.event.type === 'step-done' && fromTwo.at(-1)?.event.type === 'step-done');
    for (const seen of [fromStart, fromTwo]) {
      const seqs = seen.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    expect(fromStart.slice(0, 2).map((e) => e.event.type)).toEqual(['run-started', 'step-started']);
    expect(fromTwo[0].seq).toBeGreaterThan(2);
    // Both viewers were served by the same reads: at most one per event recorded, and the first.
    expect(reads).toBeLessThanOrEqual(23);
    stopA();
    stopB();
    expect((tail as unknown as { runs: Map<string, unknown> }).runs.size).toBe(0);
    tail.stop();
  });

  if (backend === 'postgres') {
    it("hears through NOTIFY of another process's events, which this process's recorder never signals", async () => {
      const runId = await newRun();
      const { rows } = (await db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
      const name = rows[0].name;
      const tail = new LogTail(async () => db, { connectionString: onDatabase(testDatabaseUrl()!, name), checkEveryMs: 60_000 });
      const seen: LoggedEvent[] = [];
      const stop = tail.follow(
        runId,
        0,
        (events) => seen.push(...events),
        () => {},
      );
      // The listener connects; then an event is committed without the in-process signal.
      await new Promise((r) => setTimeout(r, 500));
      await db.transaction((tx) => recordIn(tx, { type: 'report-ready', runId, at }));
      await until(() => seen.length === 1, 5_000);
      expect(seen[0].event.type).toBe('report-ready');
      stop();
      tail.stop();
    });
  }
});
