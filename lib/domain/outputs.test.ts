import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT_SCHEMAS, outputJson, PROSE, proseOf, type OutputKind } from '@/lib/domain/outputs';

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

describe("the order of an output's keys", () => {
  type Schema = { properties?: Record<string, Schema> };
  const KINDS = Object.keys(OUTPUT_SCHEMAS) as OutputKind[];

  it('puts the prose first in the JSON Schema models get, at every level of its path, and its fields in the order they are joined', () => {
    for (const kind of KINDS) {
      const schema = z.toJSONSchema(OUTPUT_SCHEMAS[kind]) as Schema;
      const [first, ...others] = PROSE[kind].parts;
      let at: Schema = schema;
      for (const key of first) {
        expect(Object.keys(at.properties ?? {})[0], `${kind}: ${first.join('.')}`).toBe(key);
        at = at.properties![key];
      }
      // The other fields of a joined prose follow in order, so it streams in the order it reads.
      const top = Object.keys(schema.properties ?? {});
      others.forEach((path, i) => expect(top[i + 1], kind).toBe(path[0]));
    }
  });

  it('writes an output as JSON in the schema order, whatever order it was built in, without fields outside the schema', () => {
    const built = {
      questions: [],
      claims: [{ citations: [{ verified: true, date: '2024-05-01', source: 'DART' }], polarity: 'favorable', factor: 'other', text: 'Up', id: 'D1-c1' }],
      text: 'A turn.',
    };
    expect(outputJson('turn', built)).toBe(
      '{"text":"A turn.","claims":[{"id":"D1-c1","text":"Up","factor":"other","polarity":"favorable","citations":[{"source":"DART","date":"2024-05-01"}]}],"questions":[]}',
    );
    expect(outputJson('report', { topics: [], adverseSummary: [], favorableSummary: [], objective: 'o', overview: 'The overview.' })).toMatch(
      /^\{"overview":"The overview\.","objective":"o"/,
    );
    // An output its schema refuses is written as it is: the engine reports what is wrong with it.
    expect(outputJson('turn', { claims: 'none' })).toBe('{"claims":"none"}');
  });
});
