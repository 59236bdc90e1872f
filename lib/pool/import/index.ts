// The import: plan (read and validate everything), then write in one transaction — or, when
// anything was rejected, write nothing unless the caller chose to import the valid rows.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '@/lib/db/client';
import { badDataReason } from '@/lib/db/errors';
import { analyzePoolTables } from '@/lib/db/queries/pool-import';
import type { ImportSource, Rejection } from '@/lib/pool/import/parse';
import { planImport, type CompanyProfiles, type ImportPlan, type SkippedProfileChange } from '@/lib/pool/import/plan';
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

export async function importPool({ db, sources, actorId, validOnly = false, label, origin, auditAction, onProgress, today, companyProfiles }: ImportOptions): Promise<ImportReport> {
  const none = { updatedCompanies: [], skippedProfileChanges: [] };
  if (sources.length === 0) {
    return { imported: NOTHING, skippedDuplicates: 0, rejected: [{ file: '', row: 0, field: null, message: 'No files to import.' }], written: false, files: [], ...none };
  }
  const plan = await planImport({ db, sources, maxFileBytes: importLimits().maxFileBytes, today, companyProfiles });
  const base = { skippedDuplicates: plan.skippedDuplicates, rejected: plan.rejected, files: plan.files, skippedProfileChanges: plan.skippedProfileChanges };
  if (plan.rejected.length > 0 && !validOnly) return { ...base, imported: NOTHING, written: false, updatedCompanies: [] };
  let written: Awaited<ReturnType<typeof writeImport>>;
  try {
    written = await db.transaction((tx) =>
      writeImport(tx, plan, { actorId, origin, auditAction, label: (label ?? sources.map((s) => s.name).join(', ')).slice(0, 1000), onProgress }),
    );
  } catch (err) {
    // The checks above should leave the database nothing to refuse; if it still does, the import
    // is named as refused (nothing was written) rather than failing with the database's text.
    const reason = badDataReason(err);
    if (!reason) throw err;
    return { ...base, rejected: [...plan.rejected, { file: '', row: 0, field: null, message: `Nothing was written: ${reason}` }], imported: NOTHING, written: false, updatedCompanies: [] };
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
