// Prometheus scrape endpoint. Two ways in: an admin's session (ops:metrics, like any route), or
// `Authorization: Bearer <METRICS_TOKEN>` for a scraper that has no session. Without
// METRICS_TOKEN set, only the session path exists.
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { log } from '@/lib/ops/log';
import { collectMetrics, formatPrometheus } from '@/lib/ops/metrics';
import { bearerMatches } from '@/lib/ops/metrics-token';

export const dynamic = 'force-dynamic';

async function metricsResponse() {
  const text = formatPrometheus(await collectMetrics({ db: await getDb() }));
  return new Response(text, { headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' } });
}

const forAdmins = route('ops:metrics', () => metricsResponse());

export async function GET(request: Request, context: unknown) {
  if (bearerMatches(request.headers.get('authorization'), env().METRICS_TOKEN)) {
    try {
      return await metricsResponse();
    } catch (err) {
      log.error('metrics collection failed', { component: 'metrics', err });
      return Response.json({ code: 'internal', message: 'Metrics are unavailable.' }, { status: 500 });
    }
  }
  return forAdmins(request, context);
}
