// The demo seed's reads and writes (lib/demo/seed.ts), and start-up's question whether the pool
// is still empty (lib/startup.ts). Every insert skips rows that already exist, so the seed can
// run again on a used database without overwriting anything.
import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { cases, companies, runs, users } from '@/lib/db/schema';

export type NewDemoUser = typeof users.$inferInsert;
export type NewDemoCase = typeof cases.$inferInsert;

/** Which of `emails` already have an account. */
export async function listExistingEmails({ db, emails }: { db: Executor; emails: string[] }): Promise<Set<string>> {
  const rows = await db.select({ email: users.email }).from(users).where(inArray(users.email, emails));
  return new Set(rows.map((u) => u.email));
}

/** Inserts the accounts whose email is free and returns how many it inserted. */
export async function insertUsersIfAbsent({ db, values }: { db: Executor; values: NewDemoUser[] }): Promise<number> {
  return (await db.insert(users).values(values).onConflictDoNothing().returning({ id: users.id })).length;
}

export async function findUserIdByEmail({ db, email }: { db: Executor; email: string }): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

export async function ownerHasAnyCase({ db, ownerId }: { db: Executor; ownerId: string }): Promise<boolean> {
  const [row] = await db.select({ id: cases.id }).from(cases).where(eq(cases.ownerId, ownerId)).limit(1);
  return Boolean(row);
}

/** Inserts the cases whose id is free and returns how many it inserted. */
export async function insertCasesIfAbsent({ db, values }: { db: Executor; values: NewDemoCase[] }): Promise<number> {
  return (await db.insert(cases).values(values).onConflictDoNothing().returning({ id: cases.id })).length;
}

export async function caseHasAnyRun({ db, caseId }: { db: Executor; caseId: string }): Promise<boolean> {
  const [row] = await db.select({ id: runs.id }).from(runs).where(eq(runs.caseId, caseId)).limit(1);
  return Boolean(row);
}

export async function hasAnyUser({ db }: { db: Executor }): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).limit(1)).length > 0;
}

export async function hasAnyCompany({ db }: { db: Executor }): Promise<boolean> {
  return (await db.select({ id: companies.id }).from(companies).limit(1)).length > 0;
}
