import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getCaseDetail, listCasesByStatus, listCasesForOwner, listCaseStatusesOfCompany, markCaseAnalyzing } from '@/lib/db/queries/cases';
import { cases, runs, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import { shownCaseStatus } from '@/lib/domain/case-status';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { createOfflineAnalyst } from '@/lib/llm/offline';

// The demo seed (lib/demo/seed.ts): two draft cases with no run (Tesla, and the thin-evidence
// Taeyoung), and a submitted Samsung case whose one offline run has finished.
describe.each(testBackends())('case lists and the runs going on, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: rmId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'rm'));
  }, 90_000);
  afterAll(() => handle?.close());

  const row = async (id: string) => (await listCasesForOwner({ db, ownerId: rmId })).find((c) => c.id === id)!;

  it('counts only queued and running runs as going on, so a case whose runs ended no longer reads "Analyzing"', async () => {
    const submitted = await row(DEMO_IDS.submittedCase);
    expect({ runCount: submitted.runCount, activeRunCount: submitted.activeRunCount }).toEqual({ runCount: 1, activeRunCount: 0 });

    // The draft case's first run: queued, and the case marked as being analysed.
    const provider = createOfflineAnalyst();
    const draft = (await getCaseDetail({ db, id: DEMO_IDS.draftCase }))!;
    const run = await createRun({
      db,
      protocolId: 'nas',
      companyId: draft.companyId,
      provider,
      caseId: draft.id,
      createdById: rmId,
      params: { asOf: draft.asOfDate, language: 'en' },
    });
    await markCaseAnalyzing({ db, id: draft.id });
    const queued = await row(DEMO_IDS.draftCase);
    expect([queued.status, queued.activeRunCount]).toEqual(['analyzing', 1]);
    expect(shownCaseStatus(queued.status, queued.activeRunCount)).toBe('analyzing');

    // The run ends (cancelled here): the stored status stays "analyzing", the shown one does not.
    await db.update(runs).set({ status: 'cancelled', finishedAt: new Date() }).where(eq(runs.id, run.id));
    const ended = await row(DEMO_IDS.draftCase);
    expect([ended.status, ended.runCount, ended.activeRunCount]).toEqual(['analyzing', 1, 0]);
    expect(shownCaseStatus(ended.status, ended.activeRunCount)).toBe('not_submitted');
    const detail = (await getCaseDetail({ db, id: DEMO_IDS.draftCase }))!;
    expect(detail.activeRunCount).toBe(0);
    expect((await listCasesByStatus({ db, statuses: ['submitted'] }))[0].activeRunCount).toBe(0);
  });

  it("lists the statuses of a company's cases, for who may read the company", async () => {
    expect(await listCaseStatusesOfCompany({ db, companyId: 'samsung-electronics' })).toEqual(['submitted']);
    await db.update(cases).set({ status: 'draft' }).where(eq(cases.id, DEMO_IDS.draftCase));
    expect(await listCaseStatusesOfCompany({ db, companyId: 'tesla' })).toEqual(['draft']);
    expect(await listCaseStatusesOfCompany({ db, companyId: 'taeyoung-engineering-construction' })).toEqual(['draft']);
    expect(await listCaseStatusesOfCompany({ db, companyId: 'monro-inc' })).toEqual([]);
  });
});
