import { route } from '@/lib/auth/route';

export const dynamic = 'force-dynamic';

/** The signed-in user as the server sees them now (role changes apply at once). */
export const GET = route('app:use', async (_request, user) =>
  Response.json({ id: user.id, email: user.email, name: user.name, role: user.role, demo: user.demo }),
);
