// When watch passes run (lib/jobs/watch-scheduler.ts): on the embedded database a timer every
// WATCH_PASS_MINUTES; on PostgreSQL a pg-boss cron job on the crosscheck-watch queue, whose job
// runs the pass in an instance that polls the queue. Both drive the same watchPass: a due entry
// gets its first (baseline) check.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { upsertWatchEntry } from '@/lib/db/queries/watch';
import { companies, users, watchEntries } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';
import { BOSS_SCHEMA, getBoss, stopBoss } from '@/lib/jobs/boss';
import { startWatchScheduler, WATCH_QUEUE, watchCron, type WatchScheduler } from '@/lib/jobs/watch-scheduler';

describe('watchCron', () => {
  it('runs every n minutes, or hourly at 60', () => {
    expect(watchCron(5)).toBe('*/5 * * * *');
    expect(watchCron(1)).toBe('*/1 * * * *');
    expect(watchCron(60)).toBe('0 * * * *');
  });
});

describe.each(testBackends())('the watch scheduler on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let scheduler: WatchScheduler | null = null;
  const saved = { ...process.env };

  beforeAll(async () => {
    // No filing source is configured: a check records that as its problem, and is still a check.
    delete process.env.OPENDART_API_KEY;
    delete process.env.SEC_USER_AGENT;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR', corpCode: '00000001' });
    const [rm] = await db.insert(users).values({ email: 'rm@example.org', name: 'RM', role: 'rm' }).returning({ id: users.id });
    await upsertWatchEntry({
      db,
      ownerId: rm.id,
      companyId: 'acme',
      settings: { frequency: 'daily', autoRescreen: false, adverseThreshold: 3, caseId: null },
      now: new Date(),
    });
  }, 60_000);
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = null;
    vi.useRealTimers();
  });
  afterAll(async () => {
    if (backend === 'postgres') await stopBoss();
    await handle?.close();
    process.env = { ...saved };
    resetEnvForTests();
  });

  const checkedAt = async () =>
    (await db.select({ at: watchEntries.lastCheckedAt, error: watchEntries.lastError }).from(watchEntries).where(eq(watchEntries.companyId, 'acme')))[0];

  it('is off at 0 minutes', async () => {
    expect(await startWatchScheduler({ db, minutes: 0, how: 'timer' })).toBeNull();
  });

  if (backend === 'pglite') {
    it('runs a pass on its timer', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      scheduler = await startWatchScheduler({ db, minutes: 5, how: 'timer' });
      expect(scheduler?.how).toBe('timer');
      await vi.advanceTimersByTimeAsync(4 * 60_000);
      expect((await checkedAt()).at).toBeNull();
      await vi.advanceTimersByTimeAsync(60_000);
      await vi.waitFor(async () => expect((await checkedAt()).at).toBeInstanceOf(Date), { timeout: 10_000 });
      expect((await checkedAt()).error).toMatch(/^No filing source is configured/);
    });
  } else {
    it('schedules a pg-boss cron job whose job runs a pass', async () => {
      scheduler = await startWatchScheduler({ db, minutes: 5, how: 'queue', pollIntervalMs: 500 });
      expect(scheduler?.how).toBe('queue');
      const schedule = (await db.execute(sql`select name, cron, timezone from ${sql.raw(BOSS_SCHEMA)}.schedule where name = ${WATCH_QUEUE}`)) as unknown as {
        rows: unknown[];
      };
      expect(schedule.rows).toEqual([{ name: WATCH_QUEUE, cron: '*/5 * * * *', timezone: 'UTC' }]);
      // What the cron sends every five minutes, sent now.
      await (await getBoss(db)).send(WATCH_QUEUE, {});
      await vi.waitFor(async () => expect((await checkedAt()).at).toBeInstanceOf(Date), { timeout: 20_000, interval: 250 });
      expect((await checkedAt()).error).toMatch(/^No filing source is configured/);
    }, 30_000);
  }
});
