// The debate engine against the fake OpenAI-compatible server at a fixed latency model:
// NAS, KPD-MADS sequential and concurrent per case, the concurrent/sequential
// ratio against the ideal critical-path ratio, engine overhead, token fan-out latency, prompt
// tokens against passing the whole transcript to every step, the share of a case's prompt tokens
// a provider's prefix cache can serve and the cost with and without it, and a batch at
// concurrency 8.
// The fake answers each step with what the offline analyst wrote for the same company, so every
// step passes the protocol rules and the model's time is the latency model's alone.
import type { Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun, type ExecuteResult, type StepTiming } from '@/lib/debate/engine';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { buildPrompt } from '@/lib/debate/prompts';
import { getProtocol } from '@/lib/debate/protocols';
import { sectionPrompt } from '@/lib/debate/section-prompts';
import { OVERVIEW_PART, sectionCalls, sectionOf } from '@/lib/domain/sections';
import type { ProtocolId, RunMode, RunParams } from '@/lib/domain/protocol';
import { buildMessages, createOpenAiProvider } from '@/lib/llm/openai';
import { costOf } from '@/lib/llm/prices';
import { cacheableShare, serializeMessages } from '@/lib/llm/prompt-cache';
import { stepCall, type GenerateRequest, type ModelProvider } from '@/lib/llm/types';
import { readEvidence } from '@/lib/pool/as-of';
import type { ScriptEntry } from '../fake-llm/server';
import { referenceScript } from '../cluster/reference-script';
import { startFakeLlmProcess, type FakeProcess } from './fake-process';
import { median, percentile, round } from './stats';
import type { Benchmark, BenchRow } from './types';

// The demo companies whose pool clears the evidence threshold at the as-of date (lib/debate/
// sufficiency.ts); Wintec (patents only), Monro and Taeyoung would end before any step.
const COMPANIES = ['samsung-electronics', 'tesla', 'travelers-companies'];
const PARAMS = { asOf: '2024-12-31', language: 'en' as const };

const mb = (bytes: number) => round(bytes / 2 ** 20, 0);

/** This process's memory every 100 ms; `peak()` is the sample with the highest RSS, with its breakdown. */
function memorySampler() {
  let peak = process.memoryUsage();
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
  }, 100);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

/**
 * The longest chain of model times through the protocol's context graph. A sectioned step
 * (docs/protocols.md, "Sections") takes its longest section and then its overview; any other
 * step its one call.
 */
function idealCriticalMs(protocol: ProtocolId, timings: StepTiming[]) {
  const steps = getProtocol(protocol).steps;
  const byStep = new Map(timings.map((t) => [t.stepId, t]));
  const own = (stepId: string) => {
    const t = byStep.get(stepId);
    if (!t?.parts?.length) return t?.modelMs ?? 0;
    const sections = t.parts.filter((p) => p.key !== OVERVIEW_PART).map((p) => p.modelMs);
    return Math.max(0, ...sections) + t.parts.filter((p) => p.key === OVERVIEW_PART).reduce((n, p) => n + p.modelMs, 0);
  };
  const finish = new Map<string, number>();
  for (const s of steps) finish.set(s.id, Math.max(0, ...s.context.map((c) => finish.get(c) ?? 0)) + own(s.id));
  return Math.max(...finish.values());
}

async function timedRun(db: Db, provider: ModelProvider, protocol: ProtocolId, companyId: string, mode: RunMode, providerConcurrency = 64) {
  const run = await createRun({ db, protocolId: protocol, companyId, provider, mode, params: PARAMS });
  const result: ExecuteResult = await executeRun({ db, runId: run.id, provider, providerConcurrency });
  if (result.status !== 'succeeded') throw new Error(`${protocol} ${mode} on ${companyId} ${result.status}: ${result.error}`);
  const steps = await listRunSteps({ db, runId: run.id });
  const sum = (f: (s: (typeof steps)[number]) => number) => steps.reduce((n, s) => n + f(s), 0);
  return {
    ...result,
    runId: run.id,
    promptTokens: sum((s) => s.promptTokens),
    /** What the endpoint said its prompt cache served. */
    cachedTokens: sum((s) => s.cachedTokens),
    /** As saved: cached prompt tokens at the cached-input price. */
    costUsd: sum((s) => Number(s.costUsd)),
    /** The same tokens, every prompt token at the full input price. */
    uncachedCostUsd: sum((s) => costOf(provider.model, { promptTokens: s.promptTokens, completionTokens: s.completionTokens })),
  };
}

/**
 * The provider, keeping each request as the engine hands it over, in order; its messages are
 * rendered (buildMessages, what the provider sends) after the run, so the timing is untouched.
 */
function recording(provider: ModelProvider) {
  const requests: GenerateRequest[] = [];
  const wrapped: ModelProvider = {
    ...provider,
    name: provider.name,
    model: provider.model,
    isLLM: true,
    generate: (req) => (requests.push(req), provider.generate(req)),
  };
  const messages = () => requests.map((req) => serializeMessages(buildMessages(stepCall(req), 'json_schema')));
  return { provider: wrapped, messages };
}

/** Prompt size of every KPD-MADS step as the engine builds it, against the whole transcript and the whole pool. */
async function promptRatio(db: Db, runId: string, companyId: string) {
  const protocol = getProtocol('kpd-mads');
  const steps = await listRunSteps({ db, runId });
  const evidence = await readEvidence({ db, companyId, asOf: PARAMS.asOf, recencyDays: 3 * 365 });
  const params: RunParams = { ...PARAMS, recencyDays: 3 * 365, maxWebResults: 5, maxConcurrency: 8 };
  const company = { id: companyId, name: companyId, nameEn: null, country: 'KR', industry: null, description: null };
  let declared = 0;
  let full = 0;
  protocol.steps.forEach((step, i) => {
    const turn = (id: string) => {
      const s = steps.find((x) => x.stepId === id)!;
      const def = protocol.steps.find((d) => d.id === id)!;
      return { stepId: id, agent: def.agent, team: def.team, act: def.act, text: s.text ?? '', output: s.output };
    };
    // Baseline: every step that reads the pool gets all of it, and the whole transcript so far.
    const base = { runId, protocol, step, params, company, evidence: step.evidence === 'none' ? [] : evidence, passages: [] };
    // One prompt per step in both, what context scoping saves; a sectioned step's further calls
    // repeat its prompt in both and are counted on their own (sectionedPromptRatio).
    const sizeOf = (input: typeof base, context: ReturnType<typeof turn>[]) => {
      const p = buildPrompt({ ...input, context });
      return p.system.length + p.user.length;
    };
    // The engine: the declared context and the evidence the step may see of it.
    const context = step.context.map(turn);
    declared += sizeOf({ ...base, evidence: visibleEvidence(step, evidence, context) }, context);
    // The baseline step declares every earlier step as its context (buildPrompt renders only
    // what a step declares, whatever the caller passes).
    const earlier = protocol.steps.slice(0, i).map((s) => s.id);
    full += sizeOf({ ...base, step: { ...step, context: earlier } }, earlier.map(turn));
  });
  return declared / full;
}

/**
 * What a sectioned report step sends against what one call would: every section's prompt and the
 * overview's (with what the sections wrote), over the step's one prompt (docs/protocols.md, "Sections").
 */
async function sectionedPromptRatio(db: Db, runId: string, companyId: string) {
  const protocol = getProtocol('kpd-mads');
  const step = protocol.steps.find((s) => s.id === protocol.reportStep)!;
  const steps = await listRunSteps({ db, runId });
  const params: RunParams = { ...PARAMS, recencyDays: 3 * 365, maxWebResults: 5, maxConcurrency: 8 };
  const company = { id: companyId, name: companyId, nameEn: null, country: 'KR', industry: null, description: null };
  const context = step.context.map((id) => {
    const def = protocol.steps.find((d) => d.id === id)!;
    const s = steps.find((x) => x.stepId === id)!;
    return { stepId: id, agent: def.agent, team: def.team, act: def.act, text: s.text ?? '', output: s.output };
  });
  const input = { runId, protocol, step, params, company, evidence: [], passages: [], context };
  const one = buildPrompt(input);
  if (!step.sections) return 1;
  const output = steps.find((x) => x.stepId === step.id)!.output;
  const calls = sectionCalls(step.sections);
  const written = calls.filter((c) => !c.overview).map((c) => ({ key: c.key, output: sectionOf(step.output, output, c) }));
  const sent = calls.reduce((n, c) => {
    const q = sectionPrompt(input, c, c.overview ? written : []);
    return n + q.system.length + q.user.length;
  }, 0);
  return sent / (one.system.length + one.user.length);
}

/** Every system the prompt builder serves, in the order the per-system table lists them. */
const SYSTEMS: ProtocolId[] = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'];

/**
 * Issue 27, item 15: KPD-MADS at most 45,000 prompt tokens and $0.15 a case with cached input
 * prices; SAS and FinDebate at most 60 % of the prompt tokens measured before it (143,005 and
 * 74,686 on this case).
 */
const SYSTEM_TARGETS: Partial<Record<ProtocolId, { promptTokens: number; costUsd?: number }>> = {
  'kpd-mads': { promptTokens: 45_000, costUsd: 0.15 },
  sas: { promptTokens: Math.floor(0.6 * 143_005) },
  findebate: { promptTokens: Math.floor(0.6 * 74_686) },
};

/**
 * Prompt tokens and cost of one case of every system on one company: each run sequential, on a fake
 * endpoint of its own (so no two systems' steps of the same id answer for each other) whose
 * prompt cache starts cold, as the KPD-MADS sequential case does. Token counts and cached shares
 * depend on the prompts and their order only, not on latency, so the endpoint answers at once.
 */
export async function perSystemCost(db: Db, companyId: string) {
  const rows: { protocol: ProtocolId; promptTokens: number; cachedTokens: number; costUsd: number; uncachedCostUsd: number }[] = [];
  for (const protocol of SYSTEMS) {
    const script = await referenceScript(db, protocol, companyId, PARAMS);
    const fake = await startFakeLlmProcess({ ttftMs: 0, tokensPerSecond: 0, script });
    try {
      const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: fake.url, model: 'gpt-4o' });
      const run = await timedRun(db, provider, protocol, companyId, 'sequential');
      rows.push({ protocol, promptTokens: run.promptTokens, cachedTokens: run.cachedTokens, costUsd: run.costUsd, uncachedCostUsd: run.uncachedCostUsd });
    } finally {
      await fake.close();
    }
  }
  return rows;
}

export const engineBenchmark: Benchmark = {
  name: 'engine',
  description: 'debate engine on the fake OpenAI-compatible server (NAS, KPD-MADS sequential and concurrent, batch)',
  async run(ctx) {
    // The latency model of the issue (400 ms to first token, 50 tokens/s); --quick is 10× faster.
    const ttftMs = ctx.quick ? 40 : 400;
    const tokensPerSecond = ctx.quick ? 500 : 50;
    const batchCases = ctx.quick ? 16 : 50;
    const handle = await ctx.scratchDatabase();
    let fake: FakeProcess | undefined;
    const memory = memorySampler();
    try {
      const db = handle.db;
      await seedDemo(db, { accounts: false });
      ctx.log('writing reference outputs with the offline analyst …');
      const script: ScriptEntry[] = [];
      for (const companyId of COMPANIES) {
        script.push(...(await referenceScript(db, 'kpd-mads', companyId, PARAMS)), ...(await referenceScript(db, 'nas', companyId, PARAMS)));
      }
      // The model answers from its own process, as a real endpoint would.
      fake = await startFakeLlmProcess({ ttftMs, tokensPerSecond, script });
      const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: fake.url, model: 'gpt-4o' });

      const company = 'samsung-electronics';
      ctx.log('NAS, KPD-MADS sequential and concurrent …');
      const nas = await timedRun(db, provider, 'nas', company, 'dag');
      // The sequential case starts with the endpoint's prompt cache cold, and its steps in step
      // order: what it shares is what one case shares with itself.
      await fake.clearCache();
      const recorded = recording(provider);
      const sequential = await timedRun(db, recorded.provider, 'kpd-mads', company, 'sequential');
      const cacheable = cacheableShare(recorded.messages());
      // Token fan-out: from the provider handing a chunk to the engine to a subscriber getting the
      // partial answer it completes.
      const lags: number[] = [];
      // When the provider handed over the chunk being read: the engine publishes the answer so far
      // (when one is due: at most every PARTIAL_EVERY_MS, lib/debate/live-step.ts) before onToken returns.
      let emitted = 0;
      const measured: ModelProvider = {
        ...provider,
        name: provider.name,
        model: provider.model,
        isLLM: true,
        generate: (req) => provider.generate({ ...req, onToken: (t) => ((emitted = performance.now()), req.onToken(t)) }),
      };
      const concurrentRun = await createRun({ db, protocolId: 'kpd-mads', companyId: company, provider: measured, mode: 'dag', params: PARAMS });
      const { unsubscribe } = runBus().subscribe(concurrentRun.id, (e) => {
        if (e.type === 'step-partial') lags.push(performance.now() - emitted);
      });
      const concurrent = await executeRun({ db, runId: concurrentRun.id, provider: measured, providerConcurrency: 64 });
      unsubscribe();
      if (concurrent.status !== 'succeeded') throw new Error(`concurrent KPD-MADS ${concurrent.status}: ${concurrent.error}`);

      const sumModel = sequential.timings.reduce((n, t) => n + t.modelMs, 0);
      const idealRatio = idealCriticalMs('kpd-mads', sequential.timings) / sumModel;
      const ratio = concurrent.wallMs / sequential.wallMs;
      const overheadPct = (100 * (sequential.wallMs - sequential.modelMs)) / sequential.wallMs;
      const promptTokensRatio = await promptRatio(db, sequential.runId, company);
      const reportPromptRatio = await sectionedPromptRatio(db, sequential.runId, company);
      const firstToken = concurrent.timings.length ? Math.min(...concurrent.timings.map((t) => t.startedAt)) + ttftMs : NaN;

      // Each company's case alone, as the yardstick for the batch.
      const alone = new Map<string, number>();
      for (const id of COMPANIES) alone.set(id, (await timedRun(db, provider, 'kpd-mads', id, 'dag')).wallMs);

      ctx.log('prompt tokens and cost per case of every system …');
      const systems = await perSystemCost(db, company);

      const beforeBatch = process.memoryUsage();
      ctx.log(`batch: ${batchCases} KPD-MADS cases at concurrency 8 …`);
      const batchStart = performance.now();
      const queue = Array.from({ length: batchCases }, (_, i) => COMPANIES[i % COMPANIES.length]);
      // Ideal: every case as fast as alone, eight at a time, no gaps between them.
      const idealBatch = queue.reduce((n, id) => n + alone.get(id)!, 0) / 8;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await timedRun(db, provider, 'kpd-mads', next, 'dag');
        }),
      );
      const batchWall = performance.now() - batchStart;
      const peak = memory.peak();

      const name = `engine (${ttftMs} ms TTFT, ${tokensPerSecond} tok/s)`;
      const rows: BenchRow[] = [
        { name, metric: 'NAS wall time per case', value: round(nas.wallMs / 1000, 2), unit: 's' },
        { name, metric: 'KPD-MADS sequential wall time', value: round(sequential.wallMs / 1000, 2), unit: 's' },
        { name, metric: 'KPD-MADS concurrent wall time', value: round(concurrent.wallMs / 1000, 2), unit: 's' },
        { name, metric: 'concurrent / sequential', value: round(ratio, 3), unit: '×', target: { atMost: 0.5 }, key: 'kpd_concurrent_over_sequential' },
        { name, metric: 'ideal critical-path ratio', value: round(idealRatio, 3), unit: '×', key: 'kpd_ideal_ratio' },
        { name, metric: 'concurrent vs ideal', value: round((100 * (ratio - idealRatio)) / idealRatio, 1), unit: '%', target: { atMost: 5 } },
        { name, metric: 'engine overhead', value: round(overheadPct, 2), unit: '% of a run', target: { atMost: 3 }, key: 'engine_overhead_pct' },
        { name, metric: 'token fan-out median', value: round(median(lags), 3), unit: 'ms' },
        { name, metric: 'token fan-out p99', value: round(percentile(lags, 99), 3), unit: 'ms', target: { atMost: 50 }, key: 'token_fanout_ms' },
        { name, metric: 'time to first token', value: round(firstToken, 0), unit: 'ms' },
        { name, metric: 'prompt tokens per KPD-MADS case', value: sequential.promptTokens, unit: 'tokens' },
        {
          name,
          metric: 'prompt size vs whole transcript',
          value: round(promptTokensRatio, 3),
          unit: '×',
          target: { atMost: 0.5 },
          key: 'prompt_tokens_ratio_vs_full_context',
        },
        // The messages as sent, each request's longest start shared with an earlier one of the case.
        {
          name,
          metric: "cacheable share of a KPD-MADS case's prompt tokens",
          value: round(cacheable.share, 3),
          unit: '×',
          target: { atLeast: 0.7 },
          key: 'cacheable_prompt_share',
        },
        // What the fake endpoint's vLLM-like prefix cache (16-token blocks) reported serving.
        {
          name,
          metric: 'prompt tokens the endpoint served from cache',
          value: round(sequential.cachedTokens / sequential.promptTokens, 3),
          unit: '×',
          key: 'cached_prompt_share_reported',
        },
        { name, metric: 'cost per KPD-MADS case, gpt-4o, no cache', value: round(sequential.uncachedCostUsd, 4), unit: 'USD', key: 'cost_per_case_usd' },
        {
          name,
          metric: 'cost per KPD-MADS case, gpt-4o, cached input price',
          value: round(sequential.costUsd, 4),
          unit: 'USD',
          key: 'cost_per_case_usd_cached',
        },
        // Every system's case on the same company (issue 27, item 15): what the prompts weigh.
        ...systems.flatMap((r) => [
          {
            name,
            metric: `${r.protocol}: prompt tokens per case`,
            value: r.promptTokens,
            unit: 'tokens',
            ...(SYSTEM_TARGETS[r.protocol] ? { target: { atMost: SYSTEM_TARGETS[r.protocol]!.promptTokens } } : {}),
            key: `prompt_tokens_per_case_${r.protocol.replace('-', '_')}`,
          },
          {
            name,
            metric: `${r.protocol}: cost per case, gpt-4o, cached input price`,
            value: round(r.costUsd, 4),
            unit: 'USD',
            ...(SYSTEM_TARGETS[r.protocol]?.costUsd ? { target: { atMost: SYSTEM_TARGETS[r.protocol]!.costUsd } } : {}),
            key: `cost_per_case_usd_cached_${r.protocol.replace('-', '_')}`,
          },
        ]),
        {
          name,
          metric: "report step: sections' prompts vs one call",
          value: round(reportPromptRatio, 2),
          unit: '×',
          key: 'report_section_prompts_vs_one_call',
        },
        { name, metric: `batch of ${batchCases}, concurrency 8: wall`, value: round(batchWall / 1000, 1), unit: 's' },
        {
          name,
          metric: 'batch throughput vs ideal',
          value: round(idealBatch / batchWall, 3),
          unit: '×',
          target: { atLeast: 0.85 },
          key: 'batch_throughput_vs_ideal',
        },
        { name, metric: 'batch peak RSS', value: mb(peak.rss), unit: 'MB', target: { atMost: 400 }, key: 'batch_peak_rss_mb' },
        // Where the peak went: the JavaScript heap, memory outside it (the embedded database's
        // WebAssembly memory is an ArrayBuffer, so it is in both external and arrayBuffers).
        { name, metric: 'at peak RSS: JS heap used', value: mb(peak.heapUsed), unit: 'MB', key: 'batch_peak_heap_used_mb' },
        { name, metric: 'at peak RSS: external', value: mb(peak.external), unit: 'MB', key: 'batch_peak_external_mb' },
        { name, metric: 'at peak RSS: array buffers', value: mb(peak.arrayBuffers), unit: 'MB', key: 'batch_peak_array_buffers_mb' },
        { name, metric: 'RSS before the batch', value: mb(beforeBatch.rss), unit: 'MB', key: 'rss_before_batch_mb' },
      ];
      return rows;
    } finally {
      memory.stop();
      await fake?.close();
      await handle.close();
    }
  },
};
