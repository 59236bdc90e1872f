// Specialist steps with nothing in them (docs/protocols.md, "Specialists: a finding or an explicit
// nothing"): a briefing holds a cited finding or says `nothingInMaterial`, through the engine with
// a model (the fake OpenAI-compatible server: one sentence and no findings is sent back once, then
// fails the step) and offline on a thin and a rich demo pool (the specialists pass).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import type { Claim } from '@/lib/domain/outputs';
import type { ProtocolId } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';

type Briefing = { text: string; nothingInMaterial?: boolean; claims: Claim[] };
// Travelers' demo pool: three items from one 2020 call (none states a figure) and two call
// transcripts — enough to run, thin enough that some specialists' topics have nothing. Tesla's at
// the end of 2025: 39 items and five filings.
const THIN = 'travelers-companies';
const RICH = 'tesla';
const paramsOf = (companyId: string, language: 'en' | 'ko' = 'en') => ({ asOf: companyId === RICH ? '2025-12-31' : '2024-12-31', language });

describe.each(testBackends())('specialist steps: a finding or an explicit "nothing in the material", on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let fake: FakeLlm;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    fake = await startFakeLlm({ ttftMs: 1, tokensPerSecond: 5000 });
  });
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  const offlineRun = async (protocolId: ProtocolId, companyId: string, language: 'en' | 'ko' = 'en') => {
    const offline = createOfflineAnalyst();
    const run = await createRun({ db, protocolId, companyId, provider: offline, params: paramsOf(companyId, language) });
    const result = await executeRun({ db, runId: run.id, provider: offline });
    return { result, steps: await listRunSteps({ db, runId: run.id }) };
  };
  const specialistIds = (protocolId: ProtocolId) =>
    getProtocol(protocolId)
      .steps.filter((s) => s.role === 'specialist')
      .map((s) => s.id);

  it.each([
    ['sas', THIN, 'en'],
    ['sas', RICH, 'ko'],
    ['findebate', THIN, 'ko'],
    ['findebate', RICH, 'en'],
  ] as const)(
    'offline %s on %s (%s): every specialist passes with findings citing what it was shown, or says nothing in the field',
    async (protocolId, companyId, language) => {
      const { result, steps } = await offlineRun(protocolId, companyId, language);
      expect(result.status, result.error).toBe('succeeded');
      const silent: string[] = [];
      for (const id of specialistIds(protocolId)) {
        const step = steps.find((s) => s.stepId === id)!;
        expect(step.status, id).toBe('done');
        const out = step.output as Briefing;
        if (out.nothingInMaterial) {
          silent.push(id);
          expect(out.claims, id).toEqual([]);
          expect(out.text.length, id).toBeGreaterThan(20);
        } else {
          expect(out.claims.length, id).toBeGreaterThan(0);
          // No citation the engine could not match to what the step was shown.
          expect(
            step.repairs.filter((r) => r.kind === 'citation-unverified'),
            id,
          ).toEqual([]);
        }
      }
      // The thin pool leaves some lanes with nothing, said so; the rich one has findings in every lane.
      // (Travelers: no item states a figure; nothing on collateral, certifications or support.)
      const expected = { sas: { [THIN]: ['B-F'], [RICH]: [] }, findebate: { [THIN]: ['S-COLL'], [RICH]: [] } }[protocolId][companyId];
      expect(silent).toEqual(expected);
    },
    60_000,
  );

  it('sends one sentence with no findings back once, with the rule in words, and fails the step when the repair is as empty', async () => {
    const reference = await offlineRun('sas', RICH);
    const empty = JSON.stringify({ text: 'Management appears competent and stable.', claims: [] });
    fake.setScript([
      { match: 'Step B-M (', reply: empty, times: 2 },
      ...reference.steps.filter((s) => s.stepId !== 'B-M').map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })),
    ]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'sas', companyId: RICH, provider, params: paramsOf(RICH) });
    const from = fake.requests.length;
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status).toBe('failed');

    const asked = fake.requests.slice(from).filter((r) => JSON.stringify(r.body?.messages ?? []).includes('Step B-M ('));
    expect(asked).toHaveLength(2);
    // The repair quotes the rule: a cited finding, or the explicit nothing.
    const repair = JSON.stringify(asked[1].body!.messages);
    expect(repair).toContain('the briefing has no finding: give at least one claim citing an item or passage you were shown');
    expect(repair).toContain('set nothingInMaterial to true, leave claims empty and say so in text');

    const bm = (await listRunSteps({ db, runId: run.id })).find((s) => s.stepId === 'B-M')!;
    expect(bm.status).toBe('failed');
    expect(bm.error).toMatch(/the briefing has no finding/);
    expect(bm.repairs.map((r) => r.kind)).toEqual(['repair-request']);
  }, 60_000);

  it('takes the explicit nothing as the repair, and the steps after it are told so in words', async () => {
    // On the thin pool the factual specialist has no figure to report: its reference answer says so.
    const reference = await offlineRun('sas', THIN);
    expect((reference.steps.find((s) => s.stepId === 'B-F')!.output as Briefing).nothingInMaterial).toBe(true);
    fake.setScript([
      { match: 'Step B-F (', reply: JSON.stringify({ text: 'Nothing notable.', claims: [] }), times: 1 },
      ...reference.steps.map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })),
    ]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'sas', companyId: THIN, provider, params: paramsOf(THIN) });
    const from = fake.requests.length;
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status, result.error).toBe('succeeded');
    const steps = await listRunSteps({ db, runId: run.id });
    const bf = steps.find((s) => s.stepId === 'B-F')!;
    expect(bf.attempt).toBe(2);
    expect((bf.output as Briefing).nothingInMaterial).toBe(true);
    // The openings read the silent briefing as such, not as an empty one.
    const opening = fake.requests.slice(from).find((r) => JSON.stringify(r.body?.messages ?? []).includes('Step O-A ('))!;
    expect(JSON.stringify(opening.body!.messages)).toContain('finding: none — this specialist found nothing on its topic in the material it was given.');
  }, 60_000);
});
