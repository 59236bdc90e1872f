// `npm run worker`: a process that executes analysis runs from the PostgreSQL job queue, up to
// WORKER_CONCURRENCY at once. Start as many as the model provider's quota allows, on any
// machines that reach the database. SIGTERM or SIGINT stops it gracefully: no new runs, up to
// WORKER_SHUTDOWN_TIMEOUT_MS for the runs in hand, then the rest go to another worker, which
// resumes them from their last completed step. A second signal exits at once (the jobs' heartbeats
// then lapse and other workers take the runs over all the same).
import { closeDb } from '@/lib/db/client';
import { openAppDatabase } from '@/lib/demo/app-database';
import { env, isEmbedded } from '@/lib/env';
import { HEARTBEAT_SECONDS, stopBoss } from '@/lib/jobs/boss';
import { surviveDatabaseOutages } from '@/lib/jobs/process-guard';
import { startRetentionScheduler } from '@/lib/jobs/retention-scheduler';
import { startWatchScheduler } from '@/lib/jobs/watch-scheduler';
import { startWorker } from '@/lib/jobs/worker';
import { flushCounters } from '@/lib/ops/counters';
import { describeError } from './lib/describe-error';

async function main() {
  const e = env();
  if (isEmbedded(e)) {
    console.error(
      '[worker] cannot start: workers need PostgreSQL. Set DATABASE_URL (the same as the app instances use); the embedded database executes runs inside the app.',
    );
    process.exit(1);
  }
  surviveDatabaseOutages({ exitOnOtherErrors: true });
  const { location } = await openAppDatabase();
  const worker = await startWorker({ concurrency: e.WORKER_CONCURRENCY });
  // The portfolio watch's cron job (lib/jobs/watch-scheduler.ts): any app instance or worker may
  // take a pass, one at a time across all of them.
  // Runs come first: a watch that cannot be scheduled here is said, and left to the other processes.
  const watch = await startWatchScheduler().catch((err: unknown) => {
    console.error(`[worker] the portfolio watch could not be scheduled here: ${err instanceof Error ? err.message : String(err)}`);
    return 'failed' as const;
  });
  // The daily retention purge (docs/retention.md), a pg-boss cron job too: one pass at a time across
  // every instance and worker, so a deployment whose app instances are down still purges.
  const retention = await startRetentionScheduler().catch((err: unknown) => {
    console.error(`[worker] the retention purge could not be scheduled here: ${err instanceof Error ? err.message : String(err)}`);
    return 'failed' as const;
  });
  console.log(
    `[worker] ${worker.workerId} ready: executing up to ${e.WORKER_CONCURRENCY} run(s) at once from ${location} ` +
      `(a run goes to another worker ${HEARTBEAT_SECONDS} s after this one stops beating); ` +
      (watch === 'failed'
        ? 'takes no portfolio watch passes (scheduling failed)'
        : watch
          ? `takes portfolio watch passes (every ${watch.minutes} min)`
          : 'no portfolio watch passes (WATCH_PASS_MINUTES=0)') +
      (retention === 'failed' ? '; takes no retention purge (scheduling failed)' : '; takes the daily retention purge (18:15 UTC)'),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      console.log(`[worker] ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.log(`[worker] ${signal}: finishing or handing over the runs in hand`);
    try {
      if (watch && watch !== 'failed') await watch.stop();
      if (retention !== 'failed') await retention.stop();
      await worker.stop({ graceful: true, timeoutMs: e.WORKER_SHUTDOWN_TIMEOUT_MS });
      await stopBoss();
      await flushCounters();
      await closeDb();
      console.log('[worker] stopped');
      process.exit(0);
    } catch (err) {
      console.error(`[worker] stopping failed: ${describeError(err)}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(`[worker] cannot start: ${describeError(err)}`);
  process.exit(1);
});
