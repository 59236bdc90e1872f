// A query the database refuses is logged by its SQL and the database's reason, never by its
// parameters: the users page's createUser, refused by the database (for a NUL in the name, before
// the form refused those), logged the new account's scrypt password hash with the rest of the
// insert's values (issue 25, #11).
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@/lib/auth/session';
import type { DatabaseHandle } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createLogger, type LogFormat } from '@/lib/ops/log';

const state: { user: SessionUser | null; handle: DatabaseHandle | null } = { user: null, handle: null };
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => state.user }));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const { createUser } = await import('@/app/(signed-in)/(admin)/admin/users/actions');
const { createAccount } = await import('@/lib/auth/accounts');

const EMAIL = 'nul-name@example.test';
const PASSWORD = 'a-long-enough-password-1';
/** The failed statement, as a JSON line or a readable one (which quotes the message) prints it. */
const INSERT = /Failed query: insert into \\?"users\\?"/;

/** What the process writes to stderr (where errors are logged) while `run` runs. */
async function stderrOf(run: () => Promise<unknown>) {
  let out = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return out;
}

/** A logged line carries no value the insert was given, the hash above all. */
function expectNoParameters(text: string, values: string[]) {
  expect(text).not.toContain('scrypt$');
  expect(text).not.toContain('params:');
  for (const value of values) expect(text).not.toContain(value);
}

describe.each(testBackends())('a refused query in the logs on %s', (backend) => {
  beforeAll(async () => {
    state.handle = await createTestDatabase(backend);
    const [admin] = await state.handle.db.insert(users).values({ email: 'log-admin@example.test', name: 'Log Admin', role: 'admin' }).returning();
    state.user = { id: admin.id, email: admin.email, name: admin.name, role: 'admin', demo: false };
  });
  afterAll(() => state.handle?.close());
  afterEach(() => vi.restoreAllMocks());

  it("createUser refused by the database logs the insert and the reason, not the password hash, the row's detail or any other value", async () => {
    // The form refuses a NUL in the name before the database sees it, so the database is made to
    // refuse the row: PostgreSQL's detail of a check violation repeats the whole row, hash included.
    await state.handle!.db.execute(sql`alter table users add constraint test_refused_name check (name <> 'Refused Name')`);
    let result: unknown;
    try {
      const logged = await stderrOf(async () => {
        result = await createUser({ email: EMAIL, name: 'Refused Name', role: 'rm', password: PASSWORD });
      });
      expect(result).toMatchObject({ ok: false, code: 'internal' });
      // The line is there, and says what failed and why.
      expect(logged).toContain('server action failed');
      expect(logged).toMatch(INSERT);
      expect(logged).toContain('violates check constraint');
      expectNoParameters(logged, [EMAIL, PASSWORD, 'Refused Name', 'Failing row']);
    } finally {
      await state.handle!.db.execute(sql`alter table users drop constraint test_refused_name`);
    }
  });

  it.each<LogFormat>(['json', 'pretty'])('in %s, the error itself, wrapped or not, shows no parameter', async (format) => {
    const err = await createAccount({ db: state.handle!.db, actorId: null, email: EMAIL, name: 'Nul\u0000Name', role: 'rm', password: PASSWORD }).then(
      () => null,
      (e: Error & { params?: unknown[] }) => e,
    );
    // Today's driver error does carry them: the hash is the fourth value of the insert.
    const values = (err?.params ?? []).filter((v): v is string => typeof v === 'string' && v.length >= 4);
    expect(values.some((v) => v.startsWith('scrypt$'))).toBe(true);

    const lines: string[] = [];
    const logger = createLogger({ format, secrets: [], write: (_, line) => void lines.push(line) });
    logger.error('create failed', { err });
    logger.error('create failed', { err: new Error('creating the account failed', { cause: err }) });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(INSERT);
      expectNoParameters(line, [...values, EMAIL, PASSWORD]);
    }
  });
});

describe('a refused query whose reason quotes a value', () => {
  it("blanks the parameter out of the database's message too", () => {
    const token = 'not-a-uuid-session-token-value';
    const cause = Object.assign(new Error(`invalid input syntax for type uuid: "${token}"`), { code: '22P02' });
    const err = Object.assign(new Error(`Failed query: select * from "user_sessions" where "id" = $1\nparams: ${token}`, { cause }), {
      query: 'select * from "user_sessions" where "id" = $1',
      params: [token],
    });
    const lines: string[] = [];
    createLogger({ format: 'json', secrets: [], write: (_, line) => void lines.push(line) }).error('lookup failed', { err });
    expect(JSON.parse(lines[0]).err).toBe('Failed query: select * from "user_sessions" where "id" = $1 (invalid input syntax for type uuid: "[redacted]")');
  });
});
