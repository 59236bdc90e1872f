// The rule for text a person types, wherever it comes in: every server action's input (the action
// wrapper, lib/auth/action.ts, applies it before any schema) and the pool import's names and
// titles (lib/pool/import/schemas.ts).
//
// - A NUL, or half of a UTF-16 surrogate pair (JSON can spell one as "\ud800"): PostgreSQL stores
//   neither in text or jsonb, so such a value is refused by name, never sent to the database.
// - Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069):
//   invisible, they reorder the text around them (a title "Invoice\u202Efdp.exe" shows as
//   "Invoiceexe.pdf", a note's "\u202E0001" as "1000"). Nobody means to type one into a form, so
//   they are removed, as the import removes them from names and titles, rather than refused.
// - A NUL spelled in a request's address (%00, from a search box or an edited link) is refused by
//   proxy.ts for every page and route: no page, id or search takes one, and PostgreSQL would
//   refuse it in the query the page runs.

/** Bidirectional embedding, override and isolate controls. */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** A text without bidirectional embedding, override and isolate controls. */
export const stripBidi = (text: string) => text.replace(BIDI_CONTROLS, '');

/** A NUL, or a surrogate without its other half. */
export const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `text` with every unstorable character replaced by U+FFFD, for input that is looked up rather
 * than kept as typed (a sign-in's email): it then matches nothing, like any other wrong value.
 */
export const storableText = (text: string) => text.replaceAll('\u0000', '\uFFFD').toWellFormed();

/** Does a request's path and query spell a NUL (%00)? */
export const addressHasNul = (pathAndQuery: string) => /%00/i.test(pathAndQuery);

/** The answer to such a request. */
export const NUL_ADDRESS_REFUSAL = {
  code: 'bad_request',
  message: 'This address contains a NUL character (%00), which no page or search accepts. Remove it and try again.',
} as const;

/** What is wrong with a typed text, and where (its character, counted from 1). */
export type TypedTextProblem = { kind: 'nul'; at: number } | { kind: 'broken'; code: string; at: number };

/** The first character of `text` the database cannot store, or null. */
export function unstorableChar(text: string): TypedTextProblem | null {
  const m = UNSTORABLE.exec(text);
  if (!m) return null;
  return m[0] === '\u0000' ? { kind: 'nul', at: m.index + 1 } : { kind: 'broken', code: m[0].charCodeAt(0).toString(16).toUpperCase(), at: m.index + 1 };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** `v` with bidirectional controls removed from every text in it; each unstorable character found goes to `found`. */
function clean(v: unknown, found: (p: TypedTextProblem) => void): unknown {
  if (typeof v === 'string') {
    const bad = unstorableChar(v);
    if (bad) found(bad);
    return stripBidi(v);
  }
  if (Array.isArray(v)) return v.map((x) => clean(x, found));
  if (isPlainObject(v)) {
    return Object.fromEntries(
      Object.entries(v).map(([key, x]) => {
        const bad = unstorableChar(key);
        if (bad) found(bad);
        return [key, clean(x, found)];
      }),
    );
  }
  return v; // numbers, booleans, null, files: nothing typed
}

/**
 * A form's input (an object of fields, as the action wrapper reads FormData or JSON) under the
 * typed-text rule: bidirectional controls removed from every text at any depth, and the first
 * unstorable character of each top-level field as that field's problem. Fields in `verbatim`
 * (passwords, which are hashed and never stored as text) are left exactly as typed. Anything but
 * an object is returned as it is, for the schema to refuse.
 */
export function cleanTypedInput(raw: unknown, verbatim: readonly string[]): { value: unknown; problems: Record<string, TypedTextProblem[]> | null } {
  if (!isPlainObject(raw)) return { value: raw, problems: null };
  const problems: Record<string, TypedTextProblem[]> = {};
  const value: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(raw)) {
    if (verbatim.includes(field)) {
      value[field] = v;
      continue;
    }
    const own = unstorableChar(field);
    const found: TypedTextProblem[] = own ? [own] : [];
    value[field] = clean(v, (p) => found.push(p));
    if (found.length) problems[field] = [found[0]];
  }
  return { value, problems: Object.keys(problems).length ? problems : null };
}
