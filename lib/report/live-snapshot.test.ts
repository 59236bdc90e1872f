// Many viewers opening a run's event stream at once share one snapshot: the database is read,
// the state built and the JSON encoded once per run and bus version, not once per connection
// (200 concurrent snapshot requests took a server from 280 MB to 950 MB). The database's part
// is a stub that counts its calls; the route is the real one.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runBus, type RunSnapshot } from '@/lib/debate/bus';

const reads = { count: 0, waiting: [] as (() => void)[], fail: false };
/** Lets every read under way finish. */
const releaseReads = () => reads.waiting.splice(0).forEach((resolve) => resolve());
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => ({ id: 'u1', role: 'rm', name: 'RM', email: 'rm@example.test' }) }));
vi.mock('@/lib/auth/run-access', () => ({ assertRunAccess: async () => {} }));
vi.mock('@/lib/db/client', () => ({ getDb: async () => ({}) }));
vi.mock('@/lib/db/queries/audit', () => ({ recordRunView: async () => {} }));
vi.mock('@/lib/report/live-state', () => ({
  // Slow on purpose, so the requests overlap as they do under load; finished, so each stream ends.
  loadLiveState: async ({ runId, live }: { runId: string; live: RunSnapshot }) => {
    reads.count++;
    await new Promise<void>((resolve) => reads.waiting.push(resolve));
    if (reads.fail) throw new Error('the database went away');
    return { runId, status: 'succeeded', text: live.steps.D1?.text ?? null };
  },
  evidenceForOutput: async () => ({}),
}));

const { GET } = await import('@/app/api/runs/[id]/events/route');
const { snapshotMessage, snapshotsInFlight } = await import('@/lib/report/live-snapshot');

async function readAll(runId: string) {
  const response = await GET(new Request(`http://localhost/api/runs/${runId}/events`), { params: Promise.resolve({ id: runId }) });
  return new Response(response.body).text();
}

/** Lets the pending requests reach the stub, then lets the one read finish. */
async function releaseWhenStarted() {
  while (reads.count === 0) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 20));
  releaseReads();
}

describe('shared run snapshots', () => {
  beforeEach(() => {
    releaseReads();
    reads.count = 0;
    reads.fail = false;
  });

  it('200 concurrent snapshot requests for one run read and serialize it once, and each gets the whole snapshot', async () => {
    const runId = `shared-${Math.random()}`;
    runBus().receive({ type: 'step-started', runId, stepId: 'D1', at: '2026-01-01T00:00:00.000Z', attempt: 1 });
    runBus().receive({ type: 'step-partial', runId, stepId: 'D1', text: '가나다', output: { text: '가나다' } });
    const bodies = Promise.all(Array.from({ length: 200 }, () => readAll(runId)));
    await releaseWhenStarted();
    const texts = await bodies;
    expect(reads.count).toBe(1);
    const expected = `retry: 2000\n\ndata: ${JSON.stringify({ type: 'snapshot', state: { runId, status: 'succeeded', text: '가나다' } })}\n\n`;
    for (const text of texts) expect(text).toBe(expected);
    expect(snapshotsInFlight()).toBe(0);
  });

  it('a request after an event, or after the shared read ended, reads afresh', async () => {
    const runId = `fresh-${Math.random()}`;
    const bus = runBus();
    bus.receive({ type: 'step-started', runId, stepId: 'D1', at: '2026-01-01T00:00:00.000Z', attempt: 1 });
    const first = snapshotMessage({ db: {} as never, runId, live: bus.snapshot(runId) });
    const same = snapshotMessage({ db: {} as never, runId, live: bus.snapshot(runId) });
    expect(same).toBe(first);
    // A partial answer arrived: the earlier read may not reflect it, and this viewer will not get it as an event.
    bus.receive({ type: 'step-partial', runId, stepId: 'D1', text: 'more', output: { text: 'more' } });
    const later = snapshotMessage({ db: {} as never, runId, live: bus.snapshot(runId) });
    expect(later).not.toBe(first);
    // So does a resync (events may have been lost): the bus version moves on.
    const before = bus.snapshot(runId).version;
    bus.resync([runId]);
    expect(bus.snapshot(runId).version).not.toBe(before);
    while (reads.count < 2) await new Promise((r) => setImmediate(r));
    releaseReads();
    await Promise.all([first, later]);
    expect(reads.count).toBe(2);
    expect(snapshotsInFlight()).toBe(0);
    const again = snapshotMessage({ db: {} as never, runId, live: bus.snapshot(runId) });
    await releaseWhenStarted();
    await again;
    expect(reads.count).toBe(3);
  });

  it('a failed read fails every viewer waiting on it, and the next request tries again', async () => {
    const runId = `failed-${Math.random()}`;
    reads.fail = true;
    const waiting = Promise.allSettled(Array.from({ length: 5 }, () => snapshotMessage({ db: {} as never, runId, live: runBus().snapshot(runId) })));
    await releaseWhenStarted();
    expect((await waiting).map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(reads.count).toBe(1);
    reads.fail = false;
    const retried = snapshotMessage({ db: {} as never, runId, live: runBus().snapshot(runId) });
    await releaseWhenStarted();
    expect((await retried).status).toBe('succeeded');
    expect(reads.count).toBe(2);
  });
});
