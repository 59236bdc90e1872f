// When the retention purge runs (lib/jobs/retention-scheduler.ts): on the embedded database a timer
// that sends the job at PURGE_AT_UTC; on PostgreSQL a pg-boss cron job. Either way the job runs a
// pass with the scheduler's clock, which deletes an expired notification and audits it.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, notifications, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';
import { resetAuditKeyForTests } from '@/lib/db/audit-key';
import { BOSS_SCHEMA, getBoss, stopBoss } from '@/lib/jobs/boss';
import { msUntilNextPurge, PURGE_CRON, RETENTION_QUEUE, startRetentionScheduler, type RetentionScheduler } from '@/lib/jobs/retention-scheduler';

describe('msUntilNextPurge', () => {
  it('counts to 18:15 UTC today, or tomorrow once it has passed', () => {
    expect(msUntilNextPurge(new Date('2030-05-01T18:00:00Z'))).toBe(15 * 60_000);
    expect(msUntilNextPurge(new Date('2030-05-01T18:15:00Z'))).toBe(24 * 3600_000);
    expect(msUntilNextPurge(new Date('2030-05-01T20:15:00Z'))).toBe(22 * 3600_000);
    expect(PURGE_CRON).toBe('15 18 * * *');
  });
});

describe.each(testBackends())('the retention scheduler on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let scheduler: RetentionScheduler | null = null;
  const saved = { ...process.env };
  // Two seconds before the purge's minute, seven years after the notification below was written,
  // when the scheduler first reads its clock (once its queue has started).
  const base = new Date('2032-03-10T18:14:58.000Z').getTime();
  let started: number | undefined;
  const clock = () => new Date(base + (Date.now() - (started ??= Date.now())));

  beforeAll(async () => {
    process.env.AUDIT_SECRET = 'retention-scheduler-secret-at-least-32-chars';
    resetEnvForTests();
    resetAuditKeyForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    const [u] = await db.insert(users).values({ email: 'u@example.org', name: 'U', role: 'rm' }).returning({ id: users.id });
    await db.insert(notifications).values({ userId: u.id, kind: 'comment', createdAt: new Date('2025-01-01T00:00:00Z') });
  }, 60_000);
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = null;
  });
  afterAll(async () => {
    if (backend === 'postgres') await stopBoss();
    await handle?.close();
    process.env = { ...saved };
    resetEnvForTests();
    resetAuditKeyForTests();
  });

  const purged = async () => (await db.select().from(auditLog).where(eq(auditLog.action, 'retention.purge'))).map((e) => e.detail);
  const left = async () => (await db.select().from(notifications)).length;

  if (backend === 'pglite') {
    it('sends the job at the purge time and the pass deletes what expired', async () => {
      scheduler = await startRetentionScheduler({ db, how: 'timer', pollIntervalMs: 500, clock });
      expect(scheduler.how).toBe('timer');
      expect(await left()).toBe(1);
      await vi.waitFor(async () => expect(await left()).toBe(0), { timeout: 20_000, interval: 250 });
      expect(await purged()).toEqual([expect.objectContaining({ kind: 'notifications', count: 1 })]);
    }, 30_000);
  } else {
    it('schedules a daily pg-boss cron job whose job runs a pass', async () => {
      scheduler = await startRetentionScheduler({ db, how: 'queue', pollIntervalMs: 500, clock });
      const schedule = (await db.execute(
        sql`select name, cron, timezone from ${sql.raw(BOSS_SCHEMA)}.schedule where name = ${RETENTION_QUEUE}`,
      )) as unknown as {
        rows: unknown[];
      };
      expect(schedule.rows).toEqual([{ name: RETENTION_QUEUE, cron: PURGE_CRON, timezone: 'UTC' }]);
      // What the cron sends each day, sent now.
      await (await getBoss(db)).send(RETENTION_QUEUE, {});
      await vi.waitFor(async () => expect(await left()).toBe(0), { timeout: 20_000, interval: 250 });
      expect(await purged()).toEqual([expect.objectContaining({ kind: 'notifications', count: 1 })]);
    }, 30_000);
  }
});
