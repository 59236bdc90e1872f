// A worker's hold on the runs it executes. pg-boss 10 had no heartbeat (12 has one, which a later
// step of docs/jobs-queue-spike.md moves to) and a job's expiry is far too coarse for runs of a few
// minutes, so each run carries its own lease (runs.worker_id,
// runs.lease_expires_at) that the worker renews every few seconds. A renewal that finds a run
// no longer held stops executing it here without ending it (the new holder goes on); one that
// finds the run cancelled by another process stops it as cancelled.
import type { Db } from '@/lib/db/client';
import { getRun, renewLeases } from '@/lib/db/queries/runs';
import { cancelRun, isRunActive, releaseRun } from '@/lib/debate/engine';
import { TERMINAL_RUN_STATUSES } from '@/lib/domain/vocabulary';
import { log } from '@/lib/ops/log';

export type LeaseTiming = { leaseMs: number; renewMs: number };

export function startLeaseKeeper({ db, workerId, leaseMs, renewMs, held }: { db: Db; workerId: string; held: () => string[] } & LeaseTiming) {
  const keeperLog = log.child({ component: 'worker', workerId });
  let renewing: Promise<void> | undefined;

  /**
   * A run the renewal no longer found under this worker's lease. Mostly one that ended here: its
   * final status clears its lease, and the worker lists it until its execution has tidied up, so
   * a renewal on its way at that moment misses it; or one this worker handed back (a graceful
   * stop). Neither was lost. It was lost when it goes on under another worker's lease (this one
   * ran out, or was taken), or when it still executes here with nobody's lease; that is said.
   * Either way it stops executing here, which is nothing for a run that already stopped; a run
   * this worker claimed anew since the renewal is its own again and is left alone.
   */
  const letGo = async (id: string) => {
    const run = await getRun({ db, id });
    if (run?.workerId === workerId) return;
    const going = run !== undefined && !TERMINAL_RUN_STATUSES.includes(run.status);
    if (going && (run.workerId !== null || isRunActive(id))) {
      keeperLog.warn('lost the lease on a run; another worker resumes it', { runId: id, holder: run.workerId });
    }
    releaseRun(id);
  };

  const renew = async () => {
    const ids = held();
    if (!ids.length) return;
    const rows = await renewLeases({ db, ids, workerId, leaseMs });
    const still = new Map(rows.map((r) => [r.id, r.status]));
    for (const id of ids) {
      const status = still.get(id);
      if (status === undefined) {
        await letGo(id);
      } else if (status === 'cancelled') {
        keeperLog.info('run cancelled elsewhere; stopping it', { runId: id });
        cancelRun(id);
      }
    }
  };

  const timer = setInterval(() => {
    if (renewing) return;
    renewing = renew()
      // A database hiccup: the lease has several renewals' worth of slack, try again next tick.
      .catch((err) => keeperLog.error('could not renew leases', { err }))
      .finally(() => (renewing = undefined));
  }, renewMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
