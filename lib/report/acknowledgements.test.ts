// Checks that block (issue 26 item 5), through the submit action on a seeded database: the demo
// case's KPD-MADS run, its stale-evidence check failed as a model's run may end it (one citation
// of samsung-electronics-037; the offline analyst's own run passes every check), so submitting asks for a reason; one missing refuses the submission
// and writes nothing; given, it is stored with the round and audited. A red flag no finished run
// addresses blocks until a red-flag screening that holds it exists; the thin demo case's own run
// is such a screening, and its case goes without anything to acknowledge.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listAcknowledgements } from '@/lib/db/queries/acknowledgements';
import { getCaseById } from '@/lib/db/queries/cases';
import { auditLog, cases, reports, runs, submissionAcknowledgements, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { ACK_REASON_MAX } from '@/lib/domain/acknowledgements';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import type { RedFlag } from '@/lib/domain/red-flags';
import { translator } from '@/lib/i18n';
import { ackRows, itemsToAcknowledge } from '@/lib/report/acknowledgements';

type User = { id: string; role: 'rm' | 'committee' | 'evaluator' | 'admin'; name: string; email: string; demo: boolean };
const state = vi.hoisted(() => ({ db: null as unknown, user: null as User | null }));
vi.mock('@/lib/auth/session', () => ({
  getSessionUser: async () => state.user,
  requireUser: async () => state.user,
  requirePermission: async () => state.user,
}));
vi.mock('@/lib/db/client', async (original) => ({ ...(await original<object>()), getDb: async () => state.db }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', async (original) => ({ ...(await original<object>()), redirect: () => {} }));
vi.mock('@/lib/i18n/server', () => ({ getLocale: async () => 'en', getT: async (messages: Parameters<typeof translator>[0]) => translator(messages, 'en') }));

const { submitCase } = await import('@/app/(signed-in)/(workspace)/cases/[id]/actions');

const caseId = DEMO_IDS.submittedCase;
const runId = DEMO_IDS.run;
const STALE = `check:${runId}:stale-evidence`;
const REASON = 'The 2019 patent ruling is the latest word on that suit; nothing newer exists, and the committee has read it before.';

/** A copy of `value` with every citation of `evidenceId` dropped, at any depth. */
function withoutCitationsOf(value: unknown, evidenceId: string): unknown {
  if (Array.isArray(value))
    return value
      .filter((v) => !(v && typeof v === 'object' && (v as { evidenceId?: string }).evidenceId === evidenceId))
      .map((v) => withoutCitationsOf(v, evidenceId));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutCitationsOf(v, evidenceId)]));
  return value;
}

describe.each(testBackends())('submitting a case whose checks failed on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rm: User;

  const caseRow = async (id: string = caseId) =>
    (await db.select({ status: cases.status, submittedAt: cases.submittedAt }).from(cases).where(eq(cases.id, id)))[0];
  const submitAs = (who: User, fields: Record<string, string>, id: string = caseId) => {
    state.user = who;
    const form = new FormData();
    form.set('case_id', id);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return submitCase(form);
  };
  const returnCase = (id: string = caseId) => db.update(cases).set({ status: 'returned' }).where(eq(cases.id, id));
  const submitAudits = (id: string = caseId) =>
    db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'case.submit'), eq(auditLog.entityId, id)));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    state.db = db;
    await seedDemo(db, { accounts: true });
    // The offline analyst is no longer shown stale items newer evidence supersedes
    // (lib/debate/evidence-scope.ts): its run passes. A model's may not.
    const [stored] = await db.select({ checks: reports.checks }).from(reports).where(eq(reports.runId, runId));
    expect(stored.checks.filter((c) => !c.ok)).toEqual([]);
    const failed = stored.checks.map((c) => (c.id === 'stale-evidence' ? { ...c, ok: false, items: ['D1: samsung-electronics-037'] } : c));
    await db.update(reports).set({ checks: failed }).where(eq(reports.runId, runId));
    const seeded = await db.select().from(users);
    rm = { ...seeded.find((u) => u.role === 'rm')!, role: 'rm' } as User;
    await returnCase();
  }, 120_000);
  afterAll(() => handle?.close());

  it('asks for exactly the failed check of the demo run: stale evidence, one citation; its four red flags are addressed', async () => {
    const [run] = await db.select({ redFlags: runs.redFlags }).from(runs).where(eq(runs.id, runId));
    expect(run.redFlags.map((f) => f.evidenceId)).toEqual([
      'samsung-electronics-022',
      'samsung-electronics-020',
      'samsung-electronics-019',
      'samsung-electronics-021',
    ]);
    const items = await itemsToAcknowledge({ db, caseId });
    expect(items).toEqual([expect.objectContaining({ key: STALE, kind: 'check', runId, protocol: 'kpd-mads', checkId: 'stale-evidence', count: 1 })]);
  });

  it('refuses the submission without the reason, naming the field, and writes nothing', async () => {
    const before = await submitAudits();
    const result = await submitAs(rm, { note: 'Second round.' });
    expect(result).toMatchObject({
      ok: false,
      code: 'bad_request',
      message: '1 failed check or red flag needs a reason before the case can be submitted.',
      fieldErrors: { [`ack:${STALE}`]: ['errAckRequired'] },
    });
    // A blank reason is no reason; one over the bound is refused, not cut.
    expect(await submitAs(rm, { [`ack:${STALE}`]: ' \r\n ' })).toMatchObject({ ok: false, fieldErrors: { [`ack:${STALE}`]: ['errAckRequired'] } });
    expect(await submitAs(rm, { [`ack:${STALE}`]: 'x'.repeat(ACK_REASON_MAX + 1) })).toMatchObject({
      ok: false,
      fieldErrors: { [`ack:${STALE}`]: ['errAckTooLong'] },
    });
    // A reason for an item the server does not list counts for nothing.
    expect(await submitAs(rm, { [`ack:check:${runId}:after-as-of`]: REASON })).toMatchObject({
      ok: false,
      fieldErrors: { [`ack:${STALE}`]: ['errAckRequired'] },
    });
    expect((await caseRow()).status).toBe('returned');
    expect(await db.select().from(submissionAcknowledgements)).toEqual([]);
    expect(await submitAudits()).toEqual(before);
  });

  it('submits with the reason: stored with the round, audited with the reason, read back for the committee', async () => {
    const result = await submitAs(rm, { [`ack:${STALE}`]: `  ${REASON}\r\n`, [`ack:check:${runId}:after-as-of`]: 'not asked' });
    expect(result).toEqual({ ok: true, data: { submitted: true } });
    const kase = await caseRow();
    expect(kase.status).toBe('submitted');
    const acks = await listAcknowledgements({ db, caseId, submittedAt: kase.submittedAt });
    expect(acks).toEqual([
      expect.objectContaining({
        kind: 'check',
        itemKey: STALE,
        runId,
        checkId: 'stale-evidence',
        evidenceId: null,
        reason: REASON,
        acknowledgedByName: rm.name,
        submittedAt: kase.submittedAt!.toISOString(),
      }),
    ]);
    expect(acks[0].detail).toMatchObject({
      count: 1,
      protocol: 'kpd-mads',
      label: 'No evidence older than the recency window is cited where the pool holds newer evidence on its factor (red flags excepted)',
    });
    const audits = await submitAudits();
    expect(audits.at(-1)?.detail).toEqual({ fromStatus: 'returned', withNote: false, acknowledged: [{ item: STALE, reason: REASON }] });
    // A second click, without the reasons, hears that the case is already with the committee.
    expect(await submitAs(rm, {})).toMatchObject({ ok: false, code: 'conflict', message: 'This case has already been submitted.' });
  });

  it('an unaddressed red flag blocks until a red-flag screening holding it exists', async () => {
    await returnCase();
    // The report no longer cites the 2021 Fair Trade Commission fine: the "red flag that went unaddressed".
    const [report] = await db.select().from(reports).where(eq(reports.runId, runId));
    await db
      .update(reports)
      .set({ content: withoutCitationsOf(report.content, 'samsung-electronics-022') as typeof report.content })
      .where(eq(reports.runId, runId));
    const items = await itemsToAcknowledge({ db, caseId });
    const flagKey = 'flag:samsung-electronics-022';
    expect(items.map((i) => i.key)).toEqual([STALE, flagKey]);
    expect(items[1]).toMatchObject({ kind: 'red_flag', flagKind: 'regulatory_sanction', date: '2021-08-27', title: expect.stringContaining('삼성웰스토리') });
    // The check's reason alone does not do.
    expect(await submitAs(rm, { [`ack:${STALE}`]: REASON })).toMatchObject({ ok: false, fieldErrors: { [`ack:${flagKey}`]: ['errAckRequired'] } });
    expect((await caseRow()).status).toBe('returned');

    // A red-flag screening of the case holds the flag: it addresses it by construction.
    const [demo] = await db.select().from(runs).where(eq(runs.id, runId));
    const flag = demo.redFlags.find((f) => f.evidenceId === 'samsung-electronics-022') as RedFlag;
    const { id: _id, ...rest } = demo;
    void _id;
    const [screening] = await db
      .insert(runs)
      .values({ ...rest, status: 'red_flag_screening', redFlags: [flag], createdAt: new Date() })
      .returning({ id: runs.id });
    expect((await itemsToAcknowledge({ db, caseId })).map((i) => i.key)).toEqual([STALE]);
    expect(await submitAs(rm, { [`ack:${STALE}`]: REASON })).toMatchObject({ ok: true });
    await db.delete(runs).where(eq(runs.id, screening.id));
  });

  it('asks again on resubmission and keeps each round apart; with the flag acknowledged, both reasons are stored', async () => {
    await returnCase();
    const first = (await caseRow()).submittedAt;
    const flagKey = 'flag:samsung-electronics-022';
    const flagReason = 'The fine concerns the group canteen contract, settled in 2021; it does not bear on the borrower’s repayment.';
    expect(await submitAs(rm, { [`ack:${STALE}`]: REASON })).toMatchObject({ ok: false, fieldErrors: { [`ack:${flagKey}`]: ['errAckRequired'] } });
    expect(await submitAs(rm, { [`ack:${STALE}`]: REASON, [`ack:${flagKey}`]: flagReason })).toMatchObject({ ok: true });
    const second = (await caseRow()).submittedAt;
    expect(second!.getTime()).toBeGreaterThan(first!.getTime());
    const acks = await listAcknowledgements({ db, caseId, submittedAt: second });
    expect(acks.map((a) => [a.itemKey, a.reason])).toEqual([
      [STALE, REASON],
      [flagKey, flagReason],
    ]);
    expect(acks[1]).toMatchObject({
      kind: 'red_flag',
      evidenceId: 'samsung-electronics-022',
      runId: null,
      detail: { date: '2021-08-27', flagKind: 'regulatory_sanction' },
    });
    // As the committee reads them beside the report, in either language.
    const day = (await db.select({ createdAt: runs.createdAt }).from(runs).where(eq(runs.id, runId)))[0].createdAt.toISOString().slice(0, 10);
    const time = (d: Date) => `at ${d.toISOString().slice(0, 10)}`;
    const today = `at ${new Date().toISOString().slice(0, 10)}`;
    expect(ackRows(acks, 'en', time)).toEqual([
      {
        id: acks[0].id,
        text: `KPD-MADS run of ${day}: 1 citation cites evidence older than the recency window where newer evidence on its factor was in the pool`,
        href: `/runs/${runId}/report`,
        reason: REASON,
        by: `${rm.name}, ${today}`,
      },
      {
        id: acks[1].id,
        text: `Red flag no analysis addresses: ${acks[1].detail.title} (2021-08-27)`,
        href: null,
        reason: flagReason,
        by: `${rm.name}, ${today}`,
      },
    ]);
    expect(ackRows(acks, 'ko', time).map((r) => r.text)).toEqual([
      `${day} KPD-MADS 실행: 최근 근거를 두고 오래된 근거를 인용 1건`,
      `어느 분석도 다루지 않은 위험 신호: ${acks[1].detail.title} (2021-08-27)`,
    ]);
    // A run's report shows its own checks and the case's red flags, without a link to itself.
    expect(ackRows(acks, 'en', time, { runId: crypto.randomUUID() }).map((r) => r.text)).toEqual([expect.stringContaining('Red flag no analysis addresses')]);
    expect(ackRows(acks, 'en', time, { runId }).map((r) => r.href)).toEqual([null, null]);
    // The earlier round's rows stay, apart.
    expect((await listAcknowledgements({ db, caseId, submittedAt: first })).map((a) => a.itemKey)).toEqual([STALE]);
    expect((await submitAudits()).at(-1)?.detail).toEqual({
      fromStatus: 'returned',
      withNote: false,
      acknowledged: [
        { item: STALE, reason: REASON },
        { item: flagKey, reason: flagReason },
      ],
    });
  });

  it('the thin demo case: its run is a red-flag screening, whose flag counts as addressed, and nothing is asked', async () => {
    const thin = await getCaseById({ db, id: DEMO_IDS.thinCase });
    const { createRun, executeRun } = await import('@/lib/debate/engine');
    const { createOfflineAnalyst } = await import('@/lib/llm/offline');
    const provider = createOfflineAnalyst();
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: thin!.companyId,
      provider,
      caseId: thin!.id,
      createdById: thin!.ownerId,
      params: { asOf: thin!.asOfDate, language: 'ko' },
    });
    const result = await executeRun({ db, runId: run.id, provider });
    // Until the engine writes screenings (issue 26 item 1), the thin pool's run ends short of
    // evidence with its red flag kept; it is then marked as the screening it becomes.
    expect(['insufficient_evidence', 'red_flag_screening']).toContain(result.status);
    const [stored] = await db.select({ redFlags: runs.redFlags }).from(runs).where(eq(runs.id, run.id));
    expect(stored.redFlags.map((f) => f.kind)).toContain('creditor_workout');
    if (result.status === 'insufficient_evidence') {
      // Short of evidence, the flag is open and there is nothing to submit.
      expect((await itemsToAcknowledge({ db, caseId: thin!.id })).map((i) => i.kind)).toEqual(['red_flag']);
      await db.update(runs).set({ status: 'red_flag_screening' }).where(eq(runs.id, run.id));
    }
    expect(await itemsToAcknowledge({ db, caseId: thin!.id })).toEqual([]);
    expect(await submitAs(rm, {}, thin!.id)).toMatchObject({ ok: true });
    expect((await submitAudits(thin!.id)).at(-1)?.detail).toEqual({ fromStatus: 'draft', withNote: false });
  }, 60_000);
});
