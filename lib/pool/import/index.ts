// The import: plan (read and validate everything), then write in one transaction — or, when
// anything was rejected, write nothing unless the caller chose to import the valid rows.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '@/lib/db/client';
import { badData } from '@/lib/db/errors';
import { problem } from '@/lib/pool/import/problems';
import { appendAudit } from '@/lib/db/queries/audit';
import { analyzePoolTables } from '@/lib/db/queries/pool-import';
import type { ImportSource, Rejection } from '@/lib/pool/import/parse';
import { planImport, type CompanyProfiles, type ImportPlan, type SkippedProfileChange } from '@/lib/pool/import/plan';
import { storable } from '@/lib/pool/import/schemas';
import { importLimits } from '@/lib/pool/import/upload';
import { writeImport, type ImportCounts, type Progress, type WriteOptions } from '@/lib/pool/import/write';

export type { CompanyProfiles, ImportSource, Rejection, SkippedProfileChange };

export type ImportReport = {
  imported: ImportCounts;
  skippedDuplicates: number;
  rejected: Rejection[];
  /** False when rejections stopped the import (nothing was written). */
  written: boolean;
  files: ImportPlan['files'];
  /** Existing companies whose profiles changed, and the fields (companies.json names). */
  updatedCompanies: { id: string; fields: string[] }[];
  /** Changes to existing profiles that were left out, and why. */
  skippedProfileChanges: SkippedProfileChange[];
};

export type ImportOptions = {
  db: Db;
  sources: ImportSource[];
  actorId: string | null;
  validOnly?: boolean;
  label?: string;
  origin?: WriteOptions['origin'];
  auditAction?: string;
  onProgress?: Progress;
  today?: string;
  /**
   * 'replace' lets the import change existing companies' profiles: for administrators, and the
   * CLI, which runs as an operator with the database's own credentials. Default 'fill': an
   * import adds companies and fills fields their profiles lack, and reports the rest as skipped.
   */
  companyProfiles?: CompanyProfiles;
};

const ANALYZE_AFTER_ROWS = 1000;

const NOTHING: ImportCounts = { companies: 0, evidence: 0, documents: 0, chunks: 0 };

/** How much of a refused import its audit entry keeps: the counts whole, names and reasons cut. */
const AUDIT_FILES = 20;
const AUDIT_REASONS = 5;
const AUDIT_CHARS = 200;
const clip = (text: string, max = AUDIT_CHARS) => {
  const chars = [...storable(text)];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

/**
 * The audit detail of an import that wrote nothing because rows or files were refused: how many
 * rejections, in which files (the most-refused first) and the first distinct reasons. Every text
 * is the uploader's in part, so each is bounded and made storable.
 */
export function rejectedImportDetail({
  label,
  origin,
  rejected,
  skippedDuplicates,
}: {
  label: string;
  origin: string;
  rejected: Rejection[];
  skippedDuplicates: number;
}) {
  const byFile = new Map<string, number>();
  for (const r of rejected) byFile.set(r.file, (byFile.get(r.file) ?? 0) + 1);
  const files = [...byFile.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, AUDIT_FILES)
    .map(([file, rows]) => ({ file: clip(file || '—'), rows }));
  const reasons = [...new Set(rejected.map((r) => (r.field ? `${r.field} ${r.message}` : r.message)))].slice(0, AUDIT_REASONS).map((m) => clip(m));
  return { source: clip(label, 1000), origin, rejected: rejected.length, skippedDuplicates, files, reasons };
}

/** Records that an import was refused, in a transaction of its own (nothing else was written). */
async function auditRejectedImport(db: Db, actorId: string | null, detail: ReturnType<typeof rejectedImportDetail>) {
  await db.transaction((tx) => appendAudit({ tx, actorId, action: 'pool.import_rejected', entityType: 'import', detail }));
}

export async function importPool({
  db,
  sources,
  actorId,
  validOnly = false,
  label,
  origin,
  auditAction,
  onProgress,
  today,
  companyProfiles,
}: ImportOptions): Promise<ImportReport> {
  const none = { updatedCompanies: [], skippedProfileChanges: [] };
  if (sources.length === 0) {
    return {
      imported: NOTHING,
      skippedDuplicates: 0,
      rejected: [{ file: '', row: 0, field: null, ...problem('noFiles') }],
      written: false,
      files: [],
      ...none,
    };
  }
  const plan = await planImport({ db, sources, maxFileBytes: importLimits().maxFileBytes, today, companyProfiles });
  const base = { skippedDuplicates: plan.skippedDuplicates, rejected: plan.rejected, files: plan.files, skippedProfileChanges: plan.skippedProfileChanges };
  const source = label ?? sources.map((s) => s.name).join(', ');
  // An import's refusal is audited; a form's one row (auditAction of its own) answers with field errors instead.
  const refused = async (rejected: Rejection[]) => {
    if ((auditAction ?? 'pool.import') !== 'pool.import') return;
    await auditRejectedImport(
      db,
      actorId,
      rejectedImportDetail({ label: source, origin: origin ?? 'import', rejected, skippedDuplicates: plan.skippedDuplicates }),
    );
  };
  if (plan.rejected.length > 0 && !validOnly) {
    await refused(plan.rejected);
    return { ...base, imported: NOTHING, written: false, updatedCompanies: [] };
  }
  let written: Awaited<ReturnType<typeof writeImport>>;
  try {
    written = await db.transaction((tx) => writeImport(tx, plan, { actorId, origin, auditAction, label: source.slice(0, 1000), onProgress }));
  } catch (err) {
    // The checks above should leave the database nothing to refuse; if it still does, the import
    // is named as refused (nothing was written) rather than failing with the database's text.
    const bad = badData(err);
    if (!bad) throw err;
    const reason = bad.kind === 'tooLong' ? problem('dbTooLong') : problem('dbMalformed', { code: bad.code });
    const rejected = [...plan.rejected, { file: '', row: 0, field: null, ...problem('notWritten', { reason: reason.phrase }) }];
    await refused(rejected);
    return { ...base, rejected, imported: NOTHING, written: false, updatedCompanies: [] };
  }
  const { updatedCompanies, ...imported } = written;
  // PGlite has no autovacuum to gather statistics; without them retrieval plans badly after a bulk load.
  if (imported.evidence + imported.chunks >= ANALYZE_AFTER_ROWS) {
    await analyzePoolTables({ db });
  }
  return { ...base, imported, written: true, updatedCompanies };
}

/**
 * The files of a folder in the pool layout (names relative to it, with forward slashes),
 * or a single file. Dot-files and folders are skipped.
 */
export function readSourcesFromPath(target: string): ImportSource[] {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return [{ name: path.basename(target), bytes: fs.readFileSync(target) }];
  const out: ImportSource[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push({ name: path.relative(target, full).split(path.sep).join('/'), bytes: fs.readFileSync(full) });
    }
  };
  walk(target);
  return out;
}
