import { describe, expect, it } from 'vitest';
import { OUTPUT_SCHEMAS, PROSE, proseOf } from '@/lib/domain/outputs';

describe('the prose of each output kind', () => {
  it('is declared for every kind', () => {
    expect(Object.keys(PROSE).sort()).toEqual(Object.keys(OUTPUT_SCHEMAS).sort());
  });

  it('reads the field a reader sees first, or joins the fields that make it', () => {
    expect(proseOf('turn', { text: 'A turn.', claims: [], questions: [] })).toBe('A turn.');
    expect(proseOf('stanceDraft', { text: 'A draft.' })).toBe('A draft.');
    expect(proseOf('report', { objective: 'o', overview: 'The overview.' })).toBe('The overview.');
    expect(proseOf('sasJudgment', { winner: 'negative', justification: 'It held.' })).toBe('negative: It held.');
    expect(proseOf('sasStress', { assumption: 'Orders hold', critique: 'one buyer' })).toBe('Orders hold — one buyer');
    expect(proseOf('sasReport', { executiveSummary: 'Repays.' })).toBe('Repays.');
    expect(proseOf('rubricJudgment', { overall: { keyInsight: 'The best argument.' } })).toBe('The best argument.');
    expect(proseOf('safetyCheck', { reason: 'Stance held.' })).toBe('Stance held.');
  });

  it('reads a missing field as empty', () => {
    expect(proseOf('report', {})).toBe('');
    expect(proseOf('rubricJudgment', { overall: null })).toBe('');
    expect(proseOf('turn', null)).toBe('');
  });
});
