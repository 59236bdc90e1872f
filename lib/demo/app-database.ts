// The app's database as every entry point opens it: the Next.js server at start-up
// (lib/startup.ts, before it takes requests), the CLI, `npm run db:*` and the worker. It is the
// process's database (lib/db/client.ts) with, on a brand-new embedded folder, the demo data loaded
// first (lib/demo/seed.ts). The client itself does not seed: the seed runs the engine, which
// sits floors above the database layer. PostgreSQL is never seeded implicitly
// (`npm run db:seed` loads it).
import 'server-only';
import { getDatabase, type DatabaseHandle, type Db } from '@/lib/db/client';

type Cached = { opened: Promise<DatabaseHandle>; ready: Promise<DatabaseHandle> };
const globalForApp = globalThis as typeof globalThis & { __crosscheckAppDb?: Cached };

/**
 * Opens the process's database and, when it is an empty embedded one, loads the demo data before
 * handing it out. Once per process: concurrent callers share one opening and one seeding. A
 * failure is not kept, so the next caller tries again and reports the same clear error.
 */
export function openAppDatabase(): Promise<DatabaseHandle> {
  const opened = getDatabase();
  const cached = globalForApp.__crosscheckAppDb;
  // Keyed by the client's handle: after closeDb() the next opening is a new handle, checked afresh.
  if (cached?.opened === opened) return cached.ready;
  const ready = opened.then(async (handle) => {
    if (handle.kind === 'pglite') {
      // Imported here: the seed (and the engine it runs) is only needed for the embedded database.
      const { seedIfEmpty } = await import('@/lib/demo/seed');
      await seedIfEmpty(handle.db);
    }
    return handle;
  });
  globalForApp.__crosscheckAppDb = { opened, ready };
  ready.catch(() => {
    if (globalForApp.__crosscheckAppDb?.ready === ready) globalForApp.__crosscheckAppDb = undefined;
  });
  return ready;
}

/** The app's database (seeded as above), for commands that only need the Drizzle handle. */
export async function appDb(): Promise<Db> {
  return (await openAppDatabase()).db;
}
