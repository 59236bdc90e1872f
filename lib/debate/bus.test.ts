import { describe, expect, it } from 'vitest';
import { RunBus } from '@/lib/debate/bus';

const at = '2026-01-01T00:00:00.000Z';

describe('run bus', () => {
  it("hands a run's events to its listeners until they unsubscribe, past one that throws", () => {
    const bus = new RunBus();
    const heard: string[] = [];
    bus.subscribe('r1', () => {
      throw new Error('a broken listener');
    });
    const { unsubscribe } = bus.subscribe('r1', (e) => heard.push(e.type));
    bus.subscribe('r2', (e) => heard.push(`other ${e.type}`));
    bus.publish({ type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 });
    unsubscribe();
    bus.publish({ type: 'report-ready', runId: 'r1', at });
    expect(heard).toEqual(['step-started']);
  });
});
