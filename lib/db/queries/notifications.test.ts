// The inbox on the demo database: who hears of each event (a committee comment reaches the RM
// and not its author, a reply the thread, a submission the committee, a decision the RM, an
// opened study its evaluators, a run's end the user who started it, through the runner itself),
// and that reading and marking only ever touch the signed-in user's own items.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { markCaseSubmitted } from '@/lib/db/queries/cases';
import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationDetail,
  notify,
  notifyCaseDecided,
  notifyCaseSubmitted,
  notifyCommentAdded,
  notifyRunEnded,
  notifyStudyOpened,
} from '@/lib/db/queries/notifications';
import { insertComment, recordDecision } from '@/lib/db/queries/review';
import { insertStudy, setStudyStatus } from '@/lib/db/queries/studies';
import { insertUser } from '@/lib/db/queries/users';
import { cases, notifications, reports, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { createRun } from '@/lib/debate/engine';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { resetEnvForTests } from '@/lib/env';
import { executeRunHere } from '@/lib/jobs/runner';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';

describe('notificationDetail', () => {
  it('turns control characters and line breaks into single spaces', () => {
    expect(notificationDetail('Where does the\r\n\tgovernance\u0000 evidence\u0007 come from?\u2028')).toBe('Where does the governance evidence come from?');
    expect(notificationDetail(' \n\u0001 ')).toBeNull();
    expect(notificationDetail(null)).toBeNull();
  });

  it('cuts at 400 characters, counting a Korean syllable or an emoji as one', () => {
    const korean = '태영건설 워크아웃 신청에 따른 채권단 협의 내용을 확인해 주세요. '.repeat(20);
    const cut = notificationDetail(korean)!;
    expect(Array.from(cut)).toHaveLength(400);
    expect(cut.endsWith('…')).toBe(true);
    expect(korean.startsWith(cut.slice(0, -1))).toBe(true);
    const emoji = '📄'.repeat(400);
    expect(notificationDetail(emoji)).toBe(emoji);
    expect(Array.from(notificationDetail(`${emoji}x`)!)).toHaveLength(400);
  });
});

describe.each(testBackends())('notifications on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;
  let committeeId: string;
  let evaluatorId: string;
  let adminId: string;
  let secondMemberId: string;
  const caseId: string = DEMO_IDS.submittedCase;

  const itemsOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId));
  const idOf = async (role: 'rm' | 'committee' | 'evaluator' | 'admin') => (await db.select({ id: users.id }).from(users).where(eq(users.role, role)))[0].id;

  beforeAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [rmId, committeeId, evaluatorId, adminId] = await Promise.all([idOf('rm'), idOf('committee'), idOf('evaluator'), idOf('admin')]);
    secondMemberId = (await insertUser({ db, email: 'second-member@example.org', name: 'Second Member', role: 'committee', passwordHash: null })).id;
  }, 120_000);
  afterAll(() => handle?.close());

  it('writes one item per recipient, never for the actor, with the detail made plain', async () => {
    const n = await notify({ db, kind: 'comment', recipients: [rmId, rmId, committeeId, null], actorId: committeeId, caseId, detail: 'Line one\nline two' });
    expect(n).toBe(1);
    const rows = await itemsOf(rmId);
    expect(rows.map((r) => [r.kind, r.actorId, r.caseId, r.detail])).toEqual([['comment', committeeId, caseId, 'Line one line two']]);
    expect(await itemsOf(committeeId)).toEqual([]);
    await db.delete(notifications);
  });

  it('lists newest first in pages, counts unread, and marks only the user’s own items', async () => {
    for (let i = 1; i <= 5; i++) {
      await notify({ db, kind: 'comment', recipients: [rmId, evaluatorId], actorId: committeeId, caseId, detail: `comment ${i}` });
      await new Promise((r) => setTimeout(r, 5));
    }
    const first = await listNotifications({ db, userId: rmId, limit: 2 });
    expect(first.items.map((i) => i.detail)).toEqual(['comment 5', 'comment 4']);
    expect(first.hasMore).toBe(true);
    expect(first.items[0]).toMatchObject({ kind: 'comment', actorName: 'Demo Committee Member', caseId, companyName: '삼성전자', readAt: null });
    const third = await listNotifications({ db, userId: rmId, limit: 2, page: 3 });
    expect(third.items.map((i) => i.detail)).toEqual(['comment 1']);
    expect(third.hasMore).toBe(false);
    expect(await countUnreadNotifications({ db, userId: rmId })).toBe(5);

    // Another user can neither read nor mark the RM's items, even with their ids.
    const rmItem = first.items[0];
    expect((await listNotifications({ db, userId: evaluatorId })).items.map((i) => i.id)).not.toContain(rmItem.id);
    expect(await markNotificationRead({ db, userId: evaluatorId, id: rmItem.id })).toBe(false);
    expect(await countUnreadNotifications({ db, userId: rmId })).toBe(5);
    expect(await markAllNotificationsRead({ db, userId: evaluatorId })).toBe(5);
    expect(await countUnreadNotifications({ db, userId: rmId })).toBe(5);

    expect(await markNotificationRead({ db, userId: rmId, id: rmItem.id })).toBe(true);
    expect(await markNotificationRead({ db, userId: rmId, id: rmItem.id })).toBe(false);
    expect(await countUnreadNotifications({ db, userId: rmId })).toBe(4);
    expect((await listNotifications({ db, userId: rmId, limit: 1 })).items[0].readAt).toBeInstanceOf(Date);
    expect(await markAllNotificationsRead({ db, userId: rmId })).toBe(4);
    expect(await countUnreadNotifications({ db, userId: rmId })).toBe(0);
    await db.delete(notifications);
  });

  it('tells the RM of a committee comment, not its author; a reply reaches the thread and the case’s people', async () => {
    const body = 'Where does the governance evidence for 2024 come from?';
    const comment = await db.transaction(async (tx) => {
      const row = await insertComment({ db: tx, values: { caseId, runId: null, stepId: null, claimId: null, parentId: null, authorId: committeeId, body } });
      await notifyCommentAdded({ db: tx, comment: row });
      return row;
    });
    expect((await itemsOf(rmId)).map((r) => [r.kind, r.actorId, r.detail])).toEqual([['comment', committeeId, body]]);
    expect(await itemsOf(committeeId)).toEqual([]);
    // A member who has not written on the case heard of it at submission, not of every comment.
    expect(await itemsOf(secondMemberId)).toEqual([]);

    // The RM replies: the thread's author hears a reply; the RM nothing.
    const reply = await insertComment({
      db,
      values: { caseId, runId: null, stepId: null, claimId: null, parentId: comment.id, authorId: rmId, body: 'From the 2024 annual report.' },
    });
    await notifyCommentAdded({ db, comment: reply });
    expect((await itemsOf(committeeId)).map((r) => [r.kind, r.actorId, r.detail])).toEqual([['reply', rmId, 'From the 2024 annual report.']]);
    expect((await itemsOf(rmId)).map((r) => r.kind)).toEqual(['comment']);

    // A second member joins the thread: the first member and the RM (a thread participant) hear a reply.
    const join = await insertComment({
      db,
      values: { caseId, runId: null, stepId: null, claimId: null, parentId: comment.id, authorId: secondMemberId, body: 'Agreed.' },
    });
    expect(await notifyCommentAdded({ db, comment: join })).toBe(2);
    expect((await itemsOf(committeeId)).map((r) => r.kind).sort()).toEqual(['reply', 'reply']);
    expect((await itemsOf(rmId)).map((r) => r.kind).sort()).toEqual(['comment', 'reply']);
    expect(await itemsOf(secondMemberId)).toEqual([]);
    await db.delete(notifications);
  });

  it('tells every active committee user of a submission, and of a resubmission after a return, with the cover note', async () => {
    await db.update(users).set({ disabled: true }).where(eq(users.id, secondMemberId));
    await db.update(cases).set({ submissionNote: 'Please look at the\nlitigation exposure first.' }).where(eq(cases.id, caseId));
    expect(await notifyCaseSubmitted({ db, caseId, actorId: rmId })).toBe(1);
    expect((await itemsOf(committeeId)).map((r) => [r.kind, r.actorId, r.detail])).toEqual([
      ['submitted', rmId, 'Please look at the litigation exposure first.'],
    ]);
    expect(await itemsOf(secondMemberId)).toEqual([]);
    expect(await itemsOf(rmId)).toEqual([]);
    await db.update(users).set({ disabled: false }).where(eq(users.id, secondMemberId));
    await db.update(cases).set({ submissionNote: null }).where(eq(cases.id, caseId));
    await db.delete(notifications);
  });

  it('tells the RM of a decision and of a return, not the member who recorded it', async () => {
    // Return first, then resubmit (a resubmission), then decide.
    await db.transaction(async (tx) => {
      const row = await recordDecision({ db: tx, caseId, deciderId: committeeId, outcome: 'return', rationale: 'Add the 2024 filings.' });
      await notifyCaseDecided({ db: tx, caseId, actorId: committeeId, outcome: row!.outcome });
    });
    expect((await itemsOf(rmId)).map((r) => [r.kind, r.actorId, r.detail])).toEqual([['returned', committeeId, 'return']]);

    expect(await markCaseSubmitted({ db, id: caseId })).toBe(true);
    await notifyCaseSubmitted({ db, caseId, actorId: rmId });
    expect((await itemsOf(committeeId)).map((r) => r.kind)).toEqual(['resubmitted']);
    expect((await itemsOf(secondMemberId)).map((r) => r.kind)).toEqual(['resubmitted']);

    await db.transaction(async (tx) => {
      const row = await recordDecision({
        db: tx,
        caseId,
        deciderId: secondMemberId,
        outcome: 'approve_with_conditions',
        rationale: 'Sound.',
        conditions: 'Quarterly covenant report',
      });
      await notifyCaseDecided({ db: tx, caseId, actorId: secondMemberId, outcome: row!.outcome });
    });
    const rm = await listNotifications({ db, userId: rmId });
    expect(rm.items.map((i) => [i.kind, i.actorName, i.detail])).toEqual([
      ['decided', 'Second Member', 'approve_with_conditions'],
      ['returned', 'Demo Committee Member', 'return'],
    ]);
    expect((await itemsOf(secondMemberId)).map((r) => r.kind)).toEqual(['resubmitted']);
  });

  it('tells each evaluator of a study when it opens', async () => {
    const [report] = await db.select({ id: reports.id }).from(reports);
    const study = await insertStudy({
      db,
      name: 'Pilot study',
      seed: 7,
      createdById: adminId,
      assignments: [{ evaluatorId, reportId: report.id, position: 1 }],
    });
    await db.transaction(async (tx) => {
      await setStudyStatus({ db: tx, id: study.id, status: 'open' });
      await notifyStudyOpened({ db: tx, studyId: study.id, actorId: adminId });
    });
    const items = await listNotifications({ db, userId: evaluatorId });
    expect(items.items.map((i) => [i.kind, i.studyName, i.actorName])).toEqual([['study_assigned', 'Pilot study', 'Demo Admin']]);
    expect(await itemsOf(adminId)).toEqual([]);
  });

  it('tells the user who started a run how it ended, through the runner', async () => {
    const offline = createOfflineAnalyst();
    const ok = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'samsung-electronics',
      provider: offline,
      caseId: DEMO_IDS.draftCase,
      createdById: rmId,
      params: { asOf: '2025-03-31', language: 'en' },
    });
    const done = await executeRunHere({ db, run: { id: ok.id, provider: ok.provider, companyId: ok.companyId } });
    expect(done.status).toBe('succeeded');
    const finished = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rmId), eq(notifications.runId, ok.id)));
    expect(finished.map((r) => [r.kind, r.actorId, r.caseId, r.detail])).toEqual([['run_finished', null, DEMO_IDS.draftCase, 'succeeded']]);

    // A run on a provider this process has no configuration for fails at once; its starter hears that.
    const unconfigured: ModelProvider = { ...offline, name: 'openai', model: 'gpt-4.1-mini' };
    const bad = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'samsung-electronics',
      provider: unconfigured,
      createdById: rmId,
      params: { asOf: '2025-03-31', language: 'en' },
    });
    expect((await executeRunHere({ db, run: { id: bad.id, provider: bad.provider, companyId: bad.companyId } })).status).toBe('failed');
    const failed = await listNotifications({ db, userId: rmId, limit: 1 });
    expect(failed.items.map((i) => [i.kind, i.runId, i.detail])).toEqual([['run_failed', bad.id, 'failed']]);
    // Each item names its run's system, model and language, so two on one case read apart.
    const [shown] = failed.items;
    expect(shown.run && { ...shown.run, createdAt: shown.run.createdAt instanceof Date }).toEqual({
      protocol: 'nas',
      provider: 'openai',
      model: 'gpt-4.1-mini',
      language: 'en',
      createdAt: true,
    });

    // Statuses that are no news write nothing; nor does a status the run does not have.
    expect(await notifyRunEnded({ db, runId: ok.id, status: 'cancelled' })).toBe(0);
    expect(await notifyRunEnded({ db, runId: ok.id, status: 'failed' })).toBe(0);
  }, 120_000);
});
