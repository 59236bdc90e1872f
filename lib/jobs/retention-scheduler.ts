// When the retention purge runs (the purge itself: lib/db/queries/retention.ts, docs/retention.md):
// once a day at PURGE_AT_UTC. On PostgreSQL a pg-boss cron job on the `crosscheck-retention`
// queue, whose `singleton` policy lets one pass run at a time across every instance. On the
// embedded database pg-boss runs with its scheduler off (lib/jobs/boss.ts), so a timer in the app
// process sends the job itself at the same hour and works it. Either way a pass deletes only what
// has expired, so a second pass on the same day finds nothing and writes nothing.
import type { Db } from '@/lib/db/client';
import { getDb } from '@/lib/db/client';
import { purgeExpired } from '@/lib/db/queries/retention';
import { env, isEmbedded } from '@/lib/env';
import { ensureQueue, getBoss } from '@/lib/jobs/boss';
import { log } from '@/lib/ops/log';

export const RETENTION_QUEUE = 'crosscheck-retention';
/** The daily pass's time, UTC: a quiet hour for a Korean bank (12:15 KST would not be). */
export const PURGE_AT_UTC = { hour: 18, minute: 15 };
export const PURGE_CRON = `${PURGE_AT_UTC.minute} ${PURGE_AT_UTC.hour} * * *`;

export type RetentionScheduler = { how: 'queue' | 'timer'; stop(): Promise<void> };

/** Milliseconds from `now` to the next PURGE_AT_UTC (a full day when it is that minute now). */
export function msUntilNextPurge(now: Date): number {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), PURGE_AT_UTC.hour, PURGE_AT_UTC.minute));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

export async function startRetentionScheduler({
  db,
  how = isEmbedded(env()) ? 'timer' : 'queue',
  pollIntervalMs = 5_000,
  clock = () => new Date(),
}: { db?: Db; how?: 'queue' | 'timer'; pollIntervalMs?: number; clock?: () => Date } = {}): Promise<RetentionScheduler> {
  const purgeLog = log.child({ component: 'retention' });
  const boss = await getBoss(db);
  await ensureQueue(boss, RETENTION_QUEUE, { policy: 'singleton', retryLimit: 1, retryDelay: 600, expireInSeconds: 6 * 3600 });
  await boss.work(RETENTION_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, pollIntervalMs / 1000) }, async () => {
    try {
      const result = await purgeExpired({ db: db ?? (await getDb()), now: clock() });
      const counts = Object.fromEntries(Object.entries(result.kinds).map(([k, v]) => [k, v.count]));
      purgeLog.info('retention purge', counts);
    } catch (err) {
      purgeLog.error('retention purge failed', { err });
      throw err;
    }
  });
  if (how === 'queue') {
    await boss.schedule(RETENTION_QUEUE, PURGE_CRON, {}, { tz: 'UTC' });
    return { how, stop: () => boss.offWork(RETENTION_QUEUE, { wait: false }) };
  }
  // The embedded database: this process is the only one, so its timer is the schedule.
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void boss.send(RETENTION_QUEUE, {}).catch((err: unknown) => purgeLog.error('retention purge not queued', { err }));
      arm();
    }, msUntilNextPurge(clock()));
    timer.unref();
  };
  arm();
  return {
    how,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await boss.offWork(RETENTION_QUEUE, { wait: false });
    },
  };
}
