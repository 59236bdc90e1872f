// The per-address sign-in throttle: the first line against password guessing, whichever
// accounts a client names. Attempts are counted per client address and minute in
// `sign_in_attempts`, with one upsert per attempt, so the limit holds across every app instance.
//
// The client address. Next.js gives route handlers and server actions no socket address (and
// Auth.js hands `authorize` a rebuilt Request), and the X-Forwarded-For its server writes keeps
// any value the client sent. So:
// - TRUST_PROXY=0 (clients connect to the app directly): the connection's own address, which
//   lib/auth/peer-address.ts stamps on every request; X-Forwarded-For is ignored.
// - TRUST_PROXY=n (n reverse proxies in front, each appending the address it saw): the n-th
//   entry of X-Forwarded-For from the right, the address the nearest proxy saw; entries further
//   left were written by the client and are never used.
import { isIP } from 'node:net';
import type { Executor } from '@/lib/db/client';
import { PEER_ADDRESS_HEADER } from '@/lib/auth/peer-address';
import { countSignInAttempt, pruneSignInAttempts } from '@/lib/db/queries/sign-in';

export const WINDOW_MS = 60_000;
/**
 * Windows older than this are deleted, once per window per process: longer than any window in
 * the table (the longest, lib/auth/credentials.ts's for new addresses, lasts 15 minutes).
 */
const KEEP_MS = 60 * WINDOW_MS;
/** The `known:` records of where accounts signed in from (lib/auth/credentials.ts) are kept this long. */
export const KNOWN_ADDRESS_DAYS = 30;
const DAY_MS = 24 * 60 * WINDOW_MS;

/** The client's address from the request headers, or null when there is none to read. */
export function clientAddress(headers: Headers, trustedProxies: number): string | null {
  if (trustedProxies <= 0) {
    const peer = headers.get(PEER_ADDRESS_HEADER)?.trim();
    return peer ? normalizeAddress(peer) : null;
  }
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const entry = entries[entries.length - trustedProxies];
  return entry ? normalizeAddress(entry) : null;
}

/** IPv4 as is; IPv6 by its /64 network, which one customer usually holds whole. */
function normalizeAddress(raw: string) {
  const address = raw.replace(/^\[|\](:\d+)?$/g, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIP(address) === 6) {
    const [head, tail = ''] = address.toLowerCase().split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
    return `${groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':')}::/64`;
  }
  // Anything else (a port-suffixed IPv4, a name a proxy wrote) is a key as it stands, bounded.
  return address.replace(/:\d+$/, '').slice(0, 100);
}

export type ThrottleResult = {
  allowed: boolean;
  /** Attempts from this address in this minute, this one included. */
  attempts: number;
  /** The first refused attempt of the window: the one worth recording in the audit log. */
  firstRefusal: boolean;
};

let prunedWindow = 0;

/** Counts one sign-in attempt from `address` (null: no address known) and says whether it may go on. */
export async function takeSignInAttempt({
  db,
  address,
  limit,
  now = new Date(),
}: {
  db: Executor;
  address: string | null;
  limit: number;
  now?: Date;
}): Promise<ThrottleResult> {
  const windowStart = now.getTime() - (now.getTime() % WINDOW_MS);
  if (windowStart !== prunedWindow) {
    prunedWindow = windowStart;
    await pruneSignInAttempts({
      db,
      before: new Date(windowStart - KEEP_MS),
      keep: 'known:',
      keepBefore: new Date(windowStart - KNOWN_ADDRESS_DAYS * DAY_MS - DAY_MS),
    });
  }
  const key = `ip:${address ?? 'unknown'}`;
  // One statement: parallel attempts each get their own count, so none slips past the limit.
  const attempts = (await countSignInAttempt({ db, key, windowStart: new Date(windowStart) })) ?? Number.MAX_SAFE_INTEGER;
  return { allowed: attempts <= limit, attempts, firstRefusal: attempts === limit + 1 };
}
