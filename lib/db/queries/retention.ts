// Retention and legal hold (docs/retention.md): the periods an admin sets, the holds that keep a
// case (or every case of a borrower) from the purge, and the purge itself, which deletes what has
// expired kind by kind, in batches, each batch in its own transaction with its audit entry.
import 'server-only';
import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '@/lib/db/client';
import { appendAudit, purgeAuditHead } from '@/lib/db/queries/audit';
import { executeRows } from '@/lib/db/rows';
import { cases, companies, legalHolds, settings, users } from '@/lib/db/schema';
import {
  DEFAULT_RETENTION,
  readRetention,
  RETENTION_KINDS,
  RETENTION_SETTING_KEY,
  retentionCutoff,
  type RetentionKind,
  type RetentionPeriods,
} from '@/lib/domain/retention';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { retentionMessages } from '@/lib/i18n/messages/retention';

/**
 * Serializes placing a hold with a purge batch: a batch chooses what to delete after taking it,
 * so it sees every hold committed before, and a hold placed meanwhile waits for the batch.
 */
const RETENTION_LOCK_KEY = 727276;

const lockRetention = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${RETENTION_LOCK_KEY})`);

// ---------------------------------------------------------------- periods

export async function getRetention({ db }: { db: Executor }): Promise<RetentionPeriods> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, RETENTION_SETTING_KEY));
  return row ? readRetention(row.value) : { ...DEFAULT_RETENTION };
}

/** Saves the periods and audits the change (before and after). */
export async function saveRetention({ db, actorId, periods }: { db: Db; actorId: string; periods: RetentionPeriods }) {
  const next = readRetention(periods);
  return db.transaction(async (tx) => {
    const before = await getRetention({ db: tx });
    await tx
      .insert(settings)
      .values({ key: RETENTION_SETTING_KEY, value: next, updatedById: actorId })
      .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedById: actorId, updatedAt: new Date() } });
    await appendAudit({ tx, actorId, action: 'retention.settings', entityType: 'settings', entityId: RETENTION_SETTING_KEY, detail: { before, after: next } });
    return next;
  });
}

// ---------------------------------------------------------------- legal holds

/** SQL: the case `caseId` is on hold, directly or through its borrower. */
function caseHeld(caseId: SQL | typeof cases.id): SQL {
  return sql`exists (select 1 from legal_holds h where h.lifted_at is null and (h.case_id = ${caseId} or h.company_id = (select hc.company_id from cases hc where hc.id = ${caseId})))`;
}

export type HoldTarget = { caseId: string } | { companyId: string };

/** Places a hold on a case or a borrower; one active hold per target. */
export async function placeHold({
  db,
  actorId,
  target,
  reason,
  now = new Date(),
}: {
  db: Db;
  actorId: string;
  target: HoldTarget;
  reason: string;
  now?: Date;
}) {
  return db.transaction(async (tx) => {
    await lockRetention(tx);
    let label: string;
    if ('caseId' in target) {
      const [c] = await tx.select({ title: cases.title }).from(cases).where(eq(cases.id, target.caseId));
      if (!c) throw new AppError('not_found', say(retentionMessages, 'errNoCase'));
      label = c.title;
    } else {
      const [c] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, target.companyId));
      if (!c) throw new AppError('not_found', say(retentionMessages, 'errNoCompany'));
      label = c.name;
    }
    const same = 'caseId' in target ? eq(legalHolds.caseId, target.caseId) : eq(legalHolds.companyId, target.companyId);
    const [existing] = await tx
      .select({ id: legalHolds.id })
      .from(legalHolds)
      .where(and(same, isNull(legalHolds.liftedAt)));
    if (existing) throw new AppError('conflict', say(retentionMessages, 'errAlreadyHeld'));
    const [hold] = await tx
      .insert(legalHolds)
      .values({ ...('caseId' in target ? { caseId: target.caseId } : { companyId: target.companyId }), reason, placedById: actorId, placedAt: now })
      .returning();
    await appendAudit({
      tx,
      actorId,
      action: 'hold.place',
      entityType: 'caseId' in target ? 'case' : 'company',
      entityId: 'caseId' in target ? target.caseId : target.companyId,
      detail: { holdId: hold.id, reason, label },
    });
    return hold;
  });
}

/** Lifts an active hold; the purge may then take what it kept, once expired. */
export async function liftHold({ db, actorId, holdId, reason, now = new Date() }: { db: Db; actorId: string; holdId: string; reason?: string; now?: Date }) {
  return db.transaction(async (tx) => {
    await lockRetention(tx);
    const [hold] = await tx.select().from(legalHolds).where(eq(legalHolds.id, holdId)).for('update');
    if (!hold) throw new AppError('not_found', say(retentionMessages, 'errNoHold'));
    if (hold.liftedAt) throw new AppError('conflict', say(retentionMessages, 'errAlreadyLifted'));
    const [lifted] = await tx
      .update(legalHolds)
      .set({ liftedAt: now, liftedById: actorId, liftReason: reason || null })
      .where(eq(legalHolds.id, holdId))
      .returning();
    await appendAudit({
      tx,
      actorId,
      action: 'hold.lift',
      entityType: hold.caseId ? 'case' : 'company',
      entityId: hold.caseId ?? hold.companyId,
      detail: { holdId, reason: reason || null },
    });
    return lifted;
  });
}

const placer = alias(users, 'placer');
const lifter = alias(users, 'lifter');

/** Every hold, active ones first, then lifted ones newest first, with what each names. */
export async function listHolds({ db, limit = 200 }: { db: Executor; limit?: number }) {
  return db
    .select({
      id: legalHolds.id,
      caseId: legalHolds.caseId,
      caseTitle: cases.title,
      companyId: sql<string>`coalesce(${legalHolds.companyId}, ${cases.companyId})`,
      companyName: companies.name,
      reason: legalHolds.reason,
      placedAt: legalHolds.placedAt,
      placedBy: placer.name,
      liftedAt: legalHolds.liftedAt,
      liftedBy: lifter.name,
      liftReason: legalHolds.liftReason,
    })
    .from(legalHolds)
    .leftJoin(cases, eq(cases.id, legalHolds.caseId))
    .leftJoin(companies, or(eq(companies.id, legalHolds.companyId), eq(companies.id, cases.companyId)))
    .leftJoin(placer, eq(placer.id, legalHolds.placedById))
    .leftJoin(lifter, eq(lifter.id, legalHolds.liftedById))
    .orderBy(sql`${legalHolds.liftedAt} is not null`, desc(sql`coalesce(${legalHolds.liftedAt}, ${legalHolds.placedAt})`))
    .limit(limit);
}

export type HoldRow = Awaited<ReturnType<typeof listHolds>>[number];

/** The active holds that keep a case: its own and its borrower's. */
export async function activeHoldsOfCase({ db, caseId }: { db: Executor; caseId: string }) {
  return db
    .select({ id: legalHolds.id, reason: legalHolds.reason, placedAt: legalHolds.placedAt, onBorrower: sql<boolean>`${legalHolds.companyId} is not null` })
    .from(legalHolds)
    .innerJoin(cases, eq(cases.id, caseId))
    .where(and(isNull(legalHolds.liftedAt), or(eq(legalHolds.caseId, caseId), eq(legalHolds.companyId, cases.companyId))))
    .orderBy(legalHolds.placedAt);
}

/** Cases an admin may pick for a hold: the newest, with their borrower. */
export async function listHoldableCases({ db, limit = 500 }: { db: Executor; limit?: number }) {
  return db
    .select({ id: cases.id, title: cases.title, companyName: companies.name, status: cases.status })
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .orderBy(desc(cases.createdAt))
    .limit(limit);
}

/** Borrowers an admin may pick for a hold: those with at least one case. */
export async function listHoldableCompanies({ db }: { db: Executor }) {
  return db
    .selectDistinct({ id: companies.id, name: companies.name })
    .from(companies)
    .innerJoin(cases, eq(cases.companyId, companies.id))
    .orderBy(companies.name);
}

// ---------------------------------------------------------------- the purge

/** How many rows each kind deletes per transaction: a case takes its runs, steps and events with it. */
export const PURGE_BATCH: Record<RetentionKind, number> = { cases: 20, runs: 50, watch: 500, notifications: 1000, sessions: 1000, audit: 1000 };

export type PurgeKindResult = { months: number; cutoff: string; count: number; batches: number };
export type PurgeResult = { now: string; dryRun: boolean; kinds: Record<RetentionKind, PurgeKindResult> };

/** SQL: a case that may go. Decided, its last decision older than the cutoff, not held, and none of its reports in a study. */
function expiredCase(cutoff: Date): SQL {
  return sql`c.status = 'decided'
    and coalesce((select max(d.created_at) from decisions d where d.case_id = c.id), c.updated_at) < ${cutoff.toISOString()}::timestamptz
    and not ${caseHeld(sql`c.id`)}
    and not exists (select 1 from study_assignments sa join reports r on r.id = sa.report_id join runs ru on ru.id = r.run_id where ru.case_id = c.id)`;
}

/** SQL: a run outside any case (command line, benchmark) that may go. Finished before the cutoff, its borrower not held, its report in no study. */
function expiredRun(cutoff: Date): SQL {
  return sql`r.case_id is null and r.status not in ('queued', 'running')
    and coalesce(r.finished_at, r.created_at) < ${cutoff.toISOString()}::timestamptz
    and not exists (select 1 from legal_holds h where h.lifted_at is null and h.company_id = r.company_id)
    and not exists (select 1 from study_assignments sa join reports rp on rp.id = sa.report_id where rp.run_id = r.id)`;
}

/** SQL: a portfolio watch's alert raised before the cutoff on a borrower not held (its notifications go with it). */
function expiredAlert(cutoff: Date): SQL {
  return sql`wa.created_at < ${cutoff.toISOString()}::timestamptz
    and not exists (select 1 from legal_holds h where h.lifted_at is null and h.company_id = wa.company_id)`;
}

function expiredNotification(cutoff: Date): SQL {
  return sql`n.created_at < ${cutoff.toISOString()}::timestamptz and (n.case_id is null or not ${caseHeld(sql`n.case_id`)})`;
}

/**
 * SQL: the seq of the oldest audit entry the purge must keep (null: none). The log is a chain, so
 * only its oldest entries can go, up to the first one that is not expired or concerns a held case:
 * the case itself, one of its runs, an entry whose detail names it, or its held borrower.
 */
function firstKeptAuditSeq(cutoff: Date, range?: { from: number; to: number }): SQL {
  return sql`with held as (
      select c.id, c.company_id from cases c
      where exists (select 1 from legal_holds h where h.lifted_at is null and (h.case_id = c.id or h.company_id = c.company_id))
    ), held_companies as (
      select company_id from legal_holds where lifted_at is null and company_id is not null
    ), held_runs as (
      select r.id from runs r where r.case_id in (select id from held) or (r.case_id is null and r.company_id in (select company_id from held_companies))
    )
    select min(a.seq)::bigint as seq from audit_log a
    where ${range ? sql`a.seq between ${range.from} and ${range.to} and (` : sql`(`} a.at >= ${cutoff.toISOString()}::timestamptz
      or (a.entity_type = 'case' and a.entity_id in (select id::text from held))
      or (a.entity_type = 'run' and a.entity_id in (select id::text from held_runs))
      or (a.entity_type = 'company' and a.entity_id in (select company_id from held_companies))
      or (a.detail->>'caseId') in (select id::text from held)
      or (a.detail->>'runId') in (select id::text from held_runs))`;
}

async function auditPurgeBound(db: Executor, cutoff: Date): Promise<number> {
  const [kept] = await executeRows<{ seq: string | number | null }>(db, firstKeptAuditSeq(cutoff));
  const [head] = await executeRows<{ seq: string | number | null }>(db, sql`select max(seq)::bigint as seq from audit_log`);
  const headSeq = head?.seq === null || head?.seq === undefined ? 0 : Number(head.seq);
  // Never the newest entry: the next append chains onto it.
  const bound = kept?.seq === null || kept?.seq === undefined ? headSeq : Number(kept.seq);
  return Math.min(bound, headSeq) - 1;
}

async function countExpired(db: Executor, kind: RetentionKind, cutoff: Date): Promise<number> {
  const one = async (query: SQL) => Number((await executeRows<{ n: number | string }>(db, query))[0]?.n ?? 0);
  switch (kind) {
    case 'cases':
      return one(sql`select count(*)::int as n from cases c where ${expiredCase(cutoff)}`);
    case 'runs':
      return one(sql`select count(*)::int as n from runs r where ${expiredRun(cutoff)}`);
    case 'watch':
      return one(sql`select count(*)::int as n from watch_alerts wa where ${expiredAlert(cutoff)}`);
    case 'notifications':
      return one(sql`select count(*)::int as n from notifications n where ${expiredNotification(cutoff)}`);
    case 'sessions':
      return (
        (await one(sql`select count(*)::int as n from user_sessions where expires_at < ${cutoff.toISOString()}::timestamptz`)) +
        (await one(sql`select count(*)::int as n from sign_in_attempts where window_start < ${cutoff.toISOString()}::timestamptz`))
      );
    case 'audit':
      return one(sql`select count(*)::int as n from audit_log where seq <= ${await auditPurgeBound(db, cutoff)}`);
  }
}

/** One batch of one kind in the caller's transaction: what it deleted, and the detail its audit entry records. */
async function deleteBatch(
  tx: Tx,
  kind: RetentionKind,
  cutoff: Date,
  size: number,
  auditHead: number,
): Promise<{ count: number; detail: Record<string, unknown> }> {
  const ids = async (query: SQL) => (await executeRows<{ id: string }>(tx, query)).map((r) => String(r.id));
  switch (kind) {
    case 'cases': {
      // Runs, steps, events, reports, judgments, comments, decisions, acknowledgements, notifications and lifted holds go with the case (ON DELETE CASCADE).
      const gone = await ids(
        sql`delete from cases where id in (select c.id from cases c where ${expiredCase(cutoff)} order by c.id limit ${size}) returning id`,
      );
      return { count: gone.length, detail: { caseIds: gone } };
    }
    case 'runs': {
      const gone = await ids(sql`delete from runs where id in (select r.id from runs r where ${expiredRun(cutoff)} order by r.id limit ${size}) returning id`);
      return { count: gone.length, detail: { runIds: gone } };
    }
    case 'watch': {
      // The inbox notifications about each alert go with it (ON DELETE CASCADE).
      const gone = await ids(
        sql`delete from watch_alerts where id in (select wa.id from watch_alerts wa where ${expiredAlert(cutoff)} order by wa.id limit ${size}) returning id`,
      );
      return { count: gone.length, detail: {} };
    }
    case 'notifications': {
      const gone = await ids(
        sql`delete from notifications where id in (select n.id from notifications n where ${expiredNotification(cutoff)} order by n.id limit ${size}) returning id`,
      );
      return { count: gone.length, detail: {} };
    }
    case 'sessions': {
      const at = cutoff.toISOString();
      const sessions = await ids(
        sql`delete from user_sessions where id in (select id from user_sessions where expires_at < ${at}::timestamptz limit ${size}) returning id`,
      );
      const attempts = await executeRows<{ key: string }>(
        tx,
        sql`delete from sign_in_attempts where (key, window_start) in (select key, window_start from sign_in_attempts where window_start < ${at}::timestamptz limit ${size}) returning key`,
      );
      return { count: sessions.length + attempts.length, detail: { sessions: sessions.length, signInAttempts: attempts.length } };
    }
    case 'audit': {
      const [first] = await executeRows<{ seq: string | number | null }>(tx, sql`select min(seq)::bigint as seq from audit_log`);
      if (first?.seq === null || first?.seq === undefined) return { count: 0, detail: {} };
      // The next `size` seqs at most, and only entries written before this kind's turn (the pass's
      // own entries are the next pass's); up to the first of them that must stay. Only that range
      // is searched, so a batch costs the same however long the log is.
      const from = Number(first.seq);
      const to = Math.min(from + size - 1, auditHead - 1);
      if (to < from) return { count: 0, detail: {} };
      const [kept] = await executeRows<{ seq: string | number | null }>(tx, firstKeptAuditSeq(cutoff, { from, to }));
      const through = kept?.seq === null || kept?.seq === undefined ? to : Number(kept.seq) - 1;
      if (through < from) return { count: 0, detail: {} };
      const purged = await purgeAuditHead({ tx, throughSeq: through });
      return purged ? { count: purged.count, detail: { firstSeq: purged.firstSeq, lastSeq: purged.lastSeq } } : { count: 0, detail: {} };
    }
  }
}

/**
 * Deletes what has expired at `now` (docs/retention.md), kind by kind, each batch in a
 * transaction that also appends its `retention.purge` audit entry. With `dryRun`, only counts.
 * `periods` defaults to the admin's settings.
 */
export async function purgeExpired({
  db,
  now = new Date(),
  dryRun = false,
  periods,
  actorId = null,
  batch = PURGE_BATCH,
}: {
  db: Db;
  now?: Date;
  dryRun?: boolean;
  periods?: RetentionPeriods;
  actorId?: string | null;
  batch?: Partial<Record<RetentionKind, number>>;
}): Promise<PurgeResult> {
  const months = periods ?? (await getRetention({ db }));
  const kinds = {} as Record<RetentionKind, PurgeKindResult>;
  for (const kind of RETENTION_KINDS) {
    const cutoff = retentionCutoff(now, months[kind]);
    const result: PurgeKindResult = { months: months[kind], cutoff: cutoff.toISOString(), count: 0, batches: 0 };
    kinds[kind] = result;
    if (dryRun) {
      result.count = await countExpired(db, kind, cutoff);
      continue;
    }
    const size = batch[kind] ?? PURGE_BATCH[kind];
    const [head] = kind === 'audit' ? await executeRows<{ seq: string | number | null }>(db, sql`select max(seq)::bigint as seq from audit_log`) : [];
    const auditHead = Number(head?.seq ?? 0);
    for (;;) {
      const done = await db.transaction(async (tx) => {
        await lockRetention(tx);
        const { count, detail } = await deleteBatch(tx, kind, cutoff, size, auditHead);
        if (!count) return 0;
        await appendAudit({
          tx,
          actorId,
          action: 'retention.purge',
          entityType: 'retention',
          entityId: kind,
          detail: { kind, count, months: months[kind], cutoff: result.cutoff, now: now.toISOString(), ...detail },
        });
        return count;
      });
      if (!done) break;
      result.count += done;
      result.batches += 1;
    }
  }
  return { now: now.toISOString(), dryRun, kinds };
}
