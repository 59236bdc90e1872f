// The purge with a clock the test sets (docs/retention.md): what has expired goes, what has not
// stays, a held case (or a held borrower's cases) stays with its audit entries until the hold is
// lifted, every purge and hold is audited, and the audit chain verifies after its oldest entries
// are gone, but not once the purge record naming them is tampered with.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { appendAudit, verifyAuditChain } from '@/lib/db/queries/audit';
import { activeHoldsOfCase, getRetention, liftHold, placeHold, purgeExpired, saveRetention } from '@/lib/db/queries/retention';
import {
  auditLog,
  auditPurges,
  cases,
  comments,
  companies,
  decisions,
  notifications,
  reports,
  runEvents,
  runs,
  runSteps,
  signInAttempts,
  userSessions,
  users,
  watchAlerts,
  watchEntries,
} from '@/lib/db/schema';
import { createTestDatabase, setAuditSecretForTests, testBackends } from '@/lib/db/test-db';
import { DEFAULT_RETENTION } from '@/lib/domain/retention';
import type { StepOutput } from '@/lib/domain/outputs';
import type { RunEvent } from '@/lib/domain/protocol';

const SECRET = 'retention-test-secret-of-at-least-32-chars';
const YEAR = 365.25 * 86_400_000;
// The purge's clock: six years from today, so every audit entry the test writes today is past its
// five-year period, and a date given relative to NOW is in or out of its period as the test says.
const NOW = new Date(Math.floor((Date.now() + 6 * YEAR) / 1000) * 1000);
const ago = (years: number) => new Date(NOW.getTime() - years * YEAR);

let restoreSecret: () => void;
beforeAll(() => {
  restoreSecret = setAuditSecretForTests(SECRET);
});
afterAll(() => restoreSecret());

describe.each(testBackends())('retention and legal hold on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let adminId: string;
  const ids: Record<string, string> = {};

  async function decidedCase(name: string, companyId: string, decidedAt: Date, status: 'decided' | 'draft' = 'decided') {
    const [c] = await db
      .insert(cases)
      .values({
        companyId,
        ownerId: adminId,
        title: name,
        loanAmount: '1000',
        loanCurrency: 'KRW',
        loanPurpose: 'working capital',
        loanTenorMonths: 12,
        asOfDate: '2024-01-01',
        status,
        updatedAt: decidedAt,
      })
      .returning({ id: cases.id });
    if (status === 'decided')
      await db.insert(decisions).values({ caseId: c.id, decidedById: adminId, outcome: 'approve', rationale: 'ok', createdAt: decidedAt });
    const runId = await run(c.id, companyId, decidedAt);
    await db.insert(comments).values({ caseId: c.id, runId, authorId: adminId, body: `on ${name}` });
    await db.insert(notifications).values({ userId: adminId, kind: 'comment', caseId: c.id, createdAt: decidedAt });
    ids[name] = c.id;
    ids[`${name}:run`] = runId;
    return c.id;
  }

  async function run(caseId: string | null, companyId: string, finishedAt: Date) {
    const [r] = await db
      .insert(runs)
      .values({ caseId, companyId, protocol: 'nas', provider: 'offline', model: 'offline', status: 'succeeded', finishedAt, createdAt: finishedAt })
      .returning({ id: runs.id });
    await db.insert(runSteps).values({ runId: r.id, stepId: 'D1', ordinal: 1, agent: 'analyst', team: 'neutral', act: 'report', status: 'done' });
    await db.insert(runEvents).values({ runId: r.id, seq: 1, type: 'run', body: { type: 'run' } as unknown as RunEvent });
    await db.insert(reports).values({ runId: r.id, content: {} as StepOutput });
    return r.id;
  }

  const exists = async (table: typeof cases | typeof runs, id: string) => (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length === 1;
  const countOf = async (query: ReturnType<typeof sql>) => Number(((await db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0].n);

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    [{ id: adminId }] = await db.insert(users).values({ email: 'admin@example.test', name: 'Admin', role: 'admin' }).returning({ id: users.id });
    await db.insert(companies).values([
      { id: 'alpha', name: 'Alpha', country: 'KR' },
      { id: 'beta', name: 'Beta', country: 'KR' },
    ]);
    // Audit entries about the first case, written before anything about the held ones.
    const old = await decidedCase('expired', 'alpha', ago(5.5));
    for (const action of ['case.create', 'case.submit', 'case.decide'])
      await db.transaction((tx) => appendAudit({ tx, actorId: adminId, action, entityType: 'case', entityId: old }));
    await decidedCase('held', 'alpha', ago(5.5));
    await decidedCase('borrowerHeld', 'beta', ago(5.5));
    await decidedCase('recent', 'alpha', ago(1));
    await decidedCase('draft', 'alpha', ago(8), 'draft');
    ids.oldCliRun = await run(null, 'alpha', ago(7));
    ids.newCliRun = await run(null, 'alpha', ago(2));
    ids.heldBorrowerCliRun = await run(null, 'beta', ago(7));
    await db.insert(notifications).values({ userId: adminId, kind: 'comment', createdAt: ago(6) });
    // Watch alerts: an old one with its inbox notification, a recent one, and an old one on the held borrower.
    const watched = await db
      .insert(watchEntries)
      .values(['alpha', 'beta'].map((companyId) => ({ ownerId: adminId, companyId, frequency: 'daily' as const, nextCheckAt: NOW })))
      .returning({ id: watchEntries.id, companyId: watchEntries.companyId });
    const entryOf = (companyId: string) => watched.find((w) => w.companyId === companyId)!.id;
    const alerts = await db
      .insert(watchAlerts)
      .values([
        { entryId: entryOf('alpha'), companyId: 'alpha', createdAt: ago(6) },
        { entryId: entryOf('alpha'), companyId: 'alpha', createdAt: ago(1) },
        { entryId: entryOf('beta'), companyId: 'beta', createdAt: ago(6) },
      ])
      .returning({ id: watchAlerts.id });
    [ids.oldAlert, ids.newAlert, ids.heldAlert] = alerts.map((a) => a.id);
    await db.insert(notifications).values({ userId: adminId, kind: 'watch_alert', watchAlertId: ids.oldAlert, createdAt: ago(6) });
    await db.insert(userSessions).values([
      { userId: adminId, expiresAt: ago(5.2) },
      { userId: adminId, expiresAt: ago(0.1) },
    ]);
    await db.insert(signInAttempts).values({ key: 'ip:203.0.113.9', windowStart: ago(6), attempts: 3 });
    await db.transaction((tx) => appendAudit({ tx, actorId: adminId, action: 'case.decide', entityType: 'case', entityId: ids.held }));
  });
  afterAll(() => handle?.close());

  it('uses five years for every kind until an admin sets another period, and audits the change', async () => {
    expect(await getRetention({ db })).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION.cases).toBe(60);
    const saved = await saveRetention({ db, actorId: adminId, periods: { ...DEFAULT_RETENTION, notifications: 12, audit: 0 } });
    // An out-of-range period falls back to the default rather than purging sooner.
    expect(saved).toEqual({ ...DEFAULT_RETENTION, notifications: 12 });
    expect(await getRetention({ db })).toEqual({ ...DEFAULT_RETENTION, notifications: 12 });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'retention.settings'));
    expect(entry.detail).toMatchObject({ before: { notifications: 60 }, after: { notifications: 12 } });
    await saveRetention({ db, actorId: adminId, periods: DEFAULT_RETENTION });
  });

  it('places holds on a case and on a borrower, audited, one active hold per target', async () => {
    const hold = await placeHold({ db, actorId: adminId, target: { caseId: ids.held }, reason: 'Litigation 2026-17' });
    await placeHold({ db, actorId: adminId, target: { companyId: 'beta' }, reason: 'FSS examination' });
    ids.caseHold = hold.id;
    await expect(placeHold({ db, actorId: adminId, target: { caseId: ids.held }, reason: 'again' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(placeHold({ db, actorId: adminId, target: { caseId: '00000000-0000-4000-8000-000000000000' }, reason: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await activeHoldsOfCase({ db, caseId: ids.held })).map((h) => h.reason)).toEqual(['Litigation 2026-17']);
    expect(await activeHoldsOfCase({ db, caseId: ids.borrowerHeld })).toMatchObject([{ reason: 'FSS examination', onBorrower: true }]);
    expect(await activeHoldsOfCase({ db, caseId: ids.recent })).toEqual([]);
    const placed = await db.select().from(auditLog).where(eq(auditLog.action, 'hold.place')).orderBy(asc(auditLog.seq));
    expect(placed.map((e) => [e.entityType, e.entityId])).toEqual([
      ['case', ids.held],
      ['company', 'beta'],
    ]);
  });

  it('a dry run counts what has expired and deletes nothing', async () => {
    const before = await countOf(sql`select count(*)::int as n from audit_log`);
    const result = await purgeExpired({ db, now: NOW, dryRun: true });
    expect(result.kinds.cases.count).toBe(1);
    expect(result.kinds.runs.count).toBe(1);
    expect(result.kinds.watch.count).toBe(1);
    // The unattached one, the draft's, the expired case's and the old alert's (which the real pass
    // deletes with their case and alert); the held case's stays.
    expect(result.kinds.notifications.count).toBe(4);
    expect(result.kinds.sessions.count).toBe(2);
    // The three entries about the expired case come before the first about the held case.
    expect(result.kinds.audit.count).toBe(3);
    expect(await exists(cases, ids.expired)).toBe(true);
    expect(await countOf(sql`select count(*)::int as n from audit_log`)).toBe(before);
  });

  it('deletes what has expired, keeps what has not and what a hold keeps, and audits each batch', async () => {
    const result = await purgeExpired({ db, now: NOW, batch: { audit: 2 } });
    expect(result.kinds.cases).toMatchObject({ count: 1, months: 60 });
    expect(result.kinds.cases.cutoff).toBe(
      new Date(
        Date.UTC(NOW.getUTCFullYear() - 5, NOW.getUTCMonth(), NOW.getUTCDate(), NOW.getUTCHours(), NOW.getUTCMinutes(), NOW.getUTCSeconds()),
      ).toISOString(),
    );
    // The expired case with its run, steps, events, report, comments, decision and notification.
    expect(await exists(cases, ids.expired)).toBe(false);
    expect(await exists(runs, ids['expired:run'])).toBe(false);
    expect(await countOf(sql`select count(*)::int as n from run_steps where run_id = ${ids['expired:run']}`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from run_events where run_id = ${ids['expired:run']}`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from reports where run_id = ${ids['expired:run']}`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from decisions where case_id = ${ids.expired}`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from comments where case_id = ${ids.expired}`)).toBe(0);
    // Kept: held, held through the borrower, decided within the period, not decided.
    for (const name of ['held', 'borrowerHeld', 'recent', 'draft']) expect(await exists(cases, ids[name]), name).toBe(true);
    expect(await countOf(sql`select count(*)::int as n from run_steps where run_id = ${ids['held:run']}`)).toBe(1);
    expect(await exists(runs, ids.oldCliRun)).toBe(false);
    expect(await exists(runs, ids.newCliRun)).toBe(true);
    expect(await exists(runs, ids.heldBorrowerCliRun)).toBe(true);
    // The old alert and its notification; the recent one and the held borrower's stay.
    expect(result.kinds.watch.count).toBe(1);
    const alertsLeft = await db.select({ id: watchAlerts.id }).from(watchAlerts);
    expect(alertsLeft.map((a) => a.id).sort()).toEqual([ids.newAlert, ids.heldAlert].sort());
    expect(await countOf(sql`select count(*)::int as n from notifications where watch_alert_id is not null`)).toBe(0);
    expect(result.kinds.notifications.count).toBe(2);
    expect(await countOf(sql`select count(*)::int as n from notifications where case_id is null`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from notifications where case_id = ${ids.draft}`)).toBe(0);
    expect(await countOf(sql`select count(*)::int as n from notifications where case_id = ${ids.recent}`)).toBe(1);
    expect(await countOf(sql`select count(*)::int as n from notifications where case_id = ${ids.held}`)).toBe(1);
    expect(await countOf(sql`select count(*)::int as n from user_sessions`)).toBe(1);
    expect(await countOf(sql`select count(*)::int as n from sign_in_attempts`)).toBe(0);

    // The audit log lost its oldest entries, up to the first about the held case, in batches of two.
    expect(result.kinds.audit).toMatchObject({ count: 3, batches: 2 });
    const [first] = await db.select().from(auditLog).orderBy(asc(auditLog.seq)).limit(1);
    expect(first).toMatchObject({ action: 'case.decide', entityId: ids.held });
    const purges = await db.select().from(auditPurges).orderBy(asc(auditPurges.id));
    expect(purges.map((p) => p.count)).toEqual([2, 1]);
    expect(purges[1].lastSeq).toBe(first.seq - 1);
    // Each batch said what it deleted.
    const entries = await db.select().from(auditLog).where(eq(auditLog.action, 'retention.purge')).orderBy(asc(auditLog.seq));
    expect(entries.map((e) => [e.entityId, e.detail.count])).toEqual([
      ['cases', 1],
      ['runs', 1],
      ['watch', 1],
      ['notifications', 2],
      ['sessions', 2],
      ['audit', 2],
      ['audit', 1],
    ]);
    expect(entries[0].detail.caseIds).toEqual([ids.expired]);

    const verified = await verifyAuditChain({ db });
    expect(verified).toMatchObject({ ok: true, purged: { count: 3, throughSeq: purges[1].lastSeq } });

    // A second pass at the same time finds nothing more and writes nothing.
    const again = await purgeExpired({ db, now: NOW });
    expect(Object.values(again.kinds).map((k) => k.count)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('lifting the holds makes the cases and their audit entries purgeable, and the chain still verifies', async () => {
    await liftHold({ db, actorId: adminId, holdId: ids.caseHold, reason: 'Case settled' });
    await expect(liftHold({ db, actorId: adminId, holdId: ids.caseHold })).rejects.toMatchObject({ code: 'conflict' });
    const [borrowerHold] = (await activeHoldsOfCase({ db, caseId: ids.borrowerHeld })).map((h) => h.id);
    await liftHold({ db, actorId: adminId, holdId: borrowerHold });
    const lifts = await db.select().from(auditLog).where(eq(auditLog.action, 'hold.lift'));
    expect(lifts.map((e) => e.entityId)).toEqual([ids.held, 'beta']);

    const result = await purgeExpired({ db, now: NOW });
    expect(result.kinds.cases.count).toBe(2);
    expect(result.kinds.runs.count).toBe(1);
    expect(await exists(cases, ids.held)).toBe(false);
    expect(await exists(cases, ids.borrowerHeld)).toBe(false);
    expect(await exists(cases, ids.recent)).toBe(true);
    expect(await exists(runs, ids.heldBorrowerCliRun)).toBe(false);
    expect(result.kinds.watch.count).toBe(1);
    expect((await db.select({ id: watchAlerts.id }).from(watchAlerts)).map((a) => a.id)).toEqual([ids.newAlert]);
    // Every entry written today is past its period at NOW: all go but the newest when the audit
    // kind's turn came (the next entry chains onto it), and the entry recording this purge.
    const left = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(left.map((e) => e.detail.kind)).toEqual(['watch', 'audit']);
    const verified = await verifyAuditChain({ db });
    expect(verified.ok).toBe(true);
    // And an entry appended after the purge chains on as before.
    await db.transaction((tx) => appendAudit({ tx, actorId: adminId, action: 'case.view', entityType: 'case', entityId: ids.recent }));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: true, checked: 3 });
  });

  it('the database still refuses to delete an entry no purge record covers', async () => {
    const [head] = await db
      .select({ seq: auditLog.seq })
      .from(auditLog)
      .orderBy(sql`${auditLog.seq} desc`)
      .limit(1);
    await expect(db.execute(sql`delete from audit_log where seq = ${head.seq}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_purges`)).rejects.toThrow();
    await expect(db.execute(sql`update audit_log set action = 'x' where seq = ${head.seq}`)).rejects.toThrow();
  });

  it('a purge record edited, forged or removed breaks verification', async () => {
    const asAttacker = async (...tamper: string[]) => {
      await db.transaction(async (tx) => {
        for (const table of ['audit_log', 'audit_checkpoints', 'audit_purges']) await tx.execute(sql.raw(`alter table ${table} disable trigger user`));
        for (const statement of tamper) await tx.execute(sql.raw(statement));
        for (const table of ['audit_log', 'audit_checkpoints', 'audit_purges']) await tx.execute(sql.raw(`alter table ${table} enable trigger user`));
      });
    };
    const [newest] = await db
      .select()
      .from(auditPurges)
      .orderBy(sql`${auditPurges.id} desc`)
      .limit(1);
    // Claiming fewer entries were purged than were.
    await asAttacker(`update audit_purges set count = count - 1 where id = ${newest.id}`);
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, reason: 'checkpoint', brokenAt: newest.lastSeq });
    await asAttacker(`update audit_purges set count = ${newest.count} where id = ${newest.id}`);
    expect((await verifyAuditChain({ db })).ok).toBe(true);

    // Deleting one more entry under a forged record that covers it.
    const [oldest] = await db.select().from(auditLog).orderBy(asc(auditLog.seq)).limit(1);
    await asAttacker(
      `insert into audit_purges (first_seq, last_seq, count, last_hash, mac) values (${oldest.seq}, ${oldest.seq}, 1, '${oldest.hash}', '${'0'.repeat(64)}')`,
      `delete from audit_log where seq = ${oldest.seq}`,
      `delete from audit_checkpoints where seq = ${oldest.seq}`,
    );
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, reason: 'checkpoint', brokenAt: oldest.seq });

    // Removing the purge records: the first kept entry no longer links to anything.
    await asAttacker('delete from audit_purges');
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, reason: 'link' });
  });
});
