import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { seedDemo } from '@/lib/demo/seed';
import { auditLog, companies, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';
import { fetchFilings, filingSourcesFor } from '@/lib/pool/connectors/fetch-filings';
import { startFixtureServer, type FixtureServer } from '@/lib/pool/connectors/fixture-server';

const KEY = 'test-dart-key-0123456789';

describe.each(testBackends())('fetching filings into the pool on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let server: FixtureServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = await startFixtureServer({ dartKey: KEY });
    Object.assign(process.env, {
      OPENDART_API_KEY: KEY,
      OPENDART_BASE_URL: server.dartBaseUrl,
      SEC_USER_AGENT: 'Crosscheck tests ops@example.org',
      SEC_EDGAR_BASE_URL: server.origin,
    });
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(async () => {
    process.env = saved;
    resetEnvForTests();
    await server?.close();
    await handle?.close();
  });

  const company = async (id: string) => (await db.select().from(companies).where(eq(companies.id, id)))[0];

  it('offers OpenDART for Korean companies and EDGAR for US ones', async () => {
    expect(filingSourcesFor(await company('samsung-electronics'))).toEqual(['dart']);
    expect(filingSourcesFor(await company('tesla'))).toEqual(['edgar']);
  });

  it('imports Tesla filings from EDGAR as dated, sourced evidence, once', async () => {
    // The newer of the two recordings: Tesla's filings as of 2026-02-03.
    server.serve('/submissions/CIK0001318605.json', { file: 'edgar/CIK0001318605.recorded-2026-02-03.json' });
    const now = new Date('2026-02-03T00:00:00Z');
    const first = await fetchFilings({ db, company: await company('tesla'), source: 'edgar', actorId: null, now });
    expect(first.fetched).toBeGreaterThan(10);
    expect(first.imported.evidence).toBe(first.fetched - first.skippedDuplicates - first.rejected.length);
    expect(first.imported.evidence).toBeGreaterThan(0);
    const rows = await db.select().from(evidenceItems).where(eq(evidenceItems.origin, 'edgar'));
    expect(rows.length).toBe(first.imported.evidence);
    for (const r of rows) {
      expect(r.sourceUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/1318605\/\d{18}\//);
      expect(r.publishedDate >= '2023-02-03').toBe(true);
      expect(r.retrievedAt).toBeInstanceOf(Date);
      expect(r.factor).toBeTruthy();
    }
    const again = await fetchFilings({ db, company: await company('tesla'), source: 'edgar', actorId: null, now });
    expect(again.imported.evidence).toBe(0);
    expect(again.skippedDuplicates).toBe(first.fetched - first.rejected.length);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, 'pool.import'));
    expect(audits.some((a) => (a.detail as { origin?: string }).origin === 'edgar')).toBe(true);
  });

  it('imports OpenDART records without the key reaching the pool or the audit log', async () => {
    const result = await fetchFilings({
      db,
      company: await company('samsung-electronics'),
      source: 'dart',
      actorId: null,
      now: new Date('2026-11-01T00:00:00Z'),
    });
    expect(result.imported.evidence + result.skippedDuplicates + result.rejected.length).toBe(result.fetched);
    const rows = await db.select().from(evidenceItems).where(eq(evidenceItems.origin, 'dart'));
    for (const r of rows) expect(r.sourceUrl).toMatch(/^https:\/\/dart\.fss\.or\.kr\/dsaf001\/main\.do\?rcpNo=\d{14}$/);
    const everything = JSON.stringify([rows, await db.select().from(auditLog), result]);
    expect(everything).not.toContain(KEY);
  });
});
