// Reads the demo knowledge pool in data/demo/ (the import format of data/README.md):
// companies.json, evidence.jsonl and documents/*.md with YAML front matter. Everything is
// validated before anything is written, and a bad record is reported by file and line, so a
// broken data file fails loudly at seed time instead of surfacing later as a half-empty pool.
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { z } from 'zod';
import { EVIDENCE_CATEGORIES } from '@/lib/pool/factors';
import type { PoolCompany, PoolData, PoolDocument, PoolEvidence } from '@/lib/pool/types';

export type { PoolCompany, PoolData, PoolDocument, PoolEvidence };

export class PoolDataError extends Error {}

export function demoDataDir() {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), 'data', 'demo');
}

/** YAML turns an unquoted 2024-01-11 into a Date at UTC midnight; keep the calendar date. */
function toIsoDate(value: unknown) {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value;
}

const isoDate = z.preprocess(
  toIsoDate,
  z.iso.date({ message: 'must be a date written YYYY-MM-DD' }),
);
const text = z.string().trim().min(1);
// Sources are rendered as links: only web addresses, never javascript: or data: URLs.
const sourceUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });
const optionalText = z.string().nullish().transform((v) => (v?.trim() ? v : null));

const companySchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a lowercase slug'),
  name: text,
  name_en: optionalText,
  country: z.string().length(2),
  identifiers: z.record(z.string(), z.string()).default({}),
  industry: optionalText,
  description: optionalText,
});

const evidenceSchema = z.object({
  id: text,
  company_id: text,
  category: z.enum(EVIDENCE_CATEGORIES),
  title: text,
  text: text,
  // Values are display strings ("223,121", "8.51%"); a bare number is kept as written.
  value: z.union([z.string(), z.number()]).nullish().transform((v) => (v == null || v === '' ? null : String(v))),
  event_date: isoDate.nullish().transform((v) => v ?? null),
  published_date: isoDate,
  source_name: text,
  source_url: sourceUrl,
  language: z.string().min(2),
  upstream: optionalText,
  license: optionalText,
});

const frontMatterSchema = z.object({
  title: text,
  company_id: text,
  kind: text,
  published_date: isoDate,
  source_name: text,
  source_url: sourceUrl,
  language: z.string().min(2),
  license: optionalText,
  upstream: optionalText,
});
const MODELLED_FRONT_MATTER = new Set(Object.keys(frontMatterSchema.shape));

function describeIssues(error: z.ZodError) {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

export function parseCompanies(json: string, file: string): PoolCompany[] {
  let rows: unknown;
  try {
    rows = JSON.parse(json);
  } catch (err) {
    throw new PoolDataError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(rows)) throw new PoolDataError(`${file}: expected an array of companies`);
  return rows.map((row, i) => {
    const parsed = companySchema.safeParse(row);
    if (!parsed.success) throw new PoolDataError(`${file}: company #${i + 1}: ${describeIssues(parsed.error)}`);
    const { name_en, ...rest } = parsed.data;
    return { ...rest, nameEn: name_en };
  });
}

export function parseEvidenceJsonl(jsonl: string, file: string): PoolEvidence[] {
  const items: PoolEvidence[] = [];
  jsonl.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (err) {
      throw new PoolDataError(`${where}: not valid JSON (${(err as Error).message})`);
    }
    const parsed = evidenceSchema.safeParse(row);
    if (!parsed.success) throw new PoolDataError(`${where}: ${describeIssues(parsed.error)}`);
    const e = parsed.data;
    items.push({
      id: e.id,
      companyId: e.company_id,
      category: e.category,
      title: e.title,
      text: e.text,
      value: e.value,
      eventDate: e.event_date,
      publishedDate: e.published_date,
      sourceName: e.source_name,
      sourceUrl: e.source_url,
      language: e.language,
      upstream: e.upstream,
      license: e.license,
    });
  });
  return items;
}

export function parseDocument(markdown: string, file: string): PoolDocument {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Passing options turns off gray-matter's cache, which would hand back a shared object.
    parsed = matter(markdown, {});
  } catch (err) {
    throw new PoolDataError(`${file}: front matter is not valid YAML (${(err as Error).message})`);
  }
  const front = frontMatterSchema.safeParse(parsed.data);
  if (!front.success) throw new PoolDataError(`${file}: front matter: ${describeIssues(front.error)}`);
  const f = front.data;
  const meta = Object.fromEntries(
    Object.entries(parsed.data)
      .filter(([key]) => !MODELLED_FRONT_MATTER.has(key))
      .map(([key, value]) => [key, toIsoDate(value)]),
  );
  return {
    id: path.basename(file, '.md'),
    companyId: f.company_id,
    title: f.title,
    kind: f.kind,
    publishedDate: f.published_date,
    sourceName: f.source_name,
    sourceUrl: f.source_url,
    language: f.language,
    license: f.license,
    upstream: f.upstream,
    meta,
    body: parsed.content,
  };
}

/** Loads and checks the whole pool in `dir` (data/demo/ by default), including that every record names a known company. */
export function loadDemoData(dir: string = demoDataDir()): PoolData {
  const read = (file: string) => {
    try {
      return fs.readFileSync(path.join(/*turbopackIgnore: true*/ dir, file), 'utf8');
    } catch (err) {
      throw new PoolDataError(`Cannot read ${path.join(/*turbopackIgnore: true*/ dir, file)}: ${(err as Error).message}`);
    }
  };
  const companies = parseCompanies(read('companies.json'), 'companies.json');
  const evidence = parseEvidenceJsonl(read('evidence.jsonl'), 'evidence.jsonl');
  const docFiles = fs.existsSync(path.join(/*turbopackIgnore: true*/ dir, 'documents'))
    ? fs.readdirSync(path.join(/*turbopackIgnore: true*/ dir, 'documents')).filter((f) => f.endsWith('.md')).sort()
    : [];
  const documents = docFiles.map((f) => parseDocument(read(path.join('documents', f)), path.join('documents', f)));

  const known = new Set(companies.map((c) => c.id));
  const seen = new Set<string>();
  for (const e of evidence) {
    if (!known.has(e.companyId)) throw new PoolDataError(`evidence.jsonl: item ${e.id} names unknown company ${e.companyId}`);
    if (seen.has(e.id)) throw new PoolDataError(`evidence.jsonl: item id ${e.id} appears twice`);
    seen.add(e.id);
  }
  for (const d of documents) {
    if (!known.has(d.companyId)) throw new PoolDataError(`documents/${d.id}.md: names unknown company ${d.companyId}`);
  }
  return { companies, evidence, documents };
}
