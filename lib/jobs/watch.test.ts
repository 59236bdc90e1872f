// The portfolio watch on recorded OpenDART responses and a controlled clock (lib/jobs/watch.ts):
// the first check of a watched borrower is its baseline; a rehabilitation filing in the next
// response raises one red-flag alert in the RM's inbox within one pass, with the filing as its
// evidence and the day it was seen on the timeline; a pass with nothing new, or over entries not
// due, does nothing; two passes at once alert once; an entry set to re-screen starts a run as of
// the pass's day whose red flags include the new filing; the committee that decided a watched
// case hears of its alerts. The constructed responses are in data/fixtures/opendart/constructed.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, cases, decisions, filingSightings, notifications, runs, users, watchAlerts, watchEntries } from '@/lib/db/schema';
import { listAlertItems, listSightings, upsertWatchEntry } from '@/lib/db/queries/watch';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { resetEnvForTests } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { untilRunEnds, workOn } from '@/lib/jobs/test-wait';
import { judgeNewItems, rescreenFromAlert, watchPass, watchProblemOf } from '@/lib/jobs/watch';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { DartError } from '@/lib/pool/connectors/dart';
import { EdgarError, type EdgarErrorStatus } from '@/lib/pool/connectors/edgar';
import { startFixtureServer, type FixtureServer } from '@/lib/pool/connectors/fixture-server';

const KEY = 'test-dart-key-0123456789';
const TAEYOUNG = 'taeyoung-engineering-construction';
const REHAB_ID = 'dart-20260309000481-ctrcvsBgrq';
const DEFAULT_ID = 'dart-20260316000207-dfOcr';
// The recorded bnkMngtPcbg.json is Taeyoung's real creditor-bank workout (2025-02-17): it stays
// served, so every baseline holds a red flag that is old news and must not alert.
const WORKOUT_ID = 'dart-20250217001661-bnkMngtPcbg';
const DISTRESS = ['dfOcr', 'ctrcvsBgrq', 'bnkMngtPcsp', 'bsnSp', 'lwstLg'];
const DAY = 24 * 3600 * 1000;
const T0 = new Date('2026-03-02T06:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

describe('what is worth an alert among new items', () => {
  const item = (id: string, polarity: string | null, title = `Item ${id}`, category = 'news') => ({
    id,
    category,
    title,
    text: '',
    eventDate: null,
    publishedDate: '2026-03-01',
    polarity,
  });
  const adverse = ['a', 'b', 'c'].map((id) => item(id, 'adverse'));

  it('raises nothing below the adverse threshold without a red flag', () => {
    expect(judgeNewItems([...adverse.slice(0, 2), item('f', 'favorable')], 3)).toBeNull();
  });

  it('raises the threshold of new adverse items, naming each', () => {
    expect(judgeNewItems([...adverse, item('f', 'favorable')], 3)).toEqual({ redFlags: [], evidenceIds: ['a', 'b', 'c'], adverseCount: 3 });
  });

  it('raises any red flag, with the flagged item first, and counts the adverse items under the threshold without listing them', () => {
    const rehab = item('r', 'adverse', '회생절차 개시신청', 'distress_rehabilitation');
    expect(judgeNewItems([adverse[0], rehab], 5)).toEqual({
      redFlags: [{ kind: 'court_rehabilitation', evidenceId: 'r', date: '2026-03-01', title: '회생절차 개시신청' }],
      evidenceIds: ['r'],
      adverseCount: 2,
    });
  });
});

describe.each(testBackends())('the portfolio watch on %s', (backend) => {
  let handle: DatabaseHandle;
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  let db: Db;
  let server: FixtureServer;
  let rmId: string;
  let otherRmId: string;
  let committeeId: string;
  const offline = createOfflineAnalyst();
  const saved = { ...process.env };

  /** The distress endpoints answer "no data" unless a test serves a constructed filing. */
  function quiet() {
    server.reset();
    for (const endpoint of DISTRESS) server.serve(`/api/${endpoint}.json`, { file: 'opendart/constructed/no_data.json' });
  }

  const watchAlertsOf = (userId: string) =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'watch_alert')));

  beforeAll(async () => {
    server = await startFixtureServer({ dartKey: KEY });
    Object.assign(process.env, {
      OPENDART_API_KEY: KEY,
      OPENDART_BASE_URL: server.dartBaseUrl,
      AUDIT_SECRET: 'watch-test-audit-secret-0123456789abcdef',
    });
    delete process.env.SEC_USER_AGENT;
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: rmId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'rm'));
    [{ id: committeeId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'committee'));
    [{ id: otherRmId }] = await db.insert(users).values({ email: 'other-rm@example.org', name: 'Other RM', role: 'rm' }).returning({ id: users.id });
    work = await workOn(db);
  }, 120_000);
  afterAll(async () => {
    await work?.stop();
    process.env = { ...saved };
    resetEnvForTests();
    await server?.close();
    await handle?.close();
  });
  beforeEach(quiet);

  it('a rehabilitation filing in the next response raises one red-flag alert within one pass; nothing new does nothing', async () => {
    await upsertWatchEntry({
      db,
      ownerId: rmId,
      companyId: TAEYOUNG,
      settings: { frequency: 'daily', autoRescreen: false, adverseThreshold: 3, caseId: DEMO_IDS.thinCase },
      now: T0,
    });

    // First check: the baseline. What the sources hold is recorded, nobody is alerted, though it
    // holds a red flag (the workout).
    const [baseline] = await watchPass({ db, now: T0 });
    expect((await listSightings({ db, companyId: TAEYOUNG })).map((s) => s.evidenceId)).toContain(WORKOUT_ID);
    expect(baseline).toMatchObject({ companyId: TAEYOUNG, baseline: true, alertId: null, error: null });
    expect(baseline.fresh).toBe(baseline.seen);
    expect(baseline.seen).toBeGreaterThan(0);
    expect(await watchAlertsOf(rmId)).toEqual([]);

    // Not due again until a day later.
    expect(await watchPass({ db, now: at(0.5) })).toEqual([]);

    // The next response holds the rehabilitation filing.
    server.serve('/api/ctrcvsBgrq.json', { file: 'opendart/constructed/ctrcvsBgrq_taeyoung_2026.json' });
    const [check] = await watchPass({ db, now: at(8) });
    expect(check).toMatchObject({ baseline: false, fresh: 1, error: null });
    expect(check.alertId).toBeTruthy();
    const [alert] = await db.select().from(watchAlerts).where(eq(watchAlerts.id, check.alertId!));
    expect(alert.redFlags).toEqual([{ kind: 'court_rehabilitation', evidenceId: REHAB_ID, date: '2026-03-09', title: expect.stringContaining('회생절차') }]);
    expect(alert.evidenceIds).toEqual([REHAB_ID]);
    expect(alert.createdAt.toISOString()).toBe(at(8).toISOString());

    // In the RM's inbox, pointing at the alert and its case; the committee hears nothing of a draft.
    const inbox = await watchAlertsOf(rmId);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ watchAlertId: alert.id, caseId: DEMO_IDS.thinCase, actorId: null, readAt: null });
    expect(inbox[0].detail).toMatch(/^court rehabilitation: /);
    expect(await watchAlertsOf(committeeId)).toEqual([]);
    const items = (await listAlertItems({ db, alertIds: [alert.id] })).get(alert.id)!.items;
    expect(items.map((i) => [i.id, i.publishedDate, i.sourceUrl])).toEqual([
      [REHAB_ID, '2026-03-09', 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20260309000481'],
    ]);

    // The timeline: the filing seen at the pass's time; the baseline's filings at the first check.
    const timeline = await listSightings({ db, companyId: TAEYOUNG });
    expect(timeline[0]).toMatchObject({ evidenceId: REHAB_ID, source: 'dart', publishedDate: '2026-03-09' });
    expect(timeline[0].seenAt.toISOString()).toBe(at(8).toISOString());
    expect(timeline.slice(1).every((s) => s.seenAt.toISOString() === T0.toISOString())).toBe(true);

    // The next pass, a day on, finds the same filings: nothing new, no alert.
    const [again] = await watchPass({ db, now: at(9.01) });
    expect(again).toMatchObject({ baseline: false, fresh: 0, alertId: null });
    expect(await watchAlertsOf(rmId)).toHaveLength(1);
    expect(await db.$count(watchAlerts)).toBe(1);
  });

  it('skips entries that are not due: a weekly entry is checked a week after its last check', async () => {
    await upsertWatchEntry({
      db,
      ownerId: otherRmId,
      companyId: TAEYOUNG,
      settings: { frequency: 'weekly', autoRescreen: false, adverseThreshold: 3, caseId: null },
      now: at(10),
    });
    const first = await watchPass({ db, now: at(10) });
    // Only the new weekly entry was due (the daily one was checked at day 9).
    expect(first.map((c) => [c.entryId, c.baseline])).toEqual([[expect.any(String), true]]);
    const weeklyId = first[0].entryId;
    const daily = await watchPass({ db, now: at(10.5) });
    expect(daily.map((c) => c.entryId)).not.toContain(weeklyId);
    expect(daily).toHaveLength(1);
    expect(await watchPass({ db, now: at(16.9) }).then((cs) => cs.map((c) => c.entryId))).not.toContain(weeklyId);
    expect(await watchPass({ db, now: at(17.1) }).then((cs) => cs.map((c) => c.entryId))).toContain(weeklyId);
    const [weekly] = await db.select().from(watchEntries).where(eq(watchEntries.id, weeklyId));
    expect(weekly.nextCheckAt.toISOString()).toBe(at(24.1).toISOString());
  });

  it('two passes at once alert once: each due entry is claimed by one of them', async () => {
    server.serve('/api/ctrcvsBgrq.json', { file: 'opendart/constructed/ctrcvsBgrq_taeyoung_2026.json' });
    server.serve('/api/dfOcr.json', { file: 'opendart/constructed/dfOcr_taeyoung_2026.json' });
    const before = await db.$count(watchAlerts);
    const [a, b] = await Promise.all([watchPass({ db, now: at(30), provider: offline }), watchPass({ db, now: at(30), provider: offline })]);
    const checks = [...a, ...b];
    // Both entries were due; each was checked exactly once.
    expect(checks.map((c) => c.entryId).sort()).toEqual([...new Set(checks.map((c) => c.entryId))].sort());
    expect(checks).toHaveLength(2);
    // The daily entry sees only the default notice as new; the weekly one (baseline at day 10,
    // before the rehabilitation filing appeared to it) sees both.
    expect(checks.every((c) => c.alertId)).toBe(true);
    expect(await db.$count(watchAlerts)).toBe(before + 2);
    expect(await watchAlertsOf(rmId)).toHaveLength(2);
    expect(await watchAlertsOf(otherRmId)).toHaveLength(1);
  });

  it('an entry set to re-screen starts a run as of the pass day, whose red flags include the new filing', async () => {
    // The watched case is decided: its committee hears of the alert too.
    await db.update(cases).set({ status: 'decided' }).where(eq(cases.id, DEMO_IDS.thinCase));
    await db.insert(decisions).values({ caseId: DEMO_IDS.thinCase, decidedById: committeeId, outcome: 'approve', rationale: 'Approved before the filing.' });
    await db.update(watchEntries).set({ autoRescreen: true }).where(eq(watchEntries.ownerId, rmId));
    // A constructed lawsuit filing (made up here, like the files in data/fixtures/opendart/constructed):
    // a creditor's bankruptcy petition, in the shape of the recorded lwstLg.json.
    const lawsuit = {
      json: {
        status: '000',
        message: '정상',
        list: [
          {
            rcept_no: '20260402000111',
            corp_cls: 'Y',
            corp_code: '00153861',
            corp_name: '태영건설',
            icnm: '파산 신청',
            ac_ap: '주식회사 한빛자재',
            rq_cn: '채무자 회사에 대한 파산 선고 신청',
            cpct: '서울회생법원',
            ft_ctp: '법적 절차에 따라 대응할 예정',
            lgd: '2026년 04월 01일',
            cfd: '2026년 04월 02일',
          },
        ],
      },
    };
    server.serve('/api/lwstLg.json', lawsuit);
    const checks = await watchPass({ db, now: at(40), provider: offline });
    const mine = checks.find((c) => c.alertId && c.rescreenRunId);
    expect(mine).toBeDefined();
    const [run] = await db.select().from(runs).where(eq(runs.id, mine!.rescreenRunId!));
    expect(run.params.asOf).toBe('2026-04-11');
    expect(run.createdById).toBe(rmId);
    const [kase] = await db.select().from(cases).where(eq(cases.id, run.caseId!));
    expect(kase).toMatchObject({
      companyId: TAEYOUNG,
      ownerId: rmId,
      asOfDate: '2026-04-11',
      title: 'Taeyoung E&C — thin record with a red flag (one workout filing: ends as a red-flag screening) — re-screen 2026-04-11',
    });
    await untilRunEnds(db, run.id);
    const [done] = await db.select().from(runs).where(eq(runs.id, run.id));
    const kinds = (done.redFlags ?? []).map((f) => [f.kind, f.evidenceId]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['court_rehabilitation', REHAB_ID],
        ['payment_default', DEFAULT_ID],
      ]),
    );
    // The decided case's committee member heard of it; the re-screen is audited as automatic.
    expect((await watchAlertsOf(committeeId)).map((n) => n.watchAlertId)).toEqual([mine!.alertId]);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'watch.rescreen'), eq(auditLog.entityId, kase.id)));
    expect(audit).toMatchObject({ actorId: rmId, entityType: 'case' });
    expect(audit.detail).toEqual({ alertId: mine!.alertId, fromCaseId: DEMO_IDS.thinCase, asOf: '2026-04-11', automatic: true });
  });

  it('a re-screen by hand is refused for an alert of someone else, and writes nothing', async () => {
    const [alert] = await db
      .select()
      .from(watchAlerts)
      .innerJoin(watchEntries, eq(watchEntries.id, watchAlerts.entryId))
      .where(eq(watchEntries.ownerId, rmId))
      .limit(1);
    const casesBefore = await db.$count(cases);
    const err = await rescreenFromAlert({ db, alertId: alert.watch_alerts.id, actorId: otherRmId, provider: offline }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'not_found' });
    expect(await db.$count(cases)).toBe(casesBefore);
    expect(await db.$count(filingSightings)).toBeGreaterThan(0);
  });

  it('a source that fails is kept as a problem the panel can word in any language, beside its own English, until a check reads it again', async () => {
    const [{ id: thirdRm }] = await db.insert(users).values({ email: 'third-rm@example.org', name: 'Third RM', role: 'rm' }).returning({ id: users.id });
    const entry = await upsertWatchEntry({
      db,
      ownerId: thirdRm,
      companyId: TAEYOUNG,
      settings: { frequency: 'daily', autoRescreen: false, adverseThreshold: 3, caseId: null },
      now: at(60),
    });
    const stored = async () =>
      (await db.select({ error: watchEntries.lastError, problems: watchEntries.lastProblems }).from(watchEntries).where(eq(watchEntries.id, entry.id)))[0];

    server.fail('.json', { dartStatus: '010' }, 100);
    const check = (await watchPass({ db, now: at(60) })).find((c) => c.entryId === entry.id)!;
    expect(check.error).toMatch(/^OpenDART rejected the API key \(010: unregistered key\)/);
    expect(await stored()).toEqual({ error: check.error, problems: [{ kind: 'keyRejected', source: 'dart' }] });

    quiet();
    const next = (await watchPass({ db, now: at(61.01) })).find((c) => c.entryId === entry.id)!;
    expect(next.error).toBeNull();
    expect(await stored()).toEqual({ error: null, problems: null });
  });
});

describe('what a failed source is called', () => {
  it("tells the connectors' failures apart, through the error that wraps them", () => {
    const dart = (status: string) =>
      watchProblemOf(Object.assign(new AppError('unavailable', 'x'), { cause: new DartError(status, 'list', 'x') }), 'dart').kind;
    expect(['config', '010', '012', '901', '020', '101', 'http', '800', 'invalid-response', '900'].map(dart)).toEqual([
      'notConfigured',
      'keyRejected',
      'keyRejected',
      'keyRejected',
      'refused',
      'refused',
      'unreachable',
      'unreachable',
      'unexpected',
      'unexpected',
    ]);
    const edgar = (status: EdgarErrorStatus) => watchProblemOf(new EdgarError(status, 'x'), 'edgar');
    expect(edgar('forbidden')).toEqual({ kind: 'refused', source: 'edgar' });
    expect(edgar('not-found')).toEqual({ kind: 'notFound', source: 'edgar' });
    expect(edgar('config')).toEqual({ kind: 'notConfigured', source: 'edgar' });
    // Anything else, wrapped or not, is a failure of the check.
    expect(watchProblemOf(new AppError('bad_request', 'This company has no SEC CIK.'), 'edgar')).toEqual({ kind: 'failed', source: 'edgar' });
    expect(watchProblemOf(new TypeError('fetch failed'), 'dart')).toEqual({ kind: 'failed', source: 'dart' });
  });
});
