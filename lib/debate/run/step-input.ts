// What one step is given, and nothing about how it is asked: the run's material read once before
// the first step (the company, its evidence as of the run's date, red flags, the source table),
// and from it each step's input — its declared context turns, the evidence it may see, the
// document passages it reads, its web search, its prompt — and the scope its citations are
// resolved against. A step is shown only what its protocol declares (docs/protocols.md).
import type { Db } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { listRunSteps } from '@/lib/db/queries/runs';
import type { CitationScope, KnownEvidence } from '@/lib/debate/checks';
import { contextFor } from '@/lib/debate/context-scope';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { passagesFor } from '@/lib/debate/passages';
import { buildPrompt, type Prompt } from '@/lib/debate/prompts';
import { signalFactors } from '@/lib/debate/rules';
import { citationsOf } from '@/lib/domain/output-parts';
import type { StepOutput } from '@/lib/domain/outputs';
import type { Language, ProtocolDef, RunParams, StepDef } from '@/lib/domain/protocol';
import type { RedFlag } from '@/lib/domain/red-flags';
import { sourceTable } from '@/lib/domain/source-keys';
import type { StoredWebResult } from '@/lib/domain/stored';
import type { ContextTurn, ModelProvider, StepInput, WebEvidence } from '@/lib/llm/types';
import { readEvidence, type EvidenceAsOf } from '@/lib/pool/as-of';
import { briefRedFlags, findRedFlags } from '@/lib/pool/red-flags';
import { retrieve, type RetrievedItem } from '@/lib/pool/retrieve';
import { addTokens, NO_TOKENS, type Tokens } from '@/lib/debate/budget';

export type WebSearchFn = (query: string, options: { maxResults: number; asOf: string; recencyDays: number; language: Language }) => Promise<WebEvidence[]>;

/** A judge's temperature when the run sets none (`judgeTemperature` in RunParams). */
export const DEFAULT_JUDGE_TEMPERATURE = 0.2;

/**
 * Passages retrieved for a step that reads documents, before those its evidence block already
 * shows are dropped. Six rather than eight: on the engine benchmark's Samsung case the last two of
 * eight cost a FinDebate case 1,367 prompt tokens (45,909 against 44,542).
 */
const PASSAGES_PER_STEP = 6;

/** A finished step as the steps after it read it. */
export type Done = { text: string; output: StepOutput };

/** What the run read before its first step, shared by every step; `known` and `webEvidence` grow as steps retrieve and search. */
export type RunMaterial = {
  db: Db;
  runId: string;
  protocol: ProtocolDef;
  params: RunParams;
  byId: Map<string, StepDef>;
  company: StepInput['company'];
  evidence: EvidenceAsOf[];
  redFlags: RedFlag[];
  stepRedFlags: NonNullable<StepInput['redFlags']>;
  /** Every prompt's header names the red flags: a claim citing only these reads a decisive event (lib/debate/rules.ts). */
  redFlagIds: Set<string>;
  sources: string[];
  /** Everything a citation of this run may resolve to: pool items, passages retrieved so far, web results. */
  known: Map<string, KnownEvidence>;
  webEvidence: StoredWebResult[];
  /** Finished steps, this execution's and those of executions before it. */
  done: Map<string, Done>;
  webSearch?: WebSearchFn;
  /** Keeps the run's web results as they grow. */
  saveWebEvidence: (items: StoredWebResult[]) => Promise<void>;
};

/**
 * The run's material: the company and its evidence as of the run's date, and the red flags found
 * in it, saved on the run before any step (`saveRedFlags`).
 */
export async function readRunMaterial({
  db,
  runId,
  run,
  protocol,
  webSearch,
  saveRedFlags,
  saveWebEvidence,
}: {
  db: Db;
  runId: string;
  run: { companyId: string; params: RunParams; webEvidence: StoredWebResult[] | null };
  protocol: ProtocolDef;
  webSearch?: WebSearchFn;
  saveRedFlags: (redFlags: RedFlag[]) => Promise<void>;
  saveWebEvidence: (items: StoredWebResult[]) => Promise<void>;
}): Promise<Omit<RunMaterial, 'done'>> {
  const params = run.params;
  const company = await getCompanyById({ db, id: run.companyId });
  if (!company) throw new Error(`Company ${run.companyId} does not exist.`);
  const evidence = await readEvidence({ db, companyId: company.id, asOf: params.asOf, recencyDays: params.recencyDays });
  // Red flags (lib/pool/red-flags.ts): found by rule in what the run may see, before any step,
  // kept on the run and handed to every step; the report's final step must address each one.
  const redFlags = findRedFlags(evidence);
  await saveRedFlags(redFlags);
  const stepRedFlags = briefRedFlags(redFlags, evidence);
  const redFlagIds = new Set(redFlags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]));
  // The run's source table (lib/domain/source-keys.ts): named once in every step's header, by
  // key everywhere else in its prompt; a key a model cites is taken back to its name.
  const sources = sourceTable(evidence);
  const webEvidence: StoredWebResult[] = run.webEvidence ?? [];
  const known = new Map<string, KnownEvidence>(evidence.map((e) => [e.id, e]));
  for (const w of webEvidence)
    known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });
  // Identity fields only: the free-text profile may state facts from after the as-of date (lib/llm/types.ts).
  const companyBrief = {
    id: company.id,
    name: company.name,
    nameEn: company.nameEn,
    country: company.country,
    industry: company.industry,
    identifiers: company.identifiers,
  };
  return {
    db,
    runId,
    protocol,
    params,
    byId: new Map(protocol.steps.map((s) => [s.id, s])),
    company: companyBrief,
    evidence,
    redFlags,
    stepRedFlags,
    redFlagIds,
    sources,
    known,
    webEvidence,
    webSearch,
    saveWebEvidence,
  };
}

/** Evidence ids the given turns cite and verified: shown to a step that receives those turns. */
function verifiedIn(context: ContextTurn[]): string[] {
  return context.flatMap((t) => citationsOf(t.output).flatMap((c) => (c.evidenceId && (c as { verified?: boolean }).verified ? [c.evidenceId] : [])));
}

export type StepMaterial = {
  context: ContextTurn[];
  /** The context turns' outputs by step id, for the rules. */
  contextOutputs: Map<string, ContextTurn['output']>;
  visible: EvidenceAsOf[];
  passages: RetrievedItem[];
  /** Everything a model call of the step is given besides its prompt. */
  base: Omit<StepInput, 'prompt'>;
  prompt: Prompt;
  /** The request carries the web_search tool. */
  searchTool: boolean;
  /** The step can be held to searching: a searching step on a language model. */
  canSearch: boolean;
  /** The searches this step made and the new results they brought, as they happen. */
  searched: { searches: number; results: number };
  tools: { webSearch?: (query: string) => Promise<WebEvidence[]> };
  availableFactors: ReturnType<typeof signalFactors>;
  /** What the step was shown, for its citations; read when its answer is in, after any searches. */
  citationScope: () => CitationScope;
};

/** One step's input, built when the steps it reads are done. */
export async function stepMaterial(m: RunMaterial, step: StepDef, provider: ModelProvider): Promise<StepMaterial> {
  const { db, runId, protocol, params, byId, done, evidence, redFlagIds, known, webEvidence, webSearch, sources } = m;
  // The declared turns; SAS's stress test only the winning side's (lib/debate/context-scope.ts).
  const context: ContextTurn[] = contextFor(
    step,
    step.context.map((id) => {
      const def = byId.get(id)!;
      const d = done.get(id)!;
      return { stepId: id, agent: def.agent, team: def.team, act: def.act, text: d.text, output: d.output };
    }),
  );
  const visible: EvidenceAsOf[] = visibleEvidence(step, evidence, context, redFlagIds);
  // A passage that is a pool item the evidence block already shows is not shown twice.
  const shown = new Set(visible.map((e) => e.id));
  const passages: RetrievedItem[] =
    step.evidence === 'documents'
      ? (
          await passagesFor(
            step,
            (query, k) => retrieve({ db, companyId: m.company.id, query, asOf: params.asOf, k, recencyDays: params.recencyDays }),
            PASSAGES_PER_STEP,
          )
        ).filter((p) => !shown.has(p.id))
      : [];
  // Document passages are citable by their id, like pool items.
  for (const p of passages)
    if (!known.has(p.id)) known.set(p.id, { id: p.id, sourceName: p.sourceName, publishedDate: p.publishedDate, sourceUrl: p.sourceUrl, stale: p.stale });
  // A judge runs at the run's judge temperature (low by default); every other step at the run's.
  const stepParams: RunParams = step.role === 'judge' ? { ...params, temperature: params.judgeTemperature ?? DEFAULT_JUDGE_TEMPERATURE } : params;
  // Factors the visible evidence can support in the direction the step argues: its minimums
  // shrink to them, in the prompt and in the check alike (lib/debate/rules.ts).
  const availableFactors = signalFactors(step, visible);
  // Only a provider that searches can be held to searching; the offline analyst never does.
  const canSearch = Boolean(step.webSearch && webSearch) && provider.isLLM;
  // Short of the signals it must bring (KPD-MADS: fewer than three in its direction), a step
  // that can search must search first: its prompt says so (lib/debate/prompts.ts) and its
  // rules check that it did (lib/debate/rules.ts).
  // The request carries the web_search tool exactly when the step may search and a search
  // provider is configured; the prompt speaks of searching only then (lib/debate/prompts.ts).
  const searchTool = Boolean(step.webSearch && webSearch);
  const base = { runId, protocol, step, params: stepParams, company: m.company, evidence: visible, passages, context, redFlags: m.stepRedFlags, sources };
  const prompt = buildPrompt({ ...base, searchTool });
  // The searches this step made and the new results they brought, for its rules (a KPD-MADS
  // constructive short of signals must search: lib/debate/rules.ts).
  const searched = { searches: 0, results: 0 };
  const tools =
    searchTool && webSearch
      ? {
          webSearch: async (query: string) => {
            searched.searches++;
            const found = await webSearch(query, {
              maxResults: params.maxWebResults,
              asOf: params.asOf,
              recencyDays: params.recencyDays,
              language: params.language,
            });
            for (const w of found) {
              if (known.has(w.id)) continue;
              searched.results++;
              webEvidence.push(w);
              known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });
            }
            await m.saveWebEvidence(webEvidence);
            return found;
          },
        }
      : {};
  // What the step was shown, for its citations (docs/protocols.md, "Taking answers in"): the
  // pool items and passages in its prompt, the items the turns it receives cite, and this
  // run's web results — read when its answer is in, after any searches it made.
  const citationScope = (): CitationScope => {
    const shown = new Map<string, KnownEvidence>();
    // Every step is shown the run's red flags (the prompt's header names each by its id).
    for (const id of [...visible.map((e) => e.id), ...passages.map((p) => p.id), ...verifiedIn(context), ...webEvidence.map((w) => w.id), ...redFlagIds]) {
      const item = known.get(id);
      if (item) shown.set(id, item);
    }
    return { shown, known, asOf: params.asOf, sources };
  };
  const contextOutputs = new Map(context.map((c) => [c.stepId, c.output]));
  return { context, contextOutputs, visible, passages, base, prompt, searchTool, canSearch, searched, tools, availableFactors, citationScope };
}

/**
 * Where executions before this one left the run: its finished and failed steps, and the sections
 * they kept of steps not saved. What those sections spent that no total counts yet (the execution
 * that asked them stopped without saving their step) is this execution's unsaved spend from now
 * on, whether or not they are used again: saved with their step, or with the run's unsaved spend
 * if it stops first (`adopt`).
 */
export async function readProgress({
  db,
  runId,
  byId,
  adopt,
}: {
  db: Db;
  runId: string;
  byId: Map<string, StepDef>;
  adopt: (step: StepDef, spent: Tokens) => void;
}) {
  const rows = await listRunSteps({ db, runId });
  // Sections of steps not saved that an execution before this one finished (lib/domain/stored.ts).
  const keptSections = new Map(rows.flatMap((r) => (r.status !== 'done' && r.sections?.length ? [[r.stepId, r.sections] as const] : [])));
  const keptSpend = new Map<string, Tokens>();
  for (const [stepId, kept] of keptSections) {
    const def = byId.get(stepId);
    const spent = kept.filter((k) => !k.counted).reduce((sum, k) => addTokens(sum, k.usage), NO_TOKENS);
    if (!def || (spent.promptTokens === 0 && spent.completionTokens === 0)) continue;
    keptSpend.set(stepId, spent);
    adopt(def, spent);
  }
  const done = new Map<string, Done>();
  for (const r of rows) if (r.status === 'done') done.set(r.stepId, { text: r.text ?? '', output: r.output as StepOutput });
  const failed = new Set(rows.filter((r) => r.status === 'failed').map((r) => r.stepId));
  return { keptSections, keptSpend, done, failed };
}
