// Reads and validates a whole import before anything is written: every rejected row is named,
// duplicates are counted, and what remains is exactly what the write step will insert.
//
// Text the database cannot store (a NUL character, half of a UTF-16 surrogate pair) is a named
// row error, not removed: the item must match its source, and such characters mean a damaged or
// mis-encoded file that the RM should look at. Changing an existing company's profile is for
// administrators (companyProfiles: 'replace'); anyone else's import only adds companies and fills
// fields a profile lacks, and the plan lists the changes it left out (docs/security.md).
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Executor } from '@/lib/db/client';
import type { Phrase } from '@/lib/i18n';
import { selectCompanyProfiles, selectEvidenceKeys, selectExistingDocumentIds, selectExistingEvidenceIds } from '@/lib/db/queries/pool-import';
import { formatMb } from '@/lib/pool/import/limits';
import { sourceIdentity } from '@/lib/pool/source-identity';
import { problem, problemOfIssue } from '@/lib/pool/import/problems';
import {
  companyRow,
  dedupKeyTooLong,
  documentFrontMatter,
  evidenceRow,
  LIMITS,
  MAX_ID,
  MODELLED_FRONT_MATTER,
  storable,
  toIsoDate,
  tooLong,
  unstorable,
  unstorableAt,
} from '@/lib/pool/import/schemas';
import {
  classify,
  decode,
  parseCsvRecords,
  parseDocument,
  parseJsonArray,
  parseJsonl,
  type ImportSource,
  type Located,
  type ParsedDocument,
  type Rejection,
} from '@/lib/pool/import/parse';
import type { PoolCompany, PoolDocument, PoolEvidence } from '@/lib/pool/types';
import { isoToday } from '@/lib/util/dates';

/** Who may change an existing company's profile: 'replace' (administrators, the CLI) or only fill what it lacks. */
export type CompanyProfiles = 'replace' | 'fill';

/** The profile fields an import can set, as companies.json names them. */
// `sole_proprietor` is never missing from a profile (false until set), so only an import that
// may replace profiles changes it: an RM's import cannot lift a borrower out of the two-vote rule.
const PROFILE_FIELDS = {
  name: 'name',
  nameEn: 'name_en',
  country: 'country',
  industry: 'industry',
  description: 'description',
  soleProprietor: 'sole_proprietor',
} as const;
type ProfileField = keyof typeof PROFILE_FIELDS;

export type CompanyUpdate = {
  id: string;
  /** The new values; under 'fill', only of fields the profile lacks (identifiers: only keys it lacks). */
  set: Partial<Pick<PoolCompany, ProfileField | 'identifiers'>>;
  /** companies.json names of the fields that change. */
  fields: string[];
};

export type SkippedProfileChange = { file: string; row: number; companyId: string; fields: string[]; message: string; phrase?: Phrase };

export type ImportPlan = {
  /** Companies the database does not have yet. */
  companies: PoolCompany[];
  /** Companies of the plan that the database does not have yet. */
  companyProfiles: CompanyProfiles;
  /** Changes to existing companies' profiles the write applies. */
  companyUpdates: CompanyUpdate[];
  /** Changes to existing profiles left out: the importer may only fill what a profile lacks. */
  skippedProfileChanges: SkippedProfileChange[];
  evidence: PoolEvidence[];
  documents: PoolDocument[];
  rejected: Rejection[];
  skippedDuplicates: number;
  files: { name: string; kind: string; encoding?: string; records: number }[];
};

export type PlanOptions = {
  db: Executor;
  sources: ImportSource[];
  maxFileBytes: number;
  /** Today's date (YYYY-MM-DD); nothing may be published after it. */
  today?: string;
  /** Default 'fill': only administrators and the CLI (an operator) may change existing profiles. */
  companyProfiles?: CompanyProfiles;
};

/** The longest file name (with its folders) an import accepts. */
export const MAX_FILE_NAME = 500;
const MAX_DEPTH = 10;

/**
 * The first string (a value or a key) in each top-level field that the database cannot store, as
 * rejections naming that field. A record that is not an object is left to its schema.
 */
function unstorableFields(file: string, row: number, record: unknown, lines?: Record<string, number>): Rejection[] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const find = (v: unknown, depth: number): ReturnType<typeof unstorable> => {
    if (typeof v === 'string') return unstorable(v);
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return null;
    for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      const bad = (typeof k === 'string' ? unstorable(k) : null) ?? find(x, depth + 1);
      if (bad) return bad;
    }
    return null;
  };
  const out: Rejection[] = [];
  for (const [key, value] of Object.entries(record)) {
    const badKey = unstorable(key);
    if (badKey) {
      out.push({ file, row, field: null, ...problem('badFieldName', { detail: badKey.phrase }) });
      continue;
    }
    const bad = find(value, 0);
    if (bad) out.push({ file, row: lines?.[key] || row, field: key, ...bad });
  }
  return out;
}

/** A body's unstorable character, named by its line in the file. */
function bodyProblem(d: ParsedDocument): Rejection[] {
  const bad = unstorableAt(d.body);
  if (!bad) return [];
  let row = d.bodyLine;
  for (let i = d.body.indexOf('\n'); i !== -1 && i < bad.index; i = d.body.indexOf('\n', i + 1)) row++;
  return [{ file: d.file, row, field: 'body', message: bad.message, phrase: bad.phrase }];
}

/** What an import changes in an existing profile: every differing field, and those the profile lacks. */
function profileChanges(existing: PoolCompany, next: PoolCompany) {
  const changed: string[] = [];
  const fill: CompanyUpdate['set'] = {};
  const replace: CompanyUpdate['set'] = {};
  const filled: string[] = [];
  for (const [field, name] of Object.entries(PROFILE_FIELDS) as [ProfileField, string][]) {
    const value = next[field];
    if (value == null || value === existing[field]) continue;
    Object.assign(replace, { [field]: value });
    if (existing[field] == null || existing[field] === '') {
      Object.assign(fill, { [field]: value });
      filled.push(name);
    } else changed.push(name);
  }
  const missingKeys = Object.entries(next.identifiers).filter(([k]) => !(k in existing.identifiers));
  const changedKeys = Object.keys(next.identifiers).filter((k) => k in existing.identifiers && existing.identifiers[k] !== next.identifiers[k]);
  const droppedKeys = Object.keys(existing.identifiers).filter((k) => !(k in next.identifiers));
  if (missingKeys.length || changedKeys.length || droppedKeys.length) replace.identifiers = next.identifiers;
  if (missingKeys.length) {
    fill.identifiers = Object.fromEntries(missingKeys);
    filled.push(...missingKeys.map(([k]) => `identifiers.${k}`));
  }
  changed.push(...changedKeys.map((k) => `identifiers.${k}`));
  // Under 'replace' a profile follows its latest import, so identifiers it no longer lists go.
  const replaced = [...changed, ...filled, ...droppedKeys.map((k) => `identifiers.${k}`)];
  return { changed, fill, filled, replace, replaced };
}

function rejectionsFrom(file: string, row: number, error: z.ZodError, lines?: Record<string, number>): Rejection[] {
  return error.issues.map((issue) => {
    const field = issue.path.length ? String(issue.path[0]) : null;
    return { file, row: (field && lines?.[field]) || row, field, ...problemOfIssue(issue.message) };
  });
}

/** Items without an id get one from what makes them unique, so a re-import finds the same id. */
export function derivedEvidenceId(companyId: string, sourceUrl: string, publishedDate: string, title: string) {
  const hash = createHash('sha256').update(`${companyId}\n${sourceUrl}\n${publishedDate}\n${title}`).digest('hex');
  return `${companyId}-${hash.slice(0, 12)}`;
}

/**
 * What makes two items one: the company, the source (by its identity, so the same DART receipt
 * number, SEC accession number or link written another way is the same source:
 * lib/pool/source-identity.ts), the publication date and the title.
 */
export const dedupKey = (e: { companyId: string; sourceUrl: string; publishedDate: string; title: string }) =>
  `${e.companyId}\u0000${sourceIdentity(e.sourceUrl)}\u0000${e.publishedDate}\u0000${e.title}`;

export async function planImport({ db, sources, maxFileBytes, today = isoToday(), companyProfiles = 'fill' }: PlanOptions): Promise<ImportPlan> {
  const rejected: Rejection[] = [];
  const files: ImportPlan['files'] = [];
  const companyRecords: Located[] = [];
  const evidenceRecords: Located[] = [];
  const documentRecords: ParsedDocument[] = [];
  const single = sources.length === 1;

  for (const source of sources) {
    const kind = classify(source.name, { single });
    const nameProblem = source.name.length > MAX_FILE_NAME ? tooLong(source.name.length, MAX_FILE_NAME) : unstorable(source.name);
    if (nameProblem) {
      // Named by a cleaned, short form: the name itself is what is wrong.
      rejected.push({ file: storable(source.name.slice(0, 100)), row: 0, field: null, ...problem('badFileName', { detail: nameProblem.phrase }) });
      files.push({ name: storable(source.name.slice(0, 100)), kind, records: 0 });
      continue;
    }
    if (kind === 'ignored') {
      files.push({ name: source.name, kind, records: 0 });
      continue;
    }
    if (source.bytes.byteLength > maxFileBytes) {
      rejected.push({
        file: source.name,
        row: 0,
        field: null,
        ...problem('tooLarge', { size: formatMb(source.bytes.byteLength), limit: formatMb(maxFileBytes) }),
      });
      files.push({ name: source.name, kind, records: 0 });
      continue;
    }
    const { text, encoding } = decode(source.bytes);
    const ext = source.name.toLowerCase().split('.').pop();
    if (kind === 'document') {
      const { document, rejected: bad } = parseDocument(source.name, text);
      rejected.push(...bad);
      if (document) documentRecords.push(document);
      files.push({ name: source.name, kind, encoding, records: document ? 1 : 0 });
      continue;
    }
    const parsed = ext === 'jsonl' ? parseJsonl(source.name, text) : ext === 'csv' ? parseCsvRecords(source.name, text) : parseJsonArray(source.name, text);
    rejected.push(...parsed.rejected);
    (kind === 'companies' ? companyRecords : evidenceRecords).push(...parsed.records);
    files.push({ name: source.name, kind, encoding, records: parsed.records.length });
  }

  if (sources.length > 0 && files.every((f) => f.kind === 'ignored')) {
    rejected.push({
      file: sources.length === 1 ? sources[0].name : '',
      row: 0,
      field: null,
      ...problem('nothingImportable'),
    });
  }

  // Companies: the file's own, then those the database already has.
  const plannedCompanies = new Map<string, PoolCompany>();
  const companyRows = new Map<string, Located>();
  for (const rec of companyRecords) {
    const badText = unstorableFields(rec.file, rec.row, rec.value);
    if (badText.length) {
      rejected.push(...badText);
      continue;
    }
    const parsed = companyRow.safeParse(rec.value);
    if (!parsed.success) {
      rejected.push(...rejectionsFrom(rec.file, rec.row, parsed.error));
      continue;
    }
    const { name_en, sole_proprietor, ...rest } = parsed.data;
    if (plannedCompanies.has(rest.id)) {
      rejected.push({ file: rec.file, row: rec.row, field: 'id', ...problem('companyTwice', { id: rest.id }) });
      continue;
    }
    plannedCompanies.set(rest.id, { ...rest, nameEn: name_en, ...(sole_proprietor === undefined ? {} : { soleProprietor: sole_proprietor }) });
    companyRows.set(rest.id, rec);
  }

  const evidence: PoolEvidence[] = [];
  const evidenceRows: Located[] = [];
  // Rows rejected for other fields still get their company checked, so one pass names every problem.
  const failedRefs: { file: string; row: number; companyId: string }[] = [];
  for (const rec of evidenceRecords) {
    const badText = unstorableFields(rec.file, rec.row, rec.value);
    if (badText.length) {
      rejected.push(...badText);
      continue;
    }
    const parsed = evidenceRow.safeParse(rec.value);
    if (!parsed.success) {
      rejected.push(...rejectionsFrom(rec.file, rec.row, parsed.error));
      const companyId = (rec.value as { company_id?: unknown } | null)?.company_id;
      if (typeof companyId === 'string' && companyId.trim() && !parsed.error.issues.some((i) => i.path[0] === 'company_id')) {
        failedRefs.push({ file: rec.file, row: rec.row, companyId: companyId.trim() });
      }
      continue;
    }
    const e = parsed.data;
    const keyTooLong = dedupKeyTooLong(e);
    if (keyTooLong) {
      rejected.push({ file: rec.file, row: rec.row, field: 'title', ...keyTooLong });
      continue;
    }
    if (e.published_date > today) {
      rejected.push({ file: rec.file, row: rec.row, field: 'published_date', ...problem('itemFuture', { date: e.published_date }) });
      continue;
    }
    evidence.push({
      id: e.id ?? derivedEvidenceId(e.company_id, e.source_url, e.published_date, e.title),
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
      retrievedAt: e.retrieved_at ? new Date(e.retrieved_at) : null,
    });
    evidenceRows.push(rec);
  }

  const docs: PoolDocument[] = [];
  const docRows: { file: string; lines: Record<string, number> }[] = [];
  for (const d of documentRecords) {
    const id = d.file.split('/').pop()!.replace(/\.md$/i, '');
    const problems = [
      ...unstorableFields(d.file, 1, d.frontMatter, d.frontMatterLines),
      ...bodyProblem(d),
      ...(id.length > MAX_ID ? [{ file: d.file, row: 0, field: null, ...problem('badDocumentId', { detail: tooLong(id.length, MAX_ID).phrase }) }] : []),
      ...(d.body.length > LIMITS.document.body ? [{ file: d.file, row: 0, field: 'body', ...tooLong(d.body.length, LIMITS.document.body) }] : []),
    ];
    if (problems.length) {
      rejected.push(...problems);
      continue;
    }
    const parsed = documentFrontMatter.safeParse(d.frontMatter);
    if (!parsed.success) {
      rejected.push(...rejectionsFrom(d.file, 1, parsed.error, d.frontMatterLines));
      continue;
    }
    const f = parsed.data;
    if (f.published_date > today) {
      rejected.push({
        file: d.file,
        row: d.frontMatterLines.published_date ?? 1,
        field: 'published_date',
        ...problem('documentFuture', { date: f.published_date }),
      });
      continue;
    }
    const meta = Object.fromEntries(
      Object.entries(d.frontMatter)
        .filter(([k]) => !MODELLED_FRONT_MATTER.has(k))
        .map(([k, v]) => [k, toIsoDate(v)]),
    );
    docs.push({
      id,
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
      body: d.body,
    });
    docRows.push({ file: d.file, lines: d.frontMatterLines });
  }

  // Every record must name a company of this import or of the pool.
  const named = [
    ...new Set([...evidence.map((e) => e.companyId), ...failedRefs.map((r) => r.companyId), ...docs.map((d) => d.companyId), ...plannedCompanies.keys()]),
  ];
  const existingProfiles = new Map((await selectCompanyProfiles({ db, ids: named })).map((r) => [r.id, r]));
  const existingCompanies = new Set(existingProfiles.keys());

  const companyUpdates: CompanyUpdate[] = [];
  const skippedProfileChanges: SkippedProfileChange[] = [];
  for (const [id, next] of plannedCompanies) {
    const existing = existingProfiles.get(id);
    if (!existing) continue;
    const { changed, fill, filled, replace, replaced } = profileChanges(existing, next);
    if (companyProfiles === 'replace') {
      if (replaced.length) companyUpdates.push({ id, set: replace, fields: replaced });
      continue;
    }
    if (filled.length) companyUpdates.push({ id, set: fill, fields: filled });
    if (changed.length) {
      const { file, row } = companyRows.get(id)!;
      skippedProfileChanges.push({
        file,
        row,
        companyId: id,
        fields: changed,
        ...problem('profileKept', { id, fields: changed.join(', ') }),
      });
    }
  }
  const knownCompany = (id: string) => plannedCompanies.has(id) || existingCompanies.has(id);
  const unknownCompany = (id: string) => problem('unknownCompany', { id });
  for (const ref of failedRefs) {
    if (!knownCompany(ref.companyId)) rejected.push({ file: ref.file, row: ref.row, field: 'company_id', ...unknownCompany(ref.companyId) });
  }

  // Duplicates within the import and against the pool.
  const existingEvidence = await selectEvidenceKeys({ db, companyIds: [...new Set(evidence.map((e) => e.companyId))].filter(knownCompany) });
  const keyById = new Map(existingEvidence.map((e) => [e.id, dedupKey(e)]));
  const knownKeys = new Set(keyById.values());
  const takenIds = new Set(await selectExistingEvidenceIds({ db, ids: evidence.map((e) => e.id).filter((id) => !keyById.has(id)) }));

  let skippedDuplicates = 0;
  const keptEvidence: PoolEvidence[] = [];
  evidence.forEach((e, i) => {
    const { file, row } = evidenceRows[i];
    if (!knownCompany(e.companyId)) {
      rejected.push({ file, row, field: 'company_id', ...unknownCompany(e.companyId) });
      return;
    }
    const key = dedupKey(e);
    if (knownKeys.has(key)) {
      skippedDuplicates++;
      return;
    }
    const owner = keyById.get(e.id);
    if ((owner && owner !== key) || takenIds.has(e.id)) {
      rejected.push({ file, row, field: 'id', ...problem('idTaken', { id: e.id }) });
      return;
    }
    knownKeys.add(key);
    keyById.set(e.id, key);
    keptEvidence.push(e);
  });

  const existingDocs = new Set(await selectExistingDocumentIds({ db, ids: docs.map((d) => d.id) }));
  const keptDocs: PoolDocument[] = [];
  docs.forEach((d, i) => {
    if (!knownCompany(d.companyId)) {
      rejected.push({ file: docRows[i].file, row: docRows[i].lines.company_id ?? 1, field: 'company_id', ...unknownCompany(d.companyId) });
    } else if (existingDocs.has(d.id)) {
      skippedDuplicates++;
    } else {
      existingDocs.add(d.id);
      keptDocs.push(d);
    }
  });

  rejected.sort((a, b) => (a.file === b.file ? a.row - b.row : a.file < b.file ? -1 : 1));
  return {
    companies: [...plannedCompanies.values()].filter((c) => !existingCompanies.has(c.id)),
    companyProfiles,
    companyUpdates,
    skippedProfileChanges,
    evidence: keptEvidence,
    documents: keptDocs,
    rejected,
    skippedDuplicates,
    files,
  };
}
