// Creating the queues when several processes start at once on a fresh database, as a cluster's app
// instances and workers do: pg-boss's create_queue could deadlock there (pg-boss 10 did), and a
// start-up that fails on it leaves an instance that never serves. ensureQueue tries a lost race again.
import { PgBoss, type QueueResult } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { BOSS_SCHEMA, ensureQueue, RUN_QUEUE } from '@/lib/jobs/boss';

const raced = (code: string) => Object.assign(new Error(`raced (${code})`), { code });

/** A stand-in for pg-boss's two calls: `outcomes` are what createQueue does on each call. */
function fakeBoss(outcomes: (Error | null)[], exists = false) {
  const calls = { getQueue: 0, createQueue: 0 };
  return {
    calls,
    boss: {
      getQueue: async () => {
        calls.getQueue++;
        return exists ? ({ name: 'q' } as QueueResult) : null;
      },
      createQueue: async () => {
        const outcome = outcomes[calls.createQueue++];
        if (outcome) throw outcome;
      },
    },
  };
}

describe('ensureQueue', () => {
  const pauses: number[] = [];
  const pause = async (ms: number) => void pauses.push(ms);

  it('tries a create that lost a race again, with growing pauses, until it succeeds', async () => {
    pauses.length = 0;
    const { boss, calls } = fakeBoss([raced('40P01'), raced('23505'), raced('42P07'), null]);
    await ensureQueue(boss, 'q', {}, { pause });
    expect(calls.createQueue).toBe(4);
    expect(pauses).toHaveLength(3);
    // 25 ms × 2^attempt, jittered between half and one and a half times.
    pauses.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(25 * 2 ** (i + 1) * 0.5);
      expect(ms).toBeLessThanOrEqual(25 * 2 ** (i + 1) * 1.5);
    });
  });

  it('does not create a queue that exists', async () => {
    const { boss, calls } = fakeBoss([], true);
    await ensureQueue(boss, 'q', {}, { pause });
    expect(calls).toEqual({ getQueue: 1, createQueue: 0 });
  });

  it('passes any other error on at once, and a race on after the last attempt', async () => {
    const other = fakeBoss([Object.assign(new Error('permission denied'), { code: '42501' })]);
    await expect(ensureQueue(other.boss, 'q', {}, { pause })).rejects.toThrow('permission denied');
    expect(other.calls.createQueue).toBe(1);
    const stuck = fakeBoss(Array.from({ length: 10 }, () => raced('40P01')));
    await expect(ensureQueue(stuck.boss, 'q', {}, { pause, attempts: 3 })).rejects.toThrow('raced (40P01)');
    expect(stuck.calls.createQueue).toBe(3);
  });
});

if (testBackends().includes('postgres')) {
  describe('queues created by processes starting together on PostgreSQL', () => {
    let handle: DatabaseHandle;
    let url: string;
    const bosses: PgBoss[] = [];

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      url = server.toString();
    });
    afterAll(async () => {
      await Promise.all(bosses.map((b) => b.stop({ graceful: false }).catch(() => {})));
      await handle?.close();
    });

    it('six instances each create the run queue and two more at the same moment: every one starts, and each queue exists once', async () => {
      const names = [RUN_QUEUE, 'crosscheck-race-a', 'crosscheck-race-b'];
      for (let i = 0; i < 6; i++) {
        const boss = new PgBoss({ connectionString: url, schema: BOSS_SCHEMA, max: 2, supervise: false, schedule: false });
        boss.on('error', () => {});
        bosses.push(boss);
      }
      // pg-boss installs its schema under its own lock; the queues are ours to create.
      await Promise.all(bosses.map((b) => b.start()));
      const results = await Promise.allSettled(
        bosses.flatMap((b, i) => names.map((_, j) => ensureQueue(b, names[(i + j) % names.length], { policy: 'short' }))),
      );
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const queues = (await bosses[0].getQueues()).map((q) => q.name).filter((n) => names.includes(n));
      expect(queues.sort()).toEqual([...names].sort());
    }, 60_000);
  });
}
