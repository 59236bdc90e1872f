// The scrape credential for /api/metrics: `Authorization: Bearer <METRICS_TOKEN>`. Compared in
// constant time so the answer's timing does not reveal how much of a guess was right.
import { createHash, timingSafeEqual } from 'node:crypto';

export function bearerMatches(authorization: string | null, token: string | undefined): boolean {
  if (!token || !authorization) return false;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (!match) return false;
  // Hash both sides first: timingSafeEqual needs equal lengths, and a length check would leak.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
