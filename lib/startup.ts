// What the app does once at start (instrumentation.ts): opening the database (and seeding a new
// embedded one), the demo accounts where DEMO asks for them, and the embedded queue
// worker on PostgreSQL, the portfolio watch's and the retention purge's schedulers, resuming interrupted runs, and the lines that tell the operator how to
// sign in. Next.js awaits register() before it serves the first request, so no page or route
// sees the database before the demo data is in it.
import type { DatabaseHandle } from '@/lib/db/client';
import { hasAnyCompany } from '@/lib/db/queries/demo';
import { openAppDatabase } from '@/lib/demo/app-database';
import { DataFolderError } from '@/lib/db/data-dir';
import { DEMO_ACCOUNTS, demoPasswordNote } from '@/lib/demo/accounts';
import { DEFAULT_DEMO_PASSWORD, demoEnabled, env, EnvError, isEmbedded } from '@/lib/env';
import type { QueueWorker } from '@/lib/jobs/worker';
import { stopOnSignals } from '@/lib/shutdown';
import { log } from '@/lib/ops/log';

/**
 * The demo sign-in lines, after making them true: the embedded database got its demo accounts
 * with its first seed (lib/demo/seed.ts), while on PostgreSQL with DEMO=1 nothing else creates
 * them, so they are created here when missing. Without companies the pool is still to load.
 */
export async function demoSignIns(database: Pick<DatabaseHandle, 'db' | 'kind'>, e = env()): Promise<string[]> {
  if (!demoEnabled(e)) return [];
  const lines: string[] = [];
  if (database.kind === 'postgres') {
    const { ensureDemoAccounts } = await import('@/lib/demo/seed');
    const created = await ensureDemoAccounts(database.db, e.DEMO_PASSWORD);
    if (created) lines.push(`Created ${created} demo account${created === 1 ? '' : 's'} (DEMO=1).`);
  }
  lines.push(`Demo sign-ins (${demoPasswordNote(e.DEMO_PASSWORD, DEFAULT_DEMO_PASSWORD)}):`);
  for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(24)} ${a.role}`);
  if (database.kind === 'postgres' && !(await hasAnyCompany({ db: database.db }))) {
    lines.push('The knowledge pool is empty: `npm run db:seed` loads the demo pool and the demo cases.');
  }
  return lines;
}

export async function startUp() {
  try {
    const e = env();
    const database = await openAppDatabase();
    const lines = [`Crosscheck is ready on http://localhost:${e.PORT} (database: ${database.kind}, ${database.location})`];
    lines.push(...(await demoSignIns(database, e)));
    if (!isEmbedded(e)) {
      // Through a PostgreSQL restart (Next.js logs other unhandled rejections itself).
      (await import('@/lib/jobs/process-guard')).surviveDatabaseOutages({ exitOnOtherErrors: false });
    }
    let worker: QueueWorker | undefined;
    if (isEmbedded(e)) {
      // Nothing else can open the embedded database: this process executes its runs.
      const { startWorker } = await import('@/lib/jobs/worker');
      worker = await startWorker({ db: database.db, concurrency: e.WORKER_CONCURRENCY });
      lines.push(`Runs go through the job queue in the embedded database; this process executes up to ${e.WORKER_CONCURRENCY} at once.`);
    } else if (e.CROSSCHECK_EMBEDDED_WORKER) {
      const { startWorker } = await import('@/lib/jobs/worker');
      worker = await startWorker({ db: database.db, concurrency: e.WORKER_CONCURRENCY });
      lines.push(`Runs go through the PostgreSQL job queue; this instance's worker (${worker.workerId}) executes up to ${e.WORKER_CONCURRENCY} at once.`);
    } else {
      lines.push('Runs go through the PostgreSQL job queue; this instance executes none (CROSSCHECK_EMBEDDED_WORKER=0): start `npm run worker`.');
    }
    // The watch's schedule is not worth an instance that never serves: a failure to set it up is
    // said, and the passes are left to the other processes (pg-boss's cron runs on any of them).
    const watch = await (await import('@/lib/jobs/watch-scheduler')).startWatchScheduler({ db: database.db }).catch((err: unknown) => {
      log.error('portfolio watch not scheduled in this process', { component: 'watch', err });
      return 'failed' as const;
    });
    lines.push(
      watch === 'failed'
        ? 'Portfolio watch: could not be scheduled in this instance (see the log); other instances and workers still take its passes.'
        : watch
          ? `Portfolio watch: a pass every ${watch.minutes} minute${watch.minutes === 1 ? '' : 's'} (${watch.how === 'queue' ? 'pg-boss cron job' : 'in this process'}).`
          : 'Portfolio watch: no scheduled passes (WATCH_PASS_MINUTES=0).',
    );
    // The daily retention purge (docs/retention.md); like the watch, a failure here is said and left to the other instances.
    const retention = await (await import('@/lib/jobs/retention-scheduler')).startRetentionScheduler({ db: database.db }).catch((err: unknown) => {
      log.error('retention purge not scheduled in this process', { component: 'retention', err });
      return 'failed' as const;
    });
    lines.push(
      retention === 'failed'
        ? 'Retention purge: could not be scheduled in this instance (see the log).'
        : `Retention purge: daily at 18:15 UTC (${retention.how === 'queue' ? 'pg-boss cron job' : 'in this process'}).`,
    );
    stopOnSignals({ worker });
    // Runs a stopped process left without a job: the worker queued them as it started; an instance
    // without one does it here (a dead worker's jobs come back by pg-boss's heartbeat either way).
    const resumed = worker ? worker.orphansQueued : await (await import('@/lib/jobs/boss')).queueOrphanedRuns({ db: database.db });
    if (resumed) lines.push(`Queued again: ${resumed} interrupted analysis run${resumed === 1 ? '' : 's'}.`);
    console.log(lines.join('\n'));
  } catch (err) {
    if (err instanceof DataFolderError || err instanceof EnvError) {
      console.error(`\nCrosscheck cannot start: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
