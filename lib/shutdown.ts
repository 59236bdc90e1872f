// Stopping an app instance on SIGTERM or SIGINT. `npm start` runs `next start` with
// NEXT_MANUAL_SIG_HANDLE=1, which leaves both signals to us instead of Next.js exiting at once:
// - on PostgreSQL the embedded queue worker stops taking runs, finishes the runs in hand for up to
//   WORKER_SHUTDOWN_TIMEOUT_MS, then hands the rest to another worker, as `npm run worker` does;
// - on the embedded database nobody else could take them: the runs stop at once without ending,
//   back on the queue, and resume at the next start;
// - viewers' streams stop following run logs, the counters are written, and the database is closed (which
//   also frees an embedded data folder for the next process).
// Requests still being served when the process exits are cut off: take the instance out of the
// load balancer first. A second signal exits at once. Without NEXT_MANUAL_SIG_HANDLE (plain
// `next start`, `next dev`) Next.js exits by itself and the embedded worker's runs go to another
// worker once their jobs' heartbeats lapse.
import { closeDb } from '@/lib/db/client';
import { stopLogTail } from '@/lib/debate/log-tail';
import { env, isEmbedded } from '@/lib/env';
import type { QueueWorker } from '@/lib/jobs/worker';
import { flushCounters } from '@/lib/ops/counters';
import { log } from '@/lib/ops/log';

const DUPLICATE_SIGNAL_MS = 1_000;

export function stopOnSignals({ worker }: { worker?: QueueWorker }) {
  if (!process.env.NEXT_MANUAL_SIG_HANDLE) return false;
  const shutdownLog = log.child({ component: 'shutdown' });
  let stoppingSince: number | undefined;
  const stop = async (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      // Ctrl-C reaches `next start` twice (from the terminal and from `npm start`): only a signal
      // that comes later is someone asking again.
      if (Date.now() - stoppingSince < DUPLICATE_SIGNAL_MS) return;
      console.log(`Crosscheck: ${signal} again, exiting now`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    const embedded = isEmbedded(env());
    const timeoutMs = embedded ? 0 : env().WORKER_SHUTDOWN_TIMEOUT_MS;
    console.log(
      `Crosscheck is stopping (${signal})${
        !worker
          ? ''
          : embedded
            ? ': the runs in hand resume at the next start'
            : `: finishing the runs in hand for up to ${timeoutMs / 1000} s, then handing them over`
      }`,
    );
    try {
      await worker?.stop({ graceful: true, timeoutMs });
      stopLogTail();
      if (worker) await (await import('@/lib/jobs/boss')).stopBoss();
      await flushCounters();
      await closeDb();
      console.log('Crosscheck stopped');
      process.exit(0);
    } catch (err) {
      shutdownLog.error('stopping failed', { err });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return true;
}
