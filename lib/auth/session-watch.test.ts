// An open run event stream ends when its session does: after "sign out everywhere" (the session
// rows deleted), when the user is disabled, or when they lose the run. The route handler runs
// against a real database and a real session cookie; the check interval is shortened for the test.
import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession, revokeUserSessions } from '@/lib/auth/sessions';
import type { DatabaseHandle } from '@/lib/db/client';
import { recordEvent } from '@/lib/debate/event-log';
import { companies, runs, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { AppError } from '@/lib/errors';

const SECRET = 'session-watch-test-secret-0123456789abcdef';
const COOKIE = 'authjs.session-token';
const state: { handle: DatabaseHandle | null; userId: string; mayRead: boolean; signedIn: boolean } = {
  handle: null,
  userId: '',
  mayRead: true,
  signedIn: true,
};

vi.mock('@/lib/auth/secret', () => ({ authSecret: () => SECRET }));
vi.mock('@/lib/auth/session-watch', async (importOriginal) => ({ ...(await importOriginal<object>()), SESSION_CHECK_MS: 50 }));
// The check made when the stream opens is lib/auth/route.ts's, tested elsewhere; this is about
// the later ones, which ask it again only for a request without a session cookie.
vi.mock('@/lib/auth/session', () => ({
  getSessionUser: async () => (state.signedIn ? { id: state.userId, role: 'rm', name: 'Viewer', email: 'viewer@example.test', demo: false } : null),
}));
vi.mock('@/lib/auth/run-access', () => ({
  assertRunAccess: async () => {
    if (!state.mayRead) throw new AppError('not_found', 'This run does not exist or is not yours.');
  },
}));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));
vi.mock('@/lib/report/live-state', () => ({
  loadLiveState: async ({ runId }: { runId: string }) => ({ runId, status: 'running' }),
  evidenceForOutput: async () => ({}),
}));

const { GET } = await import('@/app/api/runs/[id]/events/route');
const { logTail } = await import('@/lib/debate/log-tail');

/** Opens the stream, with a cookie for a new session of the user unless `cookie` is false. */
async function open(runId: string, { cookie = true } = {}) {
  const sid = await createSession({ db: state.handle!.db, userId: state.userId, provider: 'credentials', ip: null, userAgent: null });
  const token = await encode({ token: { sub: state.userId, id: state.userId, role: 'rm', sid }, secret: SECRET, salt: COOKIE });
  const request = new Request(`http://localhost/api/runs/${runId}/events`, { headers: cookie ? { cookie: `${COOKIE}=${token}` } : {} });
  const response = await GET(request, { params: Promise.resolve({ id: runId }) });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const messages: string[] = [];
  let ended = false;
  /** Reads until the stream ends, or `ms` pass without it ending. */
  const readUntilEnd = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (!ended && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
      if (next === null) break;
      if (next.done) ended = true;
      else messages.push(...next.value.split('\n\n').filter((block) => /^data: /m.test(block)));
    }
    return { ended, messages };
  };
  return { readUntilEnd };
}

const partial = (runId: string, text: string) => ({ type: 'step-partial' as const, runId, stepId: 'D1', text, output: { text } });

/** A running run, whose log the stream follows. */
async function newRun() {
  const [run] = await state
    .handle!.db.insert(runs)
    .values({ companyId: 'acme', protocol: 'kpd-mads', provider: 'offline', model: 'm', status: 'running' })
    .returning({ id: runs.id });
  return run.id;
}

describe.each(testBackends())('an open run event stream and its session on %s', (backend) => {
  beforeAll(async () => {
    state.handle = await createTestDatabase(backend);
    const [row] = await state.handle.db.insert(users).values({ email: 'viewer@example.test', name: 'Viewer', role: 'rm' }).returning();
    state.userId = row.id;
    await state.handle.db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
  });
  afterAll(() => state.handle?.close());
  beforeEach(async () => {
    state.mayRead = true;
    state.signedIn = true;
    await state.handle!.db.update(users).set({ disabled: false }).where(eq(users.id, state.userId));
  });

  it('streams while the session holds, ends after "sign out everywhere", and sends nothing more', async () => {
    const runId = await newRun();
    const stream = await open(runId);
    // Several checks pass: the stream stays open and forwards what the run's log records.
    await recordEvent(state.handle!.db, partial(runId, 'a'));
    const before = await stream.readUntilEnd(400);
    expect(before.ended).toBe(false);
    expect(before.messages).toHaveLength(2); // the snapshot and the partial answer

    await state.handle!.db.transaction((tx) => revokeUserSessions({ tx, userId: state.userId, actorId: state.userId, reason: 'sign_out_everywhere' }));
    const after = await stream.readUntilEnd(5_000);
    expect(after.ended).toBe(true);
    const sent = after.messages.length;
    // Events after the end reach nobody: the stream has stopped following the run.
    for (let i = 0; i < 20; i++) await recordEvent(state.handle!.db, partial(runId, `late-${i}`));
    expect((await stream.readUntilEnd(100)).messages).toHaveLength(sent);
    expect((logTail(async () => state.handle!.db) as unknown as { runs: Map<string, unknown> }).runs.has(runId)).toBe(false);
  });

  it('ends when the user is disabled', async () => {
    const runId = crypto.randomUUID();
    const stream = await open(runId);
    expect((await stream.readUntilEnd(200)).ended).toBe(false);
    await state.handle!.db.update(users).set({ disabled: true }).where(eq(users.id, state.userId));
    expect((await stream.readUntilEnd(5_000)).ended).toBe(true);
  });

  it('ends when the user loses access to the run', async () => {
    const runId = crypto.randomUUID();
    const stream = await open(runId);
    expect((await stream.readUntilEnd(200)).ended).toBe(false);
    state.mayRead = false;
    expect((await stream.readUntilEnd(5_000)).ended).toBe(true);
  });

  it("without a session cookie, asks the route's own session check again, and ends when it fails", async () => {
    const stream = await open(crypto.randomUUID(), { cookie: false });
    expect((await stream.readUntilEnd(200)).ended).toBe(false);
    state.signedIn = false;
    expect((await stream.readUntilEnd(5_000)).ended).toBe(true);
  });
});
