// Sectioned steps (docs/protocols.md, "Sections"): the long final reports are written as section
// calls at the same time, then an overview from them. The report must be the one-call report —
// same schema, same final checks, same reasoning tree and REI — with its topics in section order
// whichever section finishes first; a failing section fails the step with its reason; and the
// step's tokens and cost are every call's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getReport, getRun, listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { runBus } from '@/lib/debate/bus';
import { takeIn } from '@/lib/debate/intake';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { OUTPUT_SCHEMAS, type OutputKind } from '@/lib/domain/outputs';
import type { ProtocolId, RunEvent } from '@/lib/domain/protocol';
import { coversFactor, joinSections, sectionCalls, sectionOf } from '@/lib/domain/sections';
import { REPORT_SECTIONS } from '@/lib/debate/protocols/report-sections';
import { buildReasoningTree } from '@/lib/eval/tree';
import { reasonText, stopPhrase } from '@/lib/i18n/failures';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { costOf } from '@/lib/llm/prices';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';

const params = { asOf: '2025-06-30', language: 'en' as const };
const MODEL = 'gpt-4o-mini';

/** The offline analyst posing as a priced model; each call recorded with its part, `change` may alter or delay it. */
function recording(change?: (req: GenerateRequest, result: GenerateResult) => Promise<GenerateResult> | GenerateResult) {
  const inner = createOfflineAnalyst();
  const calls: { step: string; part?: string; promptTokens: number; completionTokens: number; endedAt?: number }[] = [];
  const provider: ModelProvider = {
    name: 'openai',
    model: MODEL,
    isLLM: true,
    async generate(req) {
      const result = await inner.generate(req);
      // What the analyst streamed is spent, whether or not the call then returns.
      const call: (typeof calls)[number] = { step: req.step.id, part: req.part?.key, ...result.usage };
      calls.push(call);
      const changed = change ? await change(req, result) : result;
      call.endedAt = performance.now();
      return changed;
    },
  };
  return { provider, calls };
}

const treeOf = (steps: { stepId: string; output: unknown }[], protocol: ProtocolId) => {
  const defs = getProtocol(protocol).steps;
  return buildReasoningTree(
    steps.map((s) => ({ stepId: s.stepId, team: defs.find((d) => d.id === s.stepId)!.team, act: defs.find((d) => d.id === s.stepId)!.act, output: s.output })),
  );
};

describe.each(testBackends())('sectioned reports, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  }, 90_000);
  afterAll(() => handle?.close());

  const runOf = async (
    protocolId: ProtocolId,
    companyId: string,
    provider: ModelProvider,
    options: { wholeCalls?: boolean; mode?: 'dag' | 'sequential' } = {},
  ) => {
    const run = await createRun({ db, protocolId, companyId, provider, params, mode: options.mode });
    const result = await executeRun({ db, runId: run.id, provider, wholeCalls: options.wholeCalls });
    return { run, result, steps: await listRunSteps({ db, runId: run.id }), report: await getReport({ db, runId: run.id }) };
  };

  it.each([
    ['kpd-mads', 'samsung-electronics'],
    ['kpd-mads', 'tesla'],
    ['nas', 'samsung-electronics'],
  ] as const)(
    '%s on %s: the sectioned report is the one-call report, in section order, with the same checks and tree',
    async (protocolId, companyId) => {
      const protocol = getProtocol(protocolId);
      const reportStep = getStep(protocol, protocol.reportStep);
      const kind = reportStep.output as OutputKind;
      const sectioned = await runOf(protocolId, companyId, createOfflineAnalyst());
      const whole = await runOf(protocolId, companyId, createOfflineAnalyst(), { wholeCalls: true });
      expect(sectioned.result.status, sectioned.result.error).toBe('succeeded');
      expect(whole.result.status, whole.result.error).toBe('succeeded');

      // The same step ids, one row each.
      expect(sectioned.steps.map((s) => s.stepId)).toEqual(whole.steps.map((s) => s.stepId));
      const mine = sectioned.steps.find((s) => s.stepId === reportStep.id)!;
      const theirs = whole.steps.find((s) => s.stepId === reportStep.id)!;
      expect(OUTPUT_SCHEMAS[kind].safeParse(mine.output).success).toBe(true);
      // The one-call answer with its list entries in section order: the parts joined.
      const calls = sectionCalls(reportStep.sections!);
      const expected = joinSections(
        kind,
        calls.map((c) => ({ fields: c.fields, output: sectionOf(kind, theirs.output, c) })),
      );
      expect(mine.output).toEqual(expected);
      expect(mine.text).toBe(theirs.text);
      // Nothing lost or added: every field holds what the one-call answer holds.
      for (const key of Object.keys(OUTPUT_SCHEMAS[kind].shape)) {
        const a = (mine.output as Record<string, unknown>)[key];
        const b = (theirs.output as Record<string, unknown>)[key];
        if (Array.isArray(a)) expect([...a].map((x) => JSON.stringify(x)).sort(), key).toEqual([...(b as unknown[])].map((x) => JSON.stringify(x)).sort());
        else expect(a, key).toEqual(b);
      }

      // The same final checks with the same findings, and the same reasoning tree and REI.
      const checks = (r: typeof sectioned.report) =>
        (r!.checks as { id: string; ok: boolean; items: string[] }[]).map((c) => ({ id: c.id, ok: c.ok, items: [...c.items].sort() }));
      expect(checks(sectioned.report)).toEqual(checks(whole.report));
      expect(checks(sectioned.report).find((c) => c.id === 'red-flags-addressed')?.ok ?? true).toBe(true);
      const [t1, t2] = [treeOf(sectioned.steps, protocolId), treeOf(whole.steps, protocolId)];
      expect(t1.rei).toBe(t2.rei);
      expect(t1.breadth).toBe(t2.breadth);
      expect([...t1.depths].sort()).toEqual([...t2.depths].sort());
      if (kind === 'report') expect(t1.rei).toBeGreaterThan(0);
    },
    120_000,
  );

  it('keeps the sections in order on the live page and in the report when they finish out of order', async () => {
    // The first section (governance, where Samsung's red flags are read) answers last.
    const { provider, calls } = recording(async (req, result) => {
      if (req.part?.key === 'governance') await new Promise((resolve) => setTimeout(resolve, 300));
      return result;
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider, params });
    const events: RunEvent[] = [];
    const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
    const result = await executeRun({ db, runId: run.id, provider });
    unsubscribe();
    expect(result.status, result.error).toBe('succeeded');

    const ended = (part: string) => calls.find((c) => c.step === 'AG' && c.part === part)!.endedAt!;
    // It did finish out of order: every other section before it.
    for (const part of ['business', 'summaries']) expect(ended(part)).toBeLessThan(ended('governance'));
    const ag = (await listRunSteps({ db, runId: run.id })).find((s) => s.stepId === 'AG')!;
    const topics = (ag.output as { topics: { topic: string; factor: string }[] }).topics;
    // Governance first in the report, then the groups in their declared order.
    const topicSections = REPORT_SECTIONS.parts.filter((p) => p.factors);
    const sectionOfFactor = (f: string) => topicSections.findIndex((p) => coversFactor(p.factors!, f));
    const order = topics.map((t) => sectionOfFactor(t.factor));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(topics[0].factor).toBe('internal_control_risk');
    expect(new Set(order).size).toBe(topicSections.length);
    // The live page got the topics in the report's order in every partial answer, governance's
    // first though it came last, and all of them in the last one.
    const partials = events.filter((e): e is Extract<RunEvent, { type: 'step-partial' }> => e.type === 'step-partial' && e.stepId === 'AG');
    const topicsOf = (e: (typeof partials)[number]) => (e.output as { topics?: { topic?: string; factor?: string }[] }).topics ?? [];
    for (const e of partials) {
      const shown = topicsOf(e).flatMap((t) => (t.factor ? [sectionOfFactor(t.factor)] : []));
      expect(shown).toEqual([...shown].sort((x, y) => x - y));
    }
    expect(topicsOf(partials.at(-1)!).map((t) => t.topic)).toEqual(topics.map((t) => t.topic));
    // One step-started for the step, however many calls it made.
    expect(events.filter((e) => e.type === 'step-started' && e.stepId === 'AG')).toHaveLength(1);
    // The overview's prose streamed as the step's text.
    expect(partials.at(-1)!.text).toBe(ag.text);
  }, 120_000);

  it("counts every call's tokens and cost on the step and the run", async () => {
    const { provider, calls } = recording();
    const { result, steps, run } = await runOf('kpd-mads', 'samsung-electronics', provider);
    expect(result.status, result.error).toBe('succeeded');
    const agCalls = calls.filter((c) => c.step === 'AG');
    expect(agCalls.map((c) => c.part).sort()).toEqual(['business', 'governance', 'overview', 'summaries']);
    const ag = steps.find((s) => s.stepId === 'AG')!;
    const sum = { promptTokens: agCalls.reduce((n, c) => n + c.promptTokens, 0), completionTokens: agCalls.reduce((n, c) => n + c.completionTokens, 0) };
    expect({ promptTokens: ag.promptTokens, completionTokens: ag.completionTokens }).toEqual(sum);
    expect(Number(ag.costUsd)).toBeCloseTo(costOf(MODEL, sum), 6);
    const saved = await getRun({ db, id: run.id });
    expect(saved!.promptTokens).toBe(calls.reduce((n, c) => n + c.promptTokens, 0));
    expect(saved!.completionTokens).toBe(calls.reduce((n, c) => n + c.completionTokens, 0));
  }, 120_000);

  it('a section that fails twice fails the step with its reason, stops the others, and its spend is kept', async () => {
    // An answer of the wrong shape, twice: `topics` must be a list.
    const wrong = JSON.stringify({ topics: 'none on these factors' });
    // Another section would take five seconds: it is stopped instead.
    const slow = (signal: AbortSignal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 5000);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      });
    const { provider, calls } = recording(async (req, result) => {
      if (req.part?.key === 'summaries') await slow(req.signal);
      return req.part?.key === 'business' ? { ...result, raw: wrong } : result;
    });
    const started = performance.now();
    const { result, steps, run } = await runOf('kpd-mads', 'samsung-electronics', provider);
    expect(result.status).toBe('failed');
    const ag = steps.find((s) => s.stepId === 'AG')!;
    expect(ag.status).toBe('failed');
    const taken = takeIn('report', { raw: wrong }, { fields: ['topics'] });
    expect(taken.ok).toBe(false);
    const problems = taken.ok ? [] : taken.problems;
    expect(problems[0]).toMatch(/^topics: /);
    expect(ag.error).toBe(reasonText(stopPhrase('rulesAfterRepair', { problems: problems.join(' ') })));
    // Asked once more, as any answer; the repair says which section it was.
    expect(calls.filter((c) => c.part === 'business')).toHaveLength(2);
    expect(ag.repairs).toContainEqual(expect.objectContaining({ kind: 'repair-request', attempt: 1, part: 'business' }));
    expect(calls.find((c) => c.part === 'summaries')?.endedAt).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5000);
    // No overview once a section failed.
    expect(calls.some((c) => c.part === 'overview')).toBe(false);
    // What every call of the step spent is on it, the stopped one's too.
    const agCalls = calls.filter((c) => c.step === 'AG');
    expect(ag.promptTokens).toBe(agCalls.reduce((n, c) => n + c.promptTokens, 0));
    const saved = await getRun({ db, id: run.id });
    expect(saved!.status).toBe('failed');
  }, 120_000);

  it('keeps each section to its factors when a model writes every topic in every call', async () => {
    const inner = createOfflineAnalyst();
    const provider: ModelProvider = {
      name: 'openai',
      model: MODEL,
      isLLM: true,
      // The whole report in answer to every section call, as a model that ignores its part might.
      generate: (req) => inner.generate(req.part && !req.part.overview ? { ...req, part: undefined } : req),
    };
    const { result, steps } = await runOf('kpd-mads', 'samsung-electronics', provider);
    expect(result.status, result.error).toBe('succeeded');
    const whole = await runOf('kpd-mads', 'samsung-electronics', createOfflineAnalyst(), { wholeCalls: true });
    const ag = steps.find((s) => s.stepId === 'AG')!;
    const one = whole.steps.find((s) => s.stepId === 'AG')!;
    const calls = sectionCalls(getStep(getProtocol('kpd-mads'), 'AG').sections!);
    // Each topic once, in section order: what the one-call report holds.
    expect(ag.output).toEqual(
      joinSections(
        'report',
        calls.map((c) => ({ fields: c.fields, output: sectionOf('report', one.output, c) })),
      ),
    );
    const topics = (one.output as { topics: { factor: string }[] }).topics;
    const outside = (key: string) => topics.filter((t) => !coversFactor(calls.find((c) => c.key === key)!.factors!, t.factor)).length;
    // What each topic call dropped, and the summaries call the fields it does not write, is on the step.
    for (const key of ['governance', 'business']) {
      const n = outside(key);
      expect(
        ag.repairs.filter((r) => r.part === key && r.kind === 'field-dropped').map((r) => r.detail),
        key,
      ).toContain(`dropped ${n} entr${n === 1 ? 'y' : 'ies'} on factors another section writes`);
    }
  }, 120_000);

  it('runs the sections one at a time in sequential mode', async () => {
    const starts: { part?: string; at: number; end?: number }[] = [];
    const inner = createOfflineAnalyst();
    const provider: ModelProvider = {
      ...inner,
      name: inner.name,
      model: inner.model,
      isLLM: false,
      async generate(req) {
        const entry: (typeof starts)[number] = { part: req.part?.key, at: performance.now() };
        starts.push(entry);
        const result = await inner.generate(req);
        entry.end = performance.now();
        return result;
      },
    };
    const { result } = await runOf('nas', 'samsung-electronics', provider, { mode: 'sequential' });
    expect(result.status, result.error).toBe('succeeded');
    expect(starts.map((s) => s.part)).toEqual(['governance', 'market', 'firm', 'summaries', 'overview']);
    for (let i = 1; i < starts.length; i++) expect(starts[i].at).toBeGreaterThanOrEqual(starts[i - 1].end!);
  }, 120_000);
});
