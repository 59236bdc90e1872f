import { describe, expect, it } from 'vitest';
import { StepScheduler } from '@/lib/debate/run/scheduler';

// a → (b, c) → d: b and c read only a, d reads both.
const steps = () => [
  { id: 'a', context: [] },
  { id: 'b', context: ['a'] },
  { id: 'c', context: ['a'] },
  { id: 'd', context: ['b', 'c'] },
];

function runAll(mode: 'dag' | 'sequential', maxConcurrency?: number, abortAfter?: string) {
  const done = new Set<string>();
  const controller = new AbortController();
  const scheduler = new StepScheduler(steps(), { mode, maxConcurrency, isDone: (id) => done.has(id) });
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const finished = scheduler.run(controller.signal, async (step) => {
    log.push(`start ${step.id}`);
    most = Math.max(most, ++running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running--;
    done.add(step.id);
    log.push(`end ${step.id}`);
    if (step.id === abortAfter) controller.abort();
  });
  return finished.then(() => ({ log, most, pending: scheduler.pending.map((s) => s.id) }));
}

describe('StepScheduler', () => {
  it('starts a step once the steps it reads are done, and independent steps at the same time in dag mode', async () => {
    const { log, most, pending } = await runAll('dag');
    expect(log.indexOf('start b')).toBeGreaterThan(log.indexOf('end a'));
    expect(log.indexOf('start c')).toBeLessThan(log.indexOf('end b'));
    expect(log.indexOf('start d')).toBeGreaterThan(Math.max(log.indexOf('end b'), log.indexOf('end c')));
    expect(most).toBe(2);
    expect(pending).toEqual([]);
  });

  it('runs one step at a time in protocol order in sequential mode, and at most maxConcurrency in dag mode', async () => {
    const sequential = await runAll('sequential');
    expect(sequential.log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d']);
    expect(sequential.most).toBe(1);
    expect((await runAll('dag', 1)).most).toBe(1);
  });

  it('starts nothing more once the run is aborted, and leaves what did not start pending', async () => {
    const { log, pending } = await runAll('sequential', undefined, 'b');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(pending).toEqual(['c', 'd']);
  });

  it('counts work left besides a finishing step: one still to start or another one running', () => {
    const scheduler = new StepScheduler(steps(), { mode: 'dag', isDone: () => false });
    expect(scheduler.workLeft()).toBe(true);
    expect(new StepScheduler([], { mode: 'dag', isDone: () => false }).workLeft()).toBe(false);
  });
});
