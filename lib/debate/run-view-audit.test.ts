// Reading a run's transcript is audited: the run page writes `run.view` on every load, and the
// event stream writes one when it is opened on its own, but not for the stream the page opens
// nor for the browser's reconnects within a few minutes.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { RUN_VIEW_WINDOW_MS, verifyAuditChain } from '@/lib/db/queries/audit';
import { auditLog, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const state: { handle: DatabaseHandle | null; userId: string; runId: string } = { handle: null, userId: '', runId: '' };
const sessionUser = () => ({ id: state.userId, role: 'rm' as const, name: 'Viewer', email: 'viewer@example.test', demo: false });
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => sessionUser(), requirePermission: async () => sessionUser() }));
vi.mock('@/lib/auth/run-access', () => ({
  assertRunAccess: async () => ({}),
  requireRunAccess: async (runId: string) => ({
    user: sessionUser(),
    run: {
      id: runId,
      status: 'succeeded',
      protocol: 'nas',
      provider: 'offline',
      model: 'offline',
      mode: 'dag',
      params: { language: 'en', asOf: '2025-06-30' },
    },
    kase: null,
  }),
  canAccessRun: () => false,
}));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));
// The transcript itself is not what these tests are about: a finished run's state, from a stub.
vi.mock('@/lib/report/live-state', () => ({
  loadLiveState: async ({ runId }: { runId: string }) => ({ runId, status: 'succeeded' }),
  evidenceForOutput: async () => ({}),
}));
// Nor its final checks: a report without any.
vi.mock('@/lib/report/load', () => ({ loadReportInput: async () => ({ view: { report: null, turns: [] }, sources: {} }) }));
vi.mock('@/components/review/case-review', () => ({ CaseDecisionCard: () => null, RunReview: () => null }));
vi.mock('@/components/run/live-run', () => ({ LiveRun: () => null }));
vi.mock('@/lib/i18n/server', () => ({ getT: async () => (key: string) => key, getLocale: async () => 'en' }));

const { GET } = await import('@/app/api/runs/[id]/events/route');
const { default: RunPage } = await import('@/app/(signed-in)/(workspace)/runs/[id]/page');

async function openStream(runId: string) {
  const response = await GET(new Request(`http://localhost/api/runs/${runId}/events`), { params: Promise.resolve({ id: runId }) });
  expect(response.status).toBe(200);
  // Read to the end: the stub's run is finished, so the stream closes after its snapshot.
  await response.text();
}

describe.each(testBackends())('run transcript views on %s', (backend) => {
  beforeAll(async () => {
    state.handle = await createTestDatabase(backend);
    const [row] = await state.handle.db.insert(users).values({ email: 'viewer@example.test', name: 'Viewer', role: 'rm' }).returning();
    state.userId = row.id;
  });
  afterAll(() => state.handle?.close());
  afterEach(() => vi.useRealTimers());

  const views = async (runId: string) =>
    (
      await state
        .handle!.db.select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'run.view'), eq(auditLog.entityId, runId)))
        .orderBy(asc(auditLog.seq))
    ).map((e) => ({ actorId: e.actorId, entityType: e.entityType, detail: e.detail }));

  it('opening a run’s event stream writes run.view once; reconnects within the window add nothing, a later one does', async () => {
    const runId = crypto.randomUUID();
    await openStream(runId);
    await openStream(runId);
    await openStream(runId);
    expect(await views(runId)).toEqual([{ actorId: state.userId, entityType: 'run', detail: { via: 'stream' } }]);

    vi.useFakeTimers({ now: Date.now() + RUN_VIEW_WINDOW_MS + 1_000, toFake: ['Date'] });
    await openStream(runId);
    expect(await views(runId)).toHaveLength(2);
    expect((await verifyAuditChain({ db: state.handle!.db })).ok).toBe(true);
  });

  it('loading the run page writes run.view on every load, and the stream it opens adds none', async () => {
    const runId = crypto.randomUUID();
    await RunPage({ params: Promise.resolve({ id: runId }) });
    await openStream(runId);
    await RunPage({ params: Promise.resolve({ id: runId }) });
    expect(await views(runId)).toEqual([
      { actorId: state.userId, entityType: 'run', detail: { via: 'page', status: 'succeeded' } },
      { actorId: state.userId, entityType: 'run', detail: { via: 'page', status: 'succeeded' } },
    ]);
  });
});
