// An import that writes nothing because rows or files were refused leaves an audit entry of its
// own (pool.import_rejected): how many, in which files, the first reasons, every text bounded.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, companies, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { importPool, rejectedImportDetail, type ImportSource } from '@/lib/pool/import';

const src = (name: string, text: string): ImportSource => ({ name, bytes: new TextEncoder().encode(text) });
const row = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    company_id: 'dh-autonex',
    category: 'distress_rehabilitation',
    title: `회생절차 개시신청 ${n}`,
    text: '채무자 회생 및 파산에 관한 법률에 따라 서울회생법원에 회생절차 개시를 신청함.',
    published_date: '2024-03-04',
    source_name: 'DART 주요사항보고서',
    source_url: `https://dart.fss.or.kr/dsaf001/main.do?rcpNo=2024030400000${n}`,
    ...extra,
  });

describe('the audit detail of a refused import', () => {
  it('counts every rejection, names the files most refused first, and keeps the first distinct reasons, all bounded', () => {
    const long = `${'가'.repeat(300)}.csv`;
    const rejected = [
      ...Array.from({ length: 30 }, (_, i) => ({
        file: `f${String(i).padStart(2, '0')}.jsonl`,
        row: 1,
        field: 'category',
        message: `is missing or unknown (${i})`,
      })),
      { file: long, row: 2, field: null, message: 'x'.repeat(500) },
      { file: long, row: 3, field: null, message: 'x'.repeat(500) },
    ];
    const detail = rejectedImportDetail({ label: 'upload', origin: 'import', rejected, skippedDuplicates: 4 });
    expect(detail.rejected).toBe(32);
    expect(detail.skippedDuplicates).toBe(4);
    expect(detail.files).toHaveLength(20);
    expect(detail.files[0]).toEqual({ file: `${'가'.repeat(199)}…`, rows: 2 });
    expect(detail.files[1]).toEqual({ file: 'f00.jsonl', rows: 1 });
    expect(detail.reasons).toEqual([
      'category is missing or unknown (0)',
      'category is missing or unknown (1)',
      'category is missing or unknown (2)',
      'category is missing or unknown (3)',
      'category is missing or unknown (4)',
    ]);
  });

  it('makes the uploader’s text storable: a NUL in a file name does not reach the log', () => {
    const detail = rejectedImportDetail({
      label: 'a\u0000b.csv',
      origin: 'import',
      rejected: [{ file: 'a\u0000b.csv', row: 0, field: null, message: 'The file name contains a NUL character' }],
      skippedDuplicates: 0,
    });
    expect(detail.source).toBe('a\uFFFDb.csv');
    expect(detail.files).toEqual([{ file: 'a\uFFFDb.csv', rows: 1 }]);
  });
});

describe.each(testBackends())('refused imports in the audit log on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'dh-autonex', name: 'DH오토넥스', country: 'KR', identifiers: {} });
  });
  afterAll(() => handle?.close());

  const refusals = () => db.select().from(auditLog).where(eq(auditLog.action, 'pool.import_rejected')).orderBy(desc(auditLog.seq));

  it('an import with rejected rows writes nothing and records who, how many, which files and why', async () => {
    const report = await importPool({
      db,
      actorId: null,
      sources: [
        src('filings.jsonl', [row(1), row(2, { category: 'litigation' }), row(3, { published_date: '2099-01-01' })].join('\n')),
        src('notes.csv', 'company_id,title\nnobody,x\n'),
      ],
      label: 'filings.jsonl, notes.csv',
      today: '2025-01-01',
    });
    expect(report.written).toBe(false);
    expect(await db.$count(evidenceItems)).toBe(0);
    const [entry] = await refusals();
    expect(entry).toMatchObject({ actorId: null, entityType: 'import', entityId: null });
    expect(entry.detail).toEqual({
      source: 'filings.jsonl, notes.csv',
      origin: 'import',
      rejected: report.rejected.length,
      skippedDuplicates: 0,
      files: [
        { file: 'notes.csv', rows: report.rejected.filter((r) => r.file === 'notes.csv').length },
        { file: 'filings.jsonl', rows: 2 },
      ],
      reasons: expect.arrayContaining(['published_date 2099-01-01 is in the future; an item can only be imported once it is public.']),
    });
    expect(report.rejected.filter((r) => r.file === 'notes.csv').length).toBeGreaterThan(2);
  });

  it('importing the valid rows only is an import (pool.import, with the count left out), not a refusal', async () => {
    const before = (await refusals()).length;
    const report = await importPool({
      db,
      actorId: null,
      validOnly: true,
      sources: [src('filings.jsonl', [row(4), row(5, { category: 'litigation' })].join('\n'))],
      today: '2025-01-01',
    });
    expect(report.written).toBe(true);
    expect((await refusals()).length).toBe(before);
    const [imported] = await db.select().from(auditLog).where(eq(auditLog.action, 'pool.import')).orderBy(desc(auditLog.seq)).limit(1);
    expect(imported.detail).toMatchObject({ evidence: 1, rejected: 1 });
  });

  it('a row the add-evidence form sends is answered with field errors, not audited as a refused import', async () => {
    const before = (await refusals()).length;
    const report = await importPool({
      db,
      actorId: null,
      auditAction: 'evidence.create',
      origin: 'manual',
      label: 'added by hand',
      sources: [src('form.json', `[${row(6, { category: 'litigation' })}]`)],
    });
    expect(report.rejected.map((r) => r.field)).toEqual(['category']);
    expect((await refusals()).length).toBe(before);
  });
});
