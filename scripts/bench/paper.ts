// `npm run bench -- --paper`: the KPD-MADS paper's comparison with the single-agent baseline,
// reproduced (docs/protocols.md, "Reproducing the paper"). Every demo company
// (data/demo/companies.json) is run with KPD-MADS and with NAS, one step at a time as the paper
// did and with independent steps at once, against the fake OpenAI-compatible server at a stated
// latency model; the table gives latency per case, the KPD-MADS/NAS ratio and mean REI beside
// the paper's 91.97 s / 11.55 s and 14.33 / 8.0, then the paper's Wilcoxon rows in both tie modes.
//
// The fake answers each step with what the offline analyst wrote for the same company and step,
// so both systems run their real protocol rules and the model's time is the latency model's
// alone. A company whose offline run does not succeed (e.g. it ends as insufficient evidence) is
// listed with its status and left out of the means.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { seedDemo } from '@/lib/demo/seed';
import { answerJson } from '@/lib/domain/step-output';
import { sectionCalls, sectionOf } from '@/lib/domain/sections';
import { partMarker } from '@/lib/debate/section-prompts';
import type { ProtocolId, RunMode } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import type { ModelProvider } from '@/lib/llm/types';
import { loadRunView } from '@/lib/report/run-view';
import type { ScriptEntry } from '../fake-llm/server';
import { startFakeLlmProcess, type FakeProcess } from './fake-process';
import {
  formatLatencyTable,
  formatWilcoxonTable,
  paperWilcoxonTable,
  summarisePaperCases,
  whyNotMeasured,
  type LatencyModel,
  type PaperCase,
  type PaperSummary,
  type SystemCase,
  type WilcoxonTableRow,
} from './paper-table';
import type { BenchContext, BenchRow } from './types';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// The demo's submitted case is dated 2025-06-30: the pool as the demo's committee sees it.
export const PAPER_PARAMS = { asOf: '2025-06-30', language: 'en' as const };

/**
 * GPT-4o-like pacing (about 500 ms to first token, 100 tokens/s) played five times faster, so the
 * six companies take a few minutes; --quick is ten times faster again.
 */
export function paperLatencyModel(quick: boolean, override: Partial<LatencyModel> = {}): LatencyModel {
  const base = quick ? { ttftMs: 10, tokensPerSecond: 5000 } : { ttftMs: 100, tokensPerSecond: 500 };
  return { ...base, ...Object.fromEntries(Object.entries(override).filter(([, v]) => v !== undefined)) };
}

type DemoCompany = { id: string; name: string; name_en?: string | null };

export function demoCompanies(): DemoCompany[] {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'demo', 'companies.json'), 'utf8')) as DemoCompany[];
}

type Outcome = { ok: true; runId: string; wallMs: number; completionTokens: number } | { ok: false; status: string; reason: string };

async function runOnce(db: Db, provider: ModelProvider, protocol: ProtocolId, companyId: string, mode: RunMode): Promise<Outcome> {
  const run = await createRun({ db, protocolId: protocol, companyId, provider, mode, params: PAPER_PARAMS });
  const result = await executeRun({ db, runId: run.id, provider, providerConcurrency: 64 });
  // The row says how the run ended, including outcomes newer than ExecuteResult's own list.
  const row = await getRun({ db, id: run.id });
  const status = String(row?.status ?? result.status);
  if (result.status === 'succeeded' && status === 'succeeded')
    return { ok: true, runId: run.id, wallMs: result.wallMs, completionTokens: row!.completionTokens };
  return { ok: false, status, reason: whyNotMeasured(status, row?.shortfall, row?.error ?? result.error) };
}

/** The offline analyst's answers for one company and protocol, keyed as the prompts name the step and company; or why there are none. */
async function referenceAnswers(db: Db, protocol: ProtocolId, companyId: string): Promise<{ script: ScriptEntry[] } | { status: string; reason: string }> {
  const outcome = await runOnce(db, createOfflineAnalyst(), protocol, companyId, 'sequential');
  if (!outcome.ok) return outcome;
  const steps = await listRunSteps({ db, runId: outcome.runId });
  const company = await getCompanyById({ db, id: companyId });
  const defs = new Map(getProtocol(protocol).steps.map((s) => [s.id, s]));
  const marker = `name: ${company!.name}`;
  // A sectioned step (docs/protocols.md, "Sections") is asked once per call: each gets its share.
  return {
    script: steps.flatMap((s) => {
      const def = defs.get(s.stepId)!;
      if (!def.sections) return [{ match: [`Step ${s.stepId} (`, marker], reply: answerJson(def, s.output) }];
      return sectionCalls(def.sections).map((c) => ({
        match: [`Step ${s.stepId} (`, partMarker(s.stepId, c.key), marker],
        reply: JSON.stringify(sectionOf(def.output, s.output, c)),
      }));
    }),
  };
}

async function measureSystem(
  db: Db,
  provider: ModelProvider,
  protocol: ProtocolId,
  companyId: string,
): Promise<{ ok: true; value: SystemCase } | { ok: false; status: string; reason: string }> {
  const sequential = await runOnce(db, provider, protocol, companyId, 'sequential');
  if (!sequential.ok) return sequential;
  const dag = await runOnce(db, provider, protocol, companyId, 'dag');
  if (!dag.ok) return dag;
  const view = await loadRunView({ db, runId: sequential.runId });
  return {
    ok: true,
    value: {
      sequentialMs: sequential.wallMs,
      dagMs: dag.wallMs,
      rei: view.tree.rei,
      breadth: view.tree.breadth,
      depths: view.tree.depths,
      completionTokens: sequential.completionTokens,
      calls: getProtocol(protocol).steps.length,
    },
  };
}

export type PaperBenchResult = {
  latencyModel: LatencyModel;
  cases: PaperCase[];
  summary: PaperSummary;
  wilcoxon: WilcoxonTableRow[];
  text: string;
  rows: BenchRow[];
};

export async function runPaperBench(ctx: BenchContext, override: Partial<LatencyModel> = {}): Promise<PaperBenchResult> {
  const latencyModel = paperLatencyModel(ctx.quick, override);
  const handle = await ctx.scratchDatabase();
  let fake: FakeProcess | undefined;
  try {
    const db = handle.db;
    await seedDemo(db, { accounts: false });
    const companies = demoCompanies();
    const cases: PaperCase[] = companies.map((c) => ({ companyId: c.id, name: c.name_en || c.name }));

    ctx.log('writing reference answers with the offline analyst …');
    const script: ScriptEntry[] = [];
    for (const kase of cases) {
      for (const protocol of ['kpd-mads', 'nas'] as const) {
        const answers = await referenceAnswers(db, protocol, kase.companyId);
        if ('script' in answers) script.push(...answers.script);
        else kase.excluded ??= { status: answers.status, reason: `${getProtocol(protocol).name}: ${answers.reason}` };
      }
    }

    fake = await startFakeLlmProcess({ ...latencyModel, script });
    const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: fake.url, model: 'gpt-4o' });
    for (const kase of cases.filter((c) => !c.excluded)) {
      ctx.log(`${kase.name}: KPD-MADS and NAS, sequential and concurrent …`);
      const kpd = await measureSystem(db, provider, 'kpd-mads', kase.companyId);
      const nas = kpd.ok ? await measureSystem(db, provider, 'nas', kase.companyId) : undefined;
      if (!kpd.ok) kase.excluded = { status: kpd.status, reason: `KPD-MADS: ${kpd.reason}` };
      else if (nas && !nas.ok) kase.excluded = { status: nas.status, reason: `NAS: ${nas.reason}` };
      else Object.assign(kase, { kpd: kpd.value, nas: nas!.ok ? nas!.value : undefined });
    }

    const summary = summarisePaperCases(cases);
    const wilcoxon = paperWilcoxonTable();
    const text = [formatLatencyTable(cases, summary, latencyModel), '', formatWilcoxonTable(wilcoxon)].join('\n');
    const name = `paper (${latencyModel.ttftMs} ms TTFT, ${latencyModel.tokensPerSecond} tok/s)`;
    const r2 = (v: number | null | undefined) => (v === null || v === undefined ? Number.NaN : Math.round(v * 100) / 100);
    const rows: BenchRow[] = [
      { name, metric: 'KPD-MADS sequential s per case', value: r2(summary.mean?.kpd.sequentialS), unit: 's', key: 'kpd_sequential_s' },
      { name, metric: 'NAS sequential s per case', value: r2(summary.mean?.nas.sequentialS), unit: 's', key: 'nas_sequential_s' },
      { name, metric: 'KPD-MADS / NAS, sequential', value: r2(summary.ratio.sequential), unit: '×', key: 'kpd_over_nas_sequential' },
      { name, metric: 'KPD-MADS / NAS, concurrent', value: r2(summary.ratio.dag), unit: '×', key: 'kpd_over_nas_concurrent' },
      { name, metric: 'KPD-MADS mean REI', value: r2(summary.mean?.kpd.rei), unit: '', key: 'kpd_mean_rei' },
      { name, metric: 'NAS mean REI', value: r2(summary.mean?.nas.rei), unit: '', key: 'nas_mean_rei' },
      { name, metric: 'cases compared', value: summary.included.length, unit: 'cases', key: 'cases' },
    ];
    return { latencyModel, cases, summary, wilcoxon, text, rows };
  } finally {
    await fake?.close();
    await handle.close();
  }
}
