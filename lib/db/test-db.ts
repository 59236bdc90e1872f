// Throwaway databases for integration tests. Every suite runs on in-memory PGlite; when
// TEST_DATABASE_URL names a PostgreSQL server it also runs on a fresh database there, because
// the one schema must behave the same on both engines (docs/architecture.md).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';

export type TestBackend = 'pglite' | 'postgres';

/** A test-only setting, not app configuration, so it is read here rather than through lib/env.ts. */
function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL?.trim() || undefined;
}

export function testBackends(): TestBackend[] {
  return testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A migrated, empty database; its `close()` also deletes a PostgreSQL test database. */
export async function createTestDatabase(backend: TestBackend): Promise<DatabaseHandle> {
  if (backend === 'pglite') return openDatabase({ kind: 'pglite' });

  const serverUrl = testDatabaseUrl();
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set: no PostgreSQL server to create a test database on.');
  // Random hex only, so the name is safe to splice into DDL.
  const name = `crosscheck_t_${randomBytes(6).toString('hex')}`;
  const drop = () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}
