// A run's events as a log in the database (table run_events; docs/architecture.md, "A run's
// events"). The process that executes a run records each event; every viewer, on any app
// instance, reads the same log: a page paints the run as the database has it together with the
// log's live part, then follows the log from that point (lib/debate/log-tail.ts).
//
// Each event takes the next number of its run (runs.event_seq) under the run row's lock, so the
// numbers follow the order the events were committed in and a reader that has seen up to N
// never later finds a smaller number it missed. A running step's answer so far and its spend so
// far are kept once each: the latest replaces the one before (the reader wants where the answer
// stands, not how it got there); the answer goes when the step starts again or waits, the spend
// when the step ends, and both when the run starts or ends. Every other event stays as recorded.
import 'server-only';
import { EventEmitter } from 'node:events';
import type { Db, Tx } from '@/lib/db/client';
import { KEPT_ONCE, recordAllIn, recordIn } from '@/lib/db/queries/run-events';
import type { RunEvent } from '@/lib/domain/protocol';
import { log } from '@/lib/ops/log';
import { runBus } from '@/lib/debate/bus';

export { eventsAfter, liveEvents, recordIn, RUN_LOG_CHANNEL, type LoggedEvent } from '@/lib/db/queries/run-events';

const logLog = log.child({ component: 'event-log' });

// Same-process readers learn of a new event here, without a round trip through PostgreSQL.
const globalForLog = globalThis as typeof globalThis & { __crosscheckRunLog?: EventEmitter };
export function logSignals(): EventEmitter {
  if (!globalForLog.__crosscheckRunLog) {
    globalForLog.__crosscheckRunLog = new EventEmitter();
    globalForLog.__crosscheckRunLog.setMaxListeners(0);
  }
  return globalForLog.__crosscheckRunLog;
}

function signalRecorded(runId: string) {
  logSignals().emit('recorded', runId);
}

/** Records one event in a transaction of its own and tells this process's readers (see recordIn). */
export async function recordEvent(db: Db, event: RunEvent): Promise<number | null> {
  const seq = await db.transaction((tx) => recordIn(tx, event));
  if (seq !== null) signalRecorded(event.runId);
  return seq;
}

/**
 * A write of nothing but answers and spend so far (step-partial, step-usage) comes at most this
 * long after the recorder's previous write began: a run's steps' answers so far go to the log
 * together, each the latest, a few times a second, however often the engine tells them.
 */
export const KEPT_ONCE_EVERY_MS = 250;

export type RecorderOptions = { keptOnceEveryMs?: number };

/** Events handed in to be written together, or a state change with its event, in the recorder's queue. */
type Job = { kind: 'events'; events: RunEvent[]; done: Deferred<void> } | { kind: 'together'; write: () => Promise<void>; done: Deferred<void> };
type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const keptOnceKey = (event: RunEvent) => (KEPT_ONCE.has(event.type) ? `${event.runId}\n${event.type}\n${'stepId' in event ? event.stepId : ''}` : null);

/**
 * Records a run's events in the order they are handed in, so the engine can hand them in
 * without waiting. One write at a time: the events handed in while one is under way wait and
 * go together, in order, in the next transaction, and a kept-once event (a step's answer or
 * spend so far) waiting there is replaced by a newer one of its step, whose row would replace
 * its row anyway; a write of nothing else waits its turn (KEPT_ONCE_EVERY_MS), except a step's
 * first answer so far, which goes at once. So a run's writes
 * are a few a second, not one per event, and the log ends the same. A state change with its
 * event (`together`) is written on its own, once everything handed in before it is committed.
 * A write that fails is tried again a few times (only its durable events: a kept-once one gets
 * one try, the next replaces it); `flush` resolves once all handed in so far are written or
 * given up on, without waiting for a turn. One recorder per run execution (runPublisher), so a
 * run's events keep their order and different runs do not wait for each other.
 */
export function eventRecorder(db: Db, onRecorded?: (event: RunEvent) => void, { keptOnceEveryMs = KEPT_ONCE_EVERY_MS }: RecorderOptions = {}) {
  const queue: Job[] = [];
  // The job being written (or held back, see `pace`); null while the recorder is idle.
  let current: Job | null = null;
  let lastWriteAt = -Infinity;
  let wake: (() => void) | null = null;
  let urgent = false;
  // The steps whose answer has begun to stream since they (re)started: a step's first answer so
  // far is written at once, so the first words on a viewer's screen are not held back.
  const answering = new Set<string>();
  // Events of only answers and spend so far, with nothing behind them, wait until
  // `keptOnceEveryMs` after the previous write began, newer ones replacing them meanwhile. Any
  // other event, a state change or a flush ends the wait.
  const mayWait = (job: Job) => !urgent && queue.length === 1 && job.kind === 'events' && job.events.every((e) => KEPT_ONCE.has(e.type));
  const pace = async (job: Job) => {
    while (mayWait(job)) {
      const remaining = lastWriteAt + keptOnceEveryMs - Date.now();
      if (remaining <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  };
  // Writing starts a microtask after the first hand-in, so events told in one go (a run's start
  // and the steps an earlier execution finished) go in one transaction too.
  let scheduled = false;
  const schedule = () => {
    if (current || scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      void drain();
    });
  };

  const writeEvents = async (events: RunEvent[]) => {
    let batch = events;
    for (let attempt = 1; ; attempt++) {
      try {
        const numbers = await db.transaction((tx) => recordAllIn(tx, batch));
        for (const runId of new Set(batch.filter((_, i) => numbers[i] !== null).map((e) => e.runId))) signalRecorded(runId);
        for (const event of batch) onRecorded?.(event);
        return;
      } catch (err) {
        const durable = batch.filter((e) => !KEPT_ONCE.has(e.type));
        if (attempt >= 4 || durable.length === 0) {
          logLog.error('could not record run events', { runId: batch[0].runId, eventTypes: [...new Set(batch.map((e) => e.type))], events: batch.length, err });
          return;
        }
        batch = durable;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  };

  const drain = async () => {
    if (current) return;
    for (let job = queue[0]; job; job = queue[0]) {
      current = job;
      if (keptOnceEveryMs > 0) await pace(job);
      queue.shift();
      urgent = false;
      lastWriteAt = Date.now();
      try {
        if (job.kind === 'events') await writeEvents(job.events);
        else await job.write();
      } catch (err) {
        logLog.error('run event recorder: a write failed unexpectedly', { err });
      }
      job.done.resolve();
    }
    current = null;
  };

  return {
    record(event: RunEvent) {
      if (event.type === 'step-started' || event.type === 'step-waiting') answering.delete(event.stepId);
      else if (event.type === 'step-partial' && !answering.has(event.stepId)) {
        answering.add(event.stepId);
        urgent = true;
        wake?.();
      }
      const last = queue.at(-1);
      if (last?.kind === 'events') {
        const key = keptOnceKey(event);
        if (key !== null) {
          const older = last.events.findIndex((e) => keptOnceKey(e) === key);
          if (older >= 0) last.events.splice(older, 1);
        }
        last.events.push(event);
      } else {
        queue.push({ kind: 'events', events: [event], done: deferred() });
      }
      if (!KEPT_ONCE.has(event.type)) wake?.();
      schedule();
    },
    /**
     * A change of the run's state and the event that reports it, in one transaction, after the
     * events handed in before it are committed: a reader sees both or neither. `eventOf` decides
     * the event from what the change returned (null: none); `afterCommit` runs once both are
     * committed. A failed change records nothing and rejects, as the change alone would have.
     */
    together<T>(change: (tx: Tx) => Promise<T>, eventOf: (result: T, tx: Tx) => Promise<RunEvent | null>, afterCommit?: (result: T) => void): Promise<T> {
      const outcome = deferred<{ ok: true; value: T } | { ok: false; err: unknown }>();
      const write = async () => {
        try {
          let event: RunEvent | null = null;
          const result = await db.transaction(async (tx) => {
            const value = await change(tx);
            event = await eventOf(value, tx);
            if (event) await recordIn(tx, event);
            return value;
          });
          afterCommit?.(result);
          if (event) {
            signalRecorded((event as RunEvent).runId);
            onRecorded?.(event);
          }
          outcome.resolve({ ok: true, value: result });
        } catch (err) {
          outcome.resolve({ ok: false, err });
        }
      };
      queue.push({ kind: 'together', write, done: deferred() });
      wake?.();
      schedule();
      return outcome.promise.then((o) => {
        if (o.ok) return o.value;
        throw o.err;
      });
    },
    /** Resolves once every event and change handed in so far is written or given up on. */
    flush(): Promise<void> {
      if (queue.length) {
        urgent = true;
        wake?.();
      }
      const last = queue.at(-1) ?? current;
      return last ? last.done.promise : Promise.resolve();
    },
  };
}

/**
 * How a run's events are told: to this process's own listeners at once (lib/debate/bus.ts), and
 * recorded in the run's log in the same order. `flush` waits for what was handed in so far.
 */
export function runPublisher(db: Db, options?: RecorderOptions) {
  const recorder = eventRecorder(db, undefined, options);
  return {
    publish(event: RunEvent) {
      recorder.record(event);
      runBus().publish(event);
    },
    /** A state change and its event in one transaction (see eventRecorder); listeners hear it once committed. */
    together<T>(change: (tx: Tx) => Promise<T>, eventOf: (result: T, tx: Tx) => Promise<RunEvent | null>, afterCommit?: (result: T) => void): Promise<T> {
      let told: RunEvent | null = null;
      return recorder.together(
        change,
        async (result, tx) => (told = await eventOf(result, tx)),
        (result) => {
          afterCommit?.(result);
          if (told) runBus().publish(told);
        },
      );
    },
    flush: recorder.flush,
  };
}

/** Tells one event now (a run ended outside the engine: cancelled while queued, could not start). */
export async function publishNow(db: Db, event: RunEvent): Promise<void> {
  const publisher = runPublisher(db);
  publisher.publish(event);
  await publisher.flush();
}
