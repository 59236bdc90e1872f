// Which runner the app uses: the in-process one on the embedded database (unchanged behaviour),
// the queue on PostgreSQL, and the in-process one again when the queue is switched off.
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessRunner, runner } from '@/lib/jobs/runner';
import { resetEnvForTests } from '@/lib/env';
import { queueRunner } from '@/lib/jobs/queue-runner';

describe('runner()', () => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, CROSSCHECK_QUEUE: process.env.CROSSCHECK_QUEUE };
  const set = (vars: Partial<typeof saved>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvForTests();
  };
  afterEach(() => set(saved));

  it('executes runs in-process on the embedded database', () => {
    set({ DATABASE_URL: undefined, CROSSCHECK_QUEUE: undefined });
    expect(runner()).toBe(inProcessRunner);
    // Switching the queue on changes nothing without PostgreSQL.
    set({ DATABASE_URL: undefined, CROSSCHECK_QUEUE: 'on' });
    expect(runner()).toBe(inProcessRunner);
  });

  it('queues runs on PostgreSQL unless CROSSCHECK_QUEUE=off', () => {
    set({ DATABASE_URL: 'postgres://crosscheck@db.example:5432/crosscheck', CROSSCHECK_QUEUE: undefined });
    expect(runner()).toBe(queueRunner);
    set({ DATABASE_URL: 'postgres://crosscheck@db.example:5432/crosscheck', CROSSCHECK_QUEUE: 'off' });
    expect(runner()).toBe(inProcessRunner);
  });
});
