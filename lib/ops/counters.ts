// Counters that add up across every app instance and worker, kept in the database
// (ops_counters) rather than in process memory: a scrape of any instance then reports what the
// whole cluster did, and a restart loses nothing. Each increment is one atomic upsert, so
// concurrent processes never lose one. Used for events the run tables do not record, such as a
// provider's failed attempts that a retry later hid.
import { openedDatabase } from '@/lib/db/client';
import { incrementCounter } from '@/lib/db/queries/counters';
import { log } from '@/lib/ops/log';

/** Failed model-endpoint attempts, labelled {provider, code}: `crosscheck_provider_errors_total`. */
export const PROVIDER_ERRORS = 'provider_errors';

const pending = new Set<Promise<void>>();

/**
 * Counts one failed provider attempt in the background. It never delays or breaks the model
 * call: a failed write is logged and dropped. Counted only in a process that already has its
 * database open (the app, a worker), so a CLI command or a unit test never opens one just for this.
 */
export function countProviderError({ provider, code }: { provider: string; code: string }) {
  const handle = openedDatabase();
  if (!handle) return;
  const write = handle
    .then(({ db }) => incrementCounter({ db, name: PROVIDER_ERRORS, labels: { provider, code } }))
    .catch((err) => log.warn('could not count a provider error', { component: 'ops', provider, code, err }))
    .finally(() => pending.delete(write));
  pending.add(write);
}

/** Waits for background counter writes: for tests, and for a graceful shutdown before closing the database. */
export async function flushCounters() {
  while (pending.size) await Promise.all([...pending]);
}
