// Following runs' event logs (lib/debate/event-log.ts) for this process's viewers. One reader per
// run, whatever the number of viewers: when the log grows it reads what is new once, from the
// earliest point any of its viewers has reached, and hands each viewer the events past its own
// point, in order. It learns that a log grew from this process's recorder at once and, with
// PostgreSQL, from other processes through LISTEN on one connection; a check every few seconds
// covers a notification lost while that connection was down.
import 'server-only';
import pg from 'pg';
import type { Db } from '@/lib/db/client';
import { env, isEmbedded } from '@/lib/env';
import { eventsAfter, logSignals, RUN_LOG_CHANNEL, type LoggedEvent } from '@/lib/debate/event-log';
import { log } from '@/lib/ops/log';

/** How often a followed run's log is read even without a notification. */
const CHECK_EVERY_MS = 3_000;
const RECONNECT_MS = 2_000;

type Viewer = { after: number; deliver: (events: LoggedEvent[]) => void; fail: (err: unknown) => void };
type Followed = { viewers: Set<Viewer>; reading: boolean; again: boolean };

const tailLog = log.child({ component: 'log-tail' });

export class LogTail {
  private runs = new Map<string, Followed>();
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | null = null;
  private stopped = false;
  private readonly onSignal = (runId: string) => this.read(runId);

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly options: { connectionString?: string; checkEveryMs?: number } = {},
  ) {}

  /**
   * Hands `deliver` every event of the run numbered after `after`, as the log grows, until the
   * returned function is called. `fail` hears of a read that failed (the viewer ends its stream
   * and the browser reconnects from where it was).
   */
  follow(runId: string, after: number, deliver: Viewer['deliver'], fail: Viewer['fail']): () => void {
    this.start();
    let run = this.runs.get(runId);
    if (!run) this.runs.set(runId, (run = { viewers: new Set(), reading: false, again: false }));
    const viewer: Viewer = { after, deliver, fail };
    run.viewers.add(viewer);
    this.read(runId);
    return () => {
      run.viewers.delete(viewer);
      if (!run.viewers.size && this.runs.get(runId) === run) this.runs.delete(runId);
      if (!this.runs.size) this.idle();
    };
  }

  stop() {
    this.stopped = true;
    this.runs.clear();
    this.idle();
  }

  private start() {
    if (this.timer) return;
    this.stopped = false;
    logSignals().on('recorded', this.onSignal);
    this.timer = setInterval(() => {
      for (const runId of this.runs.keys()) this.read(runId);
    }, this.options.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref?.();
    if (this.options.connectionString && !this.listener) void this.listen();
  }

  /** Nobody follows anything: no timer, no listener, no connection. */
  private idle() {
    clearInterval(this.timer);
    this.timer = undefined;
    logSignals().off('recorded', this.onSignal);
    const client = this.listener;
    this.listener = null;
    client?.end().catch(() => {});
  }

  private async listen() {
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: 'crosscheck-log-tail', keepAlive: true });
    const lost = (err: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.end().catch(() => {});
      if (!this.timer || this.stopped) return;
      tailLog.warn('lost the run log listener; reconnecting', { err });
      setTimeout(() => {
        if (this.timer && !this.listener) void this.listen();
      }, RECONNECT_MS).unref?.();
    };
    this.listener = client;
    client.on('error', lost);
    client.on('end', () => lost(new Error('the connection ended')));
    client.on('notification', (n) => {
      if (n.channel === RUN_LOG_CHANNEL && n.payload) this.read(n.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${RUN_LOG_CHANNEL}`);
      // Whatever grew while there was no listener.
      for (const runId of this.runs.keys()) this.read(runId);
    } catch (err) {
      lost(err);
    }
  }

  /** Reads what is new for the run's viewers; one read at a time per run, again if asked meanwhile. */
  private read(runId: string) {
    const run = this.runs.get(runId);
    if (!run?.viewers.size) return;
    if (run.reading) {
      run.again = true;
      return;
    }
    run.reading = true;
    run.again = false;
    void (async () => {
      try {
        const from = Math.min(...[...run.viewers].map((v) => v.after));
        if (!Number.isFinite(from)) return;
        const events = await eventsAfter(await this.db(), runId, from);
        for (const viewer of [...run.viewers]) {
          const fresh = events.filter((e) => e.seq > viewer.after);
          if (!fresh.length) continue;
          viewer.after = fresh[fresh.length - 1].seq;
          try {
            viewer.deliver(fresh);
          } catch (err) {
            tailLog.error('a viewer threw', { runId, err });
          }
        }
        // A long log comes in pages.
        if (events.length >= 1_000) run.again = true;
      } catch (err) {
        for (const viewer of [...run.viewers]) viewer.fail(err);
      } finally {
        run.reading = false;
        if (run.again && this.runs.get(runId) === run) this.read(runId);
      }
    })();
  }
}

const globalForTail = globalThis as typeof globalThis & { __crosscheckLogTail?: LogTail };

/** This process's tail: with PostgreSQL it listens for other processes' events too. */
export function logTail(db: () => Promise<Db>): LogTail {
  if (!globalForTail.__crosscheckLogTail) {
    const e = env();
    globalForTail.__crosscheckLogTail = new LogTail(db, isEmbedded(e) ? {} : { connectionString: e.DATABASE_URL });
  }
  return globalForTail.__crosscheckLogTail;
}

/** Stops this process's tail, if it has one (at shutdown). */
export function stopLogTail() {
  globalForTail.__crosscheckLogTail?.stop();
}
