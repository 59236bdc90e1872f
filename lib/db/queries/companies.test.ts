import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listCompaniesWithCounts, listEvidenceTimeline } from '@/lib/db/queries/companies';
import { seedDemo } from '@/lib/db/seed';
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
  });
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
});
