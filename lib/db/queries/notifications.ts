// A user's inbox (`notifications`): writing items for the people an event concerns, and reading,
// counting and marking one's own. Who hears of what is decided here, next to the queries, so the
// actions and the runner make one call each, inside the event's own transaction where it has one:
//
// - a comment opening a thread → the case's owner (RM) and the committee members who have already
//   written on the case (not every committee user: the whole committee hears of the case once,
//   when it is submitted);
// - a reply → everyone who has written in that thread (its root's author first), and the case's
//   owner and the case's other committee participants as a comment on the case;
// - a submission or resubmission → every active committee user;
// - a decision → the case's owner, as "returned" or "decided";
// - a study opened → each evaluator with reports to rate in it (a draft study's assignments are
//   not visible to evaluators yet, so the assignment is news only when the study opens);
// - a run ending (succeeded, failed, over budget, short of evidence) → the user who started it.
//   A cancelled run is not news: its owner cancelled it.
// - a watch alert (new red flags or adverse filings on a watched borrower) → the entry's RM, and
//   for a decided case the committee members who decided it.
//
// Never the actor themself. Reading and marking go by the signed-in user's id, so nobody reads
// or marks someone else's items.
import 'server-only';
import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '@/lib/db/client';
import { cases, comments, companies, decisions, notifications, runs, studies, studyAssignments, users } from '@/lib/db/schema';
import type { DecisionOutcome, NotificationKind, RunStatus } from '@/lib/domain/vocabulary';

/** The column's bound (a CHECK on char_length). */
export const NOTIFICATION_DETAIL_MAX = 400;

/**
 * A short plain line for `detail`: control characters (line breaks included) become spaces,
 * runs of white space one space, and anything past the bound is cut at a character (not a
 * UTF-16 unit) with an ellipsis. Null for nothing.
 */
export function notificationDetail(text: string | null | undefined, max = NOTIFICATION_DETAIL_MAX): string | null {
  if (!text) return null;
  const plain = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!plain) return null;
  const chars = Array.from(plain);
  return chars.length <= max
    ? plain
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

export type NotificationInput = {
  kind: NotificationKind;
  caseId?: string | null;
  runId?: string | null;
  studyId?: string | null;
  watchAlertId?: string | null;
  detail?: string | null;
};

/** One item for each recipient (each once), never for the actor. Returns how many were written. */
export async function notify({
  db,
  recipients,
  actorId,
  ...item
}: NotificationInput & { db: Executor; recipients: readonly (string | null | undefined)[]; actorId: string | null }): Promise<number> {
  const userIds = [...new Set(recipients.filter((id): id is string => Boolean(id) && id !== actorId))];
  if (!userIds.length) return 0;
  const detail = notificationDetail(item.detail);
  await db.insert(notifications).values(
    userIds.map((userId) => ({
      userId,
      kind: item.kind,
      caseId: item.caseId ?? null,
      runId: item.runId ?? null,
      studyId: item.studyId ?? null,
      watchAlertId: item.watchAlertId ?? null,
      actorId,
      detail,
    })),
  );
  return userIds.length;
}

/** One item as the inbox shows it: what, who, when, about what, and whether it was read. */
export type InboxItem = {
  id: string;
  kind: NotificationKind;
  caseId: string | null;
  runId: string | null;
  studyId: string | null;
  watchAlertId: string | null;
  detail: string | null;
  createdAt: Date;
  readAt: Date | null;
  actorName: string | null;
  caseTitle: string | null;
  companyName: string | null;
  companyNameEn: string | null;
  studyName: string | null;
  /** The run an item is about, so a line tells one run from another: its system, model, language, start. */
  run: { protocol: string; provider: string; model: string; language: string | null; createdAt: Date } | null;
};

export const INBOX_PAGE_SIZE = 30;

/** A user's items, newest first, `limit` per page (page 1 first); `hasMore` when a next page exists. */
export async function listNotifications({
  db,
  userId,
  page = 1,
  limit = INBOX_PAGE_SIZE,
}: {
  db: Executor;
  userId: string;
  page?: number;
  limit?: number;
}): Promise<{ items: InboxItem[]; hasMore: boolean }> {
  const actor = alias(users, 'actor');
  const runCase = alias(cases, 'run_case');
  const offset = (Math.max(1, Math.floor(page)) - 1) * limit;
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      caseId: sql<string | null>`coalesce(${notifications.caseId}, ${runs.caseId})`,
      runId: notifications.runId,
      studyId: notifications.studyId,
      watchAlertId: notifications.watchAlertId,
      detail: notifications.detail,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
      actorName: actor.name,
      caseTitle: sql<string | null>`coalesce(${cases.title}, ${runCase.title})`,
      companyName: companies.name,
      companyNameEn: companies.nameEn,
      studyName: studies.name,
      runProtocol: runs.protocol,
      runProvider: runs.provider,
      runModel: runs.model,
      runLanguage: sql<string | null>`${runs.params}->>'language'`,
      runCreatedAt: runs.createdAt,
    })
    .from(notifications)
    .leftJoin(actor, eq(actor.id, notifications.actorId))
    .leftJoin(cases, eq(cases.id, notifications.caseId))
    .leftJoin(runs, eq(runs.id, notifications.runId))
    .leftJoin(runCase, eq(runCase.id, runs.caseId))
    .leftJoin(companies, eq(companies.id, sql`coalesce(${cases.companyId}, ${runs.companyId})`))
    .leftJoin(studies, eq(studies.id, notifications.studyId))
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1)
    .offset(offset);
  const items = rows.slice(0, limit).map(({ runProtocol, runProvider, runModel, runLanguage, runCreatedAt, ...item }) => ({
    ...item,
    run:
      runProtocol && runProvider && runModel && runCreatedAt
        ? { protocol: runProtocol, provider: runProvider, model: runModel, language: runLanguage, createdAt: runCreatedAt }
        : null,
  }));
  return { items, hasMore: rows.length > limit };
}

export async function countUnreadNotifications({ db, userId }: { db: Executor; userId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks one of the user's own items read; false when it is not theirs, unknown or already read. */
export async function markNotificationRead({ db, userId, id }: { db: Executor; userId: string; id: string }): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** Marks every unread item of the user read; returns how many. */
export async function markAllNotificationsRead({ db, userId }: { db: Executor; userId: string }): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

// --- Producers: who hears of each event -------------------------------------------------------

/** A new comment or reply on a case (see the top of this file for who hears of it). */
export async function notifyCommentAdded({
  db,
  comment,
}: {
  db: Executor;
  comment: { id: string; caseId: string; runId: string | null; parentId: string | null; authorId: string; body: string };
}): Promise<number> {
  const [kase] = await db.select({ ownerId: cases.ownerId }).from(cases).where(eq(cases.id, comment.caseId));
  if (!kase) return 0;
  const committeeOnCase = await db
    .selectDistinct({ id: comments.authorId })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .where(and(eq(comments.caseId, comment.caseId), eq(users.role, 'committee'), eq(users.disabled, false)));
  let threadPeople: string[] = [];
  if (comment.parentId) {
    const inThread = await db
      .selectDistinct({ id: comments.authorId })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(and(or(eq(comments.id, comment.parentId), eq(comments.parentId, comment.parentId)), eq(users.disabled, false)));
    threadPeople = inThread.map((r) => r.id);
  }
  const place = { caseId: comment.caseId, runId: comment.runId, detail: comment.body };
  const replies = await notify({ db, kind: 'reply', recipients: threadPeople, actorId: comment.authorId, ...place });
  const others = [kase.ownerId, ...committeeOnCase.map((r) => r.id)].filter((id) => !threadPeople.includes(id));
  return replies + (await notify({ db, kind: 'comment', recipients: others, actorId: comment.authorId, ...place }));
}

/**
 * A case submitted to the committee: every active committee user. A case with a decision
 * already (a returned one) is `resubmitted`. The RM's cover note, when the case has one, is the
 * detail; call this after the submission is written, in its transaction.
 */
export async function notifyCaseSubmitted({ db, caseId, actorId }: { db: Executor; caseId: string; actorId: string }): Promise<number> {
  const [kase] = await db
    .select({ note: cases.submissionNote, decided: sql<boolean>`exists (select 1 from ${decisions} d where d.case_id = ${cases}.id)` })
    .from(cases)
    .where(eq(cases.id, caseId));
  if (!kase) return 0;
  const committee = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'committee'), eq(users.disabled, false)));
  return notify({ db, kind: kase.decided ? 'resubmitted' : 'submitted', recipients: committee.map((u) => u.id), actorId, caseId, detail: kase.note });
}

/** A decision on a case: its owner hears "returned" or "decided", with the outcome as the detail. */
export async function notifyCaseDecided({
  db,
  caseId,
  actorId,
  outcome,
}: {
  db: Executor;
  caseId: string;
  actorId: string;
  outcome: DecisionOutcome;
}): Promise<number> {
  const [kase] = await db.select({ ownerId: cases.ownerId }).from(cases).where(eq(cases.id, caseId));
  if (!kase) return 0;
  return notify({ db, kind: outcome === 'return' ? 'returned' : 'decided', recipients: [kase.ownerId], actorId, caseId, detail: outcome });
}

/** A study opened: each evaluator with reports in it hears of the assignment. */
export async function notifyStudyOpened({ db, studyId, actorId }: { db: Executor; studyId: string; actorId: string }): Promise<number> {
  const evaluators = await db.selectDistinct({ id: studyAssignments.evaluatorId }).from(studyAssignments).where(eq(studyAssignments.studyId, studyId));
  return notify({ db, kind: 'study_assigned', recipients: evaluators.map((e) => e.id), actorId, studyId });
}

/** The statuses a run's starter hears of; a cancelled run is left out (they cancelled it). */
const RUN_ENDINGS: Partial<Record<RunStatus, NotificationKind>> = {
  succeeded: 'run_finished',
  failed: 'run_failed',
  budget_exceeded: 'run_failed',
  insufficient_evidence: 'run_failed',
  // A finished outcome the case can go to the committee with; the detail says it is a screening.
  red_flag_screening: 'run_finished',
};

/**
 * A run that ended: the user who started it hears of it, with the final status as the detail.
 * Takes the status the engine ended with; anything else (released, cancelled, still running)
 * writes nothing. Only when the run really has that status now, so a run another process took
 * over is not announced twice.
 */
export async function notifyRunEnded({ db, runId, status }: { db: Executor; runId: string; status: string }): Promise<number> {
  const kind = RUN_ENDINGS[status as RunStatus];
  if (!kind) return 0;
  const [run] = await db
    .select({ createdById: runs.createdById, caseId: runs.caseId })
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.status, status as RunStatus)));
  if (!run?.createdById) return 0;
  return notify({ db, kind, recipients: [run.createdById], actorId: null, runId, caseId: run.caseId, detail: status });
}

/**
 * A watch alert: the entry's RM hears of it, and when the case it watches was decided, the
 * committee members who decided it (the case is theirs on record). The detail is a short line of
 * what triggered it; the alert itself holds the items.
 */
export async function notifyWatchAlert({
  db,
  alertId,
  ownerId,
  caseId,
  detail,
}: {
  db: Executor;
  alertId: string;
  ownerId: string;
  caseId: string | null;
  detail: string;
}): Promise<number> {
  let committee: string[] = [];
  if (caseId) {
    const [kase] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, caseId));
    if (kase?.status === 'decided') {
      const deciders = await db
        .selectDistinct({ id: decisions.decidedById })
        .from(decisions)
        .innerJoin(users, eq(users.id, decisions.decidedById))
        .where(and(eq(decisions.caseId, caseId), eq(users.disabled, false)));
      committee = deciders.map((d) => d.id);
    }
  }
  return notify({ db, kind: 'watch_alert', recipients: [ownerId, ...committee], actorId: null, caseId, watchAlertId: alertId, detail });
}
