// pg-boss 10 completed and failed jobs without awaiting the write, so while PostgreSQL restarts
// those writes rejected with nobody to catch them (whether 12 still leaves any such write
// unawaited is not checked yet, so the guard stays), and Node ends the process on an unhandled
// rejection. A worker should ride out a database restart (pg-boss's heartbeats and the runs'
// attempts put every run back on track afterwards), so rejections that only say "the database is unavailable" are
// logged; anything else still ends a worker process, as a bug should.
import { isDatabaseUnavailable } from '@/lib/db/errors';
import { log } from '@/lib/ops/log';

const globalForGuard = globalThis as typeof globalThis & { __crosscheckProcessGuard?: boolean };

export function surviveDatabaseOutages({ exitOnOtherErrors }: { exitOnOtherErrors: boolean }) {
  if (globalForGuard.__crosscheckProcessGuard) return;
  globalForGuard.__crosscheckProcessGuard = true;
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      log.warn('database unavailable; carrying on', { component: 'worker', err: reason });
      return;
    }
    log.error('unhandled rejection', { component: 'worker', err: reason });
    if (exitOnOtherErrors) process.exit(1);
  });
}
