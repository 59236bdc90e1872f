// Real models, end to end: the debate engine through the OpenAI-compatible provider against the
// fake server in its realistic mode (scripts/fake-llm/realistic.ts) at its default rates — answers
// fenced or wrapped in a sentence, keys reordered, fields extra or missing, dates in other formats,
// sources shortened, citations of items never shown or dated after the as-of date, answers cut off,
// empty or refused, 429 and 500 — at 400 ms to first token and 50 tokens/s. It reports how many runs
// succeed (every failure with the reason the run gives), how many planted citations a reader would
// see as verified (the right number is 0), and how soon the first words a reader can see of a
// step reach the run's bus after the model's first token, in the step's partial answer
// (step-partial) as the turn card shows it: its prose, a claim's or question's text or a cited
// source, whichever it writes first; the prose alone is reported too.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { partialAnswer } from '@/lib/debate/live-step';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { seedDemo } from '@/lib/demo/seed';
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import { proseSoFar, type OutputKind } from '@/lib/domain/outputs';
import type { ProtocolId, RunEvent } from '@/lib/domain/protocol';
import { createOpenAiProvider } from '@/lib/llm/openai';
import type { ModelProvider } from '@/lib/llm/types';
import type { LaterItem, RequestSummary } from '../fake-llm/server';
import { startFakeLlmProcess, type FakeProcess } from './fake-process';
import { median, percentile, round } from './stats';
import type { Benchmark, BenchRow } from './types';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const REALISTIC_AS_OF = '2024-12-31';
// The demo companies whose pool clears the evidence threshold at the as-of date (lib/debate/
// sufficiency.ts); Wintec (patents only), Monro and Taeyoung would end before any step.
const COMPANIES = ['samsung-electronics', 'tesla', 'travelers-companies'];

export type PlannedRun = { protocol: ProtocolId; companyId: string };

/** `count` runs of each protocol, over the demo companies in turn. */
export function realisticPlan(counts: Partial<Record<ProtocolId, number>>): PlannedRun[] {
  return Object.entries(counts).flatMap(([protocol, n]) =>
    Array.from({ length: n ?? 0 }, (_, i) => ({ protocol: protocol as ProtocolId, companyId: COMPANIES[i % COMPANIES.length] })),
  );
}

/** The demo pool's items published after the as-of date: real ids a model might cite although no step was shown them. */
export function laterDemoItems(asOf: string): LaterItem[] {
  const lines = fs
    .readFileSync(path.join(ROOT, 'data', 'demo', 'evidence.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  return lines
    .map((l) => JSON.parse(l) as { id: string; source_name: string; published_date: string })
    .filter((e) => e.published_date > asOf)
    .map((e) => ({ id: e.id, sourceName: e.source_name, publishedDate: e.published_date }));
}

export type RealisticFigures = {
  runs: number;
  succeeded: number;
  byProtocol: Record<string, { runs: number; succeeded: number }>;
  /** Every failed run, grouped by the reason its failed steps give (the run's own when none failed), with the runs' reasons as said. */
  failures: { reason: string; runs: number; said: string[] }[];
  /** Citations the fake planted (of items never shown, or dated after as-of): sent, kept on a saved step, shown there as verified. */
  planted: { sent: number; saved: number; shownVerified: number; shownVerifiedIds: string[] };
  /** Per step attempt: ms from the model's first chunk to the first prose on the run's bus. */
  firstProseMs: number[];
  /**
   * Per step attempt: ms from the model's first chunk to the first step-partial on the bus with
   * text a reader sees (shownText): prose, a claim's or question's text, or a cited source.
   */
  firstVisibleMs: number[];
  /**
   * Per model call that wrote text: when the first text a reader could see was written, counted in
   * the fake's tokens (4 characters) at its pace, with no time for the engine at all. A preamble
   * before the JSON, a fence, or ids, codes and numbers before any readable field put this floor
   * under every measure above.
   */
  firstVisibleFloorMs: number[];
  /** The same, by the step's output kind: where the slow tail comes from. */
  firstVisibleByKind: Record<string, number[]>;
  /** Steps whose answer streamed but no prose reached the bus before the step ended. */
  stepsWithoutProse: number;
  /** Steps whose answer streamed but showed no text at all before the step ended. */
  stepsWithoutVisibleText: number;
  behaviours: Record<string, number>;
  repairs: Record<string, number>;
  requests: number;
};

type MeasureOptions = {
  db: Db;
  baseURL: string;
  /** The fake's log, read once every run is done. */
  requests: () => Promise<RequestSummary[]>;
  plan: PlannedRun[];
  concurrency: number;
  /** The fake's pace, for the floor set by what it writes (default 50). */
  tokensPerSecond?: number;
  log?: (message: string) => void;
};

/** Runs the plan through the real engine and provider, `concurrency` runs at a time, and measures it. */
/**
 * What a turn card shows of an answer as far as it is written (components/run/transcript.tsx):
 * its prose, its claims' and questions' text and the sources it cites; ids, codes and numbers are
 * not text a reader reads.
 */
export function shownText(kind: OutputKind, output: unknown): string {
  const strings = [
    proseSoFar(kind, output),
    ...claimsOf(output).map((c) => c.text),
    ...questionsOf(output).map((q) => q.text),
    ...citationsOf(output).map((c) => c.source),
  ];
  return strings.filter((s): s is string => typeof s === 'string' && s.trim() !== '').join('\n');
}

/**
 * How far into an answer the first text a reader could see was written, in the fake's 4-character
 * tokens: the answer read again as the engine reads it, a token at a time. Null when nothing in it is
 * visible (a tool call, an empty answer).
 */
export function tokensToFirstVisible(kind: OutputKind, raw: string): number | null {
  const chars = [...raw];
  for (let i = 0, token = 1; i < chars.length; i += 4, token++) {
    if (shownText(kind, partialAnswer(chars.slice(0, i + 4).join('')))) return token;
  }
  return null;
}

export async function measureRealistic({
  db,
  baseURL,
  requests,
  plan,
  concurrency,
  tokensPerSecond = 50,
  log = () => {},
}: MeasureOptions): Promise<RealisticFigures> {
  const base = createOpenAiProvider({ apiKey: 'bench', baseURL, model: 'gpt-4o' });
  // When each model call's first chunk reached the engine, by run and step: what the prose latency is measured from.
  const firstChunks = new Map<string, number[]>();
  const provider: ModelProvider = {
    ...base,
    generate: (request) => {
      const key = `${request.runId}:${request.step.id}`;
      let first = true;
      let raw = '';
      const floor = () => {
        const tokens = raw ? tokensToFirstVisible(request.step.output, raw) : null;
        // The first token arrives at the model's first-token time: the floor counts the ones after it.
        if (tokens !== null) figures.firstVisibleFloorMs.push(((tokens - 1) * 1000) / tokensPerSecond);
      };
      return base
        .generate({
          ...request,
          onToken: (text) => {
            raw += text;
            if (first && text) {
              first = false;
              const list = firstChunks.get(key) ?? [];
              list.push(performance.now());
              firstChunks.set(key, list);
            }
            request.onToken(text);
          },
        })
        .finally(floor);
    },
  };

  const figures: RealisticFigures = {
    runs: 0,
    succeeded: 0,
    byProtocol: {},
    failures: [],
    planted: { sent: 0, saved: 0, shownVerified: 0, shownVerifiedIds: [] },
    firstProseMs: [],
    firstVisibleMs: [],
    firstVisibleFloorMs: [],
    firstVisibleByKind: {},
    stepsWithoutProse: 0,
    stepsWithoutVisibleText: 0,
    behaviours: {},
    repairs: {},
    requests: 0,
  };
  const failures = new Map<string, { runs: number; said: Set<string> }>();
  const savedCitations: { evidenceId?: string; verified?: boolean }[] = [];
  const queue = [...plan];
  let finished = 0;

  const one = async ({ protocol, companyId }: PlannedRun) => {
    const run = await createRun({ db, protocolId: protocol, companyId, provider, mode: 'dag', params: { asOf: REALISTIC_AS_OF, language: 'en' } });
    // The first prose and the first visible text of each step attempt's partial answers on the
    // bus, timed from the attempt's first chunk: a sectioned step's calls overlap, and its prose
    // comes from the overview, which reads the sections, so it shows last.
    const proseSeen = new Set<string>();
    const visibleSeen = new Set<string>();
    // How many model calls of the step had streamed when it (re)started: one that streams after that and ends without prose is a miss.
    const callsAtStart = new Map<string, number>();
    const calls = (stepId: string) => firstChunks.get(`${run.id}:${stepId}`)?.length ?? 0;
    const record = (seen: Set<string>, stepId: string, into: number[]) => {
      if (seen.has(stepId)) return;
      seen.add(stepId);
      const now = performance.now();
      const started = (firstChunks.get(`${run.id}:${stepId}`) ?? [])[callsAtStart.get(stepId) ?? 0];
      if (started === undefined || started > now) return;
      into.push(now - started);
      if (into === figures.firstVisibleMs) {
        const kind = PROTOCOLS_BY_ID[protocol].steps.find((s) => s.id === stepId)?.output ?? 'unknown';
        (figures.firstVisibleByKind[kind] ??= []).push(now - started);
      }
    };
    const { unsubscribe } = runBus().subscribe(run.id, (event: RunEvent) => {
      if (event.type === 'step-started') callsAtStart.set(event.stepId, calls(event.stepId));
      if (event.type === 'step-started' || event.type === 'step-waiting') {
        proseSeen.delete(event.stepId);
        visibleSeen.delete(event.stepId);
      }
      if (event.type === 'step-done' || event.type === 'step-failed') {
        const streamed = calls(event.stepId) > (callsAtStart.get(event.stepId) ?? 0);
        if (!proseSeen.has(event.stepId) && streamed) figures.stepsWithoutProse++;
        if (!visibleSeen.has(event.stepId) && streamed) figures.stepsWithoutVisibleText++;
        proseSeen.add(event.stepId);
        visibleSeen.add(event.stepId);
      }
      if (event.type !== 'step-partial') return;
      if (event.text.trim()) record(proseSeen, event.stepId, figures.firstProseMs);
      const kind = PROTOCOLS_BY_ID[protocol].steps.find((s) => s.id === event.stepId)?.output;
      if (kind && shownText(kind, event.output)) record(visibleSeen, event.stepId, figures.firstVisibleMs);
    });
    try {
      const result = await executeRun({ db, runId: run.id, provider, providerConcurrency: 64 });
      const stats = (figures.byProtocol[protocol] ??= { runs: 0, succeeded: 0 });
      stats.runs++;
      figures.runs++;
      const steps = await listRunSteps({ db, runId: run.id });
      if (result.status === 'succeeded') {
        stats.succeeded++;
        figures.succeeded++;
      } else {
        const said = `${result.status === 'failed' ? '' : `${result.status}: `}${result.error ?? '(no reason given)'}`;
        const stepReasons = [...new Set(steps.filter((s) => s.status === 'failed').map((s) => s.error ?? '(no reason given)'))];
        const reason = stepReasons.length ? stepReasons.join(' | ') : said;
        const entry = failures.get(reason) ?? { runs: 0, said: new Set<string>() };
        entry.runs++;
        entry.said.add(`${protocol} on ${companyId}: ${said}`);
        failures.set(reason, entry);
      }
      for (const s of steps) {
        if (s.status === 'done') savedCitations.push(...(citationsOf(s.output) as { evidenceId?: string; verified?: boolean }[]));
        for (const r of (s as { repairs?: { kind: string }[] }).repairs ?? []) figures.repairs[r.kind] = (figures.repairs[r.kind] ?? 0) + 1;
      }
    } finally {
      unsubscribe();
      log(`  ${++finished}/${plan.length} ${protocol} on ${companyId}`);
    }
  };

  await Promise.all(
    Array.from({ length: Math.max(1, concurrency) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next);
    }),
  );

  const log2 = await requests();
  const chat = log2.filter((r) => r.path === '/v1/chat/completions');
  figures.requests = chat.length;
  const planted = new Set<string>();
  for (const r of chat) {
    for (const b of r.behaviours ?? []) figures.behaviours[b] = (figures.behaviours[b] ?? 0) + 1;
    for (const p of r.planted ?? []) {
      planted.add(p.evidenceId);
      figures.planted.sent++;
    }
  }
  for (const c of savedCitations) {
    if (!c.evidenceId || !planted.has(c.evidenceId)) continue;
    figures.planted.saved++;
    // As the citation chip reads it: anything not marked unverified is shown as verified.
    if (c.verified !== false) {
      figures.planted.shownVerified++;
      figures.planted.shownVerifiedIds.push(c.evidenceId);
    }
  }
  figures.failures = [...failures].map(([reason, f]) => ({ reason, runs: f.runs, said: [...f.said] })).sort((a, b) => b.runs - a.runs);
  return figures;
}

export const realisticBenchmark: Benchmark = {
  name: 'realistic',
  description:
    'the engine against a model that answers like a real one (fake server, realistic mode): success, planted citations shown verified, first visible text and first prose latency',
  async run(ctx) {
    // The latency model of the issue; --quick is 10× faster and runs one of each system (four KPD-MADS).
    const ttftMs = ctx.quick ? 40 : 400;
    const tokensPerSecond = ctx.quick ? 500 : 50;
    const plan = realisticPlan(
      ctx.quick ? { 'kpd-mads': 4, nas: 1, sas: 1, 'three-round': 1, findebate: 1 } : { 'kpd-mads': 50, nas: 10, sas: 10, 'three-round': 10, findebate: 10 },
    );
    const handle = await ctx.scratchDatabase();
    let fake: FakeProcess | undefined;
    try {
      await seedDemo(handle.db, { accounts: false });
      fake = await startFakeLlmProcess({ ttftMs, tokensPerSecond, mode: 'realistic', laterItems: laterDemoItems(REALISTIC_AS_OF), seed: 14 });
      ctx.log(`${plan.length} runs, 8 at a time …`);
      const started = performance.now();
      const f = await measureRealistic({ db: handle.db, baseURL: fake.url, requests: fake.requests, plan, concurrency: 8, tokensPerSecond, log: ctx.log });
      const wallS = (performance.now() - started) / 1000;
      for (const failure of f.failures) {
        ctx.log(`failed ×${failure.runs}: ${failure.reason}`);
        for (const s of failure.said) ctx.log(`    ${s}`);
      }
      if (f.planted.shownVerifiedIds.length) ctx.log(`planted citations shown as verified: ${f.planted.shownVerifiedIds.join(', ')}`);
      ctx.log(`quirks sent: ${JSON.stringify(f.behaviours)}; repairs recorded: ${JSON.stringify(f.repairs)}`);
      ctx.log(
        `first visible text by output kind (attempts, median, p95, over 300 ms): ${Object.entries(f.firstVisibleByKind)
          .map(([kind, ms]) => `${kind} ${ms.length}, ${round(median(ms), 0)}, ${round(percentile(ms, 95), 0)}, ${ms.filter((x) => x > 300).length}`)
          .join('; ')}`,
      );

      const name = `realistic (${ttftMs} ms TTFT, ${tokensPerSecond} tok/s)`;
      const rows: BenchRow[] = [
        {
          name,
          metric: `runs (${Object.entries(f.byProtocol)
            .map(([p, s]) => `${p} ${s.succeeded}/${s.runs}`)
            .join(', ')})`,
          value: f.runs,
          unit: 'runs',
        },
        { name, metric: 'success rate', value: round((100 * f.succeeded) / Math.max(1, f.runs), 1), unit: '%', key: 'success_rate_pct' },
        ...f.failures.map((x): BenchRow => ({
          name,
          metric: `failed: ${x.reason.length > 110 ? `${x.reason.slice(0, 110)}…` : x.reason}`,
          value: x.runs,
          unit: 'runs',
        })),
        { name, metric: 'model requests', value: f.requests, unit: 'requests' },
        { name, metric: 'planted citations sent', value: f.planted.sent, unit: 'citations' },
        { name, metric: 'planted citations on saved steps (later steps copying one included)', value: f.planted.saved, unit: 'citations' },
        {
          name,
          metric: 'planted citations shown as verified',
          value: f.planted.shownVerified,
          unit: 'citations',
          target: { atMost: 0 },
          key: 'planted_shown_verified',
        },
        {
          name,
          metric: 'first visible text (prose, a claim, a question or a cited source) after first token, median',
          value: round(median(f.firstVisibleMs), 1),
          unit: 'ms',
          key: 'first_visible_median_ms',
        },
        {
          name,
          metric: 'first visible text (prose, a claim, a question or a cited source) after first token, p95',
          value: round(percentile(f.firstVisibleMs, 95), 1),
          unit: 'ms',
          target: { atMost: 300 },
          key: 'first_visible_p95_ms',
        },
        { name, metric: 'step attempts measured for first visible text', value: f.firstVisibleMs.length, unit: 'attempts' },
        {
          name,
          metric: 'floor set by the answers themselves (first visible text as written, no engine time), median',
          value: round(median(f.firstVisibleFloorMs), 1),
          unit: 'ms',
          key: 'first_visible_floor_median_ms',
        },
        {
          name,
          metric: 'floor set by the answers themselves, p95',
          value: round(percentile(f.firstVisibleFloorMs, 95), 1),
          unit: 'ms',
          key: 'first_visible_floor_p95_ms',
        },
        { name, metric: 'steps that streamed but showed no text', value: f.stepsWithoutVisibleText, unit: 'steps' },
        { name, metric: 'first prose only after first token, median', value: round(median(f.firstProseMs), 1), unit: 'ms', key: 'first_prose_median_ms' },
        { name, metric: 'first prose only after first token, p95', value: round(percentile(f.firstProseMs, 95), 1), unit: 'ms', key: 'first_prose_p95_ms' },
        { name, metric: 'step attempts measured for first prose', value: f.firstProseMs.length, unit: 'attempts' },
        { name, metric: 'steps that streamed but showed no prose', value: f.stepsWithoutProse, unit: 'steps' },
        { name, metric: 'wall time', value: round(wallS, 1), unit: 's' },
      ];
      return rows;
    } finally {
      await fake?.close();
      await handle.close();
    }
  },
};
