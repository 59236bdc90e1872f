// Plain bulk inserts that fill an empty scratch database with a synthetic pool, for the
// benchmarks (scripts/bench). Unlike the import's (lib/db/queries/pool-import.ts) they neither
// skip conflicts nor return anything, so what a benchmark times is the database's own rate.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documentChunks, documents, evidenceItems } from '@/lib/db/schema';

export async function insertCompanyRows({ db, rows }: { db: Executor; rows: (typeof companies.$inferInsert)[] }) {
  await db.insert(companies).values(rows);
}

export async function insertEvidenceRows({ db, rows }: { db: Executor; rows: (typeof evidenceItems.$inferInsert)[] }) {
  await db.insert(evidenceItems).values(rows);
}

export async function insertDocumentWithChunks({
  db,
  document,
  chunks,
}: {
  db: Executor;
  document: typeof documents.$inferInsert;
  chunks: (typeof documentChunks.$inferInsert)[];
}) {
  await db.insert(documents).values(document);
  await db.insert(documentChunks).values(chunks);
}

/** Gathers statistics on every table: PGlite has no autovacuum, so without it the planner guesses. */
export async function analyzeDatabase({ db }: { db: Executor }) {
  await db.execute(sql`analyze`);
}

/** Writes out dirty pages now: PGlite has no background writer, so the first queries would pay for it. */
export async function checkpointDatabase({ db }: { db: Executor }) {
  await db.execute(sql`checkpoint`);
}
