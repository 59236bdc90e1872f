// Loads the demo knowledge pool (data/demo/) and, when asked, the demo accounts and one draft
// case, so a fresh install has something real to screen. Idempotent: every insert skips rows
// that already exist, so re-running it (or running it on a used database) only fills gaps and
// never overwrites an RM's corrections or a changed password.
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/db/client';
import { cases, companies, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/auth/password';
import { demoEnabled, env } from '@/lib/env';
import { readSourcesFromPath } from '@/lib/pool/import';
import { planImport } from '@/lib/pool/import/plan';
import { writeImport } from '@/lib/pool/import/write';
import { DEMO_ACCOUNTS } from '@/lib/auth/demo-accounts';

export { DEMO_ACCOUNTS };

export function demoDataDir() {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'data', 'demo');
}

/** The distressed borrower with thin evidence: the case that shows what the app does with little to go on. */
export const DEMO_CASE = {
  companyId: 'taeyoung-engineering-construction',
  title: 'Taeyoung E&C — working-capital facility',
  loanAmount: '5000000000',
  loanCurrency: 'KRW',
  loanPurpose: 'Working capital for ongoing construction projects while the creditor-bank management procedure runs',
  loanTenorMonths: 12,
  // After the creditor-bank management disclosure (published 2025-02-17), so the case has evidence.
  asOfDate: '2025-03-31',
} as const;

export type SeedCounts = { companies: number; evidence: number; documents: number; chunks: number; users: number; cases: number };

export async function seedDemo(db: Db, { accounts }: { accounts: boolean }): Promise<SeedCounts> {
  // The demo pool goes through the same import as any RM's folder: validated first, then
  // written with the accounts and the demo case in one transaction.
  const plan = await planImport({ db, sources: readSourcesFromPath(demoDataDir()), maxFileBytes: Number.MAX_SAFE_INTEGER });
  if (plan.rejected.length > 0) {
    const first = plan.rejected[0];
    throw new Error(`The demo data in ${demoDataDir()} has ${plan.rejected.length} invalid rows, first ${first.file}:${first.row} ${first.field ?? ''}: ${first.message}`);
  }
  const newAccounts = accounts ? await accountsToCreate(db) : [];

  return db.transaction(async (tx) => {
    const imported = await writeImport(tx, plan, { actorId: null, label: 'demo data (data/demo)' });
    const counts: SeedCounts = { ...imported, users: 0, cases: 0 };
    if (accounts) {
      if (newAccounts.length > 0) {
        counts.users = (await tx.insert(users).values(newAccounts).onConflictDoNothing().returning({ id: users.id })).length;
      }
      counts.cases = await createDemoCase(tx);
    }
    return counts;
  });
}

/** Demo accounts not yet present, with hashed passwords; existing accounts are never touched. */
async function accountsToCreate(db: Db) {
  const emails = DEMO_ACCOUNTS.map((a) => a.email);
  const existing = new Set((await db.select({ email: users.email }).from(users).where(inArray(users.email, emails))).map((u) => u.email));
  const password = env().DEMO_PASSWORD;
  return Promise.all(
    DEMO_ACCOUNTS.filter((a) => !existing.has(a.email)).map(async (a) => ({
      ...a,
      demo: true,
      passwordHash: await hashPassword(password),
    })),
  );
}

/** One draft case for the demo RM, unless that RM already has a case (any case: it may be this one, edited). */
async function createDemoCase(tx: Tx) {
  const [rm] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS[0].email));
  if (!rm) return 0;
  const [anyCase] = await tx.select({ id: cases.id }).from(cases).where(eq(cases.ownerId, rm.id)).limit(1);
  if (anyCase) return 0;
  await tx.insert(cases).values({ ...DEMO_CASE, ownerId: rm.id, status: 'draft' });
  return 1;
}

/** On a brand-new database (no users, no companies), loads the demo data; otherwise does nothing. */
export async function seedIfEmpty(db: Db): Promise<SeedCounts | null> {
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  const [anyCompany] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (anyUser || anyCompany) return null;
  const accounts = demoEnabled();
  const counts = await seedDemo(db, { accounts });
  console.log(
    `[db] Loaded the demo pool: ${counts.companies} companies, ${counts.evidence} evidence items, ` +
      `${counts.documents} documents (${counts.chunks} chunks)` +
      (accounts ? `; demo accounts ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')} (password set by DEMO_PASSWORD).` : '.'),
  );
  return counts;
}
