import 'server-only';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import type { Role } from '@/lib/domain/vocabulary';

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function getUserByEmail({ db, email }: { db: Executor; email: string }): Promise<User | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row;
}

export async function getUserById({ db, id }: { db: Executor; id: string }): Promise<User | undefined> {
  // A malformed id in an old cookie must read as "no such user", not as a database error.
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function listUsers({ db }: { db: Executor }) {
  return db.select().from(users).orderBy(asc(users.role), asc(users.email));
}

export async function countActiveAdmins({ db, excludingId }: { db: Executor; excludingId?: string }) {
  return countActive({ db, role: 'admin', excludingId });
}

/** The accounts of a role that can sign in (not disabled), perhaps leaving one out. */
export async function countActive({ db, role, excludingId }: { db: Executor; role: Role; excludingId?: string }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, role), eq(users.disabled, false), excludingId ? ne(users.id, excludingId) : undefined));
  return row?.n ?? 0;
}

export async function insertUser({ db, ...values }: { db: Executor; email: string; name: string; role: Role; passwordHash: string | null; demo?: boolean }) {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: normalizeEmail(values.email) })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row;
}

export async function updateUser({
  db,
  id,
  ...values
}: { db: Executor; id: string } & Partial<
  Pick<User, 'name' | 'role' | 'disabled' | 'passwordHash' | 'failedLoginCount' | 'lockedUntil' | 'lastFailedLoginAt' | 'lastLoginAt'>
>) {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}
