import { describe, expect, it } from 'vitest';
import { inOrder } from '@/lib/debate/sections';
import type { RunEvent } from '@/lib/domain/protocol';

const part = (i: number, n: number): RunEvent => ({ type: 'step-part', runId: 'r', stepId: 'AG', part: { kind: 'topic', value: { topic: `${i}.${n}` } } });
const names = (events: RunEvent[]) => events.map((e) => (e.type === 'step-part' ? String(e.part.value.topic) : e.type));

describe('a sectioned step on the live page', () => {
  it("sends each call's stream in the calls' order, holding back those that run ahead", () => {
    const out: RunEvent[] = [];
    const events = inOrder(3, (e) => out.push(e));
    events.publish(1, part(1, 1));
    events.publish(0, part(0, 1));
    events.publish(2, part(2, 1));
    events.publish(1, { type: 'step-part-draft', runId: 'r', stepId: 'AG', draft: { kind: 'topic', index: 1, text: 'held drafts go stale' } });
    events.publish(1, { type: 'step-usage', runId: 'r', stepId: 'AG', usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } });
    // Call 1 and 2 finish before call 0.
    events.done(1);
    events.publish(2, part(2, 2));
    expect(names(out)).toEqual(['0.1', 'step-usage']);
    events.publish(0, part(0, 2));
    events.done(0);
    expect(names(out)).toEqual(['0.1', 'step-usage', '0.2', '1.1', '2.1', '2.2']);
    // Call 2 is the one writing now: its stream goes out as it comes.
    events.publish(2, part(2, 3));
    expect(names(out).at(-1)).toBe('2.3');
  });

  it('a wait drops what that call had held back', () => {
    const out: RunEvent[] = [];
    const events = inOrder(2, (e) => out.push(e));
    events.publish(1, part(1, 1));
    events.publish(1, { type: 'step-waiting', runId: 'r', stepId: 'AG', at: 'now', reason: 'requests', until: 'later' });
    events.publish(1, part(1, 2));
    events.done(0);
    expect(names(out)).toEqual(['step-waiting', '1.2']);
  });
});
