import { and, asc, count, countDistinct, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { findCompaniesByIdOrName, listCompaniesWithCounts, listCompanyIds, listEvidenceTimeline } from '@/lib/db/queries/companies';
import { companies, documents, evidenceItems } from '@/lib/db/schema';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { importPool } from '@/lib/pool/import';

describe.each(testBackends())('company queries on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    // 30 certification items for one company: more than one page of a factor's timeline.
    const rows = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({
        company_id: 'wintec-automation',
        category: 'certification',
        title: `ISO 9001 surveillance audit ${i}`,
        text: 'Certificate maintained.',
        published_date: `2023-01-${String(i + 1).padStart(2, '0')}`,
        source_name: 'KAB',
        source_url: `https://example.org/iso/${i}`,
        language: 'en',
      }),
    );
    await importPool({ db, sources: [{ name: 'iso.jsonl', bytes: new TextEncoder().encode(rows.join('\n')) }], actorId: null });
    // A borrower on file with nothing gathered about it yet.
    await db.insert(companies).values({ id: 'empty-borrower', name: 'Empty Borrower', country: 'KR' });
  });

  /** What the list should show, counted straight from the tables. */
  async function directCounts(companyId: string) {
    const [[evidence], [factors], [docs]] = await Promise.all([
      db.select({ n: count() }).from(evidenceItems).where(eq(evidenceItems.companyId, companyId)),
      db
        .select({ n: countDistinct(evidenceItems.factor) })
        .from(evidenceItems)
        .where(and(eq(evidenceItems.companyId, companyId), ne(evidenceItems.factor, 'other'))),
      db.select({ n: count() }).from(documents).where(eq(documents.companyId, companyId)),
    ]);
    return { evidenceCount: evidence.n, factorCount: factors.n, documentCount: docs.n };
  }

  afterAll(() => handle?.close());

  it('shows the newest items per factor, with totals over all of them, and every item of an expanded factor', async () => {
    const { items, totals } = await listEvidenceTimeline({ db, companyId: 'wintec-automation', perFactor: 5 });
    const certs = items.filter((e) => e.factor === 'certifications');
    expect(certs).toHaveLength(5);
    expect(certs.map((e) => e.publishedDate)).toEqual(['2023-01-30', '2023-01-29', '2023-01-28', '2023-01-27', '2023-01-26']);
    expect(totals.find((t) => t.factor === 'certifications')).toMatchObject({ total: 30, favorable: 30 });
    const all = await listEvidenceTimeline({ db, companyId: 'wintec-automation', perFactor: 5, factor: 'certifications' });
    expect(all.items.filter((e) => e.factor === 'certifications')).toHaveLength(30);
    expect(all.items.length).toBe(items.length + 25);
  });

  it('filters companies by name, country and factor coverage', async () => {
    const byName = await listCompaniesWithCounts({ db, filters: { q: 'tesla' } });
    expect(byName.map((c) => c.id)).toEqual(['tesla']);
    const us = await listCompaniesWithCounts({ db, filters: { country: 'US' } });
    expect(us.every((c) => c.country === 'US')).toBe(true);
    expect(us.length).toBe(3);
    const certified = await listCompaniesWithCounts({ db, filters: { factor: 'certifications' } });
    expect(certified.map((c) => c.id)).toContain('wintec-automation');
    const weird = await listCompaniesWithCounts({ db, filters: { q: '%_\\' } });
    expect(weird).toEqual([]);
  });

  it("shows each company's own evidence, factor and document counts, not 0 for every company", async () => {
    const list = await listCompaniesWithCounts({ db });
    const samsung = list.find((c) => c.id === 'samsung-electronics')!;
    const expected = await directCounts('samsung-electronics');
    expect(expected.evidenceCount).toBeGreaterThan(0);
    expect(expected.documentCount).toBeGreaterThan(0);
    expect(samsung).toMatchObject(expected);
    for (const company of list) expect(company).toMatchObject(await directCounts(company.id));
    expect(list.find((c) => c.id === 'empty-borrower')).toMatchObject({ evidenceCount: 0, factorCount: 0, documentCount: 0, latestPublished: null });
  });

  it('keeps the counts under the "has evidence on" filter, which lists exactly the companies with such items', async () => {
    const withItems = await db
      .selectDistinct({ id: evidenceItems.companyId })
      .from(evidenceItems)
      .where(eq(evidenceItems.factor, 'certifications'))
      .orderBy(asc(evidenceItems.companyId));
    const expectedIds = withItems.map((r) => r.id);
    expect(expectedIds.length).toBeGreaterThan(1);
    const certified = await listCompaniesWithCounts({ db, filters: { factor: 'certifications' } });
    expect(certified.map((c) => c.id).sort()).toEqual(expectedIds);
    for (const company of certified) expect(company).toMatchObject(await directCounts(company.id));
    const wintec = certified.find((c) => c.id === 'wintec-automation')!;
    expect(wintec.evidenceCount).toBeGreaterThanOrEqual(30);
  });
});

describe.each(testBackends())('finding companies from the terminal on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values([
      { id: 'acme', name: '에이크미', nameEn: 'Acme Corp', country: 'KR' },
      { id: 'acme-2', name: 'Acme Corp', nameEn: null, country: 'US' },
      { id: 'beta', name: '베타', nameEn: 'Beta Ltd', country: 'KR' },
    ]);
  });
  afterAll(() => handle?.close());

  const ids = async (key: string) => (await findCompaniesByIdOrName({ db, key })).map((r) => r.id).sort();

  it('matches the id exactly (case too), and either name whole regardless of case, never a part of one', async () => {
    expect(await ids('beta')).toEqual(['beta']);
    expect(await ids('BETA LTD')).toEqual(['beta']);
    expect(await ids('베타')).toEqual(['beta']);
    expect(await ids('acme corp')).toEqual(['acme', 'acme-2']);
    expect(await ids('acme')).toEqual(['acme']);
    expect(await ids('ACME')).toEqual([]);
    expect(await ids('Bet')).toEqual([]);
  });

  it('lists every id, or those of the given ids that exist', async () => {
    expect((await listCompanyIds({ db })).map((r) => r.id).sort()).toEqual(['acme', 'acme-2', 'beta']);
    expect((await listCompanyIds({ db, ids: ['beta', 'nope'] })).map((r) => r.id)).toEqual(['beta']);
  });
});
