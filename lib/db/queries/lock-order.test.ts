// Lock order between a run start and an audit entry by the same user, on PostgreSQL (PGlite runs
// one transaction at a time, so it cannot deadlock). A start locks the user's row to count their
// active runs, then appends its audit entry; an audit entry elsewhere by that user (opening a
// transcript, say) holds the audit lock while PostgreSQL checks its actor's row. With the row
// locked FOR UPDATE the two waited on each other and PostgreSQL killed one: a run start failed
// with "deadlock detected" in the multi-process fault tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { countActiveRunsOfUser } from '@/lib/db/queries/runs';
import { users } from '@/lib/db/schema';
import { createTestDatabase, setAuditSecretForTests, testBackends } from '@/lib/db/test-db';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(testBackends().includes('postgres'))('lock order on PostgreSQL', () => {
  let handle: DatabaseHandle;
  let restoreSecret: () => void;
  beforeAll(async () => {
    restoreSecret = setAuditSecretForTests('lock-order-test-secret-of-32-characters-at-least');
    handle = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await handle?.close();
    restoreSecret();
  });

  it('a run start that counts the user’s runs and an audit entry by the same user elsewhere both commit, without a deadlock', async () => {
    const { db } = handle;
    const [user] = await db.insert(users).values({ email: 'lock-order@example.com', name: 'Lock Order', role: 'rm' }).returning();
    let rowLocked!: () => void;
    const locked = new Promise<void>((resolve) => (rowLocked = resolve));
    const start = db.transaction(async (tx) => {
      await countActiveRunsOfUser({ db: tx, userId: user.id, lock: true });
      rowLocked();
      // Give the other transaction time to take the audit lock and reach its actor check.
      await sleep(500);
      await appendAudit({ tx, actorId: user.id, action: 'run.start', entityType: 'run', entityId: 'r1' });
    });
    await locked;
    const view = db.transaction((tx) => appendAudit({ tx, actorId: user.id, action: 'run.view', entityType: 'run', entityId: 'r0' }));
    const results = await Promise.allSettled([start, view]);
    expect(results.map((r) => (r.status === 'rejected' ? String((r.reason as Error).cause ?? r.reason) : 'committed'))).toEqual(['committed', 'committed']);
  });
});
