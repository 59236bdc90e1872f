import { describe, expect, it } from 'vitest';
import { liveSections } from '@/lib/debate/sections';
import { PARTIAL_EVERY_MS } from '@/lib/debate/live-step';
import type { RunEvent } from '@/lib/domain/protocol';

// A report written as two topic sections and an overview (lib/domain/sections.ts joins them).
const CALLS = [{ fields: ['topics'] }, { fields: ['topics'] }, { fields: ['objective', 'overview'] }];
const partial = (output: Record<string, unknown>): RunEvent => ({ type: 'step-partial', runId: 'r', stepId: 'AG', text: '', output });
const topic = (name: string) => ({ topic: name });

function harness() {
  const out: RunEvent[] = [];
  let now = 0;
  const live = liveSections({ kind: 'report', calls: CALLS, runId: 'r', stepId: 'AG', publish: (e) => out.push(e), now: () => now });
  const partials = () => out.flatMap((e) => (e.type === 'step-partial' ? [{ text: e.text, output: e.output }] : []));
  return { live, out, partials, advance: (ms: number) => (now += ms) };
}

describe('a sectioned step on the live page', () => {
  it("sends one partial answer, the calls' answers so far joined in the report's order, at most every PARTIAL_EVERY_MS", () => {
    const { live, partials, advance } = harness();
    // The second section writes first; its topics show at once.
    live.publish(1, partial({ topics: [topic('2.1')] }));
    expect(partials()).toEqual([{ text: '', output: { topics: [topic('2.1')] } }]);
    // Within the interval the first section's start is kept, not sent...
    advance(50);
    live.publish(0, partial({ topics: [topic('1.1')] }));
    expect(partials()).toHaveLength(1);
    // ...and goes with the next one after it: the first section's topics ahead of the second's.
    advance(PARTIAL_EVERY_MS);
    live.publish(1, partial({ topics: [topic('2.1'), topic('2.2')] }));
    expect(partials().at(-1)!.output).toEqual({ topics: [topic('1.1'), topic('2.1'), topic('2.2')] });
    // A call that is done counts with its taken-in output, sent at once.
    live.done(0, { topics: [topic('1.1'), topic('1.2')] });
    expect(partials().at(-1)!.output).toEqual({ topics: [topic('1.1'), topic('1.2'), topic('2.1'), topic('2.2')] });
    live.done(1, { topics: [topic('2.1'), topic('2.2')] });
    // The overview's prose is the step's text.
    advance(PARTIAL_EVERY_MS);
    live.publish(2, partial({ objective: 'Judge repayment', overview: 'Orders gr' }));
    expect(partials().at(-1)).toEqual({
      text: 'Orders gr',
      output: { objective: 'Judge repayment', overview: 'Orders gr', topics: [topic('1.1'), topic('1.2'), topic('2.1'), topic('2.2')] },
    });
  });

  it("passes the spend on at once; a wait drops what that call had written and holds the others' answers until it streams again", () => {
    const { live, out, partials, advance } = harness();
    live.publish(0, partial({ topics: [topic('1.1')] }));
    live.publish(1, { type: 'step-usage', runId: 'r', stepId: 'AG', usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } });
    live.publish(0, { type: 'step-waiting', runId: 'r', stepId: 'AG', at: 'now', reason: 'requests', until: 'later' });
    expect(out.map((e) => e.type)).toEqual(['step-partial', 'step-usage', 'step-waiting']);
    // A partial clears the step's wait notice: none goes out while the call waits, the other call's done answer neither.
    advance(PARTIAL_EVERY_MS);
    live.publish(1, partial({ topics: [topic('2.1')] }));
    live.done(1, { topics: [topic('2.1'), topic('2.2')] });
    expect(out.map((e) => e.type)).toEqual(['step-partial', 'step-usage', 'step-waiting']);
    // The waiting call streams again: what both wrote goes out at once, its own answer started afresh.
    live.publish(0, partial({ topics: [topic('1.9')] }));
    expect(partials()).toHaveLength(2);
    expect(partials().at(-1)!.output).toEqual({ topics: [topic('1.9'), topic('2.1'), topic('2.2')] });
  });

  it("shows an entry of a section split by factor only once its factor is settled and the section's, so nothing shown is later dropped", () => {
    const out: RunEvent[] = [];
    const calls = [
      { fields: ['topics'], factors: ['industry_growth_outlook'] },
      { fields: ['topics'], factors: ['other'] },
      { fields: ['objective', 'overview'] },
    ];
    // Every partial comes a full interval after the one before, so each goes out.
    let now = 0;
    const live = liveSections({ kind: 'report', calls, runId: 'r', stepId: 'AG', publish: (e) => out.push(e), now: () => (now += PARTIAL_EVERY_MS) });
    const shown = () => (out.at(-1) as Extract<RunEvent, { type: 'step-partial' }>).output;
    const entry = (factor: string, more = true) => ({ topic: `On ${factor}`, factor, ...(more ? { affirmative: 'Orders grew' } : {}) });
    // The "other" section starts an entry whose factor is half written: an unknown factor, which
    // it would take, so it waits until the model writes past it.
    live.publish(1, partial({ topics: [{ topic: 'Growth' }] }));
    expect(shown()).toEqual({ topics: [] });
    live.done(0, { topics: [] });
    live.publish(1, partial({ topics: [{ topic: 'Growth', factor: 'industry_gro' }] }));
    expect(shown()).toEqual({ topics: [] });
    // Settled on a factor another section writes: never shown, as the finished answer drops it.
    live.publish(1, partial({ topics: [entry('industry_growth_outlook')] }));
    expect(shown()).toEqual({ topics: [] });
    // Settled by a next entry, an unknown factor is the "other" section's; the next waits its turn.
    live.publish(1, partial({ topics: [entry('industry_growth_outlook'), entry('esg_rating', false), entry('succession', false)] }));
    expect(shown()).toEqual({ topics: [entry('esg_rating', false)] });
  });
});
