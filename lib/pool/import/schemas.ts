// What an import row must look like (the pool format of data/README.md), with messages an RM
// can act on. Connectors and the add-evidence form go through the same rules.
import { z } from 'zod';
import { EVIDENCE_CATEGORIES } from '@/lib/pool/factors';

/** YAML turns an unquoted 2024-01-11 into a Date at UTC midnight; keep the calendar date. */
export function toIsoDate(value: unknown) {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value;
}

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** A real calendar date written YYYY-MM-DD (2023-02-30 is refused). */
const isoDateString = z.string().superRefine((v, ctx) => {
  const d = new Date(`${v}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(d.getTime()) || !d.toISOString().startsWith(v)) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a real date written YYYY-MM-DD` });
  }
});
export const isoDate = z.preprocess(toIsoDate, isoDateString);

/** A required date: missing and malformed get different messages. */
const requiredDate = (missing: string) =>
  z.preprocess((v) => blankToUndefined(toIsoDate(v)), z.string({ error: `is missing: ${missing}` }).pipe(isoDateString));

const required = (what: string) =>
  z.preprocess(blankToUndefined, z.string({ error: `is missing: ${what}` }).trim());

const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null || String(v).trim() === '' ? null : String(v)));

// Sources are rendered as links: only web addresses, never javascript: or data: URLs.
const sourceUrl = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'is missing: every item needs the web address of its source' })
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: 'must be a web address starting with http:// or https://' })),
);

export const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a lowercase slug like samsung-electronics');

export const companyRow = z.object({
  id: slug,
  name: required('the company name'),
  name_en: optionalText,
  country: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code like KR or US'),
  identifiers: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).default({}),
  industry: optionalText,
  description: optionalText,
});

export const evidenceRow = z.object({
  id: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  company_id: required('which company the item is about'),
  category: z.preprocess(
    blankToUndefined,
    z.enum(EVIDENCE_CATEGORIES, { error: `is missing or unknown; use one of: ${EVIDENCE_CATEGORIES.join(', ')}` }),
  ),
  title: required('a short title'),
  text: required('the text of the item'),
  // Values are display strings ("223,121", "8.51%"); a bare number is kept as written.
  value: optionalText,
  event_date: z.preprocess(blankToUndefined, isoDate.optional()).transform((v) => v ?? null),
  published_date: requiredDate('every item needs the date it became public'),
  source_name: required('the name of the source'),
  source_url: sourceUrl,
  language: z.preprocess(blankToUndefined, z.string().trim().min(2).max(10).default('ko')),
  upstream: optionalText,
  license: optionalText,
  /** When a connector or search fetched the record (ISO timestamp). */
  retrieved_at: z.preprocess(blankToUndefined, z.iso.datetime({ offset: true }).optional()),
});

export const documentFrontMatter = z.object({
  title: required('the document title'),
  company_id: required('which company the document is about'),
  kind: required('the kind of document (e.g. annual_report_section)'),
  published_date: requiredDate('every document needs the date it became public'),
  source_name: required('the name of the source'),
  source_url: sourceUrl,
  language: z.preprocess(blankToUndefined, z.string().trim().min(2).max(10).default('en')),
  license: optionalText,
  upstream: optionalText,
});
export const MODELLED_FRONT_MATTER = new Set(Object.keys(documentFrontMatter.shape));

export type EvidenceRowInput = z.input<typeof evidenceRow>;
