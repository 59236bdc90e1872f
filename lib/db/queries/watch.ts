// The portfolio watch (lib/jobs/watch.ts): an RM's watch entries, the claims that keep two
// passes off the same entry, the filings each entry has judged, the timeline of when a filing
// was first seen, and the alerts. Who hears of an alert is decided in notifications.ts.
import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { executeRows } from '@/lib/db/rows';
import { cases, companies, evidenceItems, filingSightings, watchAlerts, watchEntries, watchSeen, type WatchEntry } from '@/lib/db/schema';
import type { RedFlag } from '@/lib/domain/red-flags';
import type { WatchFrequency } from '@/lib/domain/vocabulary';
import type { WatchProblem } from '@/lib/domain/watch';

export type WatchSettings = { frequency: WatchFrequency; autoRescreen: boolean; adverseThreshold: number; caseId: string | null };

/**
 * Watches a borrower for an RM, or changes the RM's watch on it (one per RM and borrower). A new
 * entry is due at once: its first check records what the sources already hold as its baseline.
 */
export async function upsertWatchEntry({
  db,
  ownerId,
  companyId,
  settings,
  now,
}: {
  db: Executor;
  ownerId: string;
  companyId: string;
  settings: WatchSettings;
  now: Date;
}) {
  const [row] = await db
    .insert(watchEntries)
    .values({ ownerId, companyId, ...settings, nextCheckAt: now })
    .onConflictDoUpdate({
      target: [watchEntries.ownerId, watchEntries.companyId],
      set: { frequency: settings.frequency, autoRescreen: settings.autoRescreen, adverseThreshold: settings.adverseThreshold, caseId: settings.caseId },
    })
    .returning();
  return row;
}

/** Deletes one of the owner's entries; the row deleted, or undefined when it was not theirs. */
export async function deleteWatchEntry({ db, ownerId, id }: { db: Executor; ownerId: string; id: string }) {
  const [row] = await db
    .delete(watchEntries)
    .where(and(eq(watchEntries.id, id), eq(watchEntries.ownerId, ownerId)))
    .returning();
  return row;
}

export async function getWatchEntry({ db, ownerId, companyId }: { db: Executor; ownerId: string; companyId: string }) {
  const [row] = await db
    .select()
    .from(watchEntries)
    .where(and(eq(watchEntries.ownerId, ownerId), eq(watchEntries.companyId, companyId)));
  return row;
}

/** Makes the entries on a borrower due now, so the next pass checks them. Returns how many. */
export async function makeWatchEntriesDue({ db, companyId, now }: { db: Executor; companyId: string; now: Date }) {
  const rows = await db.update(watchEntries).set({ nextCheckAt: now }).where(eq(watchEntries.companyId, companyId)).returning({ id: watchEntries.id });
  return rows.length;
}

/**
 * Claims up to `limit` entries due at `now` for `workerId` until `now + leaseMs`: entries another
 * pass holds (an unexpired claim) are skipped, and rows another transaction is claiming at this
 * moment too (SKIP LOCKED), so concurrent passes split the due entries instead of sharing them.
 */
export async function claimDueWatchEntries({
  db,
  now,
  workerId,
  leaseMs,
  limit,
}: {
  db: Executor;
  now: Date;
  workerId: string;
  leaseMs: number;
  limit: number;
}): Promise<WatchEntry[]> {
  const until = new Date(now.getTime() + leaseMs);
  const claimed = await executeRows<{ id: string }>(
    db,
    sql`
      update ${watchEntries} set claimed_by = ${workerId}, claimed_until = ${until.toISOString()}::timestamptz
      where id in (
        select id from ${watchEntries}
        where next_check_at <= ${now.toISOString()}::timestamptz
          and (claimed_until is null or claimed_until <= ${now.toISOString()}::timestamptz)
        order by next_check_at, id
        limit ${limit}
        for update skip locked
      )
      returning id`,
  );
  if (!claimed.length) return [];
  return db
    .select()
    .from(watchEntries)
    .where(
      inArray(
        watchEntries.id,
        claimed.map((r) => r.id),
      ),
    )
    .orderBy(asc(watchEntries.nextCheckAt), asc(watchEntries.id));
}

/**
 * Locks the entry's row and says whether `workerId` still holds it: a pass whose claim ran out
 * and was taken over writes nothing more for it. Call inside the transaction of the writes.
 */
export async function holdsWatchClaim({ db, id, workerId }: { db: Executor; id: string; workerId: string }): Promise<boolean> {
  const rows = await executeRows<{ id: string }>(db, sql`select id from ${watchEntries} where id = ${id} and claimed_by = ${workerId} for update`);
  return rows.length > 0;
}

/**
 * Ends a check: when it ran, when the next is due, what went wrong (`error`, the sources' own
 * English; null: nothing) and as problem kinds, the claim released.
 */
export async function finishWatchCheck({
  db,
  id,
  workerId,
  checkedAt,
  nextCheckAt,
  error,
  problems = [],
}: {
  db: Executor;
  id: string;
  workerId: string;
  checkedAt: Date;
  nextCheckAt: Date;
  error: string | null;
  problems?: WatchProblem[];
}) {
  const rows = await db
    .update(watchEntries)
    .set({ lastCheckedAt: checkedAt, nextCheckAt, lastError: error, lastProblems: problems.length ? problems : null, claimedBy: null, claimedUntil: null })
    .where(and(eq(watchEntries.id, id), eq(watchEntries.claimedBy, workerId)))
    .returning({ id: watchEntries.id });
  return rows.length > 0;
}

/** Of `ids`, those in the pool (a rejected or merged filing is not). */
export async function existingEvidenceIds({ db, ids }: { db: Executor; ids: readonly string[] }): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: evidenceItems.id })
    .from(evidenceItems)
    .where(inArray(evidenceItems.id, [...ids]));
  return rows.map((r) => r.id);
}

/** Records when filings were first seen; a filing seen before keeps its first time. */
export async function recordSightings({
  db,
  companyId,
  source,
  ids,
  seenAt,
}: {
  db: Executor;
  companyId: string;
  source: string;
  ids: readonly string[];
  seenAt: Date;
}) {
  if (!ids.length) return 0;
  const rows = await db
    .insert(filingSightings)
    .values(ids.map((evidenceId) => ({ evidenceId, companyId, source, seenAt })))
    .onConflictDoNothing()
    .returning({ id: filingSightings.evidenceId });
  return rows.length;
}

/** Of `ids`, those the entry has not judged yet, now marked judged (call in the check's transaction). */
export async function takeUnseenForEntry({ db, entryId, ids }: { db: Executor; entryId: string; ids: readonly string[] }): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .insert(watchSeen)
    .values(ids.map((evidenceId) => ({ entryId, evidenceId })))
    .onConflictDoNothing()
    .returning({ id: watchSeen.evidenceId });
  return rows.map((r) => r.id);
}

/** What the red-flag rules and the adverse count read of new items. */
export async function listEvidenceForWatch({ db, ids }: { db: Executor; ids: readonly string[] }) {
  if (!ids.length) return [];
  return db
    .select({
      id: evidenceItems.id,
      category: evidenceItems.category,
      title: evidenceItems.title,
      text: evidenceItems.text,
      eventDate: evidenceItems.eventDate,
      publishedDate: evidenceItems.publishedDate,
      polarity: evidenceItems.polarity,
      // Two new items of one filing reporting one event are one red flag (lib/pool/red-flag-events.ts).
      sourceUrl: evidenceItems.sourceUrl,
    })
    .from(evidenceItems)
    .where(inArray(evidenceItems.id, [...ids]));
}

export async function insertWatchAlert({
  db,
  entryId,
  companyId,
  redFlags,
  evidenceIds,
  adverseCount,
  createdAt,
}: {
  db: Executor;
  entryId: string;
  companyId: string;
  redFlags: RedFlag[];
  evidenceIds: string[];
  adverseCount: number;
  createdAt: Date;
}) {
  const [row] = await db.insert(watchAlerts).values({ entryId, companyId, redFlags, evidenceIds, adverseCount, createdAt }).returning();
  return row;
}

export async function setAlertRescreenRun({ db, alertId, runId }: { db: Executor; alertId: string; runId: string }) {
  await db.update(watchAlerts).set({ rescreenRunId: runId }).where(eq(watchAlerts.id, alertId));
}

/** An alert with its entry's owner and case, or undefined. */
export async function getWatchAlert({ db, id }: { db: Executor; id: string }) {
  const [row] = await db
    .select({ alert: watchAlerts, ownerId: watchEntries.ownerId, caseId: watchEntries.caseId })
    .from(watchAlerts)
    .innerJoin(watchEntries, eq(watchEntries.id, watchAlerts.entryId))
    .where(eq(watchAlerts.id, id));
  return row;
}

export type WatchAlertItem = { id: string; title: string; publishedDate: string; sourceName: string; sourceUrl: string; polarity: string | null };
export type WatchAlertDetail = {
  alert: typeof watchAlerts.$inferSelect;
  companyName: string;
  companyNameEn: string | null;
  /** The items that triggered it, in the alert's order (an item deleted since is left out). */
  items: WatchAlertItem[];
};

/** These alerts with their borrower and items, by alert id (the inbox shows each alert's evidence). */
export async function listAlertItems({ db, alertIds }: { db: Executor; alertIds: readonly string[] }): Promise<Map<string, WatchAlertDetail>> {
  const out = new Map<string, WatchAlertDetail>();
  if (!alertIds.length) return out;
  const alerts = await db
    .select({ alert: watchAlerts, companyName: companies.name, companyNameEn: companies.nameEn })
    .from(watchAlerts)
    .innerJoin(companies, eq(companies.id, watchAlerts.companyId))
    .where(inArray(watchAlerts.id, [...alertIds]));
  const ids = [...new Set(alerts.flatMap((a) => a.alert.evidenceIds))];
  const items = ids.length
    ? await db
        .select({
          id: evidenceItems.id,
          title: evidenceItems.title,
          publishedDate: evidenceItems.publishedDate,
          sourceName: evidenceItems.sourceName,
          sourceUrl: evidenceItems.sourceUrl,
          polarity: evidenceItems.polarity,
        })
        .from(evidenceItems)
        .where(inArray(evidenceItems.id, ids))
    : [];
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const a of alerts) out.set(a.alert.id, { ...a, items: a.alert.evidenceIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) });
  return out;
}

export type SightingRow = {
  evidenceId: string;
  title: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  polarity: string | null;
  source: string;
  seenAt: Date;
};

/** The company page's timeline: what the watch saw arrive, newest sighting first. */
export async function listSightings({ db, companyId, limit = 50 }: { db: Executor; companyId: string; limit?: number }): Promise<SightingRow[]> {
  return db
    .select({
      evidenceId: filingSightings.evidenceId,
      title: evidenceItems.title,
      publishedDate: evidenceItems.publishedDate,
      sourceName: evidenceItems.sourceName,
      sourceUrl: evidenceItems.sourceUrl,
      polarity: evidenceItems.polarity,
      source: filingSightings.source,
      seenAt: filingSightings.seenAt,
    })
    .from(filingSightings)
    .innerJoin(evidenceItems, eq(evidenceItems.id, filingSightings.evidenceId))
    .where(eq(filingSightings.companyId, companyId))
    .orderBy(desc(filingSightings.seenAt), desc(evidenceItems.publishedDate), asc(filingSightings.evidenceId))
    .limit(limit);
}

/** The RM's cases on a borrower they may attach to a watch (newest first). */
export async function listOwnCasesOfCompany({ db, ownerId, companyId }: { db: Executor; ownerId: string; companyId: string }) {
  return db
    .select({ id: cases.id, title: cases.title, status: cases.status, asOfDate: cases.asOfDate })
    .from(cases)
    .where(and(eq(cases.ownerId, ownerId), eq(cases.companyId, companyId)))
    .orderBy(desc(cases.createdAt));
}
