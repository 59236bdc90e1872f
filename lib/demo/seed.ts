// Loads the demo knowledge pool (data/demo/) and, when asked, the demo accounts, two draft cases
// (one with a full record, one thin on purpose) and a submitted case with its offline analysis, so
// a fresh install has something real to screen.
// Idempotent: every insert skips rows that already exist, so re-running it (or running it on a
// used database) only fills gaps and never overwrites an RM's corrections or a changed password.
// It sits above the engine (it runs a demo analysis), so nothing below start-up imports it:
// lib/demo/app-database.ts calls it when the app opens an empty embedded database.
import 'server-only';
import path from 'node:path';
import type { Db, Tx } from '@/lib/db/client';
import { getCaseById } from '@/lib/db/queries/cases';
import {
  caseHasAnyRun,
  findUserIdByEmail,
  hasAnyCompany,
  hasAnyUser,
  insertCasesIfAbsent,
  insertUsersIfAbsent,
  listExistingEmails,
  ownerHasAnyCase,
} from '@/lib/db/queries/demo';
import { hashPassword } from '@/lib/auth/password';
import { DEMO_ACCOUNTS, demoPasswordNote } from '@/lib/demo/accounts';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { DEFAULT_DEMO_PASSWORD, demoEnabled, env } from '@/lib/env';
import { readSourcesFromPath } from '@/lib/pool/import';
import { planImport } from '@/lib/pool/import/plan';
import { writeImport } from '@/lib/pool/import/write';

export { DEMO_ACCOUNTS, DEMO_IDS };

export function demoDataDir() {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'data', 'demo');
}

/**
 * The draft a newcomer finds first, at the top of the RM's cases: a borrower whose real record
 * covers many factors, so the first analysis they run is a full debate. As of 2025-06-30 Tesla's
 * pool shows 37 of its 39 items on eight of the ten guideline factors, the most any demo borrower
 * but Samsung (the submitted case's) shows at any date: its FY2024 10-K of 2025-01-30 brought six
 * of them, and the two 8-Ks published later add none. It is the submitted case's as-of date too.
 * The offline analyst's KPD-MADS run on it argues six factors (lib/demo/seed.test.ts).
 */
export const DEMO_CASE = {
  companyId: 'tesla',
  title: 'Tesla — syndicated revolving credit facility participation',
  loanAmount: '100000000',
  loanCurrency: 'USD',
  loanPurpose: 'Participation in a syndicated revolving credit facility for general corporate purposes',
  loanTenorMonths: 36,
  asOfDate: '2025-06-30',
} as const;

/**
 * A second draft that shows what the app does with little to go on: Taeyoung E&C, a distressed
 * borrower whose real record in the pool is one creditor-bank management filing (published
 * 2025-02-17). A run on it ends as insufficient evidence before any step, with the red flag and
 * the factors that have nothing; the title says so, so nobody mistakes it for a hollow analysis.
 */
export const DEMO_THIN_CASE = {
  companyId: 'taeyoung-engineering-construction',
  title: 'Taeyoung E&C — thin record with a red flag (one workout filing: ends as a red-flag screening)',
  loanAmount: '5000000000',
  loanCurrency: 'KRW',
  loanPurpose: 'Working capital for ongoing construction projects while the creditor-bank management procedure runs',
  loanTenorMonths: 12,
  // After the creditor-bank management disclosure (published 2025-02-17), so the case has its one item.
  asOfDate: '2025-03-31',
} as const;

/** A case already analysed and sent to the committee: what a committee member reviews. */
export const DEMO_SUBMITTED_CASE = {
  companyId: 'samsung-electronics',
  title: 'Samsung Electronics — revolving credit facility renewal',
  loanAmount: '50000000000',
  loanCurrency: 'KRW',
  loanPurpose: 'Renewal of a three-year revolving facility for general corporate purposes',
  loanTenorMonths: 36,
  asOfDate: '2025-06-30',
} as const;

export type SeedCounts = { companies: number; evidence: number; documents: number; chunks: number; users: number; cases: number; runs: number };

export async function seedDemo(db: Db, { accounts }: { accounts: boolean }): Promise<SeedCounts> {
  // The demo pool goes through the same import as any RM's folder: validated first, then
  // written with the accounts and the demo case in one transaction.
  // The seed is the operator's own data (npm start, npm run db:seed), so it may update the demo
  // companies' profiles as an administrator's import may.
  const plan = await planImport({ db, sources: readSourcesFromPath(demoDataDir()), maxFileBytes: Number.MAX_SAFE_INTEGER, companyProfiles: 'replace' });
  if (plan.rejected.length > 0) {
    const first = plan.rejected[0];
    throw new Error(
      `The demo data in ${demoDataDir()} has ${plan.rejected.length} invalid rows, first ${first.file}:${first.row} ${first.field ?? ''}: ${first.message}`,
    );
  }
  const newAccounts = accounts ? await accountsToCreate(db) : [];

  const counts = await db.transaction(async (tx) => {
    const { updatedCompanies: _updated, ...imported } = await writeImport(tx, plan, { actorId: null, label: 'demo data (data/demo)' });
    const counts: SeedCounts = { ...imported, users: 0, cases: 0, runs: 0 };
    if (accounts) {
      if (newAccounts.length > 0) counts.users = await insertUsersIfAbsent({ db: tx, values: newAccounts });
      counts.cases = await createDemoCase(tx);
    }
    return counts;
  });
  if (accounts && (await createDemoRun(db))) counts.runs = 1;
  return counts;
}

/**
 * Creates the demo accounts that do not exist yet, and only those (no pool, no cases): on
 * PostgreSQL with DEMO=1 they must exist once the app has started, as the sign-in page lists
 * them, while loading the pool stays `npm run db:seed`'s job. Existing accounts, their changed
 * passwords included, are never touched; instances starting together create each account once.
 * Returns how many it created.
 */
export async function ensureDemoAccounts(db: Db, password = env().DEMO_PASSWORD): Promise<number> {
  const fresh = await accountsToCreate(db, password);
  if (fresh.length === 0) return 0;
  return insertUsersIfAbsent({ db, values: fresh });
}

/** Demo accounts not yet present, with hashed passwords; existing accounts are never touched. */
async function accountsToCreate(db: Db, password = env().DEMO_PASSWORD) {
  const existing = await listExistingEmails({ db, emails: DEMO_ACCOUNTS.map((a) => a.email) });
  return Promise.all(
    DEMO_ACCOUNTS.filter((a) => !existing.has(a.email)).map(async (a) => ({
      ...a,
      demo: true,
      passwordHash: await hashPassword(password),
    })),
  );
}

/**
 * The demo RM's three cases — the draft to start on (a full debate), the thin-evidence draft,
 * and one submitted to the committee — unless that RM already has a case (any case: it may be
 * one of these, edited).
 */
async function createDemoCase(tx: Tx) {
  const rmId = await findUserIdByEmail({ db: tx, email: DEMO_ACCOUNTS[0].email });
  if (!rmId) return 0;
  if (await ownerHasAnyCase({ db: tx, ownerId: rmId })) return 0;
  // The RM's case list is newest first (by updatedAt), and rows written in one transaction share
  // its now(): the times are set a second apart so the full-debate draft heads the list.
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000);
  return insertCasesIfAbsent({
    db: tx,
    values: [
      { ...DEMO_CASE, id: DEMO_IDS.draftCase, ownerId: rmId, status: 'draft', createdAt: at(0), updatedAt: at(0) },
      { ...DEMO_THIN_CASE, id: DEMO_IDS.thinCase, ownerId: rmId, status: 'draft', createdAt: at(1), updatedAt: at(1) },
      { ...DEMO_SUBMITTED_CASE, id: DEMO_IDS.submittedCase, ownerId: rmId, status: 'submitted', submittedAt: at(2), createdAt: at(2), updatedAt: at(2) },
    ],
  });
}

/**
 * The submitted demo case's analysis: a KPD-MADS run by the built-in offline analyst (a few
 * seconds), written by the engine like any run. Only when the case exists and has no run yet.
 */
async function createDemoRun(db: Db) {
  const kase = await getCaseById({ db, id: DEMO_IDS.submittedCase });
  if (!kase) return false;
  if (await caseHasAnyRun({ db, caseId: kase.id })) return false;
  // Imported here: only this path needs the engine, and the app loads seed.ts whenever it opens an
  // embedded database.
  const { createRun, executeRun } = await import('@/lib/debate/engine');
  const { createOfflineAnalyst } = await import('@/lib/llm/offline');
  const provider = createOfflineAnalyst();
  const run = await createRun({
    db,
    id: DEMO_IDS.run,
    protocolId: 'kpd-mads',
    companyId: kase.companyId,
    provider,
    caseId: kase.id,
    createdById: kase.ownerId,
    params: { asOf: kase.asOfDate, language: 'ko' },
  });
  const result = await executeRun({ db, runId: run.id, provider });
  if (result.status !== 'succeeded') throw new Error(`The demo analysis did not finish: ${result.error}`);
  return true;
}

/** On a brand-new database (no users, no companies), loads the demo data; otherwise does nothing. */
export async function seedIfEmpty(db: Db): Promise<SeedCounts | null> {
  const anyUser = await hasAnyUser({ db });
  const anyCompany = await hasAnyCompany({ db });
  if (anyUser || anyCompany) return null;
  const accounts = demoEnabled();
  const counts = await seedDemo(db, { accounts });
  console.log(
    `[db] Loaded the demo pool: ${counts.companies} companies, ${counts.evidence} evidence items, ` +
      `${counts.documents} documents (${counts.chunks} chunks)` +
      (accounts ? `; demo accounts ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')} (${demoPasswordNote(env().DEMO_PASSWORD, DEFAULT_DEMO_PASSWORD)}).` : '.'),
  );
  return counts;
}
