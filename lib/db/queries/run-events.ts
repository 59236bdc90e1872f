import 'server-only';
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { runEvents, runs } from '@/lib/db/schema';
import type { RunEvent } from '@/lib/domain/protocol';

// The rows of a run's event log (lib/debate/event-log.ts says what the log is for).

/** NOTIFY channel: the payload is a run id whose log has grown (PostgreSQL; lib/debate/log-tail.ts listens). */
export const RUN_LOG_CHANNEL = 'crosscheck_run_log';

export type LoggedEvent = { seq: number; event: RunEvent };

/** Events kept once per step, the latest replacing the one before. */
export const KEPT_ONCE: ReadonlySet<RunEvent['type']> = new Set(['step-partial', 'step-usage']);

const stepOf = (event: RunEvent): string | null => ('stepId' in event ? event.stepId : null);

/**
 * Records one event in the transaction `tx` (with the state change it reports, where there is
 * one) and returns its number; null when the run is gone. Readers are told once `tx` commits:
 * other processes by NOTIFY, this one by lib/debate/event-log.ts after the commit.
 */
export async function recordIn(tx: Tx, event: RunEvent): Promise<number | null> {
  return (await recordAllIn(tx, [event]))[0];
}

/**
 * Records events in the transaction `tx`, in the order given, as one `recordIn` each would, in two
 * statements a run: the numbers, then the rows they make obsolete deleted, theirs inserted and
 * the NOTIFY. An event the batch itself makes obsolete (a partial answer followed by a newer
 * one of its step, or by its wait) is not written at all: its row would go in the same commit.
 * Returns each event's number; null for one not written (made obsolete, or its run is gone).
 */
export async function recordAllIn(tx: Tx, events: readonly RunEvent[]): Promise<(number | null)[]> {
  const numbers: (number | null)[] = events.map(() => null);
  const byRun = new Map<string, number[]>();
  events.forEach((e, i) => {
    const list = byRun.get(e.runId);
    if (list) list.push(i);
    else byRun.set(e.runId, [i]);
  });
  for (const [runId, indexes] of byRun) {
    // What the batch leaves: each event drops the earlier ones it makes obsolete, in the batch and
    // (by the delete below, before any insert) in the table.
    let kept: number[] = [];
    const drops: { types: RunEvent['type'][]; stepId: string | null }[] = [];
    for (const i of indexes) {
      const event = events[i];
      const types = supersededBy(event);
      if (types.length) {
        const stepId = stepOf(event);
        drops.push({ types, stepId });
        kept = kept.filter((k) => !(types.includes(events[k].type) && (stepId === null || stepOf(events[k]) === stepId)));
      }
      kept.push(i);
    }
    // The number first, under the run row's lock; then, in one statement that reads the table as
    // committed once the lock is held, the rows made obsolete go and the new ones come in.
    const [row] = await tx
      .update(runs)
      .set({ eventSeq: sql`${runs.eventSeq} + ${kept.length}` })
      .where(eq(runs.id, runId))
      .returning({ seq: runs.eventSeq });
    if (!row) continue;
    const first = row.seq - kept.length + 1;
    kept.forEach((i, n) => (numbers[i] = first + n));
    const list = (types: RunEvent['type'][]) =>
      sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      );
    const obsolete = drops.length
      ? sql.join(
          drops.map(({ types, stepId }) => (stepId === null ? sql`type in (${list(types)})` : sql`(type in (${list(types)}) and step_id = ${stepId})`)),
          sql` or `,
        )
      : sql`false`;
    const bodies = JSON.stringify(kept.map((i) => events[i]));
    await tx.execute(sql`
      with dropped as (
        delete from run_events where run_id = ${runId} and (${obsolete})
      ), added as (
        insert into run_events (run_id, seq, type, step_id, body)
        select ${runId}, ${first - 1} + e.n::int, e.v->>'type', e.v->>'stepId', e.v
        from jsonb_array_elements(${bodies}::jsonb) with ordinality as e(v, n)
      )
      select pg_notify(${RUN_LOG_CHANNEL}, ${runId})`);
  }
  return numbers;
}

/** The kept-once events this one makes obsolete: of its step, or of the whole run for the run's own events. */
function supersededBy(event: RunEvent): RunEvent['type'][] {
  if (KEPT_ONCE.has(event.type)) return [event.type];
  switch (event.type) {
    // A new attempt and a wait write the answer anew; the spend of the attempts before stays.
    case 'step-started':
    case 'step-waiting':
      return ['step-partial'];
    // An ended step's last answer so far stays until the run ends, so a viewer who reads behind
    // still sees the prose stream to its end before the step's own text replaces it.
    case 'step-done':
    case 'step-failed':
      return ['step-usage'];
    case 'run-started':
    case 'run-finished':
      return ['step-partial', 'step-usage'];
    default:
      return [];
  }
}

/** The run's events numbered after `after`, in order (at most `limit`). */
export async function eventsAfter(db: Executor, runId: string, after: number, limit = 1_000): Promise<LoggedEvent[]> {
  const rows = await db
    .select({ seq: runEvents.seq, body: runEvents.body })
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, after)))
    .orderBy(asc(runEvents.seq))
    .limit(limit);
  return rows.map((r) => ({ seq: r.seq, event: r.body }));
}

/** The number of the run's latest event; null when the run is gone. */
export async function runEventSeq(db: Executor, runId: string): Promise<number | null> {
  const [run] = await db.select({ seq: runs.eventSeq }).from(runs).where(eq(runs.id, runId));
  return run ? run.seq : null;
}

/** The events that say how a running step stands beyond what the database's view of it holds. */
export const LIVE_TYPES: readonly RunEvent['type'][] = ['step-started', 'step-waiting', 'step-partial', 'step-usage'];

/**
 * The live part of the run's log: its current execution's (from its latest run-started on)
 * step starts, waits, answers and spend so far numbered up to `upTo`, in order. Not the steps'
 * ends, whose saved text the database's view of the run holds.
 */
export async function liveEvents(db: Executor, runId: string, upTo: number): Promise<RunEvent[]> {
  const start = db
    .select({ seq: sql<number>`coalesce(max(${runEvents.seq}), 0)` })
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), eq(runEvents.type, 'run-started')));
  const rows = await db
    .select({ body: runEvents.body })
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, sql`(${start})`), lte(runEvents.seq, upTo), inArray(runEvents.type, [...LIVE_TYPES])))
    .orderBy(asc(runEvents.seq));
  return rows.map((r) => r.body);
}
