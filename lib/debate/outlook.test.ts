// Runs that cannot debate are said before they start (issue 26 item 6): the launcher reads what a
// run of the case will give on the demo pool, and for a red-flag screening or insufficient
// evidence says so, in English and Korean, instead of a time and cost estimate. The engine,
// given the same pool, calls no model for such runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launcherOptions } from '@/app/(signed-in)/(workspace)/cases/[id]/launcher-options';
import { outlookNotice } from '@/components/case/run-outlook';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import { readRunOutlook } from '@/lib/debate/outlook';
import { seedDemo } from '@/lib/demo/seed';
import { resetEnvForTests } from '@/lib/env';
import { translator } from '@/lib/i18n';
import { runOutlookMessages } from '@/lib/i18n/messages/run-outlook';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';
import { readEvidence } from '@/lib/pool/as-of';

const TAEYOUNG = 'taeyoung-engineering-construction';
const en = translator(runOutlookMessages, 'en');
const ko = translator(runOutlookMessages, 'ko');

describe('the launcher says what a run of the case will give', () => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it('Taeyoung E&C as of 2025-03-31 (one creditor-bank management filing): a red-flag screening, said before Start, with no estimate', async () => {
    const options = await launcherOptions({ db, kase: { companyId: TAEYOUNG, asOfDate: '2025-03-31' } });
    expect(options.outlook).toMatchObject({
      kind: 'screening',
      asOf: '2025-03-31',
      companyId: TAEYOUNG,
      redFlags: 1,
      shortfall: { items: 1, factors: 1, minItems: 3, minFactors: 2 },
    });
    const notice = outlookNotice(options.outlook, en)!;
    expect(notice.kind).toBe('screening');
    expect(notice.title).toBe('A red-flag screening, not a debate');
    expect(notice.text).toBe(
      'This pool will give a red-flag screening, not a debate: as of 2025-03-31 it holds 1 evidence item on 1 guideline factor (a debate needs 3 items on 2 factors) and 1 decisive red flag. No step runs and no model is called: the run ends with a screening report that leads with each event.',
    );
    expect(outlookNotice(options.outlook, ko)!.text).toBe(
      '이 풀로는 토론이 아닌 위험 신호 점검이 실행됩니다. 2025-03-31 기준 근거 1건이 가이드라인 요인 1개에 걸쳐 있고(토론에는 근거 3건, 요인 2개 이상이 필요합니다), 결정적 위험 신호가 1건 있습니다. 토론 단계는 실행되지 않고 모델도 호출하지 않으며, 각 사건을 앞세운 점검 보고서로 끝납니다.',
    );
  });

  it('Taeyoung E&C as of 2023-12-31 (before its filing): insufficient evidence, said before Start with where to add evidence', async () => {
    const options = await launcherOptions({ db, kase: { companyId: TAEYOUNG, asOfDate: '2023-12-31' } });
    expect(options.outlook).toMatchObject({ kind: 'insufficient', asOf: '2023-12-31', shortfall: { items: 0, factors: 0 } });
    const notice = outlookNotice(options.outlook, en)!;
    expect(notice.kind).toBe('insufficient');
    expect(notice.text).toBe(
      'This run will end as insufficient evidence, not a debate: as of 2023-12-31 the pool holds no evidence item (a debate needs 3 items on 2 factors) and no decisive red flag. No model is called.',
    );
    expect(notice.next).toBe('Add evidence first:');
    expect(outlookNotice(options.outlook, ko)!.text).toBe(
      '이 실행은 토론 없이 근거 부족으로 끝납니다. 2023-12-31 기준 근거가 한 건도 없고(토론에는 근거 3건, 요인 2개 이상이 필요합니다), 결정적 위험 신호는 없습니다. 모델은 호출하지 않습니다.',
    );
  });

  it('Samsung Electronics as of 2025-03-31: a debate, which gets the time and cost estimate and no notice', async () => {
    const options = await launcherOptions({ db, kase: { companyId: 'samsung-electronics', asOfDate: '2025-03-31' } });
    expect(options.outlook.kind).toBe('debate');
    expect(outlookNotice(options.outlook, en)).toBeNull();
    expect(options.estimates['kpd-mads:offline']).toBeDefined();
  });

  it('the recency window does not change the outlook: stale items still count, and old red flags still flag', async () => {
    // Taeyoung's filing (2025-02-17) is stale at a one-day window as of 2025-03-31, and is still the item and the flag.
    const stale = await readEvidence({ db, companyId: TAEYOUNG, asOf: '2025-03-31', recencyDays: 1 });
    expect(stale.map((e) => e.stale)).toEqual([true]);
    expect(await readRunOutlook({ db, companyId: TAEYOUNG, asOf: '2025-03-31' })).toMatchObject({ kind: 'screening', redFlags: 1 });
  });

  it('the engine gives what the launcher said: insufficient evidence and a screening call no model, the debate does', async () => {
    const calls: string[] = [];
    const offline = createOfflineAnalyst();
    const counting: ModelProvider = {
      name: offline.name,
      model: offline.model,
      isLLM: offline.isLLM,
      generate: (r) => (calls.push(r.step.id), offline.generate(r)),
    };
    const thin = await createRun({ db, protocolId: 'nas', companyId: TAEYOUNG, provider: counting, params: { asOf: '2023-12-31', language: 'en' } });
    expect((await executeRun({ db, runId: thin.id, provider: counting })).status).toBe('insufficient_evidence');
    const flagged = await createRun({
      db,
      protocolId: 'nas',
      companyId: TAEYOUNG,
      provider: counting,
      params: { asOf: '2025-03-31', language: 'en', recencyDays: 1 },
    });
    // At a one-day window its only item is stale, and still the red flag the launcher counted.
    expect((await executeRun({ db, runId: flagged.id, provider: counting })).status).toBe('red_flag_screening');
    expect(calls).toEqual([]);
    const full = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'samsung-electronics',
      provider: counting,
      params: { asOf: '2025-03-31', language: 'en' },
    });
    expect((await executeRun({ db, runId: full.id, provider: counting })).status).toBe('succeeded');
    expect(calls.length).toBeGreaterThan(0);
  });
});
