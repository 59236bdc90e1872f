import { describe, expect, it } from 'vitest';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { QUERY_FAMILIES } from '@/lib/debate/protocols/findebate';
import { passagesFor, queriesOf } from '@/lib/debate/passages';
import type { RetrievedItem } from '@/lib/pool/retrieve';

const item = (id: string, score: number): RetrievedItem => ({
  kind: 'chunk',
  id,
  title: id,
  snippet: id,
  publishedDate: '2024-01-01',
  sourceName: 'DART',
  sourceUrl: '',
  score,
  stale: false,
});

describe('the passages a step that reads documents is given', () => {
  it("runs each of a step's query families and shares the k places out among them, each item once", async () => {
    const results: Record<string, RetrievedItem[]> = {
      a: [item('a1', 0.9), item('shared', 0.8), item('a3', 0.7), item('a4', 0.6)],
      b: [item('shared', 0.95), item('b2', 0.5), item('b3', 0.4)],
    };
    const asked: [string, number][] = [];
    const got = await passagesFor({ queries: ['a', 'b'], task: 'x' }, async (q, k) => (asked.push([q, k]), results[q]), 5);
    expect(asked).toEqual([
      ['a', 5],
      ['b', 5],
    ]);
    // Best of each first (a1, then shared from b), then the second best of each (shared again: skipped; b2), …
    expect(got.map((p) => p.id)).toEqual(['a1', 'shared', 'b2', 'a3', 'b3']);
  });

  it("uses one query as before: the step's query, else the start of its task", async () => {
    expect(queriesOf({ query: 'q', task: 't' })).toEqual(['q']);
    expect(queriesOf({ task: 'x'.repeat(300) })).toEqual(['x'.repeat(200)]);
    const got = await passagesFor({ query: 'q', task: 't' }, async (q, k) => [item(`${q}${k}`, 1)], 8);
    expect(got.map((p) => p.id)).toEqual(['q8']);
  });

  it("gives FinDebate's credit-risk specialist the risk family and the trust agent all four", () => {
    const fd = getProtocol('findebate');
    expect(queriesOf(getStep(fd, 'S-RISK'))).toEqual([QUERY_FAMILIES.risk]);
    expect(queriesOf(getStep(fd, 'TRUST'))).toEqual(Object.values(QUERY_FAMILIES));
  });
});
