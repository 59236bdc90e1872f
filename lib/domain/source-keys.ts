// A run's source table (docs/protocols.md, "Source keys"): every source name of the pool as of
// the run's date, named once in the run header and keyed S1, S2, … in one stable order, so an
// evidence line, a red flag or a citation in an earlier turn carries the key instead of the
// long name ("DART 반기보고서(2022.06) — 삼성전자 (금융감독원 전자공시시스템)" a hundred times a
// case). A model that copies the key into a citation's `source` gets the name back when the
// citation is taken in (lib/debate/checks.ts, resolveCitations): what is stored, shown and
// exported is always the name.

/** The source names of a run, each once, in code-point order: the same table for the same pool, whatever order its items come in. */
export function sourceTable(items: readonly { sourceName: string }[]): string[] {
  const names = new Set(items.map((i) => i.sourceName.trim()).filter(Boolean));
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `S1` for the table's first name. */
export function keyAt(index: number): string {
  return `S${index + 1}`;
}

/** Lookups both ways for one table: a name's key (only an exact name has one) and a key's name. */
export type SourceKeys = { keyOf: (name: string) => string | undefined; nameOf: (key: string) => string | undefined; table: readonly string[] };

const KEY = /^\[?s(\d{1,4})\]?$/i;

export function sourceKeys(table: readonly string[] = []): SourceKeys {
  const byName = new Map(table.map((name, i) => [name, keyAt(i)]));
  return {
    table,
    keyOf: (name) => byName.get(name.trim()),
    nameOf: (key) => {
      const m = KEY.exec(key.trim());
      return m ? table[Number(m[1]) - 1] : undefined;
    },
  };
}

/**
 * A key written in prose where a source is cited ("(published 2022-08-16, S2)", "(S1; S3)"): the
 * key stands between brackets, commas or semicolons, so a product's name ("Galaxy S9") is left alone.
 */
const KEY_IN_PROSE = /([(\[,;]\s{0,3})S(\d{1,4})(?=\s{0,3}[)\],;])/g;

/**
 * `text` with each key it cites a source by, in the table, given as the source's name in quotes:
 * prose is read without the header, and a name quoted is the source's language, not the run's
 * (a Korean filing's name in an English report; lib/debate/checks.ts reads the language so).
 */
export function namesInProse(text: string, keys: SourceKeys): string {
  if (!keys.table.length || !text.includes('S')) return text;
  return text.replace(KEY_IN_PROSE, (whole, before: string, n: string) => {
    const name = keys.table[Number(n) - 1];
    return name ? `${before}“${name}”` : whole;
  });
}

/** A copy of `value` with every citation's `source` (an object with a `source` and a `date`) swapped where `swap` gives another. */
function withSources<T>(value: T, keys: SourceKeys, swap: (source: string) => string | undefined): T {
  if (!keys.table.length) return value;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const copy = Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
    const other = typeof o.source === 'string' && 'date' in o ? swap(o.source) : undefined;
    if (other) copy.source = other;
    return copy;
  };
  return walk(value) as T;
}

/**
 * Every citation's `source` given by its name where the model wrote a key: what viewers see of an
 * answer while it is written (lib/debate/live-step.ts), before the citations are taken in.
 */
export function withSourceNames<T>(value: T, keys: SourceKeys): T {
  return withSources(value, keys, keys.nameOf);
}

/**
 * Every citation's `source` given by its key where the table has one: how the prompt asks a
 * citation to be written, and how the offline analyst writes its answers (lib/llm/offline/index.ts).
 */
export function withSourceKeys<T>(value: T, keys: SourceKeys): T {
  return withSources(value, keys, keys.keyOf);
}
