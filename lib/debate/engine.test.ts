import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRunSteps, markStepRunning, setRunStatus } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { companies, evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { runBus } from '@/lib/debate/bus';
import { eventsAfter } from '@/lib/debate/event-log';
import { loadLiveState } from '@/lib/report/live-state';
import type { LiveRunState } from '@/lib/report/run-state';
import { cancelRun, createRun, executeRun, retryFailedSteps } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { loadRunView } from '@/lib/report/run-view';
import type { RunEvent } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';

/** The offline analyst with hooks: count calls, corrupt an output, or stop after some steps. */
function instrumented(hooks: { before?: (req: GenerateRequest) => Promise<void> | void; corrupt?: (req: GenerateRequest) => boolean } = {}) {
  const inner = createOfflineAnalyst();
  const calls: string[] = [];
  const provider: ModelProvider = {
    name: inner.name,
    model: inner.model,
    // Claims to be a model so the engine grants it the one repair attempt a model gets.
    isLLM: true,
    async generate(req) {
      calls.push(req.step.id);
      await hooks.before?.(req);
      const result = await inner.generate(req);
      return hooks.corrupt?.(req) ? { ...result, raw: result.raw.slice(0, Math.floor(result.raw.length / 2)) } : result;
    },
  };
  return { provider, calls };
}

describe.each(testBackends())('debate engine on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it('runs KPD-MADS on the offline analyst for every demo company with enough evidence: ten turns and the report, every citation real, nothing after as-of', async () => {
    const asOf = '2025-06-30';
    // Below the threshold (lib/debate/sufficiency.ts): Taeyoung's one filing, Monro's two items
    // on one factor, Wintec's 22 patents on one factor. Those runs end before any step: Taeyoung's
    // filing is a creditor-bank workout, a decisive red flag, so its run is a red-flag screening.
    const thin: Record<string, string> = {
      'monro-inc': 'insufficient_evidence',
      'taeyoung-engineering-construction': 'red_flag_screening',
      'wintec-automation': 'insufficient_evidence',
    };
    const ran: string[] = [];
    for (const { id } of await db.select({ id: companies.id }).from(companies)) {
      const { provider, calls } = instrumented();
      const run = await createRun({ db, protocolId: 'kpd-mads', companyId: id, provider, params: { asOf, language: id === 'tesla' ? 'en' : 'ko' } });
      const result = await executeRun({ db, runId: run.id, provider });
      if (thin[id]) {
        expect(result.status, id).toBe(thin[id]);
        expect(calls, id).toEqual([]);
        continue;
      }
      ran.push(id);
      expect(result.status, `${id}: ${result.error}`).toBe('succeeded');
      const view = await loadRunView({ db, runId: run.id });
      expect(view.turns.map((t) => t.step)).toEqual(['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG']);
      expect(view.turns.every((t) => t.status === 'done')).toBe(true);
      expect(view.report?.content).toMatchObject({ favorableSummary: expect.any(Array), adverseSummary: expect.any(Array) });
      const cited = view.turns.flatMap((t) => t.citations) as { evidenceId?: string; verified?: boolean }[];
      expect(cited.length).toBeGreaterThan(0);
      expect(
        cited.every((c) => c.verified),
        `${id}: unverified citations`,
      ).toBe(true);
      const ids = [...new Set(cited.map((c) => c.evidenceId!))];
      const rows = await db
        .select({ id: evidenceItems.id, publishedDate: evidenceItems.publishedDate })
        .from(evidenceItems)
        .where(eq(evidenceItems.companyId, id));
      const dates = new Map(rows.map((r) => [r.id, r.publishedDate]));
      for (const e of ids) expect(dates.get(e)! <= asOf, `${id}: ${e} is after as-of`).toBe(true);
      expect(view.metrics.rei).toBeGreaterThan(0);
    }
    expect(ran.sort()).toEqual(['samsung-electronics', 'tesla', 'travelers-companies']);
  }, 120_000);

  it('runs independent steps at the same time in dag mode and one by one in sequential mode', async () => {
    const overlap = async (mode: 'dag' | 'sequential') => {
      let active = 0;
      let peak = 0;
      const { provider } = instrumented({
        before: async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 30));
          active--;
        },
      });
      const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider, mode });
      expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
      return peak;
    };
    expect(await overlap('dag')).toBeGreaterThan(1);
    expect(await overlap('sequential')).toBe(1);
  });

  it('streams partial answers to every viewer and gives a late viewer the text so far', async () => {
    const { provider } = instrumented();
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider });
    const early: RunEvent[] = [];
    runBus().subscribe(run.id, (e) => early.push(e));
    // A viewer arriving once D1's end is in the run's log reads D1's whole text there.
    let late: Promise<LiveRunState> | undefined;
    const d1InLog = async () => {
      for (;;) {
        const live = await loadLiveState({ db, runId: run.id });
        if (live.turns.find((t) => t.step === 'D1')?.status === 'done') return live;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const unsubscribe = runBus().subscribe(run.id, (e) => {
      if (!late && e.type === 'step-done' && e.stepId === 'D1') late = d1InLog();
    }).unsubscribe;
    await executeRun({ db, runId: run.id, provider });
    unsubscribe();
    const d1Partials = early.flatMap((e) => (e.type === 'step-partial' && e.stepId === 'D1' ? [e.text] : []));
    const d1Done = early.find((e) => e.type === 'step-done' && e.stepId === 'D1') as { text: string };
    expect(d1Partials.at(-1)).toBe(d1Done.text);
    expect((await late!).turns.find((t) => t.step === 'D1')).toMatchObject({ status: 'done', text: d1Done.text });
    // The log holds every event the listeners heard, in the same order, a running step's answers
    // so far and spend kept only until the run ended.
    const logged = (await eventsAfter(db, run.id, 0, 10_000)).map((e) => e.event);
    expect(logged.map((e) => e.type)).toEqual(early.filter((e) => e.type !== 'step-partial' && e.type !== 'step-usage').map((e) => e.type));
    expect(logged.at(-1)).toMatchObject({ type: 'run-finished', status: 'succeeded' });
  });

  it('resumes an interrupted run from its last completed step without redoing or duplicating any', async () => {
    const first = instrumented({
      before: (req) => {
        if (req.step.id === 'D5') cancelRun(req.runId);
      },
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: first.provider, mode: 'sequential' });
    expect((await executeRun({ db, runId: run.id, provider: first.provider })).status).toBe('cancelled');
    const afterCancel = await listRunSteps({ db, runId: run.id });
    const doneBefore = afterCancel.filter((s) => s.status === 'done').map((s) => s.stepId);
    expect(doneBefore).toEqual(['D1', 'D2', 'D3', 'D4']);
    expect(afterCancel.some((s) => s.status === 'running')).toBe(false);
    // Leave the run as a killed process would: still running, with D5 half-written.
    await setRunStatus({ db, id: run.id, status: 'running' });
    await markStepRunning({ db, runId: run.id, stepId: 'D5' });

    const second = instrumented();
    expect((await executeRun({ db, runId: run.id, provider: second.provider })).status).toBe('succeeded');
    // AG is five calls: its four sections and its overview (docs/protocols.md, "Sections").
    expect(second.calls).toEqual(['D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG', 'AG', 'AG', 'AG']);
    const steps = await listRunSteps({ db, runId: run.id });
    expect(steps).toHaveLength(getProtocol('kpd-mads').steps.length);
    for (const s of steps.filter((x) => doneBefore.includes(x.stepId))) expect(s.attempt).toBe(1);
  });

  it('repairs one malformed output, fails a step that stays malformed, and retries only that step', async () => {
    let corruptD3 = 1;
    const once = instrumented({ corrupt: (req) => req.step.id === 'D3' && corruptD3-- > 0 });
    const repaired = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: once.provider });
    expect((await executeRun({ db, runId: repaired.id, provider: once.provider })).status).toBe('succeeded');
    expect(once.calls.filter((s) => s === 'D3')).toHaveLength(2);

    const always = instrumented({ corrupt: (req) => req.step.id === 'D7' });
    const broken = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: always.provider });
    const result = await executeRun({ db, runId: broken.id, provider: always.provider });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/D7 failed/);
    const steps = await listRunSteps({ db, runId: broken.id });
    expect(steps.find((s) => s.stepId === 'D7')).toMatchObject({ status: 'failed', error: expect.stringMatching(/not valid JSON/) });
    expect(steps.find((s) => s.stepId === 'D5')?.status).toBe('done');

    await retryFailedSteps({ db, runId: broken.id });
    const healthy = instrumented();
    expect((await executeRun({ db, runId: broken.id, provider: healthy.provider })).status).toBe('succeeded');
    // D7 and what could not start after it (D8, then D9 and D10, then AG); nothing else again.
    expect([...healthy.calls].sort()).toEqual(['AG', 'AG', 'AG', 'AG', 'D10', 'D7', 'D8', 'D9']);
  });
});
