// A worker's hold on the runs it executes. pg-boss 10 has no heartbeat and its job expiry is
// far too coarse for runs of a few minutes, so each run carries its own lease (runs.worker_id,
// runs.lease_expires_at) that the worker renews every few seconds. A renewal that finds a run
// no longer held stops executing it here without ending it (the new holder goes on); one that
// finds the run cancelled by another process stops it as cancelled.
import type { Db } from '@/lib/db/client';
import { renewLeases } from '@/lib/db/queries/runs';
import { cancelRun, releaseRun } from '@/lib/debate/engine';
import { log } from '@/lib/ops/log';

export type LeaseTiming = { leaseMs: number; renewMs: number };

export function startLeaseKeeper({ db, workerId, leaseMs, renewMs, held }: { db: Db; workerId: string; held: () => string[] } & LeaseTiming) {
  const keeperLog = log.child({ component: 'worker', workerId });
  let renewing: Promise<void> | undefined;

  const renew = async () => {
    const ids = held();
    if (!ids.length) return;
    const rows = await renewLeases({ db, ids, workerId, leaseMs });
    const still = new Map(rows.map((r) => [r.id, r.status]));
    for (const id of ids) {
      const status = still.get(id);
      if (status === undefined) {
        keeperLog.warn('lost the lease on a run; another worker resumes it', { runId: id });
        releaseRun(id);
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
