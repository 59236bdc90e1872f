// yieldToEventLoop (lib/event-loop.ts): tasks that yield at the same moment resume on different
// turns of the event loop, so what came due during one task's slice of work (a request's I/O)
// is handled before the next task's slice starts.
import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from '@/lib/event-loop';

describe('yieldToEventLoop', () => {
  it('resumes tasks that yield together on separate turns, letting through what came due meanwhile', async () => {
    const order: string[] = [];
    await Promise.all(
      ['first', 'second', 'third'].map(async (name) => {
        await yieldToEventLoop();
        order.push(name);
        // Something comes due while this task works (as a health check arriving), to be
        // answered on the next turn of the loop.
        setImmediate(() => order.push(`after ${name}`));
        const until = performance.now() + 5;
        while (performance.now() < until);
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['first', 'after first', 'second', 'after second', 'third', 'after third']);
  });
});
