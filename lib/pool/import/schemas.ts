// What an import row must look like (the pool format of data/README.md), with messages an RM
// can act on. Connectors and the add-evidence form go through the same rules.
//
// Every text field has a maximum length (LIMITS, listed on the Import page): an over-long value
// is a named row error here, never a database error or a log line that quotes megabytes later.
// Names and titles lose their bidirectional controls (U+202A–U+202E, U+2066–U+2069): they carry
// no meaning in a one-line label, and would let "evil.exe" display as something else.
import { z } from 'zod';
import { EVIDENCE_CATEGORIES } from '@/lib/domain/factors';
import { BIDI_CONTROLS, stripBidi, UNSTORABLE } from '@/lib/domain/typed-text';
import { issueMessage, problem, type ImportKey } from '@/lib/pool/import/problems';
import { isIsoDay, isoDay } from '@/lib/util/dates';

/** The most characters each field may have, by kind of record (the Import page lists them). */
export const LIMITS = {
  evidence: { id: 200, company_id: 100, title: 500, text: 20_000, value: 200, source_name: 300, source_url: 2_000, upstream: 500, license: 1_000 },
  company: { id: 100, name: 200, name_en: 200, industry: 200, description: 5_000, identifier: 100 },
  document: {
    title: 500,
    company_id: 100,
    kind: 100,
    source_name: 300,
    source_url: 2_000,
    upstream: 500,
    license: 1_000,
    frontMatter: 20_000,
    body: 2_000_000,
  },
} as const;
/** A document's id is its file name; an evidence id is at most this long too. */
export const MAX_ID = 200;
/** Keys of a company's identifiers (corp_code, cik, …). */
const MAX_IDENTIFIERS = 20;
/**
 * The unique index that finds duplicate items holds company_id, source_url and title together,
 * and PostgreSQL cannot index a key much over 2,700 bytes; this leaves room for the date.
 */
export const MAX_DEDUP_KEY_BYTES = 2_400;

const count = (n: number) => n.toLocaleString('en');
/** The problem of a value over its limit: "is 5,000,012 characters long; the most is 500". */
export const tooLong = (length: number, max: number) => problem('tooLong', { n: length, max });
const maxText = (max: number) => ({ error: (issue: { input?: unknown }) => issueMessage('tooLong', { n: String(issue.input ?? '').length, max }) });

/**
 * Bidirectional embedding, override and isolate controls, and the characters PostgreSQL cannot
 * store (a NUL, half of a surrogate pair): the same characters as for every typed text
 * (lib/domain/typed-text.ts). Controls are stripped from imported names and titles here;
 * lib/report/markdown.ts shows any it meets as their code points.
 */
export { BIDI_CONTROLS, stripBidi };

/** Where a text has a character the database cannot store, and what to say about it. */
export function unstorableAt(text: string) {
  const m = UNSTORABLE.exec(text);
  if (!m) return null;
  const at = count(m.index + 1);
  return {
    index: m.index,
    ...(m[0] === '\u0000' ? problem('nulChar', { at }) : problem('brokenChar', { code: m[0].charCodeAt(0).toString(16).toUpperCase(), at })),
  };
}
/** A text's unstorable character as a problem (its message and phrase), or null. */
export const unstorable = (text: string) => {
  const bad = unstorableAt(text);
  return bad && { message: bad.message, phrase: bad.phrase };
};
/** Text for a label of our own (the audit entry's file names): unstorable characters become U+FFFD. */
export const storable = (text: string) => text.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');

/** A value as it may appear inside a message (in quotes there): short, whatever the row held. */
const shortened = (v: unknown) => {
  const text = String(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** YAML turns an unquoted 2024-01-11 into a Date at UTC midnight; keep the calendar date. */
export function toIsoDate(value: unknown) {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return value;
  // A year YYYY cannot write (12345-01-01) stays a full timestamp, for the date check to refuse by name.
  const year = value.getUTCFullYear();
  return year >= 1 && year <= 9999 ? isoDay(value) : value.toISOString();
}

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** A real calendar date written YYYY-MM-DD (2023-02-30 is refused). */
const isoDateString = z.string().superRefine((v, ctx) => {
  if (!isIsoDay(v)) {
    ctx.addIssue({ code: 'custom', message: issueMessage('badDate', { value: shortened(v) }) });
  }
});
export const isoDate = z.preprocess(toIsoDate, isoDateString);

/** A required date: missing and malformed get different messages. */
const requiredDate = (missing: ImportKey) =>
  z.preprocess((v) => blankToUndefined(toIsoDate(v)), z.string({ error: issueMessage(missing) }).pipe(isoDateString));

/** Text the database can store (plan.ts checks whole rows first; this covers the evidence form's edits too). */
const storableCheck = (v: string | null | undefined, ctx: z.RefinementCtx) => {
  const bad = v ? unstorable(v) : null;
  if (bad) ctx.addIssue({ code: 'custom', message: issueMessage(bad.phrase.key as ImportKey, bad.phrase.values) });
};

const required = (missing: ImportKey, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: issueMessage(missing) })
      .trim()
      .max(max, maxText(max))
      .superRefine(storableCheck),
  );
/** A required name or title: one line of display text. */
const requiredLabel = (missing: ImportKey, max: number) => required(missing, max).transform(stripBidi);

/** Optional text; a bare number is kept as written. */
const optionalText = (max: number) =>
  z
    .preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().max(max, maxText(max)).superRefine(storableCheck).nullish())
    .transform((v) => (v == null || v.trim() === '' ? null : v));
const optionalLabel = (max: number) => optionalText(max).transform((v) => (v == null ? v : stripBidi(v)));

// Sources are rendered as links: only web addresses, never javascript: or data: URLs.
const sourceUrl = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: issueMessage('missingUrl') })
      .trim()
      .max(max, maxText(max))
      .superRefine(storableCheck)
      .pipe(z.url({ protocol: /^https?$/, error: issueMessage('badUrl') })),
  );

export const slug = z
  .string()
  .max(LIMITS.company.id, maxText(LIMITS.company.id))
  .regex(/^(?!-)(?!.*--)[a-z0-9-]+(?<!-)$/, issueMessage('badSlug'));

const identifierValue = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z.string().max(LIMITS.company.identifier, maxText(LIMITS.company.identifier)),
);

export const companyRow = z.object({
  id: slug,
  name: requiredLabel('missingName', LIMITS.company.name),
  name_en: optionalLabel(LIMITS.company.name_en),
  country: z.string().regex(/^[A-Z]{2}$/, issueMessage('badCountry')),
  identifiers: z
    .record(z.string().max(50, maxText(50)), identifierValue)
    .refine((ids) => Object.keys(ids).length <= MAX_IDENTIFIERS, issueMessage('tooManyIdentifiers', { n: MAX_IDENTIFIERS }))
    .default({}),
  industry: optionalLabel(LIMITS.company.industry),
  description: optionalText(LIMITS.company.description),
  /** A natural person in business (docs/oversight.md): its cases always need two agreeing votes. */
  sole_proprietor: z.boolean(issueMessage('badSoleProprietor')).optional(),
});

const E = LIMITS.evidence;
export const evidenceRow = z.object({
  id: z.preprocess(blankToUndefined, z.string().trim().max(E.id, maxText(E.id)).optional()),
  company_id: required('missingCompany', E.company_id),
  category: z.preprocess(blankToUndefined, z.enum(EVIDENCE_CATEGORIES, { error: issueMessage('badCategory', { list: EVIDENCE_CATEGORIES.join(', ') }) })),
  title: requiredLabel('missingTitle', E.title),
  text: required('missingText', E.text),
  // Values are display strings ("223,121", "8.51%"); a bare number is kept as written.
  value: optionalLabel(E.value),
  event_date: z.preprocess(blankToUndefined, isoDate.optional()).transform((v) => v ?? null),
  published_date: requiredDate('missingPublished'),
  source_name: requiredLabel('missingSource', E.source_name),
  source_url: sourceUrl(E.source_url),
  language: z.preprocess(blankToUndefined, z.string().trim().min(2).max(10).default('ko')),
  upstream: optionalText(E.upstream),
  license: optionalText(E.license),
  /** When a connector or search fetched the record (ISO timestamp). */
  retrieved_at: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(40, maxText(40))
      .pipe(z.iso.datetime({ offset: true }))
      .optional(),
  ),
});

/** Why an item's duplicate key would not fit its index, if it would not (plan.ts checks every item). */
export function dedupKeyTooLong(row: { company_id: string; source_url: string; title: string }) {
  const bytes = Buffer.byteLength(row.company_id) + Buffer.byteLength(row.source_url) + Buffer.byteLength(row.title);
  return bytes > MAX_DEDUP_KEY_BYTES ? problem('keyTooLong', { n: bytes, max: MAX_DEDUP_KEY_BYTES }) : null;
}

const D = LIMITS.document;
export const documentFrontMatter = z.object({
  title: requiredLabel('missingDocTitle', D.title),
  company_id: required('missingDocCompany', D.company_id),
  kind: requiredLabel('missingDocKind', D.kind),
  published_date: requiredDate('missingDocPublished'),
  source_name: requiredLabel('missingSource', D.source_name),
  source_url: sourceUrl(D.source_url),
  language: z.preprocess(blankToUndefined, z.string().trim().min(2).max(10).default('en')),
  license: optionalText(D.license),
  upstream: optionalText(D.upstream),
});
export const MODELLED_FRONT_MATTER = new Set(Object.keys(documentFrontMatter.shape));

export type EvidenceRowInput = z.input<typeof evidenceRow>;
