// Liveness and readiness for load balancers and the browser tests: public, no secrets.
// 503 only when the database is down; a degraded queue or provider answers 200 (lib/ops/health.ts).
import { env } from '@/lib/env';
import { checkHealth, defaultHealthChecks } from '@/lib/ops/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const { httpStatus, body } = await checkHealth(defaultHealthChecks(), { requireQueue: env().HEALTH_REQUIRE_QUEUE });
  return Response.json(body, { status: httpStatus, headers: { 'Cache-Control': 'no-store' } });
}
