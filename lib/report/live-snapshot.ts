// The snapshot message of the run events stream (app/api/runs/[id]/events/route.ts), computed
// once for every viewer who asks at the same point of the run. A reload storm or many viewers
// reconnecting after a deploy used to make each connection read the whole run, build its state
// and serialize it on its own: 200 at once took a server from 280 MB to 950 MB. Now concurrent
// requests with the same run and bus version (no event in between, lib/debate/bus.ts) share one
// read and one encoded message, which every stream enqueues as it is.
import type { Db } from '@/lib/db/client';
import type { RunSnapshot } from '@/lib/debate/bus';
import { loadLiveState } from '@/lib/report/live-state';
import type { LiveRunState } from '@/lib/report/run-state';

export type SnapshotMessage = {
  status: LiveRunState['status'];
  /** `data: {"type":"snapshot",…}\n\n`, UTF-8; shared, so never written to. */
  bytes: Uint8Array;
};

const encoder = new TextEncoder();

type InFlight = Map<string, Promise<SnapshotMessage>>;
const globalForSnapshots = globalThis as typeof globalThis & { __crosscheckSnapshots?: InFlight };
const inFlight = (): InFlight => (globalForSnapshots.__crosscheckSnapshots ??= new Map());

async function build({ db, runId, live }: { db: Db; runId: string; live: RunSnapshot }): Promise<SnapshotMessage> {
  const state = await loadLiveState({ db, runId, live });
  return { status: state.status, bytes: encoder.encode(`data: ${JSON.stringify({ type: 'snapshot', state })}\n\n`) };
}

/**
 * The snapshot message for `live` (taken from the bus when the viewer subscribed). A request
 * whose run and bus version match one being computed waits for that one: nothing happened to
 * the run between the two, and what the shared read already reflects of later events reduces to
 * the same state on the client. Only in-flight work is shared; a later request reads afresh.
 */
export function snapshotMessage({ db, runId, live }: { db: Db; runId: string; live: RunSnapshot }): Promise<SnapshotMessage> {
  if (live.version === undefined) return build({ db, runId, live });
  const key = `${runId}\n${live.version}`;
  const pending = inFlight().get(key);
  if (pending) return pending;
  const computed = build({ db, runId, live }).finally(() => {
    if (inFlight().get(key) === computed) inFlight().delete(key);
  });
  inFlight().set(key, computed);
  return computed;
}

/** How many snapshot computations are under way (for tests). */
export function snapshotsInFlight() {
  return inFlight().size;
}
