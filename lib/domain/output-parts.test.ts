import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FIELD_NAMES, LIVE_FIELDS, PART_KEYS, withField, type LiveField } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, PROSE, type OutputKind } from '@/lib/domain/outputs';

type Schema = { type?: string | string[]; enum?: unknown[]; properties?: Record<string, Schema>; items?: Schema };
type Leaf = { path: string[]; isEnum: boolean };

/** Every string of a JSON Schema outside the parts, by its path of keys (lists add nothing), and whether it is an enum. */
function strings(schema: Schema, path: string[] = [], out: Leaf[] = []): Leaf[] {
  if (schema.enum) out.push({ path, isEnum: true });
  else if (schema.type === 'string') out.push({ path, isEnum: false });
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    // A part's strings are its own: its readable field is its draft (DRAFT_FIELDS), the rest its listed line.
    if (Object.hasOwn(PART_KEYS, k) && v.items?.properties) continue;
    strings(v, [...path, k], out);
  }
  if (schema.items) strings(schema.items, path, out);
  return out;
}

// Strings outside the parts that are not enums yet not text either: a horizon's name, an argument's id.
const NOT_READABLE = ['horizon', 'argumentId', 'claimId'];
const KINDS = Object.keys(OUTPUT_SCHEMAS) as OutputKind[];
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

describe('the readable fields of an answer (LIVE_FIELDS)', () => {
  it('names every free-text string outside the prose and the parts, and no enum', () => {
    for (const kind of KINDS) {
      const leaves = strings(z.toJSONSchema(OUTPUT_SCHEMAS[kind]) as Schema);
      const fields = LIVE_FIELDS[kind];
      const isField = (path: string[]) => fields.some((f) => same(f, path));
      const isProse = (path: string[]) => PROSE[kind].parts.some((p) => same(p, path));
      for (const { path, isEnum } of leaves) {
        const at = `${kind}: ${path.join('.')}`;
        if (isEnum) expect(isField(path), at).toBe(false);
        else expect(isField(path) || isProse(path) || NOT_READABLE.includes(path.at(-1)!), at).toBe(true);
      }
      // Each field is a free-text string of its kind: none is there for nothing.
      for (const f of fields) expect(leaves.some((l) => !l.isEnum && same(l.path, f)), `${kind}: ${f.join('.')}`).toBe(true);
    }
  });

  it('leaves out ids, dates and codes, and the outlook of a stance draft\'s horizon (an enum) though a final report\'s outlook is text', () => {
    const all = KINDS.flatMap((kind) => LIVE_FIELDS[kind].map((f) => f.join('.')));
    for (const code of ['id', 'evidenceId', 'source', 'date', 'factor', 'polarity', 'targetClaimId', 'targetId', 'winner', 'stance', 'standing', 'fallacy', 'horizons.horizon', 'horizons.outlook']) expect(all).not.toContain(code);
    expect(LIVE_FIELDS.sasReport.map((f) => f.join('.'))).toContain('outlook');
    // Every field's heading has a name (the live page's messages are keyed by it).
    expect(new Set(KINDS.flatMap((kind) => LIVE_FIELDS[kind].map((f) => f.at(-1))))).toEqual(new Set(FIELD_NAMES));
  });
});

describe('withField', () => {
  const f = (name: LiveField['name'], index: number, text: string): LiveField => ({ name, index, text });

  it('adds a new field at the end, replaces one by name and index in place, and drops one taken back', () => {
    let fields = withField([], f('objective', 0, 'Ass'));
    fields = withField(fields, f('favorableSummary', 0, 'Orders'));
    fields = withField(fields, f('objective', 0, 'Assess repayment.'));
    fields = withField(fields, f('favorableSummary', 1, 'Backlog'));
    expect(fields).toEqual([f('objective', 0, 'Assess repayment.'), f('favorableSummary', 0, 'Orders'), f('favorableSummary', 1, 'Backlog')]);
    expect(withField(fields, f('favorableSummary', 0, ''))).toEqual([f('objective', 0, 'Assess repayment.'), f('favorableSummary', 1, 'Backlog')]);
    // Taking back one never shown changes nothing, and the list given is never changed.
    expect(withField(fields, f('critique', 0, ''))).toEqual(fields);
    expect(fields).toHaveLength(3);
  });
});
