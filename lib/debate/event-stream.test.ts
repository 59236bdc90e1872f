// The run events stream (app/api/runs/[id]/events/route.ts) follows the run's log from where
// the viewer is: the page's `?after=`, or the browser's Last-Event-ID on a reconnect, each event
// sent once with its number as the SSE id, and the stream ended after run-finished. The route
// and the database are real; the session is a stub (lib/auth/session-watch.test.ts covers it).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { companies, runs } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { recordEvent } from '@/lib/debate/event-log';
import type { RunEvent } from '@/lib/domain/protocol';

const state: { handle: DatabaseHandle | null } = { handle: null };
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => ({ id: 'u1', role: 'rm', name: 'RM', email: 'rm@example.test', demo: false }) }));
vi.mock('@/lib/auth/run-access', () => ({ assertRunAccess: async () => {} }));
vi.mock('@/lib/db/queries/audit', () => ({ recordRunView: async () => {} }));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));

const { GET } = await import('@/app/api/runs/[id]/events/route');

const at = '2026-01-01T00:00:00.000Z';
const steps = [{ id: 'NAS', agent: 'A', team: 'neutral' as const, act: 'analysis' as const, context: [] }];

type Frame = { id: string | null; type: string };

/** Reads the stream until it ends or `ms` pass; each message's SSE id and event type. */
async function read(runId: string, { query = '', headers = {}, ms = 3_000 }: { query?: string; headers?: Record<string, string>; ms?: number } = {}) {
  const response = await GET(new Request(`http://localhost/api/runs/${runId}/events${query}`, { headers }), { params: Promise.resolve({ id: runId }) });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let ended = false;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
    if (next === null) break;
    if (next.done) {
      ended = true;
      break;
    }
    text += next.value;
  }
  if (!ended) await reader.cancel();
  const frames: Frame[] = text
    .split('\n\n')
    .filter((block) => /^data: /m.test(block))
    .map((block) => ({ id: /^id: (.*)$/m.exec(block)?.[1] ?? null, type: (JSON.parse(/^data: (.*)$/m.exec(block)![1]) as { type: string }).type }));
  return { frames, ended };
}

describe.each(testBackends())('the run events stream on %s', (backend) => {
  beforeAll(async () => {
    state.handle = await createTestDatabase(backend);
    await state.handle.db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
  });
  afterAll(() => state.handle?.close());

  /** A run with its first events recorded: run-started (1), step-started (2), a partial (3). */
  async function runningRun() {
    const db = state.handle!.db;
    const [run] = await db
      .insert(runs)
      .values({ companyId: 'acme', protocol: 'nas', provider: 'offline', model: 'm', status: 'running' })
      .returning({ id: runs.id });
    const events: RunEvent[] = [
      { type: 'run-started', runId: run.id, at, steps },
      { type: 'step-started', runId: run.id, stepId: 'NAS', at, attempt: 1 },
      { type: 'step-partial', runId: run.id, stepId: 'NAS', text: 'so far', output: { text: 'so far' } },
    ];
    for (const e of events) await recordEvent(db, e);
    return run.id;
  }

  async function finish(runId: string) {
    const db = state.handle!.db;
    await recordEvent(db, { type: 'report-ready', runId, at });
    await db.update(runs).set({ status: 'succeeded' }).where(eq(runs.id, runId));
    await recordEvent(db, { type: 'run-finished', runId, at, status: 'succeeded' });
  }

  it("from the page's position: no snapshot, each later event once with its number, then the end", async () => {
    const runId = await runningRun();
    const stream = read(runId, { query: '?after=2' });
    await new Promise((r) => setTimeout(r, 300));
    await finish(runId);
    const { frames, ended } = await stream;
    expect(frames).toEqual([
      { id: '3', type: 'step-partial' },
      { id: '4', type: 'report-ready' },
      { id: '5', type: 'run-finished' },
    ]);
    expect(ended).toBe(true);
  });

  it("a reconnect's Last-Event-ID goes before the page's position; a finished run's viewer who has it all gets nothing and the end", async () => {
    const runId = await runningRun();
    await finish(runId);
    expect((await read(runId, { query: '?after=1', headers: { 'last-event-id': '4' } })).frames).toEqual([{ id: '5', type: 'run-finished' }]);
    expect(await read(runId, { query: '?after=5' })).toEqual({ frames: [], ended: true });
  });

  it('without a position, or with one this server never gave, a snapshot first, numbered where the log stands', async () => {
    const runId = await runningRun();
    for (const query of ['', '?after=99', '?after=-1', '?after=1e3']) {
      const { frames, ended } = await read(runId, { query, ms: 1_000 });
      expect(frames, query).toEqual([{ id: '3', type: 'snapshot' }]);
      expect(ended).toBe(false);
    }
  });
});
