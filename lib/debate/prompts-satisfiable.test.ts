// Every checked rule can be met from what the request shows (docs/protocols.md, "What a prompt may
// say"). A literal answerer reads each request as a model would: the rules from the prompt's own
// words (the numbers it states, the factors it forbids, the evidence it lets a closing cite), the
// material from what the request shows (the evidence block, passages, the turns it receives, the
// red flags). It builds the plainest answer that keeps every stated rule, and the engine checks it
// as it checks a model's. A rule the prompt states wrong (a minimum the evidence cannot carry, a
// target that is not shown, a citable list that leaves out what the step must answer) makes the
// answer fail its check, and the step is sent back: the test asserts none is, on every step of the
// five systems, on a thin pool and a rich one, with search configured and without. Steps with no
// checked rule beyond their shape (reports, judgments, drafts) are answered by the offline analyst.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { createRun, executeRun, type WebSearchFn } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { claimsOf, citationsOf, questionsOf } from '@/lib/domain/output-parts';
import type { ProtocolId } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';

const PROTOCOLS: ProtocolId[] = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'];
// Thin: three items of one earnings call. Rich: forty items and four red flags.
const POOLS = [
  { companyId: 'travelers-companies', asOf: '2021-06-30' },
  { companyId: 'samsung-electronics', asOf: '2025-06-30' },
] as const;
const THRESHOLD = { minItems: 1, minFactors: 0 };

type Cite = { evidenceId: string; source: string; date: string };
type Stated = {
  minClaims?: number;
  minFactors?: number;
  polarity?: string[];
  flagException: boolean;
  forbidden: Set<string>;
  exactQuestions?: number;
  questionFactors: number;
  claimlessTarget?: string;
  mayUseFactors?: Set<string>;
  mayCite?: Set<string>;
  maxChars?: number;
  findings: boolean;
  onlyNothing: boolean;
  arguments?: { min: number; max: number };
  cover: string[];
  search: boolean;
};

const num = (text: string, re: RegExp) => {
  const m = text.match(re);
  return m ? Number(m[1]) : undefined;
};
const list = (text: string, re: RegExp) => {
  const m = text.match(re);
  return m
    ? new Set(
        m[1]
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x && x !== 'none'),
      )
    : undefined;
};

/** The rules as the prompt states them, read from its words only. */
function statedRules(user: string): Stated {
  const rules = user.slice(user.indexOf('# Checked rules'));
  const has = user.includes('# Checked rules');
  const r = has ? rules.slice(0, rules.indexOf('\n# ') > 0 ? rules.indexOf('\n# ') : undefined) : '';
  const polarity = r.match(/Every claim's polarity is "(\w+)"(?: or "(\w+)")?/);
  const args = r.match(/(\d+) to (\d+) numbered arguments/) ?? r.match(/(\d+)() numbered arguments/);
  return {
    minClaims: /No (?:minimum number of claims|claim is required)/.test(r) ? 0 : num(r, /At least (\d+) claims?/),
    minFactors: num(r, /Claims cover at least (\d+) different factor/),
    polarity: polarity ? [polarity[1], polarity[2]].filter(Boolean) : undefined,
    flagException: /except a claim on a red flag/.test(r),
    forbidden: list(r, /Do not use the factors [^:]+ used: ([^.]+)\./) ?? new Set(),
    exactQuestions: num(r, /Exactly (\d+) questions/),
    questionFactors: num(r, /target claims of at least (\d+) different factors/) ?? 1,
    claimlessTarget: r.match(/aim each question at the turn itself \(`targetClaimId`: "([^"]+)"\)/)?.[1],
    mayUseFactors: list(r, /Factors you may use: ([^.(]+)[.(]/),
    mayCite: list(r, /Evidence you may (?:cite|name): ([^.(]+)[.(]/),
    maxChars: num(r, /`text` is at most (\d+) characters/),
    findings: /At least one finding/.test(r),
    onlyNothing: /the one answer that passes is `nothingInMaterial`/.test(r),
    arguments: args ? { min: Number(args[1]), max: Number(args[2] || args[1]) } : undefined,
    cover: [...(list(r, /(?:Answer|Score) every argument of [^:]+: ([^.]+)\./) ?? [])],
    search: /Search the web before you answer|search the web for more before you answer/.test(user) && user.includes('You may call the web_search tool'),
  };
}

/** What the request shows that a citation may name: pool items, passages, red flags, the turns' citations. */
function shownMaterial(req: GenerateRequest) {
  const items = new Map<string, Cite & { factor: string; polarity: string | null }>();
  for (const e of req.evidence)
    items.set(e.id, { evidenceId: e.id, source: e.sourceName, date: e.publishedDate, factor: e.factor ?? 'other', polarity: e.polarity });
  for (const p of req.passages) items.set(p.id, { evidenceId: p.id, source: p.sourceName, date: p.publishedDate, factor: 'other', polarity: null });
  const flags = new Map<string, Cite & { factor: string }>();
  for (const f of req.redFlags ?? []) flags.set(f.evidenceId, { evidenceId: f.evidenceId, source: f.sourceName, date: f.publishedDate, factor: 'other' });
  const cited = new Map<string, Cite>();
  for (const t of req.context)
    for (const c of citationsOf(t.output)) if (c.evidenceId) cited.set(c.evidenceId, { evidenceId: c.evidenceId, source: c.source, date: c.date });
  // A step that sees no evidence block argues from what the turns it receives cite, read as they read it.
  if (req.step.evidence === 'none') {
    for (const t of req.context) {
      for (const c of claimsOf(t.output)) {
        for (const x of c.citations)
          if (x.evidenceId && !items.has(x.evidenceId))
            items.set(x.evidenceId, { evidenceId: x.evidenceId, source: x.source, date: x.date, factor: c.factor, polarity: c.polarity });
      }
    }
  }
  return { items, flags, cited };
}

type Problem = { step: string; problem: string };

/** The plainest answer that keeps every stated rule, or a problem when none can be built from what is shown. */
function construct(req: GenerateRequest, problems: Problem[]): unknown | undefined {
  const { step } = req;
  const said = statedRules(req.prompt.user);
  const { items, flags, cited } = shownMaterial(req);
  const fail = (problem: string) => {
    problems.push({ step: step.id, problem });
    return undefined;
  };
  const text = 'A short answer.';
  const claimsFrom = (wanted: number, allowed: (i: { factor: string; polarity: string | null }) => boolean, polarity: string) => {
    // One claim per factor, each on its own item (Rule 4).
    const byFactor = new Map<string, Cite>();
    for (const i of items.values())
      if (allowed(i) && !said.forbidden.has(i.factor) && !byFactor.has(i.factor))
        byFactor.set(i.factor, { evidenceId: i.evidenceId, source: i.source, date: i.date });
    const picked = [...byFactor].slice(0, Math.max(wanted, 0));
    return picked.map(([factor, c], n) => ({ id: `${step.id}-c${n + 1}`, text: 'A signal.', factor, polarity, citations: [c] }));
  };

  if (step.output === 'turn' || step.output === 'briefing') {
    if (said.onlyNothing) return { text, nothingInMaterial: true, claims: [] };
    const out: Record<string, unknown> = { text: said.maxChars ? text.slice(0, said.maxChars) : text, claims: [], questions: [] };
    if (said.exactQuestions !== undefined) {
      const targets = req.context.flatMap((t) => claimsOf(t.output));
      if (!targets.length && !said.claimlessTarget) return fail('questions must target a claim, and the turns shown have none and no other target is named');
      const factors = [...new Set(targets.map((c) => c.factor))];
      if (targets.length && factors.length < said.questionFactors)
        return fail(`questions must cover ${said.questionFactors} factors; the turns shown argue ${factors.length}`);
      const ordered = factors.map((f) => targets.find((c) => c.factor === f)!);
      out.questions = Array.from({ length: said.exactQuestions }, (_, n) => {
        const target = targets.length ? ordered[n % ordered.length].id : said.claimlessTarget!;
        // A counterexample points to an item the step is shown: the closing that answers it must be able to cite it.
        const point = [...items.values()][n];
        return {
          id: `${step.id}-q${n + 1}`,
          targetClaimId: target,
          text: 'A question?',
          ...(point ? { citations: [{ evidenceId: point.evidenceId, source: point.source, date: point.date }] } : {}),
        };
      });
      return out;
    }
    if (said.mayUseFactors || said.mayCite) {
      // A closing: one claim per usable factor, citing what it may cite; it answers the questions it receives.
      const mayCite = said.mayCite ?? new Set<string>();
      for (const q of req.context.flatMap((t) => questionsOf(t.output))) {
        for (const c of q.citations ?? [])
          if (c.evidenceId && !mayCite.has(c.evidenceId)) return fail(`a question it must answer points to ${c.evidenceId}, which it may not cite`);
      }
      for (const f of flags.keys()) if (!mayCite.has(f)) return fail(`the red flag ${f} is not citable`);
      const claims = req.context
        .flatMap((t) => claimsOf(t.output))
        .filter((c) => !said.mayUseFactors || said.mayUseFactors.has(c.factor))
        .flatMap((c) => {
          const keep = c.citations.filter((x) => x.evidenceId && mayCite.has(x.evidenceId));
          return keep.length ? [{ factor: c.factor, polarity: c.polarity, citations: keep.slice(0, 1) }] : [];
        });
      const one = new Map(claims.map((c) => [c.factor, c]));
      out.claims = [...one.values()].map((c, n) => ({ id: `${step.id}-c${n + 1}`, text: 'It stands.', ...c }));
      return out;
    }
    const wanted = Math.max(said.minClaims ?? 0, said.minFactors ?? 0, said.findings ? 1 : 0);
    const polarity = said.polarity?.[0] ?? (step.team === 'negative' ? 'adverse' : 'favorable');
    const direction = (i: { polarity: string | null }) => (polarity === 'favorable' ? i.polarity !== 'adverse' : i.polarity !== 'favorable');
    const claims = claimsFrom(wanted || (said.minClaims === undefined ? 1 : 0), direction, polarity);
    // A side may always address a red flag, reading it adverse or context.
    const flag = [...flags.values()][0];
    if (flag && (said.flagException || said.polarity?.includes('adverse')))
      claims.push({
        id: `${step.id}-c${claims.length + 1}`,
        text: 'The flag weighs.',
        factor: 'other',
        polarity: said.flagException ? 'context' : 'adverse',
        citations: [{ evidenceId: flag.evidenceId, source: flag.source, date: flag.date }],
      });
    if (claims.length < wanted) return fail(`needs ${wanted} claims; the shown material carries ${claims.length}`);
    out.claims = claims;
    if (step.output === 'briefing') return { text, claims };
    return out;
  }
  if (step.output === 'argumentsRound') {
    const a = said.arguments;
    if (!a) return fail('no stated number of arguments');
    const side = step.team === 'affirmative' ? 'favorable' : 'adverse';
    const claims = claimsFrom(a.min, (i) => (side === 'favorable' ? i.polarity !== 'adverse' : i.polarity !== 'favorable'), side);
    if (claims.length < a.min) return fail(`needs ${a.min} arguments; the shown material carries ${claims.length}`);
    return {
      text,
      arguments: claims.map((c, n) => ({ id: `${step.id}-${n + 1}`, claim: 'A point.', reasoning: 'Because.', factor: c.factor, evidence: c.citations })),
    };
  }
  if (step.output === 'responsesRound') {
    if (!said.cover.length) return fail('no argument ids stated to answer');
    return { text, responses: said.cover.map((id) => ({ targetId: id, kind: 'challenge', reasoning: 'Unproven.', followUp: 'Which item shows it?' })) };
  }
  if (step.output === 'closingRound') {
    const mayCite = said.mayCite ?? new Set<string>();
    for (const id of cited.keys()) if (!mayCite.has(id)) return fail(`the turns cite ${id}, which it may not name`);
    return { text: said.maxChars ? text.slice(0, said.maxChars) : text, concessions: [], unrebutted: [], finalPosition: 'It holds.' };
  }
  return undefined;
}

/** A literal answerer: constructed answers where the step has checked rules, the offline analyst elsewhere. */
function literal(problems: Problem[], built: string[]) {
  const offline = createOfflineAnalyst();
  const provider: ModelProvider = {
    name: 'openai',
    model: 'gpt-4o-mini',
    isLLM: true,
    async generate(req: GenerateRequest) {
      if (req.part || req.repair) return offline.generate(req);
      if (statedRules(req.prompt.user).search && req.tools.webSearch) await req.tools.webSearch(`${req.company.name} news`);
      const answer = construct(req, problems);
      if (answer === undefined) return offline.generate(req);
      built.push(req.step.id);
      const raw = JSON.stringify(answer);
      req.onToken(raw);
      return { raw, usage: { promptTokens: Math.ceil(req.prompt.user.length / 4), completionTokens: Math.ceil(raw.length / 4) }, toolCalls: [], modelMs: 0 };
    },
  };
  return provider;
}

const search: WebSearchFn = async () => [];

describe('every checked rule can be met from what the request shows', () => {
  let handle: DatabaseHandle;
  let db: Db;
  const results = new Map<string, { problems: Problem[]; sentBack: string[]; status: string; error?: string; built: string[] }>();

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
    for (const pool of POOLS) {
      for (const protocolId of PROTOCOLS) {
        for (const searching of [false, true]) {
          const problems: Problem[] = [];
          const built: string[] = [];
          const provider = literal(problems, built);
          const run = await createRun({ db, protocolId, companyId: pool.companyId, provider, params: { asOf: pool.asOf, language: 'en' } });
          const result = await executeRun({ db, runId: run.id, provider, evidenceThreshold: THRESHOLD, ...(searching ? { webSearch: search } : {}) });
          const steps = await listRunSteps({ db, runId: run.id });
          const sentBack = steps.flatMap((s) => (s.repairs ?? []).filter((r) => r.kind === 'repair-request').map((r) => `${s.stepId}: ${r.detail}`));
          results.set(`${protocolId}|${pool.companyId}|${searching}`, { problems, sentBack, status: result.status, error: result.error, built });
        }
      }
    }
  }, 600_000);
  afterAll(() => handle?.close());

  const cases = PROTOCOLS.flatMap((p) => POOLS.flatMap((pool) => [false, true].map((s) => [p, pool.companyId, s] as const)));

  it.each(cases)(
    '%s on %s (search configured: %s): an answer built from the shown material keeps every stated rule, first time',
    (protocolId, companyId, searching) => {
      const r = results.get(`${protocolId}|${companyId}|${searching}`)!;
      expect(r.problems).toEqual([]);
      expect(r.sentBack).toEqual([]);
      expect(r.status, r.error).toBe('succeeded');
    },
  );

  it('constructs the answers itself where rules are checked (not the offline analyst)', () => {
    // The answerer built every KPD-MADS debate turn and every three-round round, on every pool:
    // a step it left to the offline analyst would not have tested the prompt's words.
    const kpd = getProtocol('kpd-mads')
      .steps.filter((s) => s.output === 'turn')
      .map((s) => s.id);
    expect(kpd).toHaveLength(10);
    for (const [key, r] of results) {
      if (key.startsWith('kpd-mads|')) expect([...r.built].sort(), key).toEqual([...kpd].sort());
      if (key.startsWith('three-round|')) expect([...r.built].sort(), key).toEqual(['R1-A', 'R1-N', 'R2-A', 'R2-N', 'R3-A', 'R3-N']);
    }
    const thin = statedRules(
      '# Checked rules (x)\n- At least 2 claims (the evidence shown offers 2 signals in your direction).\n- Exactly 3 questions.\n- `text` is at most 600 characters.\n# Sources',
    );
    expect(thin).toMatchObject({ minClaims: 2, exactQuestions: 3, maxChars: 600 });
    const closing = statedRules(
      '# Checked rules (x)\n- No new material. Factors you may use: a, b. Evidence you may cite: ev-1, rf-1 (the last ones: red flags above).\n# Sources',
    );
    expect([...closing.mayUseFactors!]).toEqual(['a', 'b']);
    expect([...closing.mayCite!]).toEqual(['ev-1', 'rf-1']);
  });
});
