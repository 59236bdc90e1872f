import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies, documentChunks, documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { importPool, readSourcesFromPath, type ImportSource } from '@/lib/pool/import';
import { planImport } from '@/lib/pool/import/plan';

const enc = (text: string) => new TextEncoder().encode(text);
const src = (name: string, text: string): ImportSource => ({ name, bytes: enc(text) });

const company = {
  id: 'hanbit-precision',
  name: '한빛정밀',
  name_en: 'Hanbit Precision Co., Ltd.',
  country: 'KR',
  identifiers: { corp_code: '00999999' },
  industry: '기계',
  description: 'A test company.',
};
const item = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `hanbit-${n}`,
  company_id: 'hanbit-precision',
  category: 'certification',
  title: `이노비즈 인증 갱신 ${n}`,
  text: `중소벤처기업부 기술혁신형 중소기업(INNOBIZ) 인증을 갱신함 (${n}).`,
  value: null,
  event_date: '2023-03-01',
  published_date: '2023-03-02',
  source_name: '중소벤처기업부',
  source_url: `https://www.innobiz.example/notice/${n}`,
  language: 'ko',
  ...extra,
});
const jsonl = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A folder in the pool layout that the app has never seen. */
function makePoolFolder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-pool-'));
  fs.writeFileSync(path.join(dir, 'companies.json'), JSON.stringify([company], null, 2));
  fs.writeFileSync(path.join(dir, 'evidence.jsonl'), jsonl(item(1), item(2, { category: 'legal_proceedings', title: '손해배상 청구 소송 제기' })));
  fs.mkdirSync(path.join(dir, 'documents'));
  fs.writeFileSync(
    path.join(dir, 'documents', 'hanbit-precision--annual-2023.md'),
    [
      '---',
      'title: "Hanbit 2023 annual report — risks"',
      'company_id: hanbit-precision',
      'kind: annual_report_section',
      'published_date: 2024-03-20',
      'source_name: DART',
      'source_url: "https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20240320000001"',
      'language: ko',
      'note: test',
      '---',
      '',
      '## 위험 요인',
      '',
      '반도체 장비 수요가 둔화될 수 있습니다.',
      '',
      '## 소송',
      '',
      '현재 계류 중인 소송은 1건입니다.',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'SOURCES.md'), '# Sources\n\nNot a document.\n');
  return dir;
}

describe.each(testBackends())('import on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const count = async (table: Parameters<Db['$count']>[0]) => Number(await db.$count(table));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
  });
  afterAll(() => handle?.close());

  it('imports a folder in the pool layout completely, tagged and searchable, and skips it the second time', async () => {
    const dir = makePoolFolder();
    const report = await importPool({ db, sources: readSourcesFromPath(dir), actorId: null });
    expect(report.rejected).toEqual([]);
    expect(report.imported).toMatchObject({ companies: 1, evidence: 2, documents: 1 });
    expect(report.imported.chunks).toBeGreaterThanOrEqual(1);

    const [row] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'hanbit-1'));
    expect(row).toMatchObject({ factor: 'certifications', polarity: 'favorable', factorSource: 'rule', publishedDate: '2023-03-02' });
    expect(row.searchTokens).toContain('이노');
    const [found] = await db
      .execute<{ id: string }>(sql`select id from evidence_items where search @@ to_tsquery('simple', '소송') and company_id = 'hanbit-precision'`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    expect(found?.id).toBe('hanbit-2');
    const [doc] = await db.select().from(documents).where(eq(documents.id, 'hanbit-precision--annual-2023'));
    expect(doc.meta).toEqual({ note: 'test' });
    const [corp] = await db.select().from(companies).where(eq(companies.id, 'hanbit-precision'));
    expect(corp.corpCode).toBe('00999999');

    const again = await importPool({ db, sources: readSourcesFromPath(dir), actorId: null });
    expect(again.imported).toMatchObject({ companies: 0, evidence: 0, documents: 0, chunks: 0 });
    expect(again.skippedDuplicates).toBe(3);
  });

  it('names every bad row by file, line and field, and writes nothing', async () => {
    const before = await count(evidenceItems);
    const text =
      jsonl(
        item(10),
        item(11, { published_date: '' }),
        item(12, { source_url: 'javascript:alert(1)' }),
        item(13, { category: 'gossip' }),
        item(14, { company_id: 'no-such-company', published_date: '2023/01/01' }),
        item(15, { published_date: '2999-01-01' }),
      ) + '{"id": broken\n';
    const report = await importPool({ db, sources: [src('batch.jsonl', text)], actorId: null });
    expect(report.written).toBe(false);
    expect(report.imported.evidence).toBe(0);
    expect(await count(evidenceItems)).toBe(before);
    const byRow = report.rejected.map((r) => `${r.file}:${r.row}:${r.field}`);
    expect(byRow).toEqual([
      'batch.jsonl:2:published_date',
      'batch.jsonl:3:source_url',
      'batch.jsonl:4:category',
      'batch.jsonl:5:published_date',
      'batch.jsonl:5:company_id',
      'batch.jsonl:6:published_date',
      'batch.jsonl:7:null',
    ]);
    expect(report.rejected[0].message).toMatch(/missing/);
    expect(report.rejected[3].message).toMatch(/"2023\/01\/01" is not a real date/);
    expect(report.rejected[4].message).toMatch(/Unknown company "no-such-company"/);
    expect(report.rejected[5].message).toMatch(/in the future/);
  });

  it('imports only the valid rows when asked to', async () => {
    const report = await importPool({ db, sources: [src('mixed.jsonl', jsonl(item(20), item(21, { source_url: '' })))], actorId: null, validOnly: true });
    expect(report.written).toBe(true);
    expect(report.imported.evidence).toBe(1);
    expect(report.rejected).toEqual([expect.objectContaining({ file: 'mixed.jsonl', row: 2, field: 'source_url' })]);
  });

  it('reads a cp949 CSV with Korean text, counting the header as line 1 and quoted line breaks', async () => {
    const csv = [
      'id,company_id,category,title,text,published_date,source_name,source_url,language',
      'hanbit-30,hanbit-precision,management_change,대표이사 변경,"신임 대표이사 선임\n(전 대표 사임)",2023-05-10,DART,https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20230510000001,ko',
      'hanbit-31,hanbit-precision,employment,고용 현황,직원 수 212명,2023-06-30,,https://example.kr/31,ko',
    ].join('\r\n');
    const bytes = iconv.encode(csv, 'cp949');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const report = await importPool({ db, sources: [{ name: '한빛.csv', bytes }], actorId: null });
    expect(report.files[0]).toMatchObject({ encoding: 'cp949', records: 2 });
    expect(report.rejected).toEqual([expect.objectContaining({ row: 4, field: 'source_name' })]);

    const fixed = iconv.encode(csv.replace(',2023-06-30,,', ',2023-06-30,사내 공시,'), 'cp949');
    const ok = await importPool({ db, sources: [{ name: '한빛.csv', bytes: fixed }], actorId: null });
    expect(ok.imported.evidence).toBe(2);
    const [row] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'hanbit-30'));
    expect(row.title).toBe('대표이사 변경');
    expect(row.factor).toBe('management_continuity');
  });

  it('numbers JSON array rows by the line each record starts on', async () => {
    const text = `[\n  ${JSON.stringify(item(40))},\n  ${JSON.stringify(item(41, { title: '' }))}\n]`;
    const report = await importPool({ db, sources: [src('items.json', text)], actorId: null });
    expect(report.rejected).toEqual([expect.objectContaining({ row: 3, field: 'title' })]);
  });

  it('counts exact duplicates in the file and refuses an id that belongs to another item', async () => {
    const report = await importPool({
      db,
      sources: [src('dups.jsonl', jsonl(item(50), item(50), item(1, { title: 'A different item under an old id' })))],
      actorId: null,
    });
    expect(report.skippedDuplicates).toBe(1);
    expect(report.rejected).toEqual([expect.objectContaining({ row: 3, field: 'id' })]);
  });

  it('gives rows without an id a stable one, so the same row is a duplicate next time', async () => {
    const { id: _id, ...noId } = item(60);
    const first = await importPool({ db, sources: [src('a.jsonl', jsonl(noId))], actorId: null });
    expect(first.imported.evidence).toBe(1);
    const second = await importPool({ db, sources: [src('b.jsonl', jsonl(noId))], actorId: null });
    expect(second.skippedDuplicates).toBe(1);
  });

  it("keeps an RM's tag correction across a delete and re-import", async () => {
    await db.insert(evidenceTagOverrides).values({ evidenceId: 'hanbit-70', factor: 'government_support_programs', polarity: 'favorable' });
    await importPool({ db, sources: [src('o.jsonl', jsonl(item(70)))], actorId: null });
    await db.delete(evidenceItems).where(eq(evidenceItems.id, 'hanbit-70'));
    await importPool({ db, sources: [src('o.jsonl', jsonl(item(70)))], actorId: null });
    const [row] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'hanbit-70'));
    expect(row).toMatchObject({ factor: 'government_support_programs', factorSource: 'rm' });
  });

  it('refuses a file over the size limit with a clear message', async () => {
    const plan = await planImport({ db, sources: [src('big.jsonl', jsonl(item(80)))], maxFileBytes: 100 });
    expect(plan.rejected).toEqual([
      expect.objectContaining({ file: 'big.jsonl', row: 0, message: expect.stringMatching(/limit is .* MB \(IMPORT_MAX_FILE_MB\)/) }),
    ]);
  });

  it('says so when none of the files is importable, instead of importing nothing quietly', async () => {
    const report = await importPool({ db, sources: [src('notes.txt', 'hello')], actorId: null });
    expect(report.written).toBe(false);
    expect(report.rejected).toEqual([expect.objectContaining({ file: 'notes.txt', message: expect.stringMatching(/Nothing here can be imported/) })]);
  });

  it('chunks documents with offsets into the body', async () => {
    const chunks = await db.select().from(documentChunks).where(eq(documentChunks.documentId, 'hanbit-precision--annual-2023'));
    const [doc] = await db.select().from(documents).where(eq(documents.id, 'hanbit-precision--annual-2023'));
    for (const c of chunks) expect(doc.body.slice(c.charStart, c.charEnd)).toBe(c.text);
  });
});
