// Evidence sufficiency (docs/protocols.md): a thin pool ends the run as insufficient evidence,
// before any step, with what it held and what it lacks; a pool at the threshold runs as before.
// On the demo pool as the seed loads it, tagged by the same rules.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getCaseById, markCaseAnalyzing } from '@/lib/db/queries/cases';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { auditLog } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun, retryFailedSteps } from '@/lib/debate/engine';
import { EVIDENCE_THRESHOLD, evidenceShortfall } from '@/lib/debate/sufficiency';
import { DEMO_IDS, DEMO_THIN_CASE, seedDemo } from '@/lib/demo/seed';
import type { RunEvent } from '@/lib/domain/protocol';
import { resetEnvForTests } from '@/lib/env';
import { retryCaseRun } from '@/lib/jobs/case-runs';
import { untilRunEnds, workOn } from '@/lib/jobs/test-wait';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';
import { tagByCategory } from '@/lib/pool/factors';
import { loadRunView } from '@/lib/report/run-view';

type Row = { company_id: string; category: string; title: string; text: string; published_date: string };
const demo: Row[] = fs
  .readFileSync(path.join(process.cwd(), 'data', 'demo', 'evidence.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
/** A company's demo items as of a date, tagged as the import tags them. */
const poolOf = (companyId: string, asOf: string) =>
  demo.filter((r) => r.company_id === companyId && r.published_date <= asOf).map((r) => ({ factor: tagByCategory(r).factor as string }));

describe('evidenceShortfall on the demo pool', () => {
  it('states the threshold: at least 3 items on at least 2 guideline factors', () => {
    expect(EVIDENCE_THRESHOLD).toEqual({ minItems: 3, minFactors: 2 });
  });

  it('finds Taeyoung E&C (one creditor-bank management filing) short, naming the nine factors with nothing', () => {
    expect(evidenceShortfall(poolOf('taeyoung-engineering-construction', DEMO_THIN_CASE.asOfDate))).toEqual({
      items: 1,
      factors: 1,
      minItems: 3,
      minFactors: 2,
      missingFactors: [
        'industry_growth_outlook',
        'industry_competition_intensity',
        'technological_disruption_risk',
        'economic_sensitivity',
        'government_support_programs',
        'management_continuity',
        'employment_stability',
        'certifications',
        'public_interest_trend',
      ],
    });
    // Before the filing was published there is nothing at all.
    expect(evidenceShortfall(poolOf('taeyoung-engineering-construction', '2025-01-31'))).toMatchObject({ items: 0, factors: 0 });
  });

  it("counts items under `other` as items, not factors: Monro's two items make one factor", () => {
    expect(evidenceShortfall(poolOf('monro-inc', '2025-06-30'))).toMatchObject({ items: 2, factors: 1 });
  });

  it('finds 22 patent filings on one factor short of factors, however many items', () => {
    const shortfall = evidenceShortfall(poolOf('wintec-automation', '2025-06-30'));
    expect(shortfall).toMatchObject({ items: 22, factors: 1 });
    expect(shortfall!.missingFactors).not.toContain('technological_disruption_risk');
    expect(shortfall!.missingFactors).toHaveLength(9);
  });

  it('lets Travelers (3 items on 3 factors) and Samsung through', () => {
    expect(evidenceShortfall(poolOf('travelers-companies', '2021-06-30'))).toBeNull();
    expect(evidenceShortfall(poolOf('samsung-electronics', '2025-06-30'))).toBeNull();
  });

  it('takes another threshold when a caller states one', () => {
    expect(evidenceShortfall(poolOf('monro-inc', '2025-06-30'), { minItems: 2, minFactors: 1 })).toBeNull();
    expect(evidenceShortfall(poolOf('travelers-companies', '2021-06-30'), { minItems: 4, minFactors: 2 })).toMatchObject({ items: 3, factors: 3, minItems: 4 });
  });
});

// Taeyoung's one filing (a creditor-bank workout) was published on 2025-02-17: the day before, its pool is empty.
const BEFORE_FILING = '2025-02-16';

describe.each(testBackends())('a run on too little evidence, on %s', (backend) => {
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  let handle: DatabaseHandle;
  let db: Db;
  const calls: string[] = [];
  const inner = createOfflineAnalyst();
  const counting: ModelProvider = {
    name: inner.name,
    model: inner.model,
    isLLM: inner.isLLM,
    generate(req) {
      calls.push(req.step.id);
      return inner.generate(req);
    },
  };

  beforeAll(async () => {
    process.env.AUDIT_SECRET ??= 'sufficiency-test-audit-secret-0123456789abcdef';
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    work = await workOn(db);
  }, 90_000);
  afterAll(async () => {
    await work?.stop();
    await handle?.close();
  });

  it('ends a run on an empty pool before any step: no model call, the shortfall saved and sent, the case a draft again', async () => {
    const kase = (await getCaseById({ db, id: DEMO_IDS.thinCase }))!;
    expect(kase.status).toBe('draft');
    calls.length = 0;
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: kase.companyId,
      provider: counting,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: BEFORE_FILING, language: 'ko' },
    });
    await markCaseAnalyzing({ db, id: kase.id });
    const events: RunEvent[] = [];
    const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
    const result = await executeRun({ db, runId: run.id, provider: counting });
    unsubscribe();

    expect(result.status).toBe('insufficient_evidence');
    expect(calls).toEqual([]);
    const row = (await getRun({ db, id: run.id }))!;
    expect(row).toMatchObject({ status: 'insufficient_evidence', error: null, promptTokens: 0, completionTokens: 0 });
    expect(row.finishedAt).not.toBeNull();
    expect(row.shortfall).toMatchObject({ items: 0, factors: 0, minItems: 3, minFactors: 2 });
    expect(row.shortfall!.missingFactors).toHaveLength(10);
    expect(row.redFlags).toEqual([]);
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(Array(11).fill('pending'));
    // Viewers learn it from the terminal event, with the shortfall.
    expect(events.map((e) => e.type)).toEqual(['run-finished']);
    expect(events[0]).toMatchObject({ status: 'insufficient_evidence', shortfall: row.shortfall });
    // The run document (CLI --json, export) carries both.
    const view = await loadRunView({ db, runId: run.id });
    expect(view).toMatchObject({ status: 'insufficient_evidence', shortfall: row.shortfall, report: null });
    // Nothing was analysed: the case is not "analyzing".
    expect((await getCaseById({ db, id: kase.id }))!.status).toBe('draft');
    // Executing it again changes nothing.
    expect((await executeRun({ db, runId: run.id, provider: counting })).status).toBe('insufficient_evidence');
    expect(calls).toEqual([]);
  });

  it('is retried like a failed run: checked again before any step, the case analysed meanwhile, and a draft once it ends short again', async () => {
    const kase = (await getCaseById({ db, id: DEMO_IDS.thinCase }))!;
    const offline = createOfflineAnalyst();
    const run = await createRun({
      db,
      protocolId: 'nas',
      companyId: kase.companyId,
      provider: offline,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: BEFORE_FILING, language: 'en' },
    });
    await markCaseAnalyzing({ db, id: kase.id });
    expect((await executeRun({ db, runId: run.id, provider: offline })).status).toBe('insufficient_evidence');

    let statusWhileQueued: string | undefined;
    await retryCaseRun({
      db,
      run: { ...run, caseId: kase.id },
      actorId: kase.ownerId,
    }).then(async () => {
      statusWhileQueued = (await getCaseById({ db, id: kase.id }))!.status;
      await untilRunEnds(db, run.id);
    });
    // The retry put the case back to analyzing (it may already have ended short again).
    expect(['analyzing', 'draft']).toContain(statusWhileQueued);
    const after = (await getRun({ db, id: run.id }))!;
    expect(after.status).toBe('insufficient_evidence');
    expect(after.shortfall).toMatchObject({ items: 0, factors: 0 });
    expect((await getCaseById({ db, id: kase.id }))!.status).toBe('draft');
    const retries = await db.select().from(auditLog).where(eq(auditLog.entityId, run.id));
    expect(retries.map((r) => r.action)).toContain('run.retry');
  });

  it('keeps a case analyzing while another of its runs did more than find the evidence short', async () => {
    const kase = (await getCaseById({ db, id: DEMO_IDS.thinCase }))!;
    const offline = createOfflineAnalyst();
    // A run on the same case that got going (here: stated a lower threshold, as a test may).
    const going = await createRun({
      db,
      protocolId: 'nas',
      companyId: kase.companyId,
      provider: offline,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: kase.asOfDate, language: 'en' },
    });
    await markCaseAnalyzing({ db, id: kase.id });
    expect((await executeRun({ db, runId: going.id, provider: offline, evidenceThreshold: { minItems: 1, minFactors: 1 } })).status).toBe('succeeded');
    const thin = await createRun({
      db,
      protocolId: 'nas',
      companyId: kase.companyId,
      provider: offline,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: BEFORE_FILING, language: 'en' },
    });
    expect((await executeRun({ db, runId: thin.id, provider: offline })).status).toBe('insufficient_evidence');
    expect((await getCaseById({ db, id: kase.id }))!.status).toBe('analyzing');
  });

  it('clears the shortfall when the run is requeued', async () => {
    const offline = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'nas', companyId: 'monro-inc', provider: offline, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider: offline })).status).toBe('insufficient_evidence');
    expect(await retryFailedSteps({ db, runId: run.id })).toBe(true);
    expect(await getRun({ db, id: run.id })).toMatchObject({ status: 'queued', shortfall: null });
  });

  it("runs a pool at the threshold as before: Travelers' three items on three factors", async () => {
    calls.length = 0;
    const run = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'travelers-companies',
      provider: counting,
      params: { asOf: '2021-06-30', language: 'en' },
    });
    expect((await executeRun({ db, runId: run.id, provider: counting })).status).toBe('succeeded');
    // NAS's calls: its report's sections and overview (docs/protocols.md, "Sections"), but for
    // governance: nothing in the three items bears on internal control, so it is not asked.
    expect(calls).toEqual(['NAS', 'NAS', 'NAS', 'NAS']);
    expect((await getRun({ db, id: run.id }))!.shortfall).toBeNull();
  });
});
