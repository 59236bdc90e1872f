// The signed-in user as the database sees them now: a JWT can outlive a sign-out, a password
// reset, a role change or a disabled account, so every check reads the database, once per
// request. `auth()` holds the cookie only while its session row is live (the `jwt` callback in
// lib/auth/auth.ts, lib/auth/sessions.ts); then the user row must still be enabled.
import { cache } from 'react';
import { forbidden, redirect } from 'next/navigation';
import { auth } from '@/lib/auth/auth';
import { can, type Permission } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { getUserById } from '@/lib/db/queries/users';
import type { Role } from '@/lib/domain/vocabulary';
import { demoEnabled } from '@/lib/env';

export type SessionUser = { id: string; email: string; name: string; role: Role; demo: boolean };

export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const user = await getUserById({ db: await getDb(), id });
  if (!user || user.disabled || (user.demo && !demoEnabled())) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role, demo: user.demo };
});

/** For pages: the user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect('/login');
  return user;
}

/** For pages: the user if their role has the permission; otherwise the 403 page. */
export async function requirePermission(permission: Permission): Promise<SessionUser> {
  const user = await requireUser();
  if (!can(user.role, permission)) forbidden();
  return user;
}
