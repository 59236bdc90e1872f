// Opens the database once per process, lazily (never at import time, so `next build` and
// tools that merely import this module do not touch it), and migrates it before first use.
// It never seeds: the app's entry points open it through lib/demo/app-database.ts, which loads the
// demo data into a brand-new embedded folder.
import 'server-only';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from '@/lib/db/schema';
import { env, isEmbedded } from '@/lib/env';
import { keyForUpgradedKeyedStart, recordUpgradedKeyedStart } from '@/lib/db/audit-genesis';
import { DataFolderError, lockDataDir, resolveDataDir, unlockDataDir } from '@/lib/db/data-dir';
import { log } from '@/lib/ops/log';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database or an open transaction: query modules accept either. */
export type Executor = Db | Tx;

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The data folder for PGlite, the host/database for PostgreSQL (never the password). */
  location: string;
  close: () => Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

export type OpenOptions =
  /** `from`: an in-memory database started from a dump of another (`dumpDataDir`), as tests do. */
  { kind: 'pglite'; dataDir?: string; from?: Blob } | { kind: 'postgres'; url: string; poolSize?: number };

/** Opens and migrates a database. Used by getDb() and by tests that want their own. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = options.kind === 'pglite' ? await openPglite(options.dataDir, options.from) : await openPostgres(options);
  await migrateDatabase(handle);
  return handle;
}

/**
 * PostgreSQL settings for the embedded database, on top of PGlite's own. Its shared buffers live
 * in the WebAssembly memory, which never shrinks, and PostgreSQL's default of 128 MB is more than
 * the demo database's files (about 40 MB); pages beyond the buffers come from the operating
 * system's file cache. 16 MB keeps an idle embedded server about 120 MB smaller
 * (docs/operations.md, "Memory").
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

// Creating a database (initdb) runs a second PostgreSQL inside PGlite, and the process keeps that
// memory: right after opening, a process that had created its folder held 825 MB, one that opened
// an existing folder 350 MB. So a new folder is created by a short-lived process of its own, and
// this one only opens it.
const CREATE_FOLDER = `
import { PGlite } from '@electric-sql/pglite';
const client = new PGlite(process.argv[1]);
await client.waitReady;
await client.close();
`;

/** Runs initdb for a data folder that has no database yet, in a child process. */
async function createPgliteFolder(pgdata: string) {
  if (fs.existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  // `-e` resolves the import from the working directory, the project root (as MIGRATIONS_FOLDER).
  const child = spawn(process.execPath, ['--input-type=module', '-e', CREATE_FOLDER, pgdata], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`creating it failed (exit code ${code})${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`);
}

async function openPglite(dataDir?: string, from?: Blob): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const options = { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] };
  let client;
  if (dataDir) {
    lockDataDir(dataDir);
    const pgdata = path.join(dataDir, 'pgdata');
    try {
      await createPgliteFolder(pgdata);
      client = new PGlite(pgdata, options);
      await client.waitReady;
    } catch (err) {
      throw new DataFolderError(
        `Cannot open the embedded database in ${pgdata}: ${(err as Error).message}. ` +
          'If the folder is damaged, move it aside (or delete it to start again from the demo data), ' +
          'or set CROSSCHECK_DATA_DIR to another folder.',
      );
    }
  } else {
    client = new PGlite({ ...options, loadDataDir: from });
    await client.waitReady;
  }
  const db = drizzle({ client, schema, casing: 'snake_case' }) as unknown as Db;
  const close = async () => {
    await client.close();
    if (dataDir) unlockDataDir(dataDir);
  };
  return { db, kind: 'pglite', location: dataDir ?? 'memory', close };
}

async function openPostgres(options: { url: string; poolSize?: number }): Promise<DatabaseHandle> {
  const { Pool } = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  pool.on('error', (err) => log.error('idle database client failed', { component: 'db', err }));
  // A client checked out for a transaction when the server goes away (a restart, a failover)
  // emits 'error' with nobody listening, which would end the process; the query in flight
  // fails on its own, and the pool replaces the client.
  pool.on('connect', (client) => client.on('error', (err) => log.warn('database connection lost', { component: 'db', err })));
  const url = new URL(options.url);
  const db = drizzle({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
  return { db, kind: 'postgres', location: `${url.hostname}:${url.port || 5432}${url.pathname}`, close: () => pool.end() };
}

/**
 * Applies drizzle/ migrations; on PostgreSQL under an advisory lock so instances can start together.
 * The process whose migration creates `audit_genesis` on a log that has entries also records
 * where keying began, before any other instance gets the lock (lib/db/audit-genesis.ts).
 */
export async function migrateDatabase(handle: DatabaseHandle) {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const key = await keyForUpgradedKeyedStart(handle.db);
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    if (key) await recordUpgradedKeyedStart(handle.db, key);
    return;
  }
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = (handle.db as unknown as { $client: import('pg').Pool }).$client;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    const db = drizzle({ client, casing: 'snake_case' });
    const key = await keyForUpgradedKeyedStart(db);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    if (key) await recordUpgradedKeyedStart(db, key);
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
}

/**
 * What a database opened here runs on, for the job queue (lib/jobs/boss.ts), which talks to the
 * same database through its own adapter: the PGlite instance itself, or PostgreSQL's connection string.
 */
export function connectionOf(db: Db): { kind: 'pglite'; client: import('@electric-sql/pglite').PGlite } | { kind: 'postgres'; url: string } {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client && typeof client === 'object' && 'waitReady' in client) return { kind: 'pglite', client: client as import('@electric-sql/pglite').PGlite };
  const url = (client as { options?: { connectionString?: string } } | undefined)?.options?.connectionString;
  if (!url) throw new Error('This database has no connection string for the job queue.');
  return { kind: 'postgres', url };
}

type Cached = { handle: Promise<DatabaseHandle> };
const globalForDb = globalThis as typeof globalThis & { __crosscheckDb?: Cached };

/** The process's database, per the environment: PostgreSQL by DATABASE_URL, else embedded PGlite. */
export function getDatabase(): Promise<DatabaseHandle> {
  if (!globalForDb.__crosscheckDb) {
    const e = env();
    const handle = (async () =>
      isEmbedded(e)
        ? openDatabase({ kind: 'pglite', dataDir: resolveDataDir(e) })
        : openDatabase({ kind: 'postgres', url: e.DATABASE_URL!, poolSize: e.DATABASE_POOL_SIZE }))();
    globalForDb.__crosscheckDb = { handle };
    // A failed open is not cached: the next request tries again and reports the same clear error.
    handle.catch(() => {
      if (globalForDb.__crosscheckDb?.handle === handle) globalForDb.__crosscheckDb = undefined;
    });
  }
  return globalForDb.__crosscheckDb.handle;
}

/**
 * The process's database if this process has opened it (or is opening it), without opening it.
 * For bookkeeping such as ops counters that must not open or migrate a database in a
 * process that has none (a CLI command, a unit test of the provider).
 */
export function openedDatabase(): Promise<DatabaseHandle> | undefined {
  return globalForDb.__crosscheckDb?.handle;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes the process's database (scripts and tests; the server keeps it open). */
export async function closeDb() {
  const cached = globalForDb.__crosscheckDb;
  globalForDb.__crosscheckDb = undefined;
  if (cached) await (await cached.handle).close();
}
