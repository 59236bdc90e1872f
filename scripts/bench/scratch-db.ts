// Throwaway databases for benchmarks. Never the app's data: PGlite lives in a new folder under
// the OS temp directory (on disk, as the embedded app runs, not in memory), and a PostgreSQL
// run gets a fresh database that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';

async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function scratchPglite(): Promise<DatabaseHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-bench-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
    return {
      ...handle,
      location: dir,
      close: async () => {
        await handle.close();
        remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}

async function scratchPostgres(serverUrl: string): Promise<DatabaseHandle> {
  // Random hex only, so the name is safe to splice into DDL.
  const name = `crosscheck_bench_${randomBytes(6).toString('hex')}`;
  const drop = () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await drop();
      },
    };
  } catch (err) {
    await drop();
    throw err;
  }
}

export function scratchDatabaseFactory(postgresUrl?: string): () => Promise<DatabaseHandle> {
  return postgresUrl ? () => scratchPostgres(postgresUrl) : scratchPglite;
}
