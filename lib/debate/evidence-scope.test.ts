import { describe, expect, it } from 'vitest';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';

type Polarity = 'favorable' | 'adverse' | 'context' | null;
const item = (id: string, factor: string | null, polarity: Polarity = 'favorable'): EvidenceAsOf =>
  ({ id, factor, polarity, title: id, text: id, publishedDate: '2024-01-01', sourceName: 's', stale: false }) as unknown as EvidenceAsOf;

const pool = [
  item('mc-fav', 'management_continuity'),
  item('mc-adv', 'management_continuity', 'adverse'),
  item('mc-ctx', 'management_continuity', 'context'),
  item('cert-fav', 'certifications'),
  item('cert-adv', 'certifications', 'adverse'),
  item('lit-adv', 'litigation_risk', 'adverse'),
  item('untagged', null, null),
];
// D1-like turn: one claim on management continuity that cites a litigation item.
const d1: ContextTurn = {
  stepId: 'D1',
  agent: 'A1',
  team: 'affirmative',
  act: 'constructive',
  text: '',
  output: {
    text: '',
    claims: [{ id: 'D1-c1', text: 'x', factor: 'management_continuity', polarity: 'favorable', citations: [{ evidenceId: 'lit-adv', source: 's', date: '2024-01-01' }] }],
  },
};
const ids = (items: EvidenceAsOf[]) => items.map((e) => e.id);

describe('visibleEvidence', () => {
  it('shows the whole pool to `pool` steps and nothing to `none` steps', () => {
    expect(ids(visibleEvidence({ evidence: 'pool', team: 'affirmative' }, pool, []))).toHaveLength(pool.length);
    expect(visibleEvidence({ evidence: 'none', team: 'neutral' }, pool, [d1])).toEqual([]);
  });
  it('gives the opening speech its side\'s items: read its way, either way, or untagged', () => {
    expect(ids(visibleEvidence({ evidence: 'side', team: 'affirmative' }, pool, []))).toEqual(['mc-fav', 'mc-ctx', 'cert-fav', 'untagged']);
    expect(ids(visibleEvidence({ evidence: 'side', team: 'negative' }, pool, []))).toEqual(['mc-adv', 'mc-ctx', 'cert-adv', 'lit-adv', 'untagged']);
  });
  it('gives an answering step its side\'s items on the context\'s factors, and every item the context cites', () => {
    // Negative answering D1: adverse and context items on management continuity, plus the cited litigation item.
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [d1]))).toEqual(['mc-adv', 'mc-ctx', 'lit-adv']);
    // A cited item of the other side's polarity stays visible.
    const citesFavorable = { ...d1, output: { text: '', claims: [{ ...(d1.output as { claims: object[] }).claims[0], citations: [{ evidenceId: 'cert-fav', source: 's', date: '2024-01-01' }] }] } };
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [citesFavorable]))).toEqual(['mc-adv', 'mc-ctx', 'cert-fav']);
  });
  it('gives the answering constructive its side\'s items on factors the context did not use, never the cited ones', () => {
    expect(ids(visibleEvidence({ evidence: 'fresh-factors', team: 'negative' }, pool, [d1]))).toEqual(['cert-adv', 'untagged']);
  });
  it('filters nothing by side for a neutral step', () => {
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'neutral' }, pool, [d1]))).toEqual(['mc-fav', 'mc-adv', 'mc-ctx', 'lit-adv']);
  });
});
