// The Import page's help and template (lib/pool/import/template.ts) against the real importer:
// the templates import cleanly, the columns are the schema's (required as the schema requires),
// and every category listed is one the import accepts, and only those.
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { EVIDENCE_CATEGORIES } from '@/lib/domain/factors';
import { planImport } from '@/lib/pool/import/plan';
import { EVIDENCE_COLUMNS, evidenceTemplate, IMPORT_CATEGORIES, TEMPLATE_ROWS } from '@/lib/pool/import/template';

const MB = 1024 * 1024;
const bytes = (text: string) => new TextEncoder().encode(text);

describe('the columns and categories the Import page lists', () => {
  it('are the schema fields, required exactly where a row without them is refused', () => {
    expect(EVIDENCE_COLUMNS.filter((c) => c.required).map((c) => c.name)).toEqual([
      'company_id',
      'category',
      'title',
      'text',
      'published_date',
      'source_name',
      'source_url',
    ]);
    expect(EVIDENCE_COLUMNS.filter((c) => !c.required).map((c) => c.name)).toEqual([
      'id',
      'value',
      'event_date',
      'language',
      'upstream',
      'license',
      'retrieved_at',
    ]);
    expect(EVIDENCE_COLUMNS.find((c) => c.name === 'title')).toEqual({ name: 'title', required: true, format: 'text', maxChars: 500 });
    expect(EVIDENCE_COLUMNS.find((c) => c.name === 'published_date')).toEqual({ name: 'published_date', required: true, format: 'date', maxChars: null });
  });

  it('lists all twenty categories of the import format', () => {
    expect(IMPORT_CATEGORIES).toEqual([...EVIDENCE_CATEGORIES]);
    expect(IMPORT_CATEGORIES).toHaveLength(20);
  });

  it('the CSV template has every column in its header, in the listed order, and a UTF-8 byte-order mark', () => {
    const csv = evidenceTemplate('csv');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(csv.body.slice(1)) as string[][];
    expect(header).toEqual(EVIDENCE_COLUMNS.map((c) => c.name));
    expect(rows).toHaveLength(TEMPLATE_ROWS.length);
    expect(rows[0][header.indexOf('title')]).toBe('특허 보유 현황: 전세계 누적 223,121건 (2022년 반기말)');
  });
});

describe.each(testBackends())('the templates through the importer on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'samsung-electronics', name: '삼성전자', nameEn: 'Samsung Electronics Co., Ltd.', country: 'KR', identifiers: {} });
  });
  afterAll(() => handle?.close());

  const plan = (name: string, text: string) => planImport({ db, sources: [{ name, bytes: bytes(text) }], maxFileBytes: 10 * MB, today: '2025-01-01' });

  it.each(['csv', 'jsonl'] as const)('the %s template imports without a rejected row', async (format) => {
    const file = evidenceTemplate(format);
    const result = await plan(file.filename, file.body);
    expect(result.rejected).toEqual([]);
    expect(result.evidence.map((e) => [e.category, e.title, e.publishedDate, e.value, e.language])).toEqual([
      ['patent', '특허 보유 현황: 전세계 누적 223,121건 (2022년 반기말)', '2022-08-16', '223,121', 'ko'],
      ['legal_proceedings', 'Apple과 소취하 계약: 양사 간 미국 내 모든 소송 취하 (2018.06.26)', '2022-08-16', null, 'ko'],
    ]);
  });

  it('accepts a row of every listed category, and refuses a category that is not listed', async () => {
    const [example] = TEMPLATE_ROWS;
    const rows = IMPORT_CATEGORIES.map((category, i) => JSON.stringify({ ...example, category, title: `${example.title} (${i})` }));
    const accepted = await plan('every-category.jsonl', rows.join('\n'));
    expect(accepted.rejected).toEqual([]);
    expect(accepted.evidence.map((e) => e.category)).toEqual([...IMPORT_CATEGORIES]);

    const refused = await plan('unlisted.jsonl', JSON.stringify({ ...example, category: 'litigation' }));
    expect(refused.evidence).toEqual([]);
    expect(refused.rejected.map((r) => [r.row, r.field])).toEqual([[1, 'category']]);
  });
});
