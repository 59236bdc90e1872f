// The import: plan (read and validate everything), then write in one transaction — or, when
// anything was rejected, write nothing unless the caller chose to import the valid rows.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { env } from '@/lib/env';
import type { ImportSource, Rejection } from '@/lib/pool/import/parse';
import { planImport, type ImportPlan } from '@/lib/pool/import/plan';
import { writeImport, type ImportCounts, type Progress, type WriteOptions } from '@/lib/pool/import/write';

export type { ImportSource, Rejection };

export type ImportReport = {
  imported: ImportCounts;
  skippedDuplicates: number;
  rejected: Rejection[];
  /** False when rejections stopped the import (nothing was written). */
  written: boolean;
  files: ImportPlan['files'];
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
};

const ANALYZE_AFTER_ROWS = 1000;

const NOTHING: ImportCounts = { companies: 0, evidence: 0, documents: 0, chunks: 0 };

export async function importPool({ db, sources, actorId, validOnly = false, label, origin, auditAction, onProgress, today }: ImportOptions): Promise<ImportReport> {
  if (sources.length === 0) {
    return { imported: NOTHING, skippedDuplicates: 0, rejected: [{ file: '', row: 0, field: null, message: 'No files to import.' }], written: false, files: [] };
  }
  const plan = await planImport({ db, sources, maxFileBytes: env().IMPORT_MAX_FILE_MB * 1024 * 1024, today });
  const base = { skippedDuplicates: plan.skippedDuplicates, rejected: plan.rejected, files: plan.files };
  if (plan.rejected.length > 0 && !validOnly) return { ...base, imported: NOTHING, written: false };
  const imported = await db.transaction((tx) =>
    writeImport(tx, plan, { actorId, origin, auditAction, label: label ?? sources.map((s) => s.name).join(', '), onProgress }),
  );
  // PGlite has no autovacuum to gather statistics; without them retrieval plans badly after a bulk load.
  if (imported.evidence + imported.chunks >= ANALYZE_AFTER_ROWS) {
    await db.execute(sql`analyze evidence_items, documents, document_chunks`);
  }
  return { ...base, imported, written: true };
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
