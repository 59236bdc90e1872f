// Wake-up on enqueue. Our pg-boss workers find new jobs by polling, at most every 500 ms (pg-boss
// 12's own LISTEN/NOTIFY is not switched on yet: docs/jobs-queue-spike.md), so a queued run would
// wait up to a whole poll before its first step. enqueueRun (lib/jobs/boss.ts)
// also sends a NOTIFY on RUN_QUEUED_CHANNEL; each worker process listens on one connection and
// makes its idle queue slots fetch at once. The poll stays as the fallback: while this connection
// is down, or if a notification is missed, runs are still picked up, only up to a poll later.
import pg from 'pg';
import type { Logger } from '@/lib/ops/log';

export const RUN_QUEUED_CHANNEL = 'crosscheck_run_queued';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;
const PROBE_EVERY_MS = 30_000;
const TIMEOUT_MS = 15_000;

export type WakeListener = {
  /** Resolves once the first connection is listening (or gave up for now: the poll covers it). */
  ready: Promise<void>;
  stop(): Promise<void>;
};

/**
 * Listens for queued runs and calls `onQueued` for each (and once after a reconnect, since a
 * run may have been queued while nobody listened).
 */
export function listenForQueuedRuns({ url, onQueued, log, name }: { url: string; onQueued: () => void; log: Logger; name: string }): WakeListener {
  let client: pg.Client | null = null;
  let stopped = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const lost = (lostClient: pg.Client, err: Error) => {
    if (client !== lostClient) return;
    client = null;
    lostClient.end().catch(() => {});
    if (stopped) return;
    log.warn('lost the wake-up connection; runs are picked up by polling until it is back', { err });
    void connect(true);
  };

  const connect = async (reconnecting: boolean) => {
    for (let attempt = 1; !stopped; attempt++) {
      if (reconnecting || attempt > 1) await new Promise((r) => setTimeout(r, Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** (attempt - 1))));
      if (stopped) return;
      const candidate = new pg.Client({
        connectionString: url,
        application_name: `crosscheck-wake ${name}`.slice(0, 63),
        keepAlive: true,
        query_timeout: TIMEOUT_MS,
        connectionTimeoutMillis: TIMEOUT_MS,
      });
      candidate.on('error', (err) => lost(candidate, err));
      candidate.on('end', () => lost(candidate, new Error('the connection ended')));
      candidate.on('notification', (n) => n.channel === RUN_QUEUED_CHANNEL && onQueued());
      try {
        await candidate.connect();
        await candidate.query(`listen ${RUN_QUEUED_CHANNEL}`);
      } catch (err) {
        candidate.removeAllListeners('end');
        candidate.end().catch(() => {});
        if (attempt === 1) log.warn('could not listen for queued runs; retrying, and polling meanwhile', { err });
        markReady();
        continue;
      }
      if (stopped) {
        await candidate.end().catch(() => {});
        return;
      }
      client = candidate;
      markReady();
      if (reconnecting || attempt > 1) {
        log.info('wake-up connection back');
        onQueued();
      }
      return;
    }
  };

  // The connection only receives: a query now and then notices a peer that silently went away.
  const probe = setInterval(() => {
    const current = client;
    current?.query('select 1').catch((err: Error) => lost(current, err));
  }, PROBE_EVERY_MS);
  probe.unref();
  void connect(false);

  return {
    ready,
    async stop() {
      stopped = true;
      clearInterval(probe);
      markReady();
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
