// FinDebate's prompts as a literal model reads them (issue 27, item 8): each specialist knows the
// other four lanes, the skeptic is asked only for what its turn holds, a horizon is one of the
// fixed codes in every language, and the safety checker is asked for a decision and edits, never
// for a copy of the version it keeps.
import { describe, expect, it } from 'vitest';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { buildPrompt, describeOutputShape, type PromptInput } from '@/lib/debate/prompts';
import { FINDEBATE } from '@/lib/debate/protocols';
import { isFactorId } from '@/lib/domain/factors';
import { HORIZONS, OUTPUT_SCHEMAS, horizonCode, stanceDraft, storedSafetyCheck, storedStanceDraft, type StepOutput } from '@/lib/domain/outputs';
import type { RunParams, StepDef } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { evidenceAsOf, requestFor, type Case } from '@/lib/llm/offline/test-fixtures';
import type { ContextTurn } from '@/lib/llm/types';

const PARAMS: RunParams = { language: 'ko', asOf: '2024-12-31', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };
const COMPANY = { id: 'acme', name: '에이크미', nameEn: 'Acme Co., Ltd.', country: 'KR', industry: 'Machinery', description: null };
const input = (step: StepDef, context: ContextTurn[] = []): PromptInput => ({
  runId: 'run-1',
  protocol: FINDEBATE,
  step,
  params: PARAMS,
  company: COMPANY,
  evidence: [],
  passages: [],
  context,
});
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

describe("FinDebate: each specialist's prompt names the other four lanes", () => {
  it.each(specialists.map((s) => [s.id, s] as const))('%s', (id, s) => {
    const { user } = buildPrompt(input(s));
    const others = Object.entries(LANE_WORDS).filter(([other]) => other !== id);
    expect(others).toHaveLength(4);
    for (const [, words] of others) expect(user).toMatch(words);
    // Its own lane is its subject, not listed among the others.
    expect(user).not.toMatch(LANE_WORDS[id]);
  });
});

// Issue 27, item 15: a specialist is shown its lane of the pool, not the whole of it five times.
describe('FinDebate: each specialist is told truly what its evidence block holds', () => {
  const pool = evidenceAsOf('samsung-electronics', '2024-12-31', 3 * 365);
  const factorOf = (f: string | null) => (f && isFactorId(f) ? f : 'other');

  it.each(specialists.map((s) => [s.id, s] as const))('%s', (id, s) => {
    const evidence = visibleEvidence(s, pool, []);
    const { user } = buildPrompt({ ...input(s), params: { ...PARAMS, language: 'en' }, evidence });
    const said = user.match(/The evidence block above holds only the pool's items in your lane: ([^\n]*)\./)?.[1];
    expect(said, id).toBeDefined();
    const factors = said!.match(/^those whose factor is (.*?)(, and every item|$)/)?.[1] ?? '';
    const named = [...factors.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named, id).toEqual([...s.lane!.factors]);
    const adverse = said!.includes('every item read adverse, whatever its factor');
    expect(adverse, id).toBe(id === 'S-RISK');
    // Exactly the pool's items it names: every one of them, and nothing else.
    const isNamed = (e: (typeof pool)[number]) => named.includes(factorOf(e.factor)) || (adverse && e.polarity === 'adverse');
    expect(
      evidence.map((e) => e.id),
      id,
    ).toEqual(pool.filter(isNamed).map((e) => e.id));
    expect(evidence.length, id).toBeLessThan(pool.length);
    expect(user, id).toContain(`items of the evidence block above (${evidence.length} items)`);
  });
});

// The trust agent and the skeptic answer the draft: each is shown what the turns it receives call
// for (lib/debate/evidence-scope.ts), and its task says so, so that it does not read the rest of
// the pool as silent.
describe('FinDebate: the trust agent and the skeptic are told what their evidence block holds', () => {
  const pool = evidenceAsOf('samsung-electronics', '2024-12-31', 3 * 365);
  const cited = (stepId: string, ids: string[]): ContextTurn => ({
    stepId,
    agent: stepId,
    team: 'neutral',
    act: stepId === 'DRAFT' ? 'draft' : 'debate',
    text: '',
    output: {
      text: '',
      claims: ids.map((id, n) => ({
        id: `${stepId}-c${n + 1}`,
        text: id,
        factor: pool.find((e) => e.id === id)!.factor,
        polarity: 'adverse',
        citations: [{ evidenceId: id, source: 's', date: '2022-08-16' }],
      })),
    },
  });
  const draft = cited('DRAFT', ['samsung-electronics-022', 'samsung-electronics-012']);
  const trust = cited('TRUST', ['samsung-electronics-026']);

  it.each([
    [
      'TRUST',
      [draft],
      /The evidence block above holds only the pool's items that could back a claim of the draft, the most material dozen at most: on the claim's factor and not read against it \(any reading, where the claim reads either way\), other than the items the draft cites/,
    ],
    [
      'SKEPTIC',
      [draft, trust],
      /The evidence block above holds only these of the pool's items, the most material dozen at most besides those that test the trust agent's claims: items read adverse that neither the draft nor the trust agent cites, the items the trust agent cites, and items on the factor of one of its claims that are not read that claim's way\./,
    ],
  ] as const)('%s', (id, context, words) => {
    const s = step(id);
    const evidence = visibleEvidence(s, pool, [...context]);
    const { user } = buildPrompt({ ...input(s, [...context]), params: { ...PARAMS, language: 'en' }, evidence, passages: [] });
    expect(user).toMatch(words);
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence.length).toBeLessThan(pool.length);
    expect(user).toContain(`items of the evidence block above (${evidence.length} items)`);
    // Neither is shown the items the draft cites; only the skeptic the clean audit of 2024, read
    // against the trust agent's internal-control claim.
    const shown = new Set(evidence.map((e) => e.id));
    expect(shown.has('samsung-electronics-012'), id).toBe(false);
    expect(shown.has('samsung-electronics-022'), id).toBe(false);
    expect(shown.has('samsung-electronics-030'), id).toBe(id === 'SKEPTIC');
  });

  it('shows the trust agent, for a draft claim read either way, items on its factor read any way, as its task says', () => {
    // Tesla as of 2025-06-30: the draft reads the 2024 headcount as context; the union risk, read adverse, is on its factor.
    const tesla = evidenceAsOf('tesla', '2025-06-30', 3 * 365);
    const headcount = tesla.find((e) => e.id === 'tesla-022')!;
    const union = tesla.find((e) => e.id === 'tesla-029')!;
    expect([headcount.factor, union.factor, union.polarity]).toEqual(['employment_stability', 'employment_stability', 'adverse']);
    const contextDraft: ContextTurn = {
      ...draft,
      output: {
        text: '',
        claims: [
          {
            id: 'DRAFT-c1',
            text: 'x',
            factor: 'employment_stability',
            polarity: 'context',
            citations: [{ evidenceId: 'tesla-022', source: 's', date: '2025-01-30' }],
          },
        ],
      },
    };
    const shown = visibleEvidence(step('TRUST'), tesla, [contextDraft]).map((e) => e.id);
    expect(shown).toContain('tesla-029');
    const { user } = buildPrompt({
      ...input(step('TRUST'), [contextDraft]),
      params: { ...PARAMS, language: 'en' },
      evidence: visibleEvidence(step('TRUST'), tesla, [contextDraft]),
      passages: [],
    });
    expect(user).toContain("on the claim's factor and not read against it (any reading, where the claim reads either way)");
    expect(user).not.toContain('read its way or either way');
  });
});

// The offline analyst answers from what its request shows: its lane of the pool and the passages.
describe('FinDebate: the offline specialists still brief on their lane of the pool', () => {
  const cases: Case[] = [
    { companyId: 'samsung-electronics', language: 'en', asOf: '2024-12-31', recencyDays: 3 * 365 },
    { companyId: 'tesla', language: 'en', asOf: '2025-06-30', recencyDays: 3 * 365 },
  ];
  it.each(cases.map((c) => [c.companyId, c] as const))('%s', async (_, c) => {
    const analyst = createOfflineAnalyst();
    const pool = evidenceAsOf(c.companyId, c.asOf, c.recencyDays);
    for (const s of specialists) {
      const evidence = visibleEvidence(s, pool, []);
      const result = await analyst.generate({ ...requestFor(c, FINDEBATE, s, []), evidence });
      const out = JSON.parse(result.raw) as { nothingInMaterial?: boolean; claims: { citations: { evidenceId?: string }[] }[] };
      expect(out.nothingInMaterial, `${c.companyId} ${s.id}`).toBeUndefined();
      expect(out.claims.length, `${c.companyId} ${s.id}`).toBe(5);
      // Its findings lean on its lane's items, not on the passages alone.
      const lane = new Set(evidence.map((e) => e.id));
      const cited = out.claims.flatMap((k) => k.citations.map((x) => x.evidenceId)).filter((id) => id && lane.has(id));
      expect(cited.length, `${c.companyId} ${s.id}`).toBeGreaterThanOrEqual(2);
    }
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
    for (const [label, code] of [
      ['12개월', '12m'],
      ['12 months', '12m'],
      ['3년', '36m'],
    ] as const)
      expect(stanceDraft.parse(draft(label)).horizons[0].horizon, label).toBe(code);
    for (const label of ['near term', '6개월', '5 years']) expect(stanceDraft.safeParse(draft(label)).success, label).toBe(false);
    expect(describeOutputShape('stanceDraft')).toContain('"horizon": "12m" | "24m" | "36m"');
  });

  it('still reads a run stored with free-text labels, and maps the labels to their codes', () => {
    expect(storedStanceDraft.safeParse(draft('12개월')).success).toBe(true);
    expect(['12 months', '12개월', '1년', '3 years', '3년', '36-Month', '24 months', '2년', '12m'].map(horizonCode)).toEqual([
      '12m',
      '12m',
      '12m',
      '36m',
      '36m',
      '36m',
      '24m',
      '24m',
      '12m',
    ]);
    expect(['near term', '5 years', ''].map(horizonCode)).toEqual([undefined, undefined, undefined]);
  });

  it('asks the writer for the codes by name', () => {
    expect(step('DRAFT').task).toMatch(/`12m`.*`36m`.*`24m`/);
  });
});

describe('FinDebate: the safety checker decides and edits; it re-types no version', () => {
  const claims = Array.from({ length: 11 }, (_, i) => ({
    id: `LEADER-c${i + 1}`,
    text: `Leader claim number ${i + 1}.`,
    factor: 'other',
    polarity: 'context' as const,
    citations: [{ evidenceId: `e${i}`, source: 'DART', date: '2024-01-01' }],
  }));
  const version = (id: string): StepOutput<'stanceDraft'> => ({
    text: `${id} text`,
    stance: 'neutral',
    horizons: [{ horizon: '12m', outlook: 'neutral', confidence: 0.5 }],
    claims: id === 'LEADER' ? claims : [],
  });
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
    const context = [
      turnOf(step('DRAFT'), version('DRAFT')),
      turnOf(step('TRUST'), { text: 't', claims: [], questions: [] }),
      turnOf(step('SKEPTIC'), { text: 's', claims: [], questions: [] }),
      turnOf(step('LEADER'), version('LEADER')),
    ];
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
    const older = {
      reason: 'r',
      stanceChanged: false,
      horizonsChanged: false,
      kept: 'final',
      report: { ...version('LEADER'), horizons: [{ horizon: '12 months', outlook: 'neutral', confidence: 0.5 }] },
    };
    expect(storedSafetyCheck.safeParse(older).success).toBe(true);
  });
});
