// Creating an account, shared by the admin page and the CLI (the first admin on PostgreSQL).
import type { Db } from '@/lib/db/client';
import { hashPassword } from '@/lib/auth/password';
import { appendAudit } from '@/lib/db/queries/audit';
import { insertUser } from '@/lib/db/queries/users';
import type { Role } from '@/lib/db/schema';
import { AppError } from '@/lib/errors';

export async function createAccount({
  db,
  actorId,
  email,
  name,
  role,
  password,
}: {
  db: Db;
  actorId: string | null;
  email: string;
  name: string;
  role: Role;
  password: string;
}) {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await insertUser({ db: tx, email, name, role, passwordHash });
    if (!row) throw new AppError('conflict', 'A user with this email already exists.', { email: ['A user with this email already exists.'] });
    await appendAudit({ tx, actorId, action: 'user.create', entityType: 'user', entityId: row.id, detail: { email: row.email, role: row.role } });
    return row;
  });
}
