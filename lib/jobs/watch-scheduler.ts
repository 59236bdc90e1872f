// When the portfolio watch's passes run (the pass itself is lib/jobs/watch.ts). On PostgreSQL a pg-boss cron job every WATCH_PASS_MINUTES on the `crosscheck-watch`
// queue, whose `singleton` policy lets one pass at a time run across all instances; any app
// instance's handler may take it. On the embedded database a timer in
// the app process. Either way a pass claims its entries, so an extra pass checks nothing twice.
import type { Db } from '@/lib/db/client';
import { getDb } from '@/lib/db/client';
import { env, isEmbedded } from '@/lib/env';
import { ensureQueue, getBoss } from '@/lib/jobs/boss';
import { watchPass } from '@/lib/jobs/watch';
import { log } from '@/lib/ops/log';

export const WATCH_QUEUE = 'crosscheck-watch';

export type WatchScheduler = { how: 'queue' | 'timer'; minutes: number; stop(): Promise<void> };

/** `*` every `minutes` (1–59), or at the top of every hour (60). */
export function watchCron(minutes: number): string {
  return minutes >= 60 ? '0 * * * *' : `*/${minutes} * * * *`;
}

export type WatchSchedulerOptions = {
  db?: Db;
  minutes?: number;
  /** The queue's cron job on PostgreSQL, a timer on the embedded database. */
  how?: 'queue' | 'timer';
  /** How often this instance asks the queue for the job. */
  pollIntervalMs?: number;
};

/** Starts the scheduler; null when WATCH_PASS_MINUTES is 0. */
export async function startWatchScheduler({
  db,
  minutes = env().WATCH_PASS_MINUTES,
  how = isEmbedded(env()) ? 'timer' : 'queue',
  pollIntervalMs = 2_000,
}: WatchSchedulerOptions = {}): Promise<WatchScheduler | null> {
  if (!minutes) return null;
  const watchLog = log.child({ component: 'watch' });
  let running = false;
  const pass = async () => {
    // A pass still going when the next is due lets the next one go.
    if (running) return;
    running = true;
    try {
      const checks = await watchPass({ db: db ?? (await getDb()) });
      const alerts = checks.filter((c) => c.alertId).length;
      if (checks.length) watchLog.info('watch pass', { checked: checks.length, alerts, errors: checks.filter((c) => c.error).length });
    } catch (err) {
      watchLog.error('watch pass failed', { err });
    } finally {
      running = false;
    }
  };

  if (how === 'queue') {
    const boss = await getBoss(db);
    await ensureQueue(boss, WATCH_QUEUE, { policy: 'singleton', retryLimit: 0, expireInSeconds: 3600 });
    await boss.schedule(WATCH_QUEUE, watchCron(minutes), {}, { tz: 'UTC' });
    await boss.work(WATCH_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, pollIntervalMs / 1000) }, async () => {
      await pass();
    });
    // Stops taking passes; one under way finishes on its own, as before (pg-boss 12 would wait for it).
    return { how: 'queue', minutes, stop: () => boss.offWork(WATCH_QUEUE, { wait: false }) };
  }
  const timer = setInterval(() => void pass(), minutes * 60_000);
  timer.unref();
  return {
    how: 'timer',
    minutes,
    stop: async () => clearInterval(timer),
  };
}
