import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT_SCHEMAS } from '@/lib/domain/outputs';
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { KPD_MADS, PROTOCOLS_BY_ID, UnknownProtocolError, criticalPath, getProtocol, protocolProblems, topologicalOrder } from '@/lib/debate/protocols';

// The KPD-MADS table of docs/protocols.md, one row per step: speaker, team, act, context,
// search, length, output.
const KPD_TABLE: [string, string, StepDef['team'], StepDef['act'], string[], boolean, number | undefined, string][] = [
  ['D1', 'A1', 'affirmative', 'constructive', [], true, 600, 'turn'],
  ['D2', 'N3', 'negative', 'cross-examination', ['D1'], false, undefined, 'turn'],
  ['D3', 'N1', 'negative', 'constructive', ['D1'], true, 600, 'turn'],
  ['D4', 'A3', 'affirmative', 'cross-examination', ['D3'], false, undefined, 'turn'],
  ['D5', 'A2', 'affirmative', 'rebuttal', ['D3'], true, 400, 'turn'],
  ['D6', 'N1', 'negative', 'cross-examination', ['D5'], true, undefined, 'turn'],
  ['D7', 'N2', 'negative', 'rebuttal', ['D1'], true, 400, 'turn'],
  ['D8', 'A1', 'affirmative', 'cross-examination', ['D7'], true, undefined, 'turn'],
  ['D9', 'A3', 'affirmative', 'closing', ['D1', 'D2', 'D5', 'D8'], false, 700, 'turn'],
  ['D10', 'N3', 'negative', 'closing', ['D3', 'D4', 'D7', 'D6'], false, 700, 'turn'],
  ['AG', 'aggregator', 'neutral', 'aggregation', ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10'], false, undefined, 'report'],
];

// Which steps may search, per protocol: the decision each protocol file documents.
const SEARCHING_STEPS: Record<string, string[]> = {
  'kpd-mads': ['D1', 'D3', 'D5', 'D6', 'D7', 'D8'],
  nas: ['NAS'],
  sas: [],
  'three-round': ['R1-A', 'R1-N', 'R2-A', 'R2-N'],
  findebate: [],
};

const ids = (protocol: ProtocolDef) => protocol.steps.map((s) => s.id);
const step = (protocol: ProtocolDef, id: string) => protocol.steps.find((s) => s.id === id)!;

describe('KPD-MADS conforms to the table in docs/protocols.md', () => {
  it('has D1–D10 and AG in protocol order', () => {
    expect(ids(KPD_MADS)).toEqual(KPD_TABLE.map((row) => row[0]));
    expect(KPD_MADS.reportStep).toBe('AG');
  });

  it.each(KPD_TABLE)(
    '%s: speaker %s, team %s, act %s, context %j, search %s, limit %s, output %s',
    (id, agent, team, act, context, webSearch, maxChars, output) => {
      const s = step(KPD_MADS, id);
      expect(s).toMatchObject({ agent, team, act, context, webSearch, output });
      expect(s.maxChars).toBe(maxChars);
    },
  );

  it('lets only A1, A2, N1 and N2 search; A3, N3 and the aggregator never', () => {
    for (const s of KPD_MADS.steps) expect(s.webSearch).toBe(['A1', 'A2', 'N1', 'N2'].includes(s.agent));
  });

  it("carries the table's rules", () => {
    expect(step(KPD_MADS, 'D1').rules).toMatchObject({ minClaims: 3, polarity: 'favorable', citationsRequired: true, searchBelowSignals: 3 });
    expect(step(KPD_MADS, 'D2').rules).toMatchObject({ exactQuestions: 3, questionFactors: 2 });
    expect(step(KPD_MADS, 'D3').rules).toMatchObject({
      minClaims: 3,
      polarity: 'adverse-or-context',
      citationsRequired: true,
      freshFactorsVersus: ['D1'],
      searchBelowSignals: 3,
    });
    // Only the constructives search for missing signals; every step that must search may search.
    expect(KPD_MADS.steps.filter((s) => s.rules?.searchBelowSignals).map((s) => s.id)).toEqual(['D1', 'D3']);
    for (const s of KPD_MADS.steps.filter((x) => x.rules?.searchBelowSignals)) expect(s.webSearch).toBe(true);
    for (const id of ['D4', 'D6', 'D8']) expect(step(KPD_MADS, id).rules).toMatchObject({ exactQuestions: 3 });
    for (const id of ['D9', 'D10']) expect(step(KPD_MADS, id).rules).toMatchObject({ noNewMaterial: true });
  });

  it("shows each side its own evidence: all of it to D1, the factors D1 left to D3, their context's factors to the answering steps, and none to closings and the aggregator", () => {
    for (const s of KPD_MADS.steps) {
      const expected = s.id === 'D1' ? 'side' : s.id === 'D3' ? 'fresh-factors' : ['closing', 'aggregation'].includes(s.act) ? 'none' : 'context-factors';
      expect(s.evidence, s.id).toBe(expected);
    }
  });

  it('names no question kind like a field of an answer (a literal model would fill the field)', () => {
    const fields = new Set(
      Object.values(OUTPUT_SCHEMAS).flatMap((schema) => Object.keys((z.toJSONSchema(schema) as { properties?: object }).properties ?? {})),
    );
    fields.add('falsifiability');
    const kinds = KPD_MADS.steps.filter((s) => s.act === 'cross-examination').flatMap((s) => [...s.task.matchAll(/^- (\w+):/gm)].map((m) => m[1]));
    expect(kinds).toHaveLength(12);
    expect(kinds.filter((k) => fields.has(k))).toEqual([]);
  });

  it('puts the question focus of each cross-examination in its task', () => {
    expect(step(KPD_MADS, 'D2').task).toMatch(/interpretation[\s\S]*reliab[\s\S]*counterexample/i);
    expect(step(KPD_MADS, 'D4').task).toMatch(/alternative[\s\S]*boundary[\s\S]*measure/i);
    expect(step(KPD_MADS, 'D6').task).toMatch(/consistency[\s\S]*credib[\s\S]*testab/i);
    expect(step(KPD_MADS, 'D8').task).toMatch(/gap[\s\S]*omitted[\s\S]*contradict/i);
    expect(step(KPD_MADS, 'D9').task).toMatch(/about 600 characters/);
    expect(step(KPD_MADS, 'D10').task).toMatch(/about 600 characters/);
  });

  it('has the critical path D1 → D3 → D5 → D6 → D10 → AG: 6 calls against 11 in sequence', () => {
    expect(criticalPath(KPD_MADS)).toEqual(['D1', 'D3', 'D5', 'D6', 'D10', 'AG']);
    expect(topologicalOrder(KPD_MADS)).toHaveLength(11);
  });
});

describe.each(Object.values(PROTOCOLS_BY_ID))('protocol $id', (protocol) => {
  it('is sound: unique ids, context only on earlier steps, an existing report step', () => {
    expect(protocolProblems(protocol)).toEqual([]);
    expect(new Set(ids(protocol)).size).toBe(protocol.steps.length);
    const report = step(protocol, protocol.reportStep);
    expect(report).toBeDefined();
  });

  it('runs in protocol order when sequential', () => {
    expect(topologicalOrder(protocol)).toEqual(ids(protocol));
  });

  it('names only output kinds that have a schema', () => {
    for (const s of protocol.steps) expect(Object.keys(OUTPUT_SCHEMAS)).toContain(s.output);
  });

  it('lets only the decided steps search', () => {
    expect(protocol.steps.filter((s) => s.webSearch).map((s) => s.id)).toEqual(SEARCHING_STEPS[protocol.id]);
  });

  it('gives every step a task and a critical path ending at the report step', () => {
    for (const s of protocol.steps) expect(s.task.length).toBeGreaterThan(40);
    expect(criticalPath(protocol).at(-1)).toBe(protocol.reportStep);
  });
});

describe('the other protocols follow STEP-IDS.md', () => {
  it('registers all five protocols of the schema', () => {
    expect(Object.keys(PROTOCOLS_BY_ID).sort()).toEqual([...PROTOCOLS].sort());
    for (const id of PROTOCOLS) expect(getProtocol(id).id).toBe(id);
    expect(() => getProtocol('kpd')).toThrow(UnknownProtocolError);
  });

  it('NAS is one step that reports', () => {
    const nas = getProtocol('nas');
    expect(nas.steps).toHaveLength(1);
    expect(nas.steps[0]).toMatchObject({ id: 'NAS', output: 'report', context: [], evidence: 'pool' });
    expect(nas.reportStep).toBe('NAS');
  });

  it('SAS: briefings read the pool, everything after argues from the briefings and the debate', () => {
    const sas = getProtocol('sas');
    expect(ids(sas)).toEqual(['B-F', 'B-M', 'B-I', 'O-A', 'O-N', 'C', 'R-A', 'R-N', 'J-DA', 'F-A', 'F-N', 'X-A', 'X-N', 'JUDGE', 'STRESS', 'LEAD']);
    for (const s of sas.steps) expect(s.evidence === 'none').toBe(!s.id.startsWith('B-'));
    expect(step(sas, 'O-A').context).toEqual(['B-F', 'B-M', 'B-I']);
    expect(step(sas, 'O-N').context).toEqual(['B-F', 'B-M', 'B-I']);
    // Full history from the rebuttals on: every earlier step except the other side's parallel one.
    for (const id of ['R-A', 'R-N', 'J-DA', 'F-A', 'F-N', 'X-A', 'X-N', 'JUDGE']) {
      const earlier = ids(sas)
        .slice(0, ids(sas).indexOf(id))
        .filter((e) => !(e.startsWith(id.slice(0, 2)) && e !== id));
      expect(step(sas, id).context).toEqual(earlier);
    }
    expect(step(sas, 'JUDGE').output).toBe('sasJudgment');
    // As published: the stress test sees the winning thesis only — each side's own turns, of which
    // the engine keeps the side JUDGE upheld, and the verdict — never the briefings, the devil's
    // advocate or the other side.
    expect(step(sas, 'STRESS')).toMatchObject({ context: ['O-A', 'O-N', 'R-A', 'R-N', 'F-A', 'F-N', 'X-A', 'X-N', 'JUDGE'], onlyWinnerOf: 'JUDGE' });
    // The lead analyst sees the briefings, the entire debate, the verdict and the stress critique.
    expect(step(sas, 'LEAD').context).toEqual(ids(sas).slice(0, ids(sas).indexOf('LEAD')));
    expect(sas.steps.filter((s) => s.onlyWinnerOf).map((s) => s.id)).toEqual(['STRESS']);
    expect(step(sas, 'STRESS').output).toBe('sasStress');
    expect(step(sas, 'LEAD').output).toBe('sasReport');
  });

  it('SAS: the tasks ask only for what the flow uses and the engine checks', () => {
    const sas = getProtocol('sas');
    // B-I's length is the checked limit, in characters, with one number.
    const bi = step(sas, 'B-I');
    expect(bi.maxChars).toBe(2000);
    expect(bi.task).toContain(`at most ${bi.maxChars} characters`);
    expect(bi.task).not.toMatch(/words/);
    // Only the devil's advocate asks: J-DA's follow-ups are what F-A and F-N answer, so a
    // rebuttal's own question would go unanswered.
    for (const id of ['R-A', 'R-N']) expect(step(sas, id).task).toMatch(/Ask no questions of your own/);
    for (const id of ['F-A', 'F-N']) expect(step(sas, id).context).toContain('J-DA');
    // The judge's temperature is the engine's (RunParams.judgeTemperature), not the model's to set.
    expect(step(sas, 'JUDGE').role).toBe('judge');
    expect(step(sas, 'JUDGE').task).not.toMatch(/temperature/i);
  });

  it("three-round: each side answers the other's first round, then closes; the judge is told no provider setting", () => {
    const tr = getProtocol('three-round');
    expect(ids(tr)).toEqual(['R1-A', 'R1-N', 'R2-A', 'R2-N', 'R3-A', 'R3-N', 'JUDGE']);
    expect(step(tr, 'R2-A').context).toEqual(['R1-N', 'R1-A']);
    expect(step(tr, 'R2-N').context).toEqual(['R1-A', 'R1-N']);
    expect(tr.steps.map((s) => s.output)).toEqual([
      'argumentsRound',
      'argumentsRound',
      'responsesRound',
      'responsesRound',
      'closingRound',
      'closingRound',
      'rubricJudgment',
    ]);
    // The published 200 words are checked as 1,400 characters: the task names the checked limit only.
    expect(step(tr, 'R3-A').maxChars).toBe(1400);
    expect(step(tr, 'R3-A').task).not.toMatch(/words/);
    // The engine sets the judge's temperature; the judge is not told of a setting it cannot change.
    expect(step(tr, 'JUDGE').task).not.toMatch(/temperature/);
    expect(criticalPath(tr)).toEqual(['R1-A', 'R2-A', 'R3-A', 'JUDGE']);
  });

  it("three-round: checks round 1's 3–5 arguments with evidence, round 2's answer to every argument, and the judge's score for every argument", () => {
    const tr = getProtocol('three-round');
    for (const id of ['R1-A', 'R1-N']) expect(step(tr, id).rules).toEqual({ argumentCount: { min: 3, max: 5 }, citationsRequired: true });
    expect(step(tr, 'R2-A').rules).toEqual({ coverArguments: ['R1-N'] });
    expect(step(tr, 'R2-N').rules).toEqual({ coverArguments: ['R1-A'] });
    expect(step(tr, 'JUDGE')).toMatchObject({ role: 'judge', rules: { coverArguments: ['R1-A', 'R1-N'] } });
    // The judge is asked for averages, as the engine recomputes them.
    expect(step(tr, 'JUDGE').task).toMatch(/AVERAGE of its arguments' weighted scores \(not the sum/);
  });

  it('FinDebate: five document-reading specialists that never search, then draft, debate and safety check', () => {
    const fd = getProtocol('findebate');
    expect(ids(fd)).toEqual(['S-PERF', 'S-MKT', 'S-MGMT', 'S-COLL', 'S-RISK', 'DRAFT', 'TRUST', 'SKEPTIC', 'LEADER', 'SAFETY']);
    for (const s of fd.steps.filter((x) => x.id.startsWith('S-'))) {
      expect(s).toMatchObject({ evidence: 'documents', webSearch: false, output: 'briefing', context: [] });
    }
    expect(step(fd, 'DRAFT').output).toBe('stanceDraft');
    expect(step(fd, 'LEADER').output).toBe('stanceDraft');
    // As published: the skeptic reviews the trust agent's output, so it runs after it.
    expect(step(fd, 'TRUST').context).toEqual(['DRAFT']);
    expect(step(fd, 'SKEPTIC').context).toEqual(['DRAFT', 'TRUST']);
    expect(step(fd, 'LEADER').context).toEqual(['DRAFT', 'TRUST', 'SKEPTIC']);
    // The safety check sees the debate turns: a round that recommended nothing keeps the draft.
    expect(step(fd, 'SAFETY')).toMatchObject({ output: 'safetyCheck', context: ['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER'] });
    expect(criticalPath(fd)).toEqual(['S-PERF', 'DRAFT', 'TRUST', 'SKEPTIC', 'LEADER', 'SAFETY']);
  });
});

describe('graph helpers', () => {
  const base = { id: 'nas', name: 'x', description: 'x', reportStep: 'B' } as const;
  const mk = (id: string, context: string[]): StepDef => ({
    id,
    agent: id,
    role: 'analyst',
    team: 'neutral',
    act: 'analysis',
    context,
    webSearch: false,
    evidence: 'none',
    output: 'turn',
    task: '',
  });

  it('reports context on later or unknown steps, duplicates and a missing report step', () => {
    const broken: ProtocolDef = { ...base, reportStep: 'Z', steps: [mk('A', ['B']), mk('B', ['Q']), mk('B', [])] };
    expect(protocolProblems(broken)).toEqual([
      'duplicate step id B',
      'A: context names B, which is not earlier in protocol order',
      'B: context names unknown step Q',
      'report step Z does not exist',
    ]);
  });

  it('orders by dependency and refuses cycles', () => {
    expect(topologicalOrder({ ...base, steps: [mk('B', ['A']), mk('A', [])] })).toEqual(['A', 'B']);
    expect(() => topologicalOrder({ ...base, steps: [mk('A', ['B']), mk('B', ['A'])] })).toThrow(/cycle/);
  });

  it('counts a step with no context as a path of one', () => {
    expect(criticalPath({ ...base, reportStep: 'A', steps: [mk('A', [])] })).toEqual(['A']);
  });
});
