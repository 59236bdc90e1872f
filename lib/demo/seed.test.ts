import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '@/lib/auth/password';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listCasesForOwner } from '@/lib/db/queries/cases';
import { listRunSteps } from '@/lib/db/queries/runs';
import { cases, companies, documentChunks, documents, evidenceItems, runs, runSteps, users } from '@/lib/db/schema';
import { createRun, DEFAULT_RUN_PARAMS, executeRun } from '@/lib/debate/engine';
import { evidenceShortfall } from '@/lib/debate/sufficiency';
import { DEMO_ACCOUNTS, DEMO_CASE, DEMO_IDS, DEMO_SUBMITTED_CASE, DEMO_THIN_CASE, seedDemo, seedIfEmpty } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { DEFAULT_DEMO_PASSWORD, demoEnabled, env } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { recencyCutoff } from '@/lib/pool/as-of';
import { chunkDocument } from '@/lib/pool/chunk';
import { tagByCategory } from '@/lib/pool/factors';
import { GUIDELINE_FACTORS, isFactorId } from '@/lib/domain/factors';
import type { StepOutput } from '@/lib/domain/outputs';
import matter from 'gray-matter';

// Expected sizes come from the files themselves, so the test follows the data, not a copy of it.
const demoDir = path.join(process.cwd(), 'data/demo');
const expected = {
  companies: JSON.parse(fs.readFileSync(path.join(demoDir, 'companies.json'), 'utf8')).length as number,
  evidence: fs
    .readFileSync(path.join(demoDir, 'evidence.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim()).length,
  documents: fs.readdirSync(path.join(demoDir, 'documents')).filter((f) => f.endsWith('.md')).length,
  chunks: fs
    .readdirSync(path.join(demoDir, 'documents'))
    .filter((f) => f.endsWith('.md'))
    .reduce((n, f) => n + chunkDocument(matter(fs.readFileSync(path.join(demoDir, 'documents', f), 'utf8'), {}).content).length, 0),
};

type Row = { company_id: string; category: string; title: string; text: string; published_date: string };
const rows: Row[] = fs
  .readFileSync(path.join(demoDir, 'evidence.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const GUIDELINE_IDS: string[] = GUIDELINE_FACTORS.map((f) => f.id);
/** A company's demo items as of a date, tagged as the import tags them, with which are within the run's default recency window. */
function poolOf(companyId: string, asOf: string) {
  const cutoff = recencyCutoff(asOf, DEFAULT_RUN_PARAMS.recencyDays);
  const items = rows
    .filter((r) => r.company_id === companyId && r.published_date <= asOf)
    .map((r) => ({ factor: tagByCategory(r).factor as string, fresh: r.published_date >= cutoff }));
  const factors = (list: typeof items) => new Set(list.map((i) => i.factor).filter((f) => GUIDELINE_IDS.includes(f))).size;
  return { items, factors: factors(items), freshItems: items.filter((i) => i.fresh).length, freshFactors: factors(items.filter((i) => i.fresh)) };
}
/** The distinct guideline factors the claims of a run's steps are on. */
/** The factors the offline analyst's debate on the first draft argues (it is deterministic). */
const FULL_DEBATE_FACTORS = [
  'economic_sensitivity',
  'employment_stability',
  'government_support_programs',
  'industry_competition_intensity',
  'internal_control_risk',
  'management_continuity',
];
const claimFactors = (outputs: (StepOutput | null)[]) =>
  new Set(outputs.flatMap((o) => (o && 'claims' in o ? o.claims.map((c) => c.factor) : [])).filter((f) => GUIDELINE_IDS.includes(f)));

describe('the demo cases against the evidence in data/demo', () => {
  it('puts the first draft on a borrower and date whose evidence covers the most factors the pool allows, well over the threshold', () => {
    const draft = poolOf(DEMO_CASE.companyId, DEMO_CASE.asOfDate);
    expect(evidenceShortfall(draft.items)).toBeNull();
    // Every factor it shows has an item within the run's recency window (the stale ones are 8-Ks).
    expect({ items: draft.items.length, factors: draft.factors, freshItems: draft.freshItems, freshFactors: draft.freshFactors }).toEqual({
      items: 37,
      factors: 8,
      freshItems: 23,
      freshFactors: 8,
    });
    // Apart from Samsung, the submitted case's borrower, no company at any publication date in
    // the pool shows more factors.
    const others = rows.filter((r) => r.company_id !== DEMO_SUBMITTED_CASE.companyId);
    expect(draft.factors).toBe(Math.max(...others.map((r) => poolOf(r.company_id, r.published_date).factors)));
  });

  it('keeps the submitted case on a full record too, and the second draft thin on purpose, as its title says', () => {
    const submitted = poolOf(DEMO_SUBMITTED_CASE.companyId, DEMO_SUBMITTED_CASE.asOfDate);
    expect(evidenceShortfall(submitted.items)).toBeNull();
    expect({ items: submitted.items.length, factors: submitted.factors }).toEqual({ items: 40, factors: 9 });

    const thin = poolOf(DEMO_THIN_CASE.companyId, DEMO_THIN_CASE.asOfDate);
    expect({ items: thin.items.length, factors: thin.factors }).toEqual({ items: 1, factors: 1 });
    expect(evidenceShortfall(thin.items)).toMatchObject({ items: 1, factors: 1 });
    expect(DEMO_THIN_CASE.title).toMatch(/thin record with a red flag .*red-flag screening/);
  });
});

async function tableCounts(db: Db) {
  const count = async (table: Parameters<Db['$count']>[0]) => Number(await db.$count(table));
  return {
    companies: await count(companies),
    evidence: await count(evidenceItems),
    documents: await count(documents),
    chunks: await count(documentChunks),
    users: await count(users),
    cases: await count(cases),
  };
}

describe.each(testBackends())('seedDemo on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
  });
  afterAll(() => handle?.close());

  // The cases below run in order on one database: each builds on the state the previous left.

  it('writes nothing at all when any insert fails, because it runs in one transaction', async () => {
    await db.execute(sql`create function fail_insert() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`);
    await db.execute(sql`create trigger fail_chunks before insert on document_chunks for each row execute function fail_insert()`);
    try {
      const error = await seedDemo(db, { accounts: true }).then(
        () => new Error('seedDemo succeeded'),
        (e: Error) => e,
      );
      // Drizzle wraps the driver's error; the trigger's message is on the cause.
      expect(String((error.cause as Error | undefined)?.message ?? error.message)).toContain('boom');
      expect(await tableCounts(db)).toEqual({ companies: 0, evidence: 0, documents: 0, chunks: 0, users: 0, cases: 0 });
    } finally {
      await db.execute(sql`drop trigger fail_chunks on document_chunks`);
    }
  });

  it('loads the six demo companies, every evidence item and every document with its chunks', async () => {
    const counts = await seedDemo(db, { accounts: false });
    expect(expected.companies).toBe(6);
    expect(counts).toEqual({ ...expected, users: 0, cases: 0, runs: 0 });
    expect(await tableCounts(db)).toEqual({ ...expected, users: 0, cases: 0 });
  });

  it('copies identifiers into their own columns', async () => {
    const rows = await db.select().from(companies);
    const byId = Object.fromEntries(rows.map((c) => [c.id, c]));
    expect(byId['samsung-electronics']).toMatchObject({ corpCode: '00126380', stockCode: '005930', cik: null, ticker: null });
    expect(byId.tesla).toMatchObject({ cik: '0001318605', ticker: 'TSLA', corpCode: null, nameEn: 'Tesla, Inc.', country: 'US' });
    expect(byId['wintec-automation'].identifiers).toMatchObject({ biz_no: '124-86-17932' });
  });

  it('gives every evidence item a source, a published date and a rule-made factor tag', async () => {
    const items = await db.select().from(evidenceItems);
    expect(items).toHaveLength(expected.evidence);
    for (const item of items) {
      expect(item.sourceUrl, item.id).toMatch(/^https?:\/\/\S+$/);
      expect(item.publishedDate, item.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(isFactorId(item.factor ?? ''), item.id).toBe(true);
      expect(item.polarity, item.id).not.toBeNull();
      expect(item).toMatchObject({ factorSource: 'rule', origin: 'import' });
    }
    const taeyoung = items.filter((i) => i.companyId === 'taeyoung-engineering-construction');
    expect(taeyoung).toMatchObject([{ category: 'distress_creditor_management', factor: 'internal_control_risk', polarity: 'adverse' }]);
  });

  it('stores documents with their front matter and chunks whose offsets point into the stored body', async () => {
    const [monro] = await db
      .select()
      .from(documents)
      .where(sql`${documents.id} = 'monro-inc--earnings-call-q3-fy2020'`);
    expect(monro).toMatchObject({ companyId: 'monro-inc', kind: 'earnings_call', publishedDate: '2021-04-02', language: 'en' });
    expect(monro.meta).toMatchObject({ call_date: null, sector: 'Consumer Goods' });
    expect(monro.meta.date_note).toMatch(/not recorded/);
    expect(monro.meta).not.toHaveProperty('title');

    const chunks = await db
      .select()
      .from(documentChunks)
      .where(sql`${documentChunks.documentId} = ${monro.id}`);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(monro.body.slice(c.charStart, c.charEnd)).toBe(c.text);
  });

  it('inserts nothing the second time', async () => {
    const before = await tableCounts(db);
    expect(await seedDemo(db, { accounts: false })).toEqual({ companies: 0, evidence: 0, documents: 0, chunks: 0, users: 0, cases: 0, runs: 0 });
    expect(await tableCounts(db)).toEqual(before);
  });

  it('adds the demo accounts, two draft cases and a submitted case with its finished analysis only when asked, leaving an existing account alone', async () => {
    const [admin] = await db.insert(users).values({ email: 'admin@example.com', name: 'Real Admin', role: 'admin', passwordHash: 'scrypt$kept' }).returning();

    const counts = await seedDemo(db, { accounts: true });
    expect(counts).toEqual({ companies: 0, evidence: 0, documents: 0, chunks: 0, users: 3, cases: 3, runs: 1 });

    const all = await db.select().from(users);
    expect(all.map((u) => u.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    expect(all.find((u) => u.email === 'admin@example.com')).toMatchObject({ id: admin.id, name: 'Real Admin', demo: false, passwordHash: 'scrypt$kept' });
    for (const account of DEMO_ACCOUNTS.filter((a) => a.email !== 'admin@example.com')) {
      const user = all.find((u) => u.email === account.email)!;
      expect(user).toMatchObject({ name: account.name, role: account.role, demo: true, disabled: false });
      expect(await verifyPassword(env().DEMO_PASSWORD, user.passwordHash!)).toBe(true);
      expect(await verifyPassword(`${env().DEMO_PASSWORD}x`, user.passwordHash!)).toBe(false);
    }
    expect(all.find((u) => u.email === 'rm@example.com')?.name).toBe('Demo RM');

    const rm = all.find((u) => u.email === 'rm@example.com')!;
    const [demoCase] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.draftCase));
    expect(demoCase).toMatchObject({
      ownerId: rm.id,
      companyId: 'tesla',
      title: DEMO_CASE.title,
      loanCurrency: 'USD',
      loanTenorMonths: 36,
      asOfDate: '2025-06-30',
      status: 'draft',
    });
    expect(Number(demoCase.loanAmount)).toBe(100_000_000);
    const [thinCase] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.thinCase));
    expect(thinCase).toMatchObject({
      ownerId: rm.id,
      companyId: 'taeyoung-engineering-construction',
      title: DEMO_THIN_CASE.title,
      asOfDate: '2025-03-31',
      status: 'draft',
    });

    // The RM's list (home page and /cases) opens with the full-debate draft, then the thin one.
    expect((await listCasesForOwner({ db, ownerId: rm.id })).map((c) => c.id)).toEqual([DEMO_IDS.draftCase, DEMO_IDS.thinCase, DEMO_IDS.submittedCase]);

    // The submitted case carries a finished KPD-MADS analysis by the offline analyst, all eleven steps done.
    const [submitted] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.submittedCase));
    expect(submitted).toMatchObject({ ownerId: rm.id, companyId: 'samsung-electronics', status: 'submitted' });
    expect(submitted.submittedAt).toBeInstanceOf(Date);
    const [run] = await db.select().from(runs).where(eq(runs.id, DEMO_IDS.run));
    expect(run).toMatchObject({ caseId: DEMO_IDS.submittedCase, protocol: 'kpd-mads', provider: 'offline', status: 'succeeded', createdById: rm.id });
    const steps = await db.select().from(runSteps).where(eq(runSteps.runId, DEMO_IDS.run));
    expect(steps.map((s) => s.status)).toEqual(Array(11).fill('done'));
  });

  it('does not add more cases or runs or touch the accounts when seeded again', async () => {
    const hashes = (await db.select({ email: users.email, hash: users.passwordHash }).from(users)).sort((a, b) => a.email.localeCompare(b.email));
    expect(await seedDemo(db, { accounts: true })).toEqual({ companies: 0, evidence: 0, documents: 0, chunks: 0, users: 0, cases: 0, runs: 0 });
    const after = (await db.select({ email: users.email, hash: users.passwordHash }).from(users)).sort((a, b) => a.email.localeCompare(b.email));
    expect(after).toEqual(hashes);
    expect(await db.$count(cases)).toBe(3);
    expect(await db.$count(runs)).toBe(1);
  });

  it("gives the first draft a full debate: the offline analyst's KPD-MADS run succeeds, every step done, with claims on many factors", async () => {
    const [kase] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.draftCase));
    const provider = createOfflineAnalyst();
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: kase.companyId,
      provider,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: kase.asOfDate, language: 'en' },
    });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status).toBe('succeeded');
    const [row] = await db.select().from(runs).where(eq(runs.id, run.id));
    expect(row.shortfall).toBeNull();
    const steps = await listRunSteps({ db, runId: run.id });
    expect(steps.map((s) => s.status)).toEqual(Array(11).fill('done'));
    const factors = claimFactors(steps.map((s) => s.output));
    expect([...factors].sort()).toEqual(FULL_DEBATE_FACTORS);
  }, 60_000);

  it('ends a run on the thin draft as a red-flag screening, before any step', async () => {
    const [kase] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.thinCase));
    const provider = createOfflineAnalyst();
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: kase.companyId,
      provider,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: kase.asOfDate, language: 'en' },
    });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('red_flag_screening');
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(Array(11).fill('pending'));
  });
});

describe.each(testBackends())('seedIfEmpty on %s', (backend) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(() => handle?.close());

  it('does nothing when the database already has users', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await handle.db.insert(users).values({ email: 'someone@bank.example', name: 'Someone', role: 'rm' });
      expect(await seedIfEmpty(handle.db)).toBeNull();
      expect(await handle.db.$count(companies)).toBe(0);
      expect(log).not.toHaveBeenCalled();
      await handle.db.delete(users);
    } finally {
      log.mockRestore();
    }
  });

  it('seeds an empty database once, with demo accounts as the environment allows, and says so in one line', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const counts = await seedIfEmpty(handle.db);
      expect(counts).toMatchObject({ companies: expected.companies, evidence: expected.evidence, users: demoEnabled() ? 4 : 0 });
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0][0]).toMatch(new RegExp(`${expected.companies} companies, ${expected.evidence} evidence items`));
      expect(log.mock.calls[0][0]).not.toContain('\n');
      // The password in force, not a variable to go looking for (issue 30, item 9): the tests
      // leave DEMO_PASSWORD unset, so it is the default, said as it is.
      if (demoEnabled()) {
        expect(log.mock.calls[0][0]).toContain(`(password: ${DEFAULT_DEMO_PASSWORD}).`);
        expect(log.mock.calls[0][0]).not.toContain('set by DEMO_PASSWORD');
      }

      expect(await seedIfEmpty(handle.db)).toBeNull();
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });
});
