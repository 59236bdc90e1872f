// Liveness and readiness for load balancers and the browser tests: public, no secrets.
import { sql } from 'drizzle-orm';
import { getDatabase } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

export async function GET() {
  const started = performance.now();
  try {
    const { db, kind } = await getDatabase();
    await db.execute(sql`select 1`);
    return Response.json({ status: 'ok', database: { kind, ok: true, latencyMs: Math.round(performance.now() - started) } });
  } catch (err) {
    console.error('[health] database check failed:', (err as Error).message);
    return Response.json({ status: 'error', database: { ok: false, message: 'The database is not reachable.' } }, { status: 503 });
  }
}
