// POST /api/import, the Import page's upload, on a throwaway database: the limit that
// IMPORT_MAX_FILE_MB sets (uploads over 10 MB within it go in, one over it gets a clear message
// before it is read to the end), the origin check, and who may change a company's profile.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { companies, evidenceItems, users } from '@/lib/db/schema';
import { createTestDatabase } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';
import type { ImportResponse } from '@/lib/pool/import/response';
import { fromOwnSite } from '@/lib/pool/import/upload';

const state = vi.hoisted(() => ({ db: null as unknown, user: null as null | { id: string; role: string; name: string; email: string; demo: boolean } }));
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => state.user }));
vi.mock('@/lib/db/client', async (original) => ({ ...(await original<object>()), getDb: async () => state.db }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const { POST } = await import('@/app/api/import/route');

const MB = 1024 * 1024;
const SETTING_MB = 8;
const row = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: `up-${n}`,
    company_id: 'upload-co',
    category: 'certification',
    title: `Item ${n}`,
    text: 'Text.',
    published_date: '2023-03-02',
    source_name: 'Ministry',
    source_url: `https://example.kr/${n}`,
    ...extra,
  });
/** A valid JSONL file of one item, padded with blank lines (which the import skips) to `bytes`. */
const paddedFile = (name: string, n: number, bytes: number) => {
  const text = `${row(n)}\n`;
  return new File([text, '\n'.repeat(bytes - text.length)], name);
};
const OWN_SITE = { 'sec-fetch-site': 'same-origin' };

function upload(files: File[], { headers = OWN_SITE as Record<string, string>, validOnly = false } = {}) {
  const form = new FormData();
  for (const f of files) {
    form.append('files', f);
    form.append('paths', f.name);
  }
  form.set('validOnly', String(validOnly));
  return POST(new Request('http://localhost/api/import', { method: 'POST', body: form, headers }), undefined);
}

describe('POST /api/import', () => {
  let handle: DatabaseHandle;
  let db: Db;
  const saved = process.env.IMPORT_MAX_FILE_MB;
  const ids = { rm: '', admin: '' };

  beforeAll(async () => {
    process.env.IMPORT_MAX_FILE_MB = String(SETTING_MB);
    resetEnvForTests();
    handle = await createTestDatabase('pglite');
    db = handle.db;
    state.db = db;
    const rows = await db
      .insert(users)
      .values([
        { email: 'rm@upload.test', name: 'RM', role: 'rm' },
        { email: 'admin@upload.test', name: 'Admin', role: 'admin' },
      ])
      .returning({ id: users.id, role: users.role });
    for (const r of rows) ids[r.role as 'rm' | 'admin'] = r.id;
    await db.insert(companies).values({ id: 'upload-co', name: '업로드상사', country: 'KR' });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.IMPORT_MAX_FILE_MB;
    else process.env.IMPORT_MAX_FILE_MB = saved;
    resetEnvForTests();
    await handle?.close();
  });
  const as = (role: 'rm' | 'admin') => {
    state.user = { id: ids[role], role, name: role, email: `${role}@upload.test`, demo: false };
  };

  it('an upload over 10 MB but within the limit (twice IMPORT_MAX_FILE_MB) is imported', async () => {
    as('rm');
    const response = await upload([paddedFile('a.jsonl', 1, 6 * MB), paddedFile('b.jsonl', 2, 6 * MB)]);
    expect(response.status).toBe(200);
    const report = (await response.json()) as ImportResponse;
    expect(report).toMatchObject({ written: true, imported: { evidence: 2 }, rejectedCount: 0 });
  });

  it('a file over IMPORT_MAX_FILE_MB is a named rejection giving its size and the limit', async () => {
    as('rm');
    const response = await upload([paddedFile('big.jsonl', 3, SETTING_MB * MB + 1)]);
    expect(response.status).toBe(200);
    const report = (await response.json()) as ImportResponse;
    expect(report.written).toBe(false);
    expect(report.rejected).toMatchObject([
      { file: 'big.jsonl', row: 0, field: null, message: 'The file is 8.1 MB; the limit is 8 MB (IMPORT_MAX_FILE_MB). Split it into smaller files.' },
    ]);
    expect(await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'up-3'))).toEqual([]);
  });

  it('an upload over the limit is refused with a clear message, by its declared length before any of it is read', async () => {
    as('rm');
    const form = new FormData();
    for (const n of [4, 5, 6]) form.append('files', paddedFile(`${n}.jsonl`, n, 7 * MB));
    const encoded = new Response(form);
    const type = encoded.headers.get('content-type')!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(bytes.subarray(0, MB));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request('http://localhost/api/import', {
      method: 'POST',
      body,
      headers: { ...OWN_SITE, 'content-type': type, 'content-length': String(bytes.byteLength) },
      duplex: 'half',
    } as RequestInit);
    const response = await POST(request, undefined);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      code: 'bad_request',
      message: 'This upload is 21.1 MB; the most one import may carry is 16 MB (twice IMPORT_MAX_FILE_MB). Import the files in smaller groups.',
      phrase: { key: 'uploadTooLarge', values: { size: '21.1 MB', limit: '16 MB' } },
    });
    expect(pulled).toBe(0);
  });

  it('an upload over the limit without a declared length is cut off as it streams, with the same advice', async () => {
    as('rm');
    const response = await upload([paddedFile('c.jsonl', 7, 7 * MB), paddedFile('d.jsonl', 8, 7 * MB), paddedFile('e.jsonl', 9, 7 * MB)]);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(
      'This upload is more than 16 MB, the most one import may carry (twice IMPORT_MAX_FILE_MB). Import the files in smaller groups.',
    );
    expect(await db.select().from(evidenceItems).where(eq(evidenceItems.id, 'up-7'))).toEqual([]);
  });

  it('an upload from another site is refused before it is read', async () => {
    as('rm');
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example', host: 'localhost' }, {}] as Record<string, string>[]) {
      const response = await upload([paddedFile('x.jsonl', 10, 1000)], { headers });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toMatch(/did not come from this site/);
    }
    expect(fromOwnSite(new Headers({ origin: 'https://crosscheck.bank.example', 'x-forwarded-host': 'crosscheck.bank.example', host: 'app:3000' }))).toBe(true);
  });

  it('without a session nothing is read and the answer is 401', async () => {
    state.user = null;
    const response = await upload([paddedFile('y.jsonl', 11, 1000)]);
    expect(response.status).toBe(401);
  });

  it("an RM's companies.json with a changed name leaves the profile unchanged and says so; an administrator's changes it", async () => {
    const file = () => new File([JSON.stringify([{ id: 'upload-co', name: 'Renamed Ltd', country: 'KR' }])], 'companies.json');
    as('rm');
    const rm = (await (await upload([file()])).json()) as ImportResponse;
    expect(rm.skippedProfileChanges).toEqual([expect.objectContaining({ companyId: 'upload-co', fields: ['name'] })]);
    expect((await db.select({ name: companies.name }).from(companies).where(eq(companies.id, 'upload-co')))[0].name).toBe('업로드상사');
    as('admin');
    const admin = (await (await upload([file()])).json()) as ImportResponse;
    expect(admin.updatedCompanies).toEqual([{ id: 'upload-co', fields: ['name'] }]);
    expect((await db.select({ name: companies.name }).from(companies).where(eq(companies.id, 'upload-co')))[0].name).toBe('Renamed Ltd');
  });
});

describe('proxy.ts and the upload', () => {
  it('the proxy, whose body copy stops at 10 MB, does not run for /api/import, and still runs for every page', async () => {
    const { config } = await import('@/proxy');
    // Next.js anchors a matcher at both ends.
    const runsFor = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));
    expect(runsFor('/api/import')).toBe(false);
    expect(runsFor('/import')).toBe(true);
    expect(runsFor('/api/runs/abc/events')).toBe(true);
    expect(runsFor('/companies/tesla')).toBe(true);
  });
});
