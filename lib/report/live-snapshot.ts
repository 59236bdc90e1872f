// The snapshot message of the run events stream (app/api/runs/[id]/events/route.ts), for a viewer
// who comes without a position in the run's log, computed once for every such viewer who asks at
// the same point of the run. A reload storm or many viewers reconnecting after a deploy used to
// make each connection read the whole run, build its state and serialize it on its own: 200 at
// once took a server from 280 MB to 950 MB. Now concurrent requests at the same number of the
// run's log (no event in between) share one read and one encoded message, which every stream
// enqueues as it is.
import type { Db } from '@/lib/db/client';
import { runEventSeq } from '@/lib/db/queries/run-events';
import { loadLiveState } from '@/lib/report/live-state';
import type { LiveRunState } from '@/lib/report/run-state';

export type SnapshotMessage = {
  status: LiveRunState['status'];
  /** The number of the log's latest event the snapshot includes: the stream goes on after it. */
  seq: number;
  /** `id: …\ndata: {"type":"snapshot",…}\n\n`, UTF-8; shared, so never written to. */
  bytes: Uint8Array;
};

const encoder = new TextEncoder();

type InFlight = Map<string, Promise<SnapshotMessage>>;
const globalForSnapshots = globalThis as typeof globalThis & { __crosscheckSnapshots?: InFlight };
const inFlight = (): InFlight => (globalForSnapshots.__crosscheckSnapshots ??= new Map());

async function build({ db, runId }: { db: Db; runId: string }): Promise<SnapshotMessage> {
  const state = await loadLiveState({ db, runId });
  const seq = state.seq ?? 0;
  return { status: state.status, seq, bytes: encoder.encode(`id: ${seq}\ndata: ${JSON.stringify({ type: 'snapshot', state })}\n\n`) };
}

/**
 * The snapshot message of the run now. A request that finds one being computed at the log's
 * current number waits for that one: nothing happened to the run between the two. Only
 * in-flight work is shared; a later request reads afresh. `seq`: the log's number as the caller
 * has just read it with the run (a snapshot computed from then on includes all it saw).
 */
export async function snapshotMessage({ db, runId, seq: known }: { db: Db; runId: string; seq?: number }): Promise<SnapshotMessage> {
  const seq = known ?? (await runEventSeq(db, runId));
  if (seq === null) return build({ db, runId });
  const key = `${runId}\n${seq}`;
  const pending = inFlight().get(key);
  if (pending) return pending;
  const computed = build({ db, runId }).finally(() => {
    if (inFlight().get(key) === computed) inFlight().delete(key);
  });
  inFlight().set(key, computed);
  return computed;
}

/** How many snapshot computations are under way (for tests). */
export function snapshotsInFlight() {
  return inFlight().size;
}
