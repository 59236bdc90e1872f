// Many viewers opening a run's event stream at once share one snapshot: the database is read,
// the state built and the JSON encoded once per run and number of its log, not once per
// connection (200 concurrent snapshot requests took a server from 280 MB to 950 MB). The
// database's part is a stub that counts its calls; the route is the real one.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const reads = { count: 0, waiting: [] as (() => void)[], fail: false };
/** The run's log: its latest event's number, as the stub database answers it. */
const log = { seq: 0 };
const db = { select: () => ({ from: () => ({ where: async () => [{ seq: log.seq }] }) }) };
/** Lets every read under way finish. */
const releaseReads = () => reads.waiting.splice(0).forEach((resolve) => resolve());
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => ({ id: 'u1', role: 'rm', name: 'RM', email: 'rm@example.test' }) }));
vi.mock('@/lib/auth/run-access', () => ({ assertRunAccess: async () => {} }));
vi.mock('@/lib/db/client', () => ({ getDb: async () => db }));
vi.mock('@/lib/db/queries/audit', () => ({ recordRunView: async () => {} }));
vi.mock('@/lib/db/queries/runs', () => ({ getRun: async () => ({ status: 'succeeded', eventSeq: log.seq }) }));
vi.mock('@/lib/report/live-state', () => ({
  // Slow on purpose, so the requests overlap as they do under load; finished, so each stream ends.
  loadLiveState: async ({ runId }: { runId: string }) => {
    const seq = log.seq;
    reads.count++;
    await new Promise<void>((resolve) => reads.waiting.push(resolve));
    if (reads.fail) throw new Error('the database went away');
    return { runId, status: 'succeeded', text: '가나다', seq };
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
    log.seq = 12;
    const bodies = Promise.all(Array.from({ length: 200 }, () => readAll(runId)));
    await releaseWhenStarted();
    const texts = await bodies;
    expect(reads.count).toBe(1);
    const expected = `retry: 2000\n\nid: 12\ndata: ${JSON.stringify({ type: 'snapshot', state: { runId, status: 'succeeded', text: '가나다', seq: 12 } })}\n\n`;
    for (const text of texts) expect(text).toBe(expected);
    expect(snapshotsInFlight()).toBe(0);
  });

  it('a request after an event, or after the shared read ended, reads afresh', async () => {
    const runId = `fresh-${Math.random()}`;
    log.seq = 3;
    const first = snapshotMessage({ db: db as never, runId });
    const same = snapshotMessage({ db: db as never, runId });
    while (reads.count < 1) await new Promise((r) => setImmediate(r));
    expect(await Promise.race([same, Promise.resolve('pending')])).toBe('pending');
    // An event was recorded: the earlier read may not include it, so this viewer reads afresh.
    log.seq = 4;
    const later = snapshotMessage({ db: db as never, runId });
    while (reads.count < 2) await new Promise((r) => setImmediate(r));
    releaseReads();
    const [a, b, c] = await Promise.all([first, same, later]);
    expect(b).toBe(a);
    expect([a.seq, c.seq]).toEqual([3, 4]);
    expect(reads.count).toBe(2);
    expect(snapshotsInFlight()).toBe(0);
    const again = snapshotMessage({ db: db as never, runId });
    await releaseWhenStarted();
    await again;
    expect(reads.count).toBe(3);
  });

  it('a failed read fails every viewer waiting on it, and the next request tries again', async () => {
    const runId = `failed-${Math.random()}`;
    reads.fail = true;
    const waiting = Promise.allSettled(Array.from({ length: 5 }, () => snapshotMessage({ db: db as never, runId })));
    await releaseWhenStarted();
    expect((await waiting).map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(reads.count).toBe(1);
    reads.fail = false;
    const retried = snapshotMessage({ db: db as never, runId });
    await releaseWhenStarted();
    expect((await retried).status).toBe('succeeded');
    expect(reads.count).toBe(2);
  });
});
