// Protocol inputs as published, through the engine (docs/protocols.md): SAS's stress test gets
// the winning case only and its lead analyst the whole debate; a KPD-MADS constructive short of
// three signals in its direction searches the web when search is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, executeRun, type WebSearchFn } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { seedDemo } from '@/lib/demo/seed';
import type { Claim } from '@/lib/domain/outputs';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider, WebEvidence } from '@/lib/llm/types';

/** The offline analyst, seen as a model, recording each request; `after` may rewrite the answer. */
function recording(after?: (req: GenerateRequest, raw: string) => Promise<string>) {
  const inner = createOfflineAnalyst();
  const requests = new Map<string, GenerateRequest[]>();
  const provider: ModelProvider = {
    name: inner.name,
    model: inner.model,
    isLLM: true,
    async generate(req) {
      requests.set(req.step.id, [...(requests.get(req.step.id) ?? []), req]);
      const result = await inner.generate(req);
      return after ? { ...result, raw: await after(req, result.raw) } : result;
    },
  };
  return { provider, requests };
}

/** A search provider that finds two dated trade-press pages per query. */
function fakeSearch(runId: string): { search: WebSearchFn; queries: string[] } {
  const queries: string[] = [];
  let n = 0;
  const search: WebSearchFn = async (query) => {
    queries.push(query);
    return [1, 2].map((): WebEvidence => {
      n++;
      return {
        id: `web-${runId}-${n}`,
        companyId: 'travelers-companies',
        category: 'news',
        title: `Travelers renewal pricing holds, report ${n}`,
        text: 'Renewal premium change stayed positive across commercial lines in the first quarter.',
        value: null,
        eventDate: null,
        publishedDate: '2021-04-20',
        sourceName: 'Insurance Journal',
        sourceUrl: `https://www.insurancejournal.com/news/national/2021/04/20/${n}.htm`,
        language: 'en',
        upstream: 'websearch:test',
        license: null,
        retrievedAt: new Date('2021-06-01T00:00:00Z'),
      };
    });
  };
  return { search, queries };
}

describe.each(testBackends())('protocol inputs through the engine, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  }, 90_000);
  afterAll(() => handle?.close());

  it("SAS: the stress test receives the upheld side's turns and the verdict only; the lead analyst the briefings, the whole debate, the verdict and the critique", async () => {
    const { provider, requests } = recording();
    const run = await createRun({ db, protocolId: 'sas', companyId: 'samsung-electronics', provider, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const steps = await listRunSteps({ db, runId: run.id });
    const winner = (steps.find((s) => s.stepId === 'JUDGE')!.output as { winner: 'affirmative' | 'negative' }).winner;
    const own = winner === 'affirmative' ? ['O-A', 'R-A', 'F-A', 'X-A'] : ['O-N', 'R-N', 'F-N', 'X-N'];
    const stress = requests.get('STRESS')![0];
    expect(stress.context.map((t) => t.stepId)).toEqual([...own, 'JUDGE']);
    expect(new Set(stress.context.map((t) => t.team))).toEqual(new Set([winner, 'neutral']));
    const lead = requests.get('LEAD')![0];
    const ids = getProtocol('sas').steps.map((s) => s.id);
    expect(lead.context.map((t) => t.stepId)).toEqual(ids.slice(0, ids.indexOf('LEAD')));
  });

  it('KPD-MADS with search configured: a constructive short of three signals that does not search is sent back, then fails', async () => {
    // Travelers as of mid-2021: two items read either way (competition, employment), one adverse.
    const { provider, requests } = recording();
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'travelers-companies', provider, params: { asOf: '2021-06-30', language: 'en' } });
    const { search, queries } = fakeSearch(run.id);
    const result = await executeRun({ db, runId: run.id, provider, webSearch: search });
    expect(result.status).toBe('failed');
    expect(queries).toEqual([]);
    const d1 = requests.get('D1')!;
    expect(d1).toHaveLength(2);
    expect(d1[0].prompt.user).toContain('offers 2 signals in your direction, fewer than 3: search the web for more before you answer');
    expect(d1[1].repair?.problems).toContain(
      'the evidence you were shown offers 2 signals in your direction, fewer than 3: search the web for more before you answer, and cite what you find.',
    );
    const saved = (await listRunSteps({ db, runId: run.id })).find((s) => s.stepId === 'D1')!;
    expect(saved).toMatchObject({ status: 'failed', error: expect.stringMatching(/search the web/) });
  });

  it('KPD-MADS with search configured: a constructive that searches is held to three signals and cites what it found', async () => {
    const { provider, requests } = recording(async (req, raw) => {
      if (!req.step.rules?.searchBelowSignals || !req.tools.webSearch) return raw;
      const found = await req.tools.webSearch(`${req.company.name} renewal pricing 2021`);
      const out = JSON.parse(raw) as { claims: Claim[] };
      const polarity = req.step.rules.polarity === 'favorable' ? 'favorable' : 'context';
      for (const w of found) {
        if (out.claims.length >= 3) break;
        out.claims.push({
          id: `${req.step.id}-c${out.claims.length + 1}`,
          text: `${w.title} (${w.sourceName}, ${w.publishedDate}).`,
          factor: 'other',
          polarity,
          citations: [{ evidenceId: w.id, source: w.sourceName, date: w.publishedDate }],
        });
      }
      return JSON.stringify(out);
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'travelers-companies', provider, params: { asOf: '2021-06-30', language: 'en' } });
    const { search, queries } = fakeSearch(run.id);
    expect((await executeRun({ db, runId: run.id, provider, webSearch: search })).status).toBe('succeeded');
    expect(requests.get('D1')).toHaveLength(1);
    expect(queries.length).toBeGreaterThanOrEqual(2);
    const steps = await listRunSteps({ db, runId: run.id });
    const d1 = steps.find((s) => s.stepId === 'D1')!.output as { claims: (Claim & { citations: { evidenceId?: string; verified?: boolean }[] })[] };
    expect(d1.claims).toHaveLength(3);
    expect(
      d1.claims
        .flatMap((c) => c.citations)
        .filter((c) => c.evidenceId?.startsWith(`web-${run.id}-`))
        .every((c) => c.verified),
    ).toBe(true);
    expect(((await getRun({ db, id: run.id }))!.webEvidence ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('KPD-MADS without search, or on the offline analyst: the minimum shrinks to the signals the pool offers', async () => {
    const offline = createOfflineAnalyst();
    const bare = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: 'travelers-companies',
      provider: offline,
      params: { asOf: '2021-06-30', language: 'en' },
    });
    expect((await executeRun({ db, runId: bare.id, provider: offline })).status).toBe('succeeded');
    // With a search provider configured, the offline analyst (which never searches) is not held to it.
    const withSearch = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: 'travelers-companies',
      provider: offline,
      params: { asOf: '2021-06-30', language: 'en' },
    });
    const { search, queries } = fakeSearch(withSearch.id);
    expect((await executeRun({ db, runId: withSearch.id, provider: offline, webSearch: search })).status).toBe('succeeded');
    expect(queries).toEqual([]);
    // A model without search configured is not told to search either.
    const { provider, requests } = recording();
    const model = await createRun({ db, protocolId: 'kpd-mads', companyId: 'travelers-companies', provider, params: { asOf: '2021-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: model.id, provider })).status).toBe('succeeded');
    expect(requests.get('D1')![0].prompt.user).not.toContain('fewer than 3: search the web');
  });
});
