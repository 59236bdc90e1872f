// FinDebate's prompts as a literal model reads them (issue 27, item 8): each specialist knows the
// other four lanes, the skeptic is asked only for what its turn holds, a horizon is one of the
// fixed codes in every language, and the safety checker is asked for a decision and edits, never
// for a copy of the version it keeps.
import { describe, expect, it } from 'vitest';
import { buildPrompt, describeOutputShape, type PromptInput } from '@/lib/debate/prompts';
import { FINDEBATE } from '@/lib/debate/protocols';
import { HORIZONS, OUTPUT_SCHEMAS, horizonCode, stanceDraft, storedSafetyCheck, storedStanceDraft, type StepOutput } from '@/lib/domain/outputs';
import type { RunParams, StepDef } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';

const PARAMS: RunParams = { language: 'ko', asOf: '2024-12-31', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };
const COMPANY = { id: 'acme', name: '에이크미', nameEn: 'Acme Co., Ltd.', country: 'KR', industry: 'Machinery', description: null };
const input = (step: StepDef, context: ContextTurn[] = []): PromptInput => ({ runId: 'run-1', protocol: FINDEBATE, step, params: PARAMS, company: COMPANY, evidence: [], passages: [], context });
const step = (id: string) => FINDEBATE.steps.find((s) => s.id === id)!;
const specialists = FINDEBATE.steps.filter((s) => s.role === 'specialist');

// What each lane covers, as the protocol's table in docs/protocols.md has it.
const LANE_WORDS: Record<string, RegExp> = {
  'S-PERF': /business performance analyst — how the business is performing: orders, output, market position/,
  'S-MKT': /industry and market analyst — the industry's growth, competition, technology shifts and cyclical exposure/,
  'S-MGMT': /management and sentiment analyst — management continuity, governance and the tone of disclosures/,
  'S-COLL': /collateral and valuation analyst — assets, certifications, rights and support programmes/,
  'S-RISK': /credit risk analyst — litigation, sanctions, distress signals, internal-control findings/,
};

describe('FinDebate: each specialist\'s prompt names the other four lanes', () => {
  it.each(specialists.map((s) => [s.id, s] as const))('%s', (id, s) => {
    const { user } = buildPrompt(input(s));
    const others = Object.entries(LANE_WORDS).filter(([other]) => other !== id);
    expect(others).toHaveLength(4);
    for (const [, words] of others) expect(user).toMatch(words);
    // Its own lane is its subject, not listed among the others.
    expect(user).not.toMatch(LANE_WORDS[id]);
  });
});

describe('FinDebate: the skeptic is asked only for what its turn holds', () => {
  it('places each thing it asks: risks and overreach as cited claims, mitigations and scenarios in `text`', () => {
    const task = step('SKEPTIC').task;
    expect(step('SKEPTIC').output).toBe('turn');
    const fields = Object.keys(OUTPUT_SCHEMAS.turn.shape);
    expect(fields).toContain('text');
    expect(task).toMatch(/In `text`: .*mitigation.*base case and a downside case/);
    expect(task).toMatch(/Each risk .*: one claim, cited/);
    expect(task).toMatch(/overreaches .*: one claim answering that support claim through `respondsTo`/);
    // Every field the task names is a field of the turn or of its claims.
    const named = [...task.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    const claimFields = Object.keys(OUTPUT_SCHEMAS.turn.shape.claims.element.shape);
    for (const f of named) expect([...fields, ...claimFields], f).toContain(f);
  });
});

describe('FinDebate: horizons are fixed codes', () => {
  const draft = (horizon: string) => ({ text: 't', stance: 'neutral', horizons: [{ horizon, outlook: 'neutral', confidence: 0.5 }], claims: [] });

  it('takes a code, or the label of a fixed horizon as its code, and refuses any other', () => {
    for (const h of HORIZONS) expect(stanceDraft.safeParse(draft(h)).success, h).toBe(true);
    // A label of a fixed horizon is taken as its code (tolerant intake); anything else is refused.
    for (const [label, code] of [['12개월', '12m'], ['12 months', '12m'], ['3년', '36m']] as const) expect(stanceDraft.parse(draft(label)).horizons[0].horizon, label).toBe(code);
    for (const label of ['near term', '6개월', '5 years']) expect(stanceDraft.safeParse(draft(label)).success, label).toBe(false);
    expect(describeOutputShape('stanceDraft')).toContain('"horizon": "12m" | "24m" | "36m"');
  });

  it('still reads a run stored with free-text labels, and maps the labels to their codes', () => {
    expect(storedStanceDraft.safeParse(draft('12개월')).success).toBe(true);
    expect(['12 months', '12개월', '1년', '3 years', '3년', '36-Month', '24 months', '2년', '12m'].map(horizonCode)).toEqual(['12m', '12m', '12m', '36m', '36m', '36m', '24m', '24m', '12m']);
    expect(['near term', '5 years', ''].map(horizonCode)).toEqual([undefined, undefined, undefined]);
  });

  it('asks the writer for the codes by name', () => {
    expect(step('DRAFT').task).toMatch(/`12m`.*`36m`.*`24m`/);
  });
});

describe('FinDebate: the safety checker decides and edits; it re-types no version', () => {
  const claims = Array.from({ length: 11 }, (_, i) => ({ id: `LEADER-c${i + 1}`, text: `Leader claim number ${i + 1}.`, factor: 'other', polarity: 'context' as const, citations: [{ evidenceId: `e${i}`, source: 'DART', date: '2024-01-01' }] }));
  const version = (id: string): StepOutput<'stanceDraft'> => ({ text: `${id} text`, stance: 'neutral', horizons: [{ horizon: '12m', outlook: 'neutral', confidence: 0.5 }], claims: id === 'LEADER' ? claims : [] });
  const turnOf = (s: StepDef, output: unknown): ContextTurn => ({ stepId: s.id, agent: s.agent, team: s.team, act: s.act, text: `${s.id} text`, output });

  it('answers with no `report`: its shape has the decision and the edits only', () => {
    expect(Object.keys(OUTPUT_SCHEMAS.safetyCheck.shape)).toEqual(['reason', 'stanceChanged', 'horizonsChanged', 'kept', 'edits']);
    const shape = describeOutputShape('safetyCheck');
    expect(shape).not.toContain('"report"');
    expect(shape).not.toContain('"claims"');
    expect(shape).toContain('"claimId": string');
    expect(shape).toContain('"wording": string');
  });

  it('is told not to copy the version it keeps, and where its edits go', () => {
    const context = [turnOf(step('DRAFT'), version('DRAFT')), turnOf(step('TRUST'), { text: 't', claims: [], questions: [] }), turnOf(step('SKEPTIC'), { text: 's', claims: [], questions: [] }), turnOf(step('LEADER'), version('LEADER'))];
    const { user } = buildPrompt(input(step('SAFETY'), context));
    const task = user.slice(user.indexOf('# Task'), user.indexOf('#', user.indexOf('# Task') + 1));
    expect(task).toMatch(/Do not copy the version you keep/);
    expect(task).not.toMatch(/`report`/);
    // The output the model writes holds no claims to re-type: the one place they would go is gone.
    const output = user.slice(user.lastIndexOf('The shape of your answer'));
    for (const c of claims) expect(output).not.toContain(c.text);
    expect(output).not.toMatch(/"report"|"claims"/);
  });

  it('is stored with the kept version as its report, the shape the report reads; a run stored before edits still reads', () => {
    const stored = { reason: 'r', stanceChanged: false, horizonsChanged: false, kept: 'final', report: version('LEADER') };
    expect(storedSafetyCheck.safeParse(stored).success).toBe(true);
    expect(Object.keys(storedSafetyCheck.shape)).toEqual(['reason', 'stanceChanged', 'horizonsChanged', 'kept', 'report']);
    const older = { reason: 'r', stanceChanged: false, horizonsChanged: false, kept: 'final', report: { ...version('LEADER'), horizons: [{ horizon: '12 months', outlook: 'neutral', confidence: 0.5 }] } };
    expect(storedSafetyCheck.safeParse(older).success).toBe(true);
  });
});
