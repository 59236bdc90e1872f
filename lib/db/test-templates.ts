// Vitest's global setup (vitest.config.ts): before any test file runs, one migrated, empty database
// per backend, which every throwaway test database then starts as a copy of (lib/db/test-db.ts).
// Migrating from scratch took about 3.5 s on PGlite and 0.6 s on PostgreSQL, for each of the
// hundred-odd databases a full run makes; a copy takes about 1 s and 0.25 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '@/lib/db/client';
import { dropServerDatabase, onDatabase, onServer, PGLITE_DUMP_ENV, PG_TEMPLATE_ENV, testDatabaseUrl } from '@/lib/db/test-db';

export default async function setup() {
  const cleanups: (() => Promise<void>)[] = [];

  const pglite = await openDatabase({ kind: 'pglite' });
  try {
    const client = (pglite.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-test-')), 'migrated.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[PGLITE_DUMP_ENV] = file;
    cleanups.push(async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
  } finally {
    await pglite.close();
  }

  const serverUrl = testDatabaseUrl();
  if (serverUrl) {
    const name = `crosscheck_template_${randomBytes(6).toString('hex')}`;
    await onServer(serverUrl, `create database ${name}`);
    cleanups.push(() => dropServerDatabase(serverUrl, name));
    const handle = await openDatabase({ kind: 'postgres', url: onDatabase(serverUrl, name), poolSize: 1 });
    await handle.close();
    process.env[PG_TEMPLATE_ENV] = name;
  }

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
}
