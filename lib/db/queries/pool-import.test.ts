// The import's writes on their own, for what the whole-import tests cannot stage: a profile
// that changed between planning and writing (a fill never overwrites it), and rows that appeared
// meanwhile (the inserts skip them by id and by the duplicate key).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import {
  insertEvidenceBatch,
  insertNewCompanies,
  selectEvidenceKeys,
  selectExistingEvidenceIds,
  selectTagOverrides,
  updateCompanyProfile,
} from '@/lib/db/queries/pool-import';
import { companies, evidenceTagOverrides } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const item = (id: string, title: string) => ({
  id,
  companyId: 'fill-co',
  category: 'litigation',
  title,
  text: 'Text.',
  publishedDate: '2024-05-01',
  sourceName: 'Court',
  sourceUrl: 'https://example.org/case',
  language: 'en',
});

describe.each(testBackends())('the import writes on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
  });
  afterAll(() => handle?.close());

  const profile = async (id: string) => (await db.select().from(companies).where(eq(companies.id, id)))[0];

  it('inserts new companies only, with their identifier columns, and counts what it inserted', async () => {
    await db
      .insert(companies)
      .values({ id: 'fill-co', name: '채움', nameEn: '', country: 'KR', description: 'Kept.', identifiers: { corp_code: '00111111' }, corpCode: '00111111' });
    const inserted = await insertNewCompanies({
      db,
      rows: [
        { id: 'fill-co', name: 'Other', nameEn: null, country: 'US', industry: null, description: null, identifiers: {} },
        {
          id: 'new-co',
          name: '새회사',
          nameEn: 'New Co',
          country: 'KR',
          industry: null,
          description: null,
          identifiers: { corp_code: '00222222', ticker: 'NEW' },
        },
      ],
    });
    expect(inserted).toBe(1);
    expect(await profile('fill-co')).toMatchObject({ name: '채움', country: 'KR' });
    expect(await profile('new-co')).toMatchObject({ corpCode: '00222222', ticker: 'NEW', stockCode: null, cik: null });
  });

  it('a fill writes only what the profile lacks when it runs: an empty field counts as missing, a present value and identifier win', async () => {
    const found = await updateCompanyProfile({
      db,
      id: 'fill-co',
      mode: 'fill',
      change: { nameEn: 'Fill Co', description: 'From the import.', identifiers: { corp_code: '00999999', cik: '0000123' } },
    });
    expect(found).toBe(true);
    expect(await profile('fill-co')).toMatchObject({
      name: '채움',
      nameEn: 'Fill Co',
      description: 'Kept.',
      identifiers: { corp_code: '00111111', cik: '0000123' },
      corpCode: '00111111',
      cik: '0000123',
    });
  });

  it('a replace writes the values as they are, identifiers whole; an unknown company is reported', async () => {
    expect(
      await updateCompanyProfile({ db, id: 'fill-co', mode: 'replace', change: { description: 'Replaced.', identifiers: { stock_code: '123450' } } }),
    ).toBe(true);
    expect(await profile('fill-co')).toMatchObject({
      description: 'Replaced.',
      identifiers: { stock_code: '123450' },
      corpCode: null,
      cik: null,
      stockCode: '123450',
    });
    expect(await updateCompanyProfile({ db, id: 'no-such-co', mode: 'fill', change: { name: 'X' } })).toBe(false);
  });

  it('skips an item whose id or whose (company, source, date, title) is already in the pool', async () => {
    expect(await insertEvidenceBatch({ db, rows: [item('fill-1', 'Suit filed')] })).toBe(1);
    expect(await insertEvidenceBatch({ db, rows: [item('fill-1', 'Another title'), item('fill-2', 'Suit filed'), item('fill-3', 'Suit settled')] })).toBe(1);
    expect(await selectExistingEvidenceIds({ db, ids: ['fill-1', 'fill-2', 'fill-3', 'fill-4'] })).toEqual(expect.arrayContaining(['fill-1', 'fill-3']));
    expect((await selectExistingEvidenceIds({ db, ids: ['fill-2', 'fill-4'] })).length).toBe(0);
    const keys = await selectEvidenceKeys({ db, companyIds: ['fill-co'] });
    expect(keys.map((k) => k.title).sort()).toEqual(['Suit filed', 'Suit settled']);
  });

  it('finds the RM tag corrections of the ids asked for, also of items no longer in the pool', async () => {
    await db.insert(evidenceTagOverrides).values([
      { evidenceId: 'fill-1', factor: 'legal', polarity: 'adverse' },
      { evidenceId: 'deleted-item', factor: 'governance', polarity: 'context' },
    ]);
    const found = await selectTagOverrides({ db, ids: ['fill-1', 'fill-3', 'deleted-item'] });
    expect(Object.fromEntries(found)).toEqual({
      'fill-1': { factor: 'legal', polarity: 'adverse' },
      'deleted-item': { factor: 'governance', polarity: 'context' },
    });
  });
});
