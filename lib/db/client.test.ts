import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '@/lib/db/client';
import { DataFolderError } from '@/lib/db/data-dir';
import * as schema from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => getTableConfig(table));

const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

async function rows<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  // node-postgres and PGlite both return `{ rows }`.
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe.each(testBackends())('migrations on %s', (backend) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(() => handle?.close());

  it('create every table, column and index the schema declares', async () => {
    const columns = await rows<{ table_name: string; column_name: string }>(
      handle,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    const indexes = await rows<{ indexname: string }>(handle, sql`select indexname from pg_indexes where schemaname = 'public'`);
    const actual = new Map<string, string[]>();
    for (const c of columns) actual.set(c.table_name, [...(actual.get(c.table_name) ?? []), c.column_name]);

    expect([...actual.keys()].sort()).toEqual(tables.map((t) => t.name).sort());
    for (const t of tables) {
      // Columns declared without a name get it from the key, converted by `casing: 'snake_case'`.
      const expectedColumns = t.columns.map((c) => (c.keyAsName ? toSnakeCase(c.name) : c.name));
      expect(actual.get(t.name)?.sort(), t.name).toEqual(expectedColumns.sort());
      for (const index of t.indexes)
        expect(
          indexes.map((i) => i.indexname),
          t.name,
        ).toContain(index.config.name);
    }
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['users', 'companies', 'evidence_items', 'documents', 'document_chunks', 'cases', 'runs']),
    );
  });

  it('enforces the schema constraints on this engine', async () => {
    await handle.db.insert(schema.companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    const row = {
      companyId: 'acme',
      category: 'news',
      title: 't',
      text: 'x',
      publishedDate: '2024-01-01',
      sourceName: 's',
      sourceUrl: 'https://a.example',
      language: 'en',
    };
    await handle.db.insert(schema.evidenceItems).values({ ...row, id: 'e1' });
    // Same company, source, date and title under another id: the dedup key refuses it.
    await expect(handle.db.insert(schema.evidenceItems).values({ ...row, id: 'e2' })).rejects.toThrow();
    await expect(handle.db.insert(schema.evidenceItems).values({ ...row, id: 'e3', title: 'u', polarity: 'bad' as never })).rejects.toThrow();
  });

  it('treats running the migrations again as a no-op that keeps the data', async () => {
    const applied = sql`select id, hash, created_at from drizzle.__drizzle_migrations order by id`;
    const before = await rows(handle, applied);
    expect(before).toHaveLength(journal.entries.length);
    await migrateDatabase(handle);
    expect(await rows(handle, applied)).toEqual(before);
    expect(await handle.db.$count(schema.companies)).toBe(1);
  });
});

describe('PGlite data folder', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-client-test-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a folder locked by another live process, naming the folder and that process', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await once(other, 'spawn');
    try {
      const lock = path.join(dir, 'crosscheck.lock');
      fs.writeFileSync(lock, String(other.pid));
      const error = await openDatabase({ kind: 'pglite', dataDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataFolderError);
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toContain(`pid ${other.pid}`);
      // The other process keeps its lock, and its database files were never opened.
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(other.pid));
      expect(fs.existsSync(path.join(dir, 'pgdata'))).toBe(false);
    } finally {
      other.kill();
    }
  });

  it('takes over a stale lock left by a process that has exited', async () => {
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(gone, 'exit');
    const lock = path.join(dir, 'crosscheck.lock');
    fs.writeFileSync(lock, String(gone.pid));

    const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
      expect(handle.location).toBe(dir);
      expect(await handle.db.$count(schema.users)).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it('gives the folder back on close, so it can be opened again (by this or another process)', async () => {
    const lock = path.join(dir, 'crosscheck.lock');
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    await first.close();
    expect(fs.existsSync(lock)).toBe(false);
    const second = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(fs.existsSync(lock)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('creates a new folder and opens it with the embedded settings (16 MB of shared buffers)', async () => {
    const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(fs.readFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
      expect(await rows(handle, sql`show shared_buffers`)).toEqual([{ shared_buffers: '16MB' }]);
      expect(await handle.db.$count(schema.users)).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it('reports a folder that cannot be created as a DataFolderError and leaves what was there', async () => {
    // A file where the database folder should be: initdb cannot write there.
    fs.writeFileSync(path.join(dir, 'pgdata'), 'not a folder');
    const error = await openDatabase({ kind: 'pglite', dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFolderError);
    expect((error as Error).message).toContain(`Cannot open the embedded database in ${path.join(dir, 'pgdata')}: creating it failed`);
    expect(fs.readFileSync(path.join(dir, 'pgdata'), 'utf8')).toBe('not a folder');
  });

  it('reports a damaged database folder as a DataFolderError that says what to do', async () => {
    fs.mkdirSync(path.join(dir, 'pgdata', 'global'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), 'not a version\n');
    fs.writeFileSync(path.join(dir, 'pgdata', 'global', 'pg_control'), Buffer.alloc(8192, 0xab));

    const error = await openDatabase({ kind: 'pglite', dataDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFolderError);
    expect((error as Error).message).toContain(path.join(dir, 'pgdata'));
    expect((error as Error).message).toMatch(/damaged.*CROSSCHECK_DATA_DIR/s);
  });
});
