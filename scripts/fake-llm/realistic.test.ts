// The fake model server's realistic mode (scripts/fake-llm/realistic.ts): clean answers that pass
// every step's schema and checked rules while citing only what the prompt showed, and each
// imperfection at its seeded rate and in its own shape.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { buildPrompt } from '@/lib/debate/prompts';
import { getProtocol } from '@/lib/debate/protocols';
import { checkStepRules } from '@/lib/debate/rules';
import { sectionJsonSchema, sectionPrompt } from '@/lib/debate/section-prompts';
import { sectionCalls } from '@/lib/domain/sections';
import { citationsOf } from '@/lib/domain/output-parts';
import { GUIDELINE_FACTORS } from '@/lib/domain/factors';
import { OUTPUT_SCHEMAS, proseOf } from '@/lib/domain/outputs';
import type { ProtocolId, StepDef } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { tokenize, type ChatRequest } from './reply';
import {
  BEHAVIOURS,
  DEFAULT_RATES,
  NO_QUIRKS,
  otherDateFormat,
  parseRates,
  readStepPrompt,
  realisticAnswer,
  requestRandom,
  shortened,
  type Behaviour,
  type Rates,
  type RealisticSettings,
} from './realistic';
import { startFakeLlm, type FakeLlm } from './server';

const AS_OF = '2024-12-31';
const FACTORS = GUIDELINE_FACTORS.map((f) => f.id);
const POLARITIES = ['favorable', 'adverse', 'context'] as const;
const SOURCES = ['DART quarterly report', 'Korea Herald', 'Company IR release', 'Yonhap'];

/** Sixteen dated items over every factor and both sides, one stale: a small borrower's pool. */
const POOL: EvidenceAsOf[] = Array.from({ length: 16 }, (_, i) => ({
  id: `acme-${String(i + 1).padStart(3, '0')}`,
  companyId: 'acme',
  category: 'news',
  title: `Acme item ${i + 1}: order intake up ${i + 2}%`,
  text: `Acme reported that order intake rose ${i + 2} percent in the quarter. Management expects the backlog to hold through next year.`,
  value: i % 3 ? null : `${i + 2}%`,
  eventDate: null,
  publishedDate: `2024-${String((i % 11) + 1).padStart(2, '0')}-${String(10 + (i % 15)).padStart(2, '0')}`,
  sourceName: SOURCES[i % SOURCES.length],
  sourceUrl: `https://example.com/acme/${i + 1}`,
  language: 'en',
  factor: FACTORS[i % FACTORS.length],
  polarity: POLARITIES[i % 3],
  factorSource: 'rule',
  stale: i === 15,
})) as unknown as EvidenceAsOf[];

const COMPANY = { id: 'acme', name: 'Acme Corp', nameEn: null, country: 'KR', industry: null, description: null };
const PARAMS = { language: 'en' as const, asOf: AS_OF, recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };

function requestFor(protocolId: ProtocolId, step: StepDef, context: ContextTurn[]): ChatRequest {
  const protocol = getProtocol(protocolId);
  const prompt = buildPrompt({
    runId: 'run-1',
    protocol,
    step,
    params: PARAMS,
    company: COMPANY,
    evidence: visibleEvidence(step, POOL, context),
    passages: [],
    context,
  });
  return {
    model: 'fake-llm',
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    response_format: { type: 'json_schema', json_schema: { name: step.output, schema: z.toJSONSchema(OUTPUT_SCHEMAS[step.output]) as never } },
  };
}

const settingsWith = (rates: Partial<Rates>, extra: Partial<RealisticSettings> = {}): RealisticSettings => ({
  rates: { ...NO_QUIRKS, ...rates },
  retryAfter: 1,
  laterItems: [],
  textChars: 420,
  arrayItems: { min: 1, max: 3 },
  ...extra,
});

/** The JSON inside an answer, with a fence or a sentence around it taken off. */
function jsonIn(content: string): Record<string, unknown> {
  return JSON.parse(content.slice(content.indexOf('{'), content.lastIndexOf('}') + 1)) as Record<string, unknown>;
}

const D1 = getProtocol('kpd-mads').steps[0];
const d1Request = () => requestFor('kpd-mads', D1, []);
const d1Ids = () => new Set(visibleEvidence(D1, POOL, []).map((e) => e.id));

describe('realistic answers, without quirks', () => {
  it.each(['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'] as const)(
    '%s: every step passes its schema and checked rules, cites only items its prompt shows, and writes prose from them',
    (protocolId) => {
      const protocol = getProtocol(protocolId);
      const done = new Map<string, ContextTurn>();
      for (const step of protocol.steps) {
        const context = step.context.map((id) => done.get(id)!);
        const request = requestFor(protocolId, step, context);
        const answer = realisticAnswer(request, settingsWith({}), requestRandom(3, step.id, 0));
        expect(answer.kind).toBe('content');
        if (answer.kind !== 'content') return;
        expect(answer.behaviours).toEqual([]);
        // Clean means clean: the JSON alone, no fence, no sentence around it.
        expect(answer.content.startsWith('{') && answer.content.endsWith('}')).toBe(true);
        const output = JSON.parse(answer.content);
        const parsed = OUTPUT_SCHEMAS[step.output].safeParse(output);
        expect(parsed.success, `${step.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);

        const visible = visibleEvidence(step, POOL, context);
        const readable = (e: EvidenceAsOf) =>
          step.rules?.polarity === 'favorable' ? e.polarity !== 'adverse' : step.rules?.polarity === 'adverse-or-context' ? e.polarity !== 'favorable' : true;
        const availableFactors = step.evidence === 'none' ? undefined : new Set(visible.filter(readable).map((e) => e.factor ?? 'other'));
        const problems = checkStepRules(step, output, { context: new Map(context.map((c) => [c.stepId, c.output])), availableFactors });
        expect(problems, step.id).toEqual([]);

        // Only what the step was shown, or what the turns it receives cite, with that item's date and source.
        const shown = new Map([...visible.map((e) => [e.id, { date: e.publishedDate, source: e.sourceName }] as const)]);
        for (const turn of context) for (const c of citationsOf(turn.output)) if (c.evidenceId) shown.set(c.evidenceId, { date: c.date, source: c.source });
        for (const c of citationsOf(output)) {
          expect(shown.has(c.evidenceId!), `${step.id} cites ${c.evidenceId}`).toBe(true);
          expect({ date: c.date, source: c.source }).toEqual(shown.get(c.evidenceId!));
        }
        // The prose quotes the items it rests on (a step that sees no evidence and no citations has none to quote).
        const prose = proseOf(step.output, output);
        if (shown.size && step.output !== 'sasJudgment') expect(prose, step.id).toMatch(/Acme item \d+|DART|Korea Herald|Company IR|Yonhap/);
        expect(prose).not.toMatch(/[{}[\]"]/);
        done.set(step.id, { stepId: step.id, agent: step.agent, team: step.team, act: step.act, text: prose, output });
      }
    },
  );

  it('reads the prompt as the engine writes it: step, as-of, items with factor and polarity, turns and rules', () => {
    const protocol = getProtocol('kpd-mads');
    const d1 = realisticAnswer(d1Request(), settingsWith({}), requestRandom(1, 'd1', 0));
    if (d1.kind !== 'content') throw new Error('D1 did not answer');
    const d1Turn: ContextTurn = { stepId: 'D1', agent: 'A1', team: 'affirmative', act: 'constructive', text: '', output: JSON.parse(d1.content) };
    const d2 = protocol.steps.find((s) => s.id === 'D2')!;
    const read = readStepPrompt(requestFor('kpd-mads', d2, [d1Turn]));
    expect(read).toMatchObject({ stepId: 'D2', team: 'negative', act: 'cross-examination', asOf: AS_OF, korean: false, contextSteps: ['D1'] });
    expect(read.rules).toMatchObject({ exactQuestions: 3, questionFactors: 2, citationsRequired: false, avoidFactors: [] });
    expect(read.contextClaims.map((c) => c.id)).toEqual((d1Turn.output as { claims: { id: string }[] }).claims.map((c) => c.id));
    const first = POOL.find((e) => e.id === read.items[0].id)!;
    expect(read.items[0]).toMatchObject({ date: first.publishedDate, source: first.sourceName, factor: first.factor, polarity: first.polarity });
    expect(read.items[0].title).toBe(first.title);
    const d9 = protocol.steps.find((s) => s.id === 'D9')!;
    const closing = readStepPrompt(requestFor('kpd-mads', d9, [d1Turn]));
    expect(closing.rules.allowedFactors).toEqual([...new Set((d1Turn.output as { claims: { factor: string }[] }).claims.map((c) => c.factor))]);
    expect(closing.rules.maxChars).toBe(700);
    expect(closing.items).toEqual([]);
    expect(closing.cited.length).toBeGreaterThan(0);
  });
});

describe('realistic answers to a report section', () => {
  it("reads the section's factors from its part and keeps its topics to them, as a model told so would", () => {
    const protocol = getProtocol('kpd-mads');
    const ag = protocol.steps.find((s) => s.sections)!;
    const market = sectionCalls(ag.sections!).find((c) => c.key === 'business')!;
    const d1 = realisticAnswer(d1Request(), settingsWith({}), requestRandom(1, 'd1', 0));
    if (d1.kind !== 'content') throw new Error('D1 did not answer');
    const context: ContextTurn[] = [{ stepId: 'D1', agent: 'A1', team: 'affirmative', act: 'constructive', text: '', output: JSON.parse(d1.content) }];
    const prompt = sectionPrompt({ runId: 'run-1', protocol, step: ag, params: PARAMS, company: COMPANY, evidence: [], passages: [], context }, market);
    const request: ChatRequest = {
      model: 'fake-llm',
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'section', schema: sectionJsonSchema(ag.output, market.fields) as never } },
    };
    expect(readStepPrompt(request).sectionFactors).toEqual(market.factors);
    for (let seed = 1; seed <= 5; seed++) {
      const answer = realisticAnswer(request, settingsWith({}), requestRandom(seed, 'market', 0));
      if (answer.kind !== 'content') throw new Error('the section did not answer');
      const topics = (jsonIn(answer.content).topics ?? []) as { factor: string }[];
      expect(topics.length).toBeGreaterThan(0);
      for (const t of topics) expect(market.factors, `seed ${seed}`).toContain(t.factor);
    }
    // A step that is not a section has none.
    expect(readStepPrompt(d1Request()).sectionFactors).toBeUndefined();
  });
});

describe('realistic quirks', () => {
  /** The answer to D1 with only this behaviour switched on, and the clean answer from the same draws. */
  function withOnly(behaviour: Behaviour, seed = 5, extra: Partial<RealisticSettings> = {}) {
    const request = d1Request();
    const quirky = realisticAnswer(request, settingsWith({ [behaviour]: 1 }, extra), requestRandom(seed, 'q', 0));
    const clean = realisticAnswer(request, settingsWith({}, extra), requestRandom(seed, 'q', 0));
    if (clean.kind !== 'content') throw new Error('no clean answer');
    return { quirky, clean: JSON.parse(clean.content) as Record<string, unknown> };
  }
  const citations = (doc: unknown) => citationsOf(doc);

  it('fence: the JSON in a ```json block', () => {
    const { quirky, clean } = withOnly('fence');
    if (quirky.kind !== 'content') throw new Error('expected content');
    expect(quirky.content).toMatch(/^```json\n\{[\s\S]*\}\n```$/);
    expect(JSON.parse(quirky.content.slice(8, -4))).toEqual(clean);
    expect(quirky.behaviours).toEqual(['fence']);
  });

  it('proseAround: a sentence before or after the JSON', () => {
    const shapes = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const { quirky, clean } = withOnly('proseAround', seed);
      if (quirky.kind !== 'content') throw new Error('expected content');
      expect(jsonIn(quirky.content)).toEqual(clean);
      const before = !quirky.content.startsWith('{');
      const after = !quirky.content.endsWith('}');
      expect(before !== after).toBe(true);
      expect(quirky.content).toMatch(/[A-Za-z]{3,}[^{}]*[.:]\n\n\{|\}\n\n[A-Z][^{}]+\.$/);
      shapes.add(before ? 'before' : 'after');
    }
    expect(shapes).toEqual(new Set(['before', 'after']));
  });

  it('reorderKeys: the prose field last, the lists first', () => {
    const { quirky, clean } = withOnly('reorderKeys');
    if (quirky.kind !== 'content') throw new Error('expected content');
    const doc = jsonIn(quirky.content);
    expect(Object.keys(clean)[0]).toBe('text');
    expect(Object.keys(doc).at(-1)).toBe('text');
    expect(Object.keys(doc)[0]).toBe('claims');
    expect(doc).toEqual(clean);
  });

  it('extraField: one field the schema does not have, the rest unchanged', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const { quirky, clean } = withOnly('extraField', seed);
      if (quirky.kind !== 'content') throw new Error('expected content');
      const doc = jsonIn(quirky.content) as { confidence?: unknown; claims: Record<string, unknown>[] };
      if ('confidence' in doc) {
        expect(doc.confidence).toBe(0.7);
        const { confidence: _c, ...rest } = doc;
        expect(rest).toEqual(clean);
      } else {
        expect(doc.claims[0].strength).toBe('moderate');
        delete doc.claims[0].strength;
        expect(doc).toEqual(clean);
      }
    }
  });

  it('missingOptional: exactly one optional field or empty list left out', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const { quirky, clean } = withOnly('missingOptional', seed);
      if (quirky.kind !== 'content') throw new Error('expected content');
      const doc = jsonIn(quirky.content) as Record<string, unknown> & { claims?: Record<string, unknown>[] };
      const count = (o: Record<string, unknown>) =>
        Object.keys(o).length + ((o.claims as Record<string, unknown>[] | undefined) ?? []).reduce((n, c) => n + Object.keys(c).length, 0);
      expect(count(doc)).toBe(count(clean) - 1);
      // Never a field the schema requires with something in it.
      expect(typeof doc.text).toBe('string');
      expect((doc.claims ?? []).every((c) => c.id && c.text && c.factor && c.polarity && Array.isArray(c.citations))).toBe(true);
    }
  });

  it('dateFormat: every citation date as 2024.11.01 or Nov 1, 2024, naming the same day', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 10; seed++) {
      const { quirky, clean } = withOnly('dateFormat', seed);
      if (quirky.kind !== 'content') throw new Error('expected content');
      const dates = citations(jsonIn(quirky.content)).map((c) => c.date);
      const iso = citations(clean).map((c) => c.date);
      expect(dates.length).toBe(iso.length);
      dates.forEach((d, i) => {
        expect([otherDateFormat(iso[i], false), otherDateFormat(iso[i], true)]).toContain(d);
        seen.add(/^\d{4}\.\d{2}\.\d{2}$/.test(d) ? 'dotted' : 'long');
      });
    }
    expect(seen).toEqual(new Set(['dotted', 'long']));
    expect(otherDateFormat('2024-11-01', true)).toBe('Nov 1, 2024');
    expect(otherDateFormat('2024-11-01', false)).toBe('2024.11.01');
  });

  it('shortSource: source names abbreviated, ids and dates kept', () => {
    const { quirky, clean } = withOnly('shortSource');
    if (quirky.kind !== 'content') throw new Error('expected content');
    const got = citations(jsonIn(quirky.content));
    const was = citations(clean);
    expect(got.map((c) => [c.evidenceId, c.date])).toEqual(was.map((c) => [c.evidenceId, c.date]));
    expect(got.some((c, i) => c.source !== was[i].source)).toBe(true);
    got.forEach((c, i) => expect(c.source).toBe(shortened(was[i].source) ?? was[i].source));
    expect(shortened('DART quarterly report')).toBe('DART');
    expect(shortened('Korea Herald')).toBe('Korea');
    expect(shortened('Securities and Exchange Commission')).toBe('SEC');
  });

  it('inventedCitation: one more citation, of an id the prompt never showed, dated before as-of', () => {
    const { quirky, clean } = withOnly('inventedCitation');
    if (quirky.kind !== 'content') throw new Error('expected content');
    const extra = citations(jsonIn(quirky.content)).filter((c) => !d1Ids().has(c.evidenceId!));
    expect(extra).toHaveLength(1);
    expect(citations(jsonIn(quirky.content))).toHaveLength(citations(clean).length + 1);
    expect(extra[0].evidenceId).toMatch(/^acme-\d{4}$/);
    expect(extra[0].date <= AS_OF).toBe(true);
    expect(POOL.some((e) => e.publishedDate === extra[0].date && e.sourceName === extra[0].source)).toBe(false);
    expect(quirky.planted).toEqual([{ kind: 'invented', evidenceId: extra[0].evidenceId, source: extra[0].source, date: extra[0].date }]);
  });

  it('afterAsOfCitation: a real pool item dated after as-of when one is known, a look-alike otherwise', () => {
    const later = [
      { id: 'acme-120', sourceName: 'Korea Herald', publishedDate: '2025-02-03' },
      { id: 'other-co-007', sourceName: 'Yonhap', publishedDate: '2025-03-01' },
      { id: 'acme-002', sourceName: 'Yonhap', publishedDate: '2024-06-01' },
    ];
    const { quirky } = withOnly('afterAsOfCitation', 5, { laterItems: later });
    if (quirky.kind !== 'content') throw new Error('expected content');
    const planted = citations(jsonIn(quirky.content)).filter((c) => !d1Ids().has(c.evidenceId!));
    expect(planted).toEqual([{ evidenceId: 'acme-120', source: 'Korea Herald', date: '2025-02-03' }]);
    expect(quirky.planted).toEqual([{ kind: 'after-as-of', ...planted[0] }]);

    const { quirky: lookAlike } = withOnly('afterAsOfCitation', 6);
    if (lookAlike.kind !== 'content') throw new Error('expected content');
    const [c] = lookAlike.planted;
    expect(c.kind).toBe('after-as-of');
    expect(c.date > AS_OF).toBe(true);
    expect(d1Ids().has(c.evidenceId)).toBe(false);
    expect(c.evidenceId).toMatch(/^acme-\d+$/);
  });

  it('empty, refusal, 429 and 500 replace the answer', () => {
    const empty = withOnly('empty').quirky;
    expect(empty).toMatchObject({ kind: 'content', content: '', refusal: false, behaviours: ['empty'] });
    const refusal = withOnly('refusal').quirky;
    expect(refusal).toMatchObject({ kind: 'content', refusal: true, behaviours: ['refusal'] });
    expect(refusal.kind === 'content' && refusal.content).toMatch(/^I'm sorry/);
    expect(withOnly('http429', 5, { retryAfter: 2 }).quirky).toMatchObject({ kind: 'http', status: 429, retryAfter: 2 });
    expect(withOnly('http500').quirky).toMatchObject({ kind: 'http', status: 500 });
  });

  it('cutOff: the answer stops in its second half, unless the request gives room for all of it', () => {
    const { quirky } = withOnly('cutOff');
    if (quirky.kind !== 'content') throw new Error('expected content');
    const n = tokenize(quirky.content).length;
    expect(quirky.cutAt).toBeGreaterThanOrEqual(Math.floor(n * 0.45));
    expect(quirky.cutAt).toBeLessThan(n);
    expect(quirky.behaviours).toEqual(['cutOff']);
    // Asked again with more room, as the engine does after a cut-off answer: it fits.
    const roomy = realisticAnswer({ ...d1Request(), max_tokens: 16_384 }, settingsWith({ cutOff: 1 }), requestRandom(5, 'q', 0));
    expect(roomy).toMatchObject({ kind: 'content', behaviours: [] });
    expect(roomy.kind === 'content' && 'cutAt' in roomy).toBe(false);
    const tight = realisticAnswer({ ...d1Request(), max_tokens: 50 }, settingsWith({ cutOff: 1 }), requestRandom(5, 'q', 0));
    expect(tight.behaviours).toEqual(['cutOff']);
  });

  it('claims nothing when every claim must cite and the prompt shows nothing to cite', () => {
    const d1 = getProtocol('kpd-mads').steps[0];
    const protocol = getProtocol('kpd-mads');
    const prompt = buildPrompt({ runId: 'run-1', protocol, step: d1, params: PARAMS, company: COMPANY, evidence: [], passages: [], context: [] });
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: d1Request().response_format,
    };
    const answer = realisticAnswer(request, settingsWith({}), requestRandom(2, 'empty pool', 0));
    if (answer.kind !== 'content') throw new Error('expected content');
    const output = JSON.parse(answer.content);
    expect(output.claims).toEqual([]);
    expect(checkStepRules(d1, output, { context: new Map(), availableFactors: new Set() })).toEqual([]);
    expect(output.text.length).toBeGreaterThan(20);
  });

  it('each behaviour occurs at about its rate over many requests, the same ones for the same seed', () => {
    const request = d1Request();
    const settings = settingsWith(DEFAULT_RATES);
    const n = 4000;
    const counts = Object.fromEntries(BEHAVIOURS.map((b) => [b, 0])) as Record<Behaviour, number>;
    const first: string[] = [];
    for (let i = 0; i < n; i++) {
      const answer = realisticAnswer(request, settings, requestRandom(21, 'rates', i));
      for (const b of answer.behaviours) counts[b]++;
      if (i < 50) first.push(answer.behaviours.join('+'));
    }
    // HTTP errors first, then an empty answer, then a refusal; content quirks only on content.
    const r = DEFAULT_RATES;
    const content = (1 - r.http429) * (1 - r.http500) * (1 - r.empty) * (1 - r.refusal);
    const expected: Record<Behaviour, number> = {
      ...(Object.fromEntries(BEHAVIOURS.map((b) => [b, r[b] * content])) as Record<Behaviour, number>),
      http429: r.http429,
      http500: (1 - r.http429) * r.http500,
      empty: (1 - r.http429) * (1 - r.http500) * r.empty,
      refusal: (1 - r.http429) * (1 - r.http500) * (1 - r.empty) * r.refusal,
    };
    for (const b of BEHAVIOURS) {
      const sd = Math.sqrt((expected[b] * (1 - expected[b])) / n);
      expect(Math.abs(counts[b] / n - expected[b]), `${b}: ${counts[b]} of ${n}`).toBeLessThan(4 * sd + 0.002);
    }
    const again = Array.from({ length: 50 }, (_, i) => realisticAnswer(request, settings, requestRandom(21, 'rates', i)).behaviours.join('+'));
    expect(again).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(3);
  });

  it('at default rates, cites only prompt items, except the planted ones, which are never prompt items', () => {
    const request = d1Request();
    const ids = d1Ids();
    let planted = 0;
    let checked = 0;
    for (let i = 0; i < 600; i++) {
      const answer = realisticAnswer(request, settingsWith(DEFAULT_RATES), requestRandom(8, 'cites', i));
      if (answer.kind !== 'content' || !answer.content || answer.refusal) continue;
      checked++;
      const plantedIds = new Set(answer.planted.map((p) => p.evidenceId));
      for (const p of answer.planted) {
        expect(ids.has(p.evidenceId)).toBe(false);
        if (p.kind === 'after-as-of') expect(p.date > AS_OF).toBe(true);
        else expect(p.date <= AS_OF).toBe(true);
      }
      planted += plantedIds.size;
      // Whole answers only: a cut-off one is a prefix of one of these.
      if (answer.cutAt !== undefined) continue;
      for (const c of citationsOf(jsonIn(answer.content))) expect(ids.has(c.evidenceId!) || plantedIds.has(c.evidenceId!), c.evidenceId).toBe(true);
    }
    expect(checked).toBeGreaterThan(500);
    expect(planted).toBeGreaterThan(20);
  });

  it('parses --rates over the defaults', () => {
    expect(parseRates('fence=0.5,cutOff=0')).toEqual({ ...DEFAULT_RATES, fence: 0.5, cutOff: 0 });
    expect(parseRates('all=0,empty=1')).toEqual({ ...NO_QUIRKS, empty: 1 });
    expect(() => parseRates('fences=1')).toThrow(/unknown behaviour "fences"/);
    expect(() => parseRates('fence=2')).toThrow(/between 0 and 1/);
  });
});

type Chunk = {
  choices: { delta: { role?: string; content?: string | null; refusal?: string | null }; finish_reason: string | null }[];
  usage?: { completion_tokens: number };
};

describe('realistic mode over HTTP', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ seed: 4, mode: 'realistic', realistic: { rates: NO_QUIRKS } });
  });
  afterAll(() => fake.close());

  async function stream(body: ChatRequest & Record<string, unknown>) {
    const res = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
    });
    if (res.status !== 200) return { status: res.status, retryAfter: res.headers.get('retry-after'), chunks: [] as Chunk[] };
    const text = await res.text();
    const chunks = text
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.slice('data: '.length))
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d) as Chunk);
    return { status: 200, retryAfter: null, chunks };
  }
  const content = (chunks: Chunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  const finish = (chunks: Chunk[]) => chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason;

  it('streams a cited answer in chunks with usage at the end, and records the step', async () => {
    const { chunks } = await stream(d1Request());
    const doc = JSON.parse(content(chunks));
    expect(citationsOf(doc).every((c) => d1Ids().has(c.evidenceId!))).toBe(true);
    expect(finish(chunks)).toBe('stop');
    expect(chunks.at(-1)!.usage!.completion_tokens).toBe(chunks.filter((c) => c.choices[0]?.delta.content).length);
    const log = (await (await fetch(fake.url.replace(/\/v1$/, '/fake/requests'))).json()) as { stepId?: string; behaviours?: string[] }[];
    expect(log.at(-1)).toMatchObject({ stepId: 'D1', behaviours: [] });
  });

  it('a cut-off answer ends with finish_reason length, within max_tokens', async () => {
    fake.configure({ realistic: { rates: { ...NO_QUIRKS, cutOff: 1 } } });
    try {
      const full = content((await stream({ ...d1Request(), messages: [...d1Request().messages, { role: 'user', content: 'again 1' }] })).chunks);
      expect(() => JSON.parse(full)).toThrow();
      const capped = await stream({ ...d1Request(), max_tokens: 20 });
      expect(finish(capped.chunks)).toBe('length');
      expect(tokenize(content(capped.chunks)).length).toBeLessThanOrEqual(20);
    } finally {
      fake.configure({ realistic: { rates: NO_QUIRKS } });
    }
  });

  it('a refusal streams in the refusal field with no content; 429 carries Retry-After', async () => {
    fake.configure({ realistic: { rates: { ...NO_QUIRKS, refusal: 1 } } });
    const refused = await stream(d1Request());
    expect(content(refused.chunks)).toBe('');
    expect(refused.chunks.map((c) => c.choices[0]?.delta.refusal ?? '').join('')).toMatch(/^I'm sorry/);
    fake.configure({ realistic: { rates: { ...NO_QUIRKS, http429: 1 }, retryAfter: 3 } });
    const limited = await stream(d1Request());
    expect(limited).toMatchObject({ status: 429, retryAfter: '3' });
    expect(fake.requests.at(-1)!.fault).toBe('429');
    fake.configure({ realistic: { rates: NO_QUIRKS } });
  });

  it('draws per conversation and ask: the same for the same seed, afresh on a retry', async () => {
    fake.configure({ realistic: { rates: DEFAULT_RATES } });
    // Both servers start with a cold prompt cache, so their usage (cached_tokens) matches too.
    fake.clearCache();
    const other = await startFakeLlm({ seed: 4, mode: 'realistic' });
    try {
      const body = { ...d1Request(), messages: [...d1Request().messages, { role: 'user', content: 'determinism' }] };
      const post = (url: string) =>
        fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) =>
          `${r.status} ${await r.text()}`.replace(/"(id|created)":("[^"]*"|\d+)/g, ''),
        );
      const mine = [await post(fake.url), await post(fake.url), await post(fake.url)];
      const theirs = [await post(other.url), await post(other.url), await post(other.url)];
      expect(theirs).toEqual(mine);
      expect(new Set(mine).size).toBeGreaterThan(1);
    } finally {
      await other.close();
      fake.configure({ realistic: { rates: NO_QUIRKS } });
    }
  });

  it('temperature 0 gives the same answer to the same request, its seed choosing which; 0.7 varies (docs/stability.md)', async () => {
    // Content quirks on, HTTP errors off: only the model's part of the answer is compared.
    fake.configure({ realistic: { rates: { ...DEFAULT_RATES, http429: 0, http500: 0 } } });
    try {
      const ask = async (extra: { temperature?: number; seed?: number }) => {
        const body = { ...d1Request(), ...extra, messages: [...d1Request().messages, { role: 'user', content: 'stability' }] };
        return content((await stream(body)).chunks);
      };
      const zero = [await ask({ temperature: 0, seed: 7 }), await ask({ temperature: 0, seed: 7 }), await ask({ temperature: 0, seed: 7 })];
      expect(new Set(zero).size).toBe(1);
      expect(zero[0].length).toBeGreaterThan(0);
      expect(await ask({ temperature: 0, seed: 8 })).not.toBe(zero[0]);
      const warm = [await ask({ temperature: 0.7, seed: 7 }), await ask({ temperature: 0.7, seed: 7 }), await ask({ temperature: 0.7, seed: 7 })];
      expect(new Set(warm).size).toBeGreaterThan(1);
    } finally {
      fake.configure({ realistic: { rates: NO_QUIRKS } });
    }
  });

  it('a script entry turns the realistic mode on for its conversations only, at its own rates', async () => {
    const replay = await startFakeLlm({ seed: 4, script: [{ match: 'Acme Corp', realistic: { rates: { ...NO_QUIRKS, fence: 1 } } }] });
    try {
      const post = async (body: ChatRequest) =>
        (
          await (
            await fetch(`${replay.url}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
          ).json()
        ).choices[0].message.content as string;
      expect(await post(d1Request())).toMatch(/^```json\n/);
      const plain = await post({ model: 'm', messages: [{ role: 'user', content: 'Another borrower.' }] });
      expect(plain.startsWith('```')).toBe(false);
      expect(replay.requests.at(-1)!.behaviours).toBeUndefined();
    } finally {
      await replay.close();
    }
  });

  it('the CLI takes --mode realistic and --rates', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'server.ts'), '--port', '0', '--mode', 'realistic', '--rates', 'all=0,fence=1'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = out.match(/realistic mode\) at (http:\/\/\S+\/v1)/);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const res = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(d1Request()),
      });
      expect((await res.json()).choices[0].message.content).toMatch(/^```json\n\{/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
