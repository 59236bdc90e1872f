// A sectioned step interrupted with some of its sections written (issue 25, #9): each section is
// kept as it finishes, with what it spent, so the run that resumes asks the model only for the
// sections still missing, and what every call spent counts once on the step and the run.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getReport, getRun, listRunSteps } from '@/lib/db/queries/runs';
import { evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { cancelRun, createRun, executeRun, releaseRun, retryFailedSteps } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { partMarker } from '@/lib/debate/section-prompts';
import type { StepOutput } from '@/lib/domain/outputs';
import { coversFactor, sectionCalls, sectionOf } from '@/lib/domain/sections';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { costOf } from '@/lib/llm/prices';
import type { ModelProvider } from '@/lib/llm/types';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';

const params = { asOf: '2025-06-30', language: 'en' as const };
const MODEL = 'gpt-4o-mini';
/** The section still being written when the run stops. */
const SLOW = 'firm';
const CALLS = sectionCalls(getProtocol('nas').steps[0].sections!);
/** The sections that finish before the stop. */
const OTHERS = CALLS.filter((c) => !c.overview && c.key !== SLOW).map((c) => c.key);

type Answered = { part?: string; usage: { promptTokens: number; completionTokens: number; cachedTokens?: number } };

async function until(what: string, ok: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sum = (calls: Answered[], f: (u: Answered['usage']) => number) => calls.reduce((n, a) => n + f(a.usage), 0);

describe.each(testBackends())('a sectioned step resumed after an interruption (%s)', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let fake: FakeLlm;
  let expected: StepOutput;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    fake = await startFakeLlm({ ttftMs: 1, tokensPerSecond: 0 });
    const offline = createOfflineAnalyst();
    const reference = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    expected = (await listRunSteps({ db, runId: reference.id }))[0].output!;
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  /**
   * A NAS run through the fake model server, each call answered with its share of the offline
   * report, started and left while its slow section is still being written (its first call takes
   * far longer than the test waits) and every other section is kept.
   */
  async function startedAndWaiting() {
    const reply = (key: string) =>
      JSON.stringify(
        sectionOf(
          'report',
          expected,
          CALLS.find((c) => c.key === key)!,
        ),
      );
    fake.setScript([
      { match: partMarker('NAS', SLOW), reply: reply(SLOW), times: 1, pace: { ttftMs: 60_000 } },
      ...CALLS.map((c) => ({ match: partMarker('NAS', c.key), reply: reply(c.key) })),
    ]);
    const from = fake.requests.length;
    const asked = (key: string) => fake.requests.slice(from).filter((r) => JSON.stringify(r.body?.messages ?? []).includes(partMarker('NAS', key))).length;
    const openai = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: MODEL, sleep: async () => {} });
    // What every call that returned spent, as the provider reported it.
    const answered: Answered[] = [];
    const provider: ModelProvider = {
      ...openai,
      generate: async (req) => {
        const result = await openai.generate(req);
        answered.push({ part: req.part?.key, usage: result.usage });
        return result;
      },
    };
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider, params });
    const first = executeRun({ db, runId: run.id, provider });
    await until('the other sections are kept', async () => {
      const [row] = await listRunSteps({ db, runId: run.id });
      return asked(SLOW) === 1 && OTHERS.every((k) => (row.sections ?? []).some((s) => s.key === k));
    });
    return { run, first, asked, answered, provider };
  }

  it('asks again only the sections that had not finished, and counts the kept ones once', async () => {
    const { run, first, asked, answered, provider } = await startedAndWaiting();
    // The process stops (a worker that dies or hands the run over): the run stays running.
    expect(releaseRun(run.id)).toBe(true);
    expect((await first).status).toBe('released');
    expect((await getRun({ db, id: run.id }))!.status).toBe('running');

    // Resumed, as a restart or another worker would: only the slow section and the overview are asked.
    const resumed = await executeRun({ db, runId: run.id, provider });
    expect(resumed.status, resumed.error).toBe('succeeded');
    for (const key of OTHERS) expect(asked(key), key).toBe(1);
    expect(asked(SLOW)).toBe(2); // the call the stop cut short, and the one that wrote it
    expect(asked('overview')).toBe(1);

    // The report has every section, as the one-call report has them.
    const [step] = await listRunSteps({ db, runId: run.id });
    expect(step.status).toBe('done');
    expect(step.output).toEqual(expected);
    expect((await getReport({ db, runId: run.id }))!.content).toEqual(expected);

    // Every call that returned counts once on the step and the run (the one cut short by the
    // stop was never reported by the provider, as when a process dies).
    expect(answered.map((a) => a.part).sort()).toEqual([...OTHERS, SLOW, 'overview'].sort());
    expect(step.promptTokens).toBe(sum(answered, (u) => u.promptTokens));
    expect(step.completionTokens).toBe(sum(answered, (u) => u.completionTokens));
    expect(step.cachedTokens).toBe(sum(answered, (u) => u.cachedTokens ?? 0));
    expect(Number(step.costUsd)).toBeCloseTo(
      answered.reduce((n, a) => n + costOf(MODEL, a.usage), 0),
      5,
    );
    const totals = (await getRun({ db, id: run.id }))!;
    expect([totals.promptTokens, totals.completionTokens]).toEqual([step.promptTokens, step.completionTokens]);
    expect(Number(totals.costUsd)).toBeCloseTo(Number(step.costUsd), 6);
    // The step saved, its sections are no longer kept beside it.
    expect(step.sections).toBeNull();
  }, 60_000);

  it('a run cancelled with sections kept counts them in its totals then, and its retry neither asks nor counts them again', async () => {
    const { run, first, asked, answered, provider } = await startedAndWaiting();
    expect(cancelRun(run.id)).toBe(true);
    expect((await first).status).toBe('cancelled');
    // The run's totals took what the kept sections spent (and the call cut short); they say so.
    const atCancel = (await getRun({ db, id: run.id }))!;
    expect(atCancel.promptTokens).toBeGreaterThanOrEqual(sum(answered, (u) => u.promptTokens));
    const [stopped] = await listRunSteps({ db, runId: run.id });
    // Kept in the order they finished, which concurrent sections do not fix: compared by key.
    expect(stopped.sections!.map((k) => [k.key, k.counted]).sort()).toEqual(OTHERS.map((k) => [k, true]).sort());

    const before = answered.length;
    expect(await retryFailedSteps({ db, runId: run.id })).toBe(true);
    const again = await executeRun({ db, runId: run.id, provider });
    expect(again.status, again.error).toBe('succeeded');
    for (const key of OTHERS) expect(asked(key), key).toBe(1);
    expect(asked(SLOW)).toBe(2);
    const [step] = await listRunSteps({ db, runId: run.id });
    expect(step.output).toEqual(expected);
    // The retry adds only its own calls: the slow section and the overview.
    const retried = answered.slice(before);
    expect(retried.map((a) => a.part).sort()).toEqual([SLOW, 'overview'].sort());
    expect(step.promptTokens).toBe(sum(retried, (u) => u.promptTokens));
    expect((await getRun({ db, id: run.id }))!.promptTokens).toBe(atCancel.promptTokens + sum(retried, (u) => u.promptTokens));
  }, 60_000);

  it('asks a kept section again when its prompt changed meanwhile, and only those, and still counts what the kept one spent', async () => {
    const { run, first, asked, answered, provider } = await startedAndWaiting();
    expect(releaseRun(run.id)).toBe(true);
    expect((await first).status).toBe('released');
    // An RM edits an item the step is shown: the prompt the kept sections answered is not the one asked now.
    const [item] = await db
      .select()
      .from(evidenceItems)
      .where(and(eq(evidenceItems.companyId, 'tesla'), eq(evidenceItems.id, 'tesla-024')));
    await db
      .update(evidenceItems)
      .set({ title: `${item.title} (reviewed)` })
      .where(eq(evidenceItems.id, item.id));
    try {
      const resumed = await executeRun({ db, runId: run.id, provider });
      expect(resumed.status, resumed.error).toBe('succeeded');
    } finally {
      await db.update(evidenceItems).set({ title: item.title }).where(eq(evidenceItems.id, item.id));
    }
    // A section on some factors is shown the items on them only (lib/debate/section-prompts.ts):
    // the edit changes the prompt of the sections that show the item, and no other.
    const changed = OTHERS.filter((key) => {
      const call = CALLS.find((c) => c.key === key)!;
      return !call.factors || coversFactor(call.factors, item.factor);
    });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(OTHERS.length);
    for (const key of OTHERS) expect(asked(key), key).toBe(changed.includes(key) ? 2 : 1);
    expect(asked(SLOW)).toBe(2);
    expect(asked('overview')).toBe(1);
    // Paid twice, counted twice: the kept answers were not used, but their calls were made.
    const [step] = await listRunSteps({ db, runId: run.id });
    expect(answered.map((a) => a.part).sort()).toEqual([...OTHERS, ...changed, SLOW, 'overview'].sort());
    expect(step.promptTokens).toBe(sum(answered, (u) => u.promptTokens));
    expect((await getRun({ db, id: run.id }))!.promptTokens).toBe(step.promptTokens);
  }, 60_000);
});
