import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies, documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { AsOfDateError, isStale, readDocumentsAsOf, readEvidence, recencyCutoff } from '@/lib/pool/as-of';

describe('recencyCutoff', () => {
  it('subtracts whole calendar days, across month ends and leap days', () => {
    expect(recencyCutoff('2024-06-30', 30)).toBe('2024-05-31');
    expect(recencyCutoff('2024-03-01', 1)).toBe('2024-02-29');
    expect(recencyCutoff('2023-03-01', 1)).toBe('2023-02-28');
    expect(recencyCutoff('2024-06-30', 365)).toBe('2023-07-01');
    expect(recencyCutoff('2024-01-01', 0)).toBe('2024-01-01');
    expect(recencyCutoff('0050-01-01', 365)).toBe('0049-01-01');
  });

  it('rejects dates that are not real YYYY-MM-DD dates, with a message that says so', () => {
    for (const bad of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-6-30',
      '2024/06/30',
      '20240630',
      '',
      'yesterday',
      '2024-06-30T00:00:00Z',
      '0000-01-01',
    ]) {
      expect(() => recencyCutoff(bad, 30), bad).toThrow(AsOfDateError);
    }
    expect(() => recencyCutoff('2024-02-30', 30)).toThrow(/real date written YYYY-MM-DD.*"2024-02-30"/);
  });

  it('rejects a negative or fractional recency window', () => {
    expect(() => recencyCutoff('2024-06-30', -1)).toThrow(AsOfDateError);
    expect(() => recencyCutoff('2024-06-30', 1.5)).toThrow(AsOfDateError);
    expect(() => recencyCutoff('2024-06-30', Number.NaN)).toThrow(AsOfDateError);
  });

  it('treats the cutoff day itself as fresh', () => {
    expect(isStale('2024-05-31', '2024-05-31')).toBe(false);
    expect(isStale('2024-05-30', '2024-05-31')).toBe(true);
    expect(isStale('1990-01-01', null)).toBe(false);
  });
});

const AS_OF = '2024-06-30';
const R = 30; // cutoff 2024-05-31

describe.each(testBackends())('reading the pool as of a date on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  const item = (id: string, publishedDate: string, extra: Partial<typeof evidenceItems.$inferInsert> = {}) => ({
    id,
    companyId: 'acme',
    category: 'news',
    title: `Item ${id}`,
    text: `Published ${publishedDate}.`,
    publishedDate,
    sourceName: 'Test wire',
    sourceUrl: `https://example.com/${id}`,
    language: 'en',
    ...extra,
  });
  const doc = (id: string, publishedDate: string, companyId = 'acme') => ({
    id,
    companyId,
    title: `Document ${id}`,
    kind: 'filing_section',
    publishedDate,
    sourceName: 'Registry',
    sourceUrl: `https://example.com/doc/${id}`,
    language: 'en',
    body: `Body of ${id}`,
  });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values([
      { id: 'acme', name: 'Acme', country: 'US' },
      { id: 'other', name: 'Other', country: 'KR' },
    ]);
    await db
      .insert(evidenceItems)
      .values([
        item('day-after', '2024-07-01'),
        item('much-later', '2025-01-15'),
        item('on-as-of', '2024-06-30', { factor: 'litigation', factorSource: 'rule', polarity: 'adverse' }),
        item('on-cutoff', '2024-05-31', { factor: 'governance', factorSource: 'rule', polarity: 'context' }),
        item('before-cutoff', '2024-05-30', { factor: 'litigation', factorSource: 'rule', polarity: 'adverse' }),
        item('old', '2019-03-02', { factor: 'governance', factorSource: 'rule', polarity: 'favorable' }),
        item('other-company', '2024-06-01', { companyId: 'other' }),
      ]);
    // An RM moved `old` from governance to litigation.
    await db.insert(evidenceTagOverrides).values({ evidenceId: 'old', factor: 'litigation', polarity: 'adverse' });
    await db
      .insert(documents)
      .values([
        doc('doc-day-after', '2024-07-01'),
        doc('doc-on-as-of', '2024-06-30'),
        doc('doc-on-cutoff', '2024-05-31'),
        doc('doc-before-cutoff', '2024-05-30'),
        doc('doc-other', '2024-06-01', 'other'),
      ]);
  });
  afterAll(() => handle?.close());

  it('shows evidence published on the as-of date and hides the day after', async () => {
    const items = await readEvidence({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R });
    expect(items.map((i) => i.id)).toEqual(['on-as-of', 'on-cutoff', 'before-cutoff', 'old']);
    const dayBefore = await readEvidence({ db, companyId: 'acme', asOf: '2024-06-29', recencyDays: R });
    expect(dayBefore.map((i) => i.id)).not.toContain('on-as-of');
    const dayAfter = await readEvidence({ db, companyId: 'acme', asOf: '2024-07-01', recencyDays: R });
    expect(dayAfter.map((i) => i.id)).toContain('day-after');
    expect(dayAfter.map((i) => i.id)).not.toContain('much-later');
  });

  it('marks evidence older than as-of − R as stale, and the cutoff day as fresh', async () => {
    const items = await readEvidence({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R });
    expect(Object.fromEntries(items.map((i) => [i.id, i.stale]))).toEqual({
      'on-as-of': false,
      'on-cutoff': false,
      'before-cutoff': true,
      old: true,
    });
  });

  it("filters by factor after applying an RM's correction, and reports who set it", async () => {
    const items = await readEvidence({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R, factor: 'litigation' });
    expect(items.map((i) => i.id)).toEqual(['on-as-of', 'before-cutoff', 'old']);
    const old = items.find((i) => i.id === 'old')!;
    expect(old).toMatchObject({ factor: 'litigation', polarity: 'adverse', factorSource: 'rm', stale: true });
    expect(items[0]).toMatchObject({ factorSource: 'rule', publishedDate: '2024-06-30' });
  });

  it('applies the limit to the newest items', async () => {
    const items = await readEvidence({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R, limit: 2 });
    expect(items.map((i) => i.id)).toEqual(['on-as-of', 'on-cutoff']);
    await expect(readEvidence({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R, limit: 0 })).rejects.toThrow(RangeError);
  });

  it('reads a large pool a page at a time, every item once and in the same order as one query', async () => {
    await db.insert(companies).values({ id: 'large', name: 'Large', country: 'KR' });
    // 4,500 items over 30 days: many share a date, so pages break inside a day.
    const many = Array.from({ length: 4_500 }, (_, i) => ({
      ...item(`large-${String(i).padStart(5, '0')}`, `2024-06-${String(1 + (i % 30)).padStart(2, '0')}`),
      companyId: 'large',
      sourceUrl: `https://example.com/large/${i}`,
    }));
    for (let i = 0; i < many.length; i += 500) await db.insert(evidenceItems).values(many.slice(i, i + 500));
    const paged = await readEvidence({ db, companyId: 'large', asOf: AS_OF, recencyDays: R });
    const single = await readEvidence({ db, companyId: 'large', asOf: AS_OF, recencyDays: R, limit: 10_000 });
    expect(paged).toHaveLength(4_500);
    expect(paged.map((e) => e.id)).toEqual(single.map((e) => e.id));
    expect(new Set(paged.map((e) => e.id)).size).toBe(4_500);
    expect(paged[0].publishedDate).toBe('2024-06-30');
    expect(paged.at(-1)!.publishedDate).toBe('2024-06-01');
  });

  it('refuses an impossible as-of date before touching the database', async () => {
    await expect(readEvidence({ db, companyId: 'acme', asOf: '2024-06-31', recencyDays: R })).rejects.toThrow(AsOfDateError);
    await expect(readDocumentsAsOf({ db, companyId: 'acme', asOf: '30/06/2024', recencyDays: R })).rejects.toThrow(AsOfDateError);
  });

  it('applies the same boundary and staleness to documents, body only on request', async () => {
    const docs = await readDocumentsAsOf({ db, companyId: 'acme', asOf: AS_OF, recencyDays: R });
    expect(docs.map((d) => [d.id, d.stale])).toEqual([
      ['doc-on-as-of', false],
      ['doc-on-cutoff', false],
      ['doc-before-cutoff', true],
    ]);
    expect(docs[0].body).toBeUndefined();
    const withBody = await readDocumentsAsOf({ db, companyId: 'acme', asOf: '2024-07-01', recencyDays: R, includeBody: true, limit: 1 });
    expect(withBody).toEqual([expect.objectContaining({ id: 'doc-day-after', body: 'Body of doc-day-after', stale: false })]);
  });
});
