// Test fixtures for the offline analyst: the real demo pool read from data/demo (no database),
// step definitions that mirror the five protocols of lib/debate/protocols/ and
// lib/debate/STEP-IDS.md, and a small runner that feeds each step its declared context the way
// the engine does.
import { contextFor } from '@/lib/debate/context-scope';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import type { OutputKind } from '@/lib/domain/outputs';
import { stepOutputSchema, toStoredShape } from '@/lib/domain/step-output';
import type { Act, Language, ProtocolDef, ProtocolId, RunParams, SpecialistFocus, StepDef, StepRole, StepRules, Team } from '@/lib/domain/protocol';
import type { ContextTurn, CompanyBrief, GenerateRequest, GenerateResult } from '@/lib/llm/types';
import { isStale, recencyCutoff, type EvidenceAsOf } from '@/lib/pool/as-of';
import { chunkDocument } from '@/lib/pool/chunk';
import { tagByCategory } from '@/lib/pool/factors';
import type { RetrievedItem } from '@/lib/pool/retrieve';
import { createOfflineAnalyst } from './index';

const DEMO = path.join(process.cwd(), 'data/demo');

type Row = Record<string, string | null>;

const rows: Row[] = fs
  .readFileSync(path.join(DEMO, 'evidence.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Row);

const companies = JSON.parse(fs.readFileSync(path.join(DEMO, 'companies.json'), 'utf8')) as Row[];

export function companyBrief(id: string): CompanyBrief {
  const c = companies.find((x) => x.id === id);
  if (!c) throw new Error(`no demo company ${id}`);
  return { id, name: c.name!, nameEn: c.name_en ?? null, country: c.country!, industry: c.industry ?? null };
}

/** The company's evidence as readEvidence would return it: as-of filtered, newest first, tagged. */
export function evidenceAsOf(companyId: string, asOf: string, recencyDays: number): EvidenceAsOf[] {
  const cutoff = recencyCutoff(asOf, recencyDays);
  return rows
    .filter((r) => r.company_id === companyId && r.published_date! <= asOf)
    .map((r) => {
      const tag = tagByCategory({ category: r.category!, title: r.title!, text: r.text! });
      return {
        id: r.id!,
        companyId,
        category: r.category!,
        factor: tag.factor,
        polarity: tag.polarity,
        factorSource: 'rule' as const,
        title: r.title!,
        text: r.text!,
        value: r.value,
        eventDate: r.event_date,
        publishedDate: r.published_date!,
        sourceName: r.source_name!,
        sourceUrl: r.source_url!,
        language: r.language!,
        stale: isStale(r.published_date!, cutoff),
      };
    })
    .sort((a, b) => (a.publishedDate === b.publishedDate ? (a.id < b.id ? -1 : 1) : a.publishedDate > b.publishedDate ? -1 : 1));
}

/** Document passages as retrieval would hand them over: the first chunks of each document. */
export function passagesAsOf(companyId: string, asOf: string, recencyDays: number, perDocument = 4): RetrievedItem[] {
  const cutoff = recencyCutoff(asOf, recencyDays);
  const files = fs
    .readdirSync(path.join(DEMO, 'documents'))
    .filter((f) => f.startsWith(`${companyId}--`))
    .sort();
  const out: RetrievedItem[] = [];
  for (const file of files) {
    const doc = matter(fs.readFileSync(path.join(DEMO, 'documents', file), 'utf8'), {});
    const published = String(doc.data.published_date);
    if (published > asOf) continue;
    const chunks = chunkDocument(doc.content)
      .filter((c) => c.text.trim().length > 200)
      .slice(0, perDocument);
    for (const c of chunks) {
      out.push({
        kind: 'chunk',
        id: `${file.replace(/\.md$/, '')}#${c.ordinal}`,
        documentId: file.replace(/\.md$/, ''),
        heading: c.heading,
        charStart: c.charStart,
        charEnd: c.charEnd,
        title: String(doc.data.title),
        snippet: c.text.replace(/\s+/g, ' ').trim().slice(0, 240),
        publishedDate: published,
        sourceName: String(doc.data.source_name),
        sourceUrl: String(doc.data.source_url),
        score: 1,
        stale: isStale(published, cutoff),
      });
    }
  }
  return out;
}

// Steps are debaters unless they say otherwise (`as`).
const step = (id: string, agent: string, team: Team, act: Act, context: string[], output: OutputKind, extra: Partial<StepDef> = {}): StepDef => ({
  id,
  agent,
  role: 'debater',
  team,
  act,
  context,
  webSearch: false,
  evidence: 'pool',
  output,
  task: '',
  ...extra,
});

const none = { evidence: 'none' as const };
const docs = { evidence: 'documents' as const };
const rules = (r: StepRules) => ({ rules: r });
const as = (role: StepRole, focus?: SpecialistFocus) => ({ role, ...(focus ? { focus } : {}) });

export const KPD_STEPS: StepDef[] = [
  step('D1', 'A1', 'affirmative', 'constructive', [], 'turn', { maxChars: 600, ...rules({ minClaims: 3, polarity: 'favorable', citationsRequired: true }) }),
  step('D2', 'N3', 'negative', 'cross-examination', ['D1'], 'turn', rules({ exactQuestions: 3, questionFactors: 2 })),
  step('D3', 'N1', 'negative', 'constructive', ['D1'], 'turn', {
    maxChars: 600,
    ...rules({ minClaims: 3, polarity: 'adverse-or-context', citationsRequired: true, freshFactorsVersus: ['D1'] }),
  }),
  step('D4', 'A3', 'affirmative', 'cross-examination', ['D3'], 'turn', rules({ exactQuestions: 3 })),
  step('D5', 'A2', 'affirmative', 'rebuttal', ['D3'], 'turn', { maxChars: 400, ...rules({ citationsRequired: true }) }),
  step('D6', 'N1', 'negative', 'cross-examination', ['D5'], 'turn', rules({ exactQuestions: 3 })),
  step('D7', 'N2', 'negative', 'rebuttal', ['D1'], 'turn', { maxChars: 400, ...rules({ citationsRequired: true }) }),
  step('D8', 'A1', 'affirmative', 'cross-examination', ['D7'], 'turn', rules({ exactQuestions: 3 })),
  step('D9', 'A3', 'affirmative', 'closing', ['D1', 'D2', 'D5', 'D8'], 'turn', { maxChars: 700, ...none, ...rules({ noNewMaterial: true }) }),
  step('D10', 'N3', 'negative', 'closing', ['D3', 'D4', 'D7', 'D6'], 'turn', { maxChars: 700, ...none, ...rules({ noNewMaterial: true }) }),
  step('AG', 'aggregator', 'neutral', 'aggregation', ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10'], 'report', { ...none, ...as('aggregator') }),
];

export const NAS_STEPS: StepDef[] = [step('NAS', 'analyst', 'neutral', 'report', [], 'report', as('analyst'))];

const B = ['B-F', 'B-M', 'B-I'];
const AFTER_C = [...B, 'O-A', 'O-N', 'C'];
const AFTER_R = [...AFTER_C, 'R-A', 'R-N'];
const AFTER_J = [...AFTER_R, 'J-DA'];
const AFTER_F = [...AFTER_J, 'F-A', 'F-N'];
const WHOLE = [...AFTER_F, 'X-A', 'X-N'];

export const SAS_STEPS: StepDef[] = [
  step('B-F', 'factual-analyst', 'neutral', 'distillation', [], 'briefing', { ...as('specialist', 'figures'), ...rules({ citationsRequired: true }) }),
  step('B-M', 'management-analyst', 'neutral', 'distillation', [], 'briefing', {
    ...as('specialist', 'management-behaviour'),
    ...docs,
    ...rules({ citationsRequired: true }),
  }),
  step('B-I', 'industry-analyst', 'neutral', 'distillation', [], 'briefing', {
    ...as('specialist', 'industry-narrative'),
    maxChars: 2000,
    ...rules({ citationsRequired: true }),
  }),
  step('O-A', 'affirmative', 'affirmative', 'opening', B, 'turn', { ...none, ...rules({ citationsRequired: true, polarity: 'favorable' }) }),
  step('O-N', 'negative', 'negative', 'opening', B, 'turn', { ...none, ...rules({ citationsRequired: true, polarity: 'adverse-or-context' }) }),
  step('C', 'devils-advocate', 'neutral', 'challenge', [...B, 'O-A', 'O-N'], 'turn', { ...none, ...as('devils-advocate') }),
  step('R-A', 'affirmative', 'affirmative', 'rebuttal', AFTER_C, 'turn', none),
  step('R-N', 'negative', 'negative', 'rebuttal', AFTER_C, 'turn', none),
  step('J-DA', 'devils-advocate', 'neutral', 'judgment', AFTER_R, 'turn', { ...none, ...as('devils-advocate') }),
  step('F-A', 'affirmative', 'affirmative', 'follow-up', AFTER_J, 'turn', none),
  step('F-N', 'negative', 'negative', 'follow-up', AFTER_J, 'turn', none),
  step('X-A', 'affirmative', 'affirmative', 'closing', AFTER_F, 'turn', { ...none, ...rules({ noNewMaterial: true }) }),
  step('X-N', 'negative', 'negative', 'closing', AFTER_F, 'turn', { ...none, ...rules({ noNewMaterial: true }) }),
  step('JUDGE', 'judge', 'neutral', 'judgment', WHOLE, 'sasJudgment', { ...none, ...as('judge') }),
  // As lib/debate/protocols/sas.ts: the stress test gets the winning side's turns and the verdict only.
  step('STRESS', 'stress-analyst', 'neutral', 'analysis', ['O-A', 'O-N', 'R-A', 'R-N', 'F-A', 'F-N', 'X-A', 'X-N', 'JUDGE'], 'sasStress', {
    ...none,
    ...as('stress-analyst'),
    onlyWinnerOf: 'JUDGE',
  }),
  step('LEAD', 'lead-analyst', 'neutral', 'report', [...WHOLE, 'JUDGE', 'STRESS'], 'sasReport', { ...none, ...as('lead-analyst') }),
];

export const THREE_ROUND_STEPS: StepDef[] = [
  step('R1-A', 'affirmative', 'affirmative', 'constructive', [], 'argumentsRound', rules({ argumentCount: { min: 3, max: 5 }, citationsRequired: true })),
  step('R1-N', 'negative', 'negative', 'constructive', [], 'argumentsRound', rules({ argumentCount: { min: 3, max: 5 }, citationsRequired: true })),
  step('R2-A', 'affirmative', 'affirmative', 'rebuttal', ['R1-N', 'R1-A'], 'responsesRound', rules({ coverArguments: ['R1-N'] })),
  step('R2-N', 'negative', 'negative', 'rebuttal', ['R1-A', 'R1-N'], 'responsesRound', rules({ coverArguments: ['R1-A'] })),
  step('R3-A', 'affirmative', 'affirmative', 'closing', ['R1-A', 'R1-N', 'R2-A', 'R2-N'], 'closingRound', {
    maxChars: 1400,
    ...none,
    ...rules({ noNewMaterial: true }),
  }),
  step('R3-N', 'negative', 'negative', 'closing', ['R1-A', 'R1-N', 'R2-A', 'R2-N'], 'closingRound', {
    maxChars: 1400,
    ...none,
    ...rules({ noNewMaterial: true }),
  }),
  step('JUDGE', 'judge', 'neutral', 'judgment', ['R1-A', 'R1-N', 'R2-A', 'R2-N', 'R3-A', 'R3-N'], 'rubricJudgment', {
    ...as('judge'),
    ...rules({ coverArguments: ['R1-A', 'R1-N'] }),
  }),
];

const SPECIALISTS: [string, SpecialistFocus][] = [
  ['S-PERF', 'performance'],
  ['S-MKT', 'market-outlook'],
  ['S-MGMT', 'management-sentiment'],
  ['S-COLL', 'collateral'],
  ['S-RISK', 'credit-risk'],
];
const S = SPECIALISTS.map(([id]) => id);
export const FINDEBATE_STEPS: StepDef[] = [
  ...SPECIALISTS.map(([id, focus]) =>
    step(id, id.toLowerCase(), 'neutral', 'analysis', [], 'briefing', { ...as('specialist', focus), ...docs, ...rules({ citationsRequired: true }) }),
  ),
  step('DRAFT', 'writer', 'neutral', 'draft', S, 'stanceDraft', { ...none, ...as('draft-writer') }),
  step('TRUST', 'trust-agent', 'neutral', 'debate', ['DRAFT'], 'turn', { ...docs, ...as('trust') }),
  step('SKEPTIC', 'skeptic', 'negative', 'debate', ['DRAFT', 'TRUST'], 'turn', { ...docs, ...as('skeptic') }),
  step('LEADER', 'leader', 'neutral', 'aggregation', ['DRAFT', 'TRUST', 'SKEPTIC'], 'stanceDraft', { ...none, ...as('leader') }),
  step('SAFETY', 'safety-checker', 'neutral', 'safety-check', ['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER'], 'safetyCheck', { ...none, ...as('safety-checker') }),
];

export const STEPS: Record<ProtocolId, StepDef[]> = {
  'kpd-mads': KPD_STEPS,
  nas: NAS_STEPS,
  sas: SAS_STEPS,
  'three-round': THREE_ROUND_STEPS,
  findebate: FINDEBATE_STEPS,
};

export function protocolOf(id: ProtocolId, steps = STEPS[id]): ProtocolDef {
  return { id, name: id, description: id, steps, reportStep: steps[steps.length - 1].id };
}

export type Case = { companyId: string; language: Language; asOf: string; recencyDays: number };

export function paramsOf(c: Case): RunParams {
  return { language: c.language, asOf: c.asOf, recencyDays: c.recencyDays, maxWebResults: 5, maxConcurrency: 4 };
}

/** A request for one step, with the evidence access the step declares. */
export function requestFor(c: Case, protocol: ProtocolDef, s: StepDef, context: ContextTurn[], onToken: (t: string) => void = () => {}): GenerateRequest {
  return {
    runId: 'run-test',
    protocol,
    step: s,
    params: paramsOf(c),
    company: companyBrief(c.companyId),
    evidence: s.evidence === 'documents' ? [] : visibleEvidence(s, evidenceAsOf(c.companyId, c.asOf, c.recencyDays), context),
    passages: s.evidence === 'documents' ? passagesAsOf(c.companyId, c.asOf, c.recencyDays) : [],
    context,
    prompt: { system: 'ignored by the offline analyst', user: 'ignored' },
    schema: stepOutputSchema(s),
    jsonSchema: {},
    tools: {},
    signal: new AbortController().signal,
    onToken,
  };
}

export type StepRun = { step: StepDef; request: GenerateRequest; result: GenerateResult; output: Record<string, unknown>; text: string; tokens: string[] };

/** Runs a protocol's steps in order, each with only its declared context, as the engine would. */
export async function runProtocol(c: Case, protocol: ProtocolDef): Promise<Map<string, StepRun>> {
  const analyst = createOfflineAnalyst();
  const done = new Map<string, StepRun>();
  for (const s of protocol.steps) {
    const context: ContextTurn[] = contextFor(
      s,
      s.context.map((id) => {
        const d = done.get(id)!;
        return { stepId: id, agent: d.step.agent, team: d.step.team, act: d.step.act, text: d.text, output: d.output };
      }),
    );
    const tokens: string[] = [];
    const request = requestFor(c, protocol, s, context, (t) => tokens.push(t));
    const result = await analyst.generate(request);
    // The step's answer, in the stored shape of its kind (lib/domain/step-output.ts), as the engine keeps it.
    const output = toStoredShape(s, stepOutputSchema(s).parse(JSON.parse(result.raw))) as Record<string, unknown>;
    const text = typeof output.text === 'string' ? output.text : '';
    done.set(s.id, { step: s, request, result, output, text, tokens });
  }
  return done;
}
