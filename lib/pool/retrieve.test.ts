import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies, documentChunks, documents, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { AsOfDateError } from '@/lib/pool/as-of';
import { chunkDocument } from '@/lib/pool/chunk';
import { MAX_CANDIDATES, makeSnippet, parseSearchQuery, retrieve } from '@/lib/pool/retrieve';
import { searchTokens } from '@/lib/pool/search-text';

// The demo pool read straight from data/demo/ (a deliberately small reader, so these tests do
// not depend on the import pipeline), indexed the way the import indexes it.
const DEMO = path.join(process.cwd(), 'data', 'demo');
type Row = Record<string, string | null>;

function demoPool() {
  const companyRows = JSON.parse(fs.readFileSync(path.join(DEMO, 'companies.json'), 'utf8')) as Row[];
  const evidence = fs
    .readFileSync(path.join(DEMO, 'evidence.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Row)
    .map((e) => ({
      id: e.id!,
      companyId: e.company_id!,
      category: e.category!,
      title: e.title!,
      text: e.text!,
      publishedDate: e.published_date!,
      sourceName: e.source_name!,
      sourceUrl: e.source_url!,
      language: e.language!,
      searchTokens: searchTokens(e.title, e.text),
    }));
  const docs = fs
    .readdirSync(path.join(DEMO, 'documents'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => {
      const { data, content } = matter(fs.readFileSync(path.join(DEMO, 'documents', f), 'utf8'), {});
      const date = data.published_date instanceof Date ? data.published_date.toISOString().slice(0, 10) : String(data.published_date);
      return {
        id: f.replace(/\.md$/, ''),
        companyId: String(data.company_id),
        title: String(data.title),
        kind: String(data.kind),
        publishedDate: date,
        sourceName: String(data.source_name),
        sourceUrl: String(data.source_url),
        language: String(data.language),
        body: content,
      };
    });
  const chunks = docs.flatMap((d) => chunkDocument(d.body).map((c) => ({ ...c, documentId: d.id, searchTokens: searchTokens(c.heading, c.text) })));
  return {
    companies: companyRows.map((c) => ({ id: c.id!, name: c.name!, country: c.country! })),
    evidence,
    documents: docs,
    chunks,
  };
}

describe('parseSearchQuery', () => {
  it('matches a Korean word as the adjacent phrase of its bigrams, or the whole word', () => {
    expect(parseSearchQuery('반도체').hangul).toEqual(["('반도체' | '반도' <-> '도체')"]);
    expect(parseSearchQuery('소송').hangul).toEqual(["('소송')"]);
  });

  it('drops a trailing particle only when two syllables remain', () => {
    expect(parseSearchQuery('소송이').hangul).toEqual(["('소송이' | '소송')"]);
    expect(parseSearchQuery('경영진에서').needles).toEqual(['경영진']);
    expect(parseSearchQuery('회의').hangul).toEqual(["('회의')"]);
    expect(parseSearchQuery('빚').hangul).toEqual(["'빚':*"]);
  });

  it('splits English words and "quoted phrases" from Korean words, one term each', () => {
    const q = parseSearchQuery('"data breach" lawsuits 반도체 소송 lawsuits');
    expect(q.english).toEqual(['"data breach"', 'lawsuits']);
    expect(q.hangul).toHaveLength(2);
  });

  it('turns operator characters into plain text', () => {
    expect(parseSearchQuery('-fraud OR "unterminated').english).toEqual(['fraud', 'unterminated']);
  });

  it('caps the number of terms', () => {
    const q = parseSearchQuery(Array.from({ length: 50 }, (_, i) => `word${i}`).join(' '));
    expect(q.english).toHaveLength(32);
  });
});

describe('makeSnippet', () => {
  it('centres on the passage that shows the most query terms', () => {
    const text = `${'Unrelated opening words. '.repeat(20)}The lawsuit over the patent was settled. ${'Closing filler text. '.repeat(20)}`;
    const snippet = makeSnippet(text, ['lawsu', 'patent']);
    expect(snippet).toMatch(/^….*lawsuit over the patent.*…$/);
    expect(snippet.length).toBeLessThanOrEqual(242);
  });

  it('returns short text whole', () => {
    expect(makeSnippet('Short\n text.', ['x'])).toBe('Short text.');
  });
});

describe.each(testBackends())('retrieve on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    const pool = demoPool();
    await db.insert(companies).values(pool.companies);
    await db.insert(evidenceItems).values(pool.evidence);
    await db.insert(documents).values(pool.documents);
    await db.insert(documentChunks).values(pool.chunks);
  });
  afterAll(() => handle?.close());

  it('finds Korean evidence and filing passages for 소송, including inside 행정소송', async () => {
    const results = await retrieve({ db, companyId: 'samsung-electronics', query: '소송', asOf: '2022-12-31', k: 20 });
    const evidence = ids(results.filter((r) => r.kind === 'evidence'));
    expect(evidence).toEqual(expect.arrayContaining(['samsung-electronics-004', 'samsung-electronics-026', 'samsung-electronics-022']));
    const passage = results.find((r) => r.kind === 'chunk' && r.documentId === 'samsung-electronics--2022h1-xi2-xi3-contingencies-and-sanctions');
    expect(passage).toBeDefined();
    expect(passage!.snippet).toContain('소송');
    // A title that says 소송 outright outranks an item that only mentions it in passing.
    expect(evidence.indexOf('samsung-electronics-026')).toBeLessThan(evidence.indexOf('samsung-electronics-022'));
    for (const r of results) expect(`${r.title} ${r.snippet}`).toMatch(/소송/);
  });

  it('hands an evidence item over with its category and stored tag, so a reader reads it as the pool does', async () => {
    // An RM's tag on the item, as the pool stores it.
    await db
      .update(evidenceItems)
      .set({ factor: 'internal_control_risk', polarity: 'favorable', factorSource: 'rm' })
      .where(eq(evidenceItems.id, 'samsung-electronics-004'));
    const results = await retrieve({ db, companyId: 'samsung-electronics', query: '소송', asOf: '2022-12-31', k: 20 });
    const apple = results.find((r) => r.id === 'samsung-electronics-004')!;
    expect(apple.category).toBe('legal_proceedings');
    expect([apple.factor, apple.polarity, apple.factorSource]).toEqual(['internal_control_risk', 'favorable', 'rm']);
    expect(results.find((r) => r.kind === 'chunk')?.category).toBeUndefined();
  });

  it('finds a Korean word inside a longer compound (사냥꾼 in 특허사냥꾼에)', async () => {
    const results = await retrieve({ db, companyId: 'samsung-electronics', query: '사냥꾼', asOf: '2022-12-31' });
    expect(ids(results)).toEqual(['samsung-electronics-038']);
  });

  it('finds 반도체 in Korean evidence, and a particle on the query word does not hide it', async () => {
    const plain = await retrieve({ db, companyId: 'wintec-automation', query: '반도체', asOf: '2024-12-31' });
    expect(ids(plain)).toContain('wintec-automation-018');
    const withParticle = await retrieve({ db, companyId: 'samsung-electronics', query: '반도체의 시황', asOf: '2022-12-31' });
    expect(withParticle.filter((r) => r.kind === 'evidence')[0].id).toBe('samsung-electronics-012');
    expect(withParticle.slice(0, 2).every((r) => r.score > 1)).toBe(true);
  });

  it('stems English: lawsuits finds "a lawsuit", lawsuit finds "no lawsuits"', async () => {
    const plural = await retrieve({ db, companyId: 'tesla', query: 'lawsuits', asOf: '2025-06-30' });
    const singular = await retrieve({ db, companyId: 'tesla', query: 'lawsuit', asOf: '2025-06-30' });
    expect(ids(plural)).toContain('tesla-038');
    expect(ids(singular)).toContain('tesla-038');
    expect(ids(plural)).toEqual(ids(singular));
    expect(plural.find((r) => r.id === 'tesla-038')!.snippet).toMatch(/lawsuit/i);
  });

  it('finds cybersecurity evidence and passages from the 10-K, ranked by score', async () => {
    const results = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2025-06-30' });
    expect(ids(results)).toContain('tesla-037');
    expect(results.some((r) => r.kind === 'chunk' && r.documentId === 'tesla--10k-fy2024-item-1c-cybersecurity' && r.heading !== undefined)).toBe(true);
    for (let i = 1; i < results.length; i++) expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
    const chunk = results.find((r) => r.kind === 'chunk')!;
    expect(chunk).toMatchObject({ publishedDate: '2025-01-30', sourceUrl: expect.stringMatching(/^https:\/\//) });
    expect(chunk.charEnd!).toBeGreaterThan(chunk.charStart!);
  });

  it('ranks an item with every query term above items with only one', async () => {
    const results = await retrieve({ db, companyId: 'tesla', query: 'patent lawsuit', asOf: '2025-06-30' });
    expect(results[0].id).toBe('tesla-038');
  });

  it('sees nothing published after the as-of date, evidence or passages; the as-of day itself is visible', async () => {
    // Tesla's 10-K material is dated 2025-01-30.
    const before = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2025-01-29' });
    expect(before.filter((r) => r.publishedDate > '2025-01-29')).toEqual([]);
    expect(ids(before)).not.toContain('tesla-037');
    const onTheDay = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2025-01-30' });
    expect(ids(onTheDay)).toContain('tesla-037');
    expect(onTheDay.some((r) => r.kind === 'chunk')).toBe(true);
  });

  it('marks results older than as-of − R as stale', async () => {
    const results = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2026-01-30', recencyDays: 365 });
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.publishedDate === '2025-01-30').every((r) => !r.stale)).toBe(true);
    const later = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2026-01-31', recencyDays: 365 });
    expect(later.filter((r) => r.publishedDate === '2025-01-30').every((r) => r.stale)).toBe(true);
    const noWindow = await retrieve({ db, companyId: 'tesla', query: 'cybersecurity', asOf: '2026-01-31' });
    expect(noWindow.every((r) => !r.stale)).toBe(true);
  });

  it("keeps to the company's own pool and honours k", async () => {
    const results = await retrieve({ db, companyId: 'samsung-electronics', query: 'cybersecurity lawsuit 소송', asOf: '2025-06-30', k: 3 });
    expect(results).toHaveLength(3);
    expect(results.every((r) => !r.id.startsWith('tesla'))).toBe(true);
  });

  it('ranks a row with every term of a mixed English and Korean query first', async () => {
    // Only samsung-electronics-001 says both "System LSI" and 특허; many others repeat 특허.
    const results = await retrieve({ db, companyId: 'samsung-electronics', query: 'System LSI 특허', asOf: '2022-12-31' });
    const evidence = results.filter((r) => r.kind === 'evidence');
    expect(evidence[0].id).toBe('samsung-electronics-001');
    expect(evidence.length).toBeGreaterThan(2);
    // The passage ranked first also names System LSI and 특허.
    expect(results[0].snippet).toMatch(/특허/);
  });

  it('treats SQL and tsquery syntax in the query as plain text', async () => {
    for (const query of ["'); drop table evidence_items; --", 'a & | ! :* ( ) <-> "x', "\\' '' \\", '!!!', '((((', '소송 & !특허 :*', '   ', '"']) {
      await expect(retrieve({ db, companyId: 'tesla', query, asOf: '2025-06-30' }), query).resolves.toBeInstanceOf(Array);
    }
    const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(evidenceItems);
    expect(count).toBeGreaterThan(100);
  });

  it('returns nothing for a query of stop words or punctuation only', async () => {
    expect(await retrieve({ db, companyId: 'tesla', query: 'the of and', asOf: '2025-06-30' })).toEqual([]);
    expect(await retrieve({ db, companyId: 'tesla', query: '?!', asOf: '2025-06-30' })).toEqual([]);
  });

  it(`scores only each term's newest matches when more than ${MAX_CANDIDATES} rows match`, async () => {
    await db.insert(companies).values({ id: 'busy-co', name: 'Busy', country: 'US' });
    const row = (id: string, publishedDate: string, title: string) => ({
      id,
      companyId: 'busy-co',
      category: 'news',
      title,
      text: 'Routine update on the widget business.',
      publishedDate,
      sourceName: 'Wire',
      sourceUrl: `https://example.com/${id}`,
      language: 'en',
    });
    // The best match for "widget" is the oldest; MAX_CANDIDATES newer items mention it once.
    await db
      .insert(evidenceItems)
      .values([
        row('busy-old', '2019-01-01', 'Widget widget widget recall'),
        ...Array.from({ length: MAX_CANDIDATES }, (_, i) => row(`busy-${i}`, `2020-01-${String(1 + (i % 28)).padStart(2, '0')}`, `Update ${i}`)),
      ]);
    const capped = await retrieve({ db, companyId: 'busy-co', query: 'widget', asOf: '2024-12-31' });
    expect(ids(capped)).not.toContain('busy-old');
    // Before the newer items were published, it is found and ranked first.
    const earlier = await retrieve({ db, companyId: 'busy-co', query: 'widget', asOf: '2019-12-31' });
    expect(ids(earlier)).toEqual(['busy-old']);
    // A rarer word still reaches it.
    expect(ids(await retrieve({ db, companyId: 'busy-co', query: 'widget recall', asOf: '2024-12-31' }))[0]).toBe('busy-old');
  });

  it('rejects a bad as-of date and an out-of-range k', async () => {
    await expect(retrieve({ db, companyId: 'tesla', query: 'x', asOf: '2025-02-29' })).rejects.toThrow(AsOfDateError);
    await expect(retrieve({ db, companyId: 'tesla', query: 'x', asOf: '2025-01-01', k: 0 })).rejects.toThrow(RangeError);
  });
});
