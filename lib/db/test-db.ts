// Throwaway databases for integration tests. Every suite runs on in-memory PGlite; when
// TEST_DATABASE_URL names a PostgreSQL server it also runs on a fresh database there, because
// the one schema must behave the same on both engines (docs/architecture.md).
// Under Vitest each starts as a copy of a database migrated once per run (lib/db/test-templates.ts);
// elsewhere, or if that copy is missing, it is migrated from scratch.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';
import { resetAuditKeyForTests } from '@/lib/db/audit-key';
import { resetEnvForTests } from '@/lib/env';

export type TestBackend = 'pglite' | 'postgres';

/** Where the global setup left its migrated databases: a PGlite dump file, a PostgreSQL template's name. */
export const PGLITE_DUMP_ENV = 'CROSSCHECK_TEST_PGLITE_DUMP';
export const PG_TEMPLATE_ENV = 'CROSSCHECK_TEST_PG_TEMPLATE';

/** A test-only setting, not app configuration, so it is read here rather than through lib/env.ts. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL?.trim() || undefined;
}

export function testBackends(): TestBackend[] {
  return testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

export async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `name` must be one this module made (random hex), as it is spliced into DDL. */
export const dropServerDatabase = (serverUrl: string, name: string) => onServer(serverUrl, `drop database if exists ${name} with (force)`);

/** The URL of database `name` on the server at `serverUrl`. */
export function onDatabase(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// Read once per process: a test file makes several databases, and the dump is about 40 MB.
let dump: { blob: Blob | undefined } | undefined;
function migratedDump(): Blob | undefined {
  if (!dump) {
    const file = process.env[PGLITE_DUMP_ENV];
    dump = { blob: file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined };
  }
  return dump.blob;
}

/** A migrated, empty database; its `close()` also deletes a PostgreSQL test database. */
export async function createTestDatabase(backend: TestBackend): Promise<DatabaseHandle> {
  // openDatabase still runs the migrations, which finds a copy up to date at once.
  if (backend === 'pglite') return openDatabase({ kind: 'pglite', from: migratedDump() });

  const serverUrl = testDatabaseUrl();
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set: no PostgreSQL server to create a test database on.');
  // Random hex only, so the name is safe to splice into DDL.
  const name = `crosscheck_t_${randomBytes(6).toString('hex')}`;
  const template = process.env[PG_TEMPLATE_ENV];
  await onServer(serverUrl, `create database ${name}${template && /^crosscheck_template_[0-9a-f]+$/.test(template) ? ` template ${template}` : ''}`);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ kind: 'postgres', url: onDatabase(serverUrl, name), poolSize: 4 });
  } catch (err) {
    await dropServerDatabase(serverUrl, name);
    throw err;
  }
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropServerDatabase(serverUrl, name);
    },
  };
}

/**
 * Signs audit entries with `secret` (AUDIT_SECRET) from now on, so a test knows the key; returns
 * what puts the environment back as it was.
 */
export function setAuditSecretForTests(secret: string): () => void {
  const saved = process.env.AUDIT_SECRET;
  process.env.AUDIT_SECRET = secret;
  resetEnvForTests();
  resetAuditKeyForTests();
  return () => {
    if (saved === undefined) delete process.env.AUDIT_SECRET;
    else process.env.AUDIT_SECRET = saved;
    resetEnvForTests();
    resetAuditKeyForTests();
  };
}
