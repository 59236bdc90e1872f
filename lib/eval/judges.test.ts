// The automated judges against the fake OpenAI-compatible server, on real offline runs: what
// the judge was sent (blind, both orders), how verdicts become win rates, how invalid answers
// are repaired or refused, and the refusal for the offline analyst.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '@/lib/db/client';
import type { RunView } from '@/lib/report/run-view';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import type { ModelCall, ModelProvider } from '@/lib/llm/types';
import { judgePairwise, judgeRubric, JudgeError, NEEDS_MODEL, pairwiseVerdict, weightedScore, winRate, withhold } from '@/lib/eval/judges';
import { renderTranscript } from '@/lib/eval/transcript-text';
import { startFakeLlm, type ChatRequest, type FakeLlm } from '../../scripts/fake-llm/server';
import { conversationText } from '../../scripts/fake-llm/reply';
import { offlineRun, seededDatabase } from './test-runs';

const RUN_MODEL = 'gpt-4o-2024-08-06';
const MARKER = 'Prepared by [withheld]';

let handle: DatabaseHandle;
let kpd: RunView;
let nas: RunView;
let three: RunView;
let fake: FakeLlm;
let judge: ModelProvider;

const chats = () => fake.requests.filter((r) => r.path === '/v1/chat/completions' && r.body);
const sent = () => chats().map((r) => ({ body: r.body as ChatRequest, text: conversationText(r.body as ChatRequest) }));
const block = (text: string, tag: string) => text.split(`<${tag}>`)[1]?.split(`</${tag}>`)[0] ?? '';

/** A KPD-MADS run whose own report names its system, run id and model: all must be withheld. */
function leaky(run: RunView): RunView {
  const content = run.report!.content as Record<string, unknown>;
  return {
    ...run,
    model: RUN_MODEL,
    report: {
      ...run.report!,
      content: { ...content, overview: `${String(content.overview)} Prepared by KPD-MADS (run ${run.id}, model ${RUN_MODEL}).` } as never,
    },
  };
}

beforeAll(async () => {
  handle = await seededDatabase('pglite');
  const params = { asOf: '2025-06-30', language: 'en' as const };
  kpd = leaky(await offlineRun(handle, { protocol: 'kpd-mads', companyId: 'tesla', params }));
  nas = await offlineRun(handle, { protocol: 'nas', companyId: 'tesla', params });
  three = await offlineRun(handle, { protocol: 'three-round', companyId: 'tesla', params });
  fake = await startFakeLlm();
  judge = createOpenAiProvider({ baseURL: fake.url, model: 'judge-model', maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await handle?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.setScript([]);
});

describe('pairwise judge', () => {
  it('is blind and counterbalanced: both orders asked, no system, run id or model in what the judge sees', async () => {
    // A judge that always prefers the KPD-MADS report, wherever it stands.
    fake.setScript([
      { match: 'Report A', reply: (req) => ({ winner: block(conversationText(req), 'report-a').includes(MARKER) ? 'A' : 'B', reason: 'Better sourced.' }) },
    ]);
    const result = await judgePairwise({ provider: judge, a: kpd, b: nas });

    const requests = sent();
    expect(requests).toHaveLength(2);
    const positions = requests.map((r) =>
      block(r.text, 'report-a').includes(MARKER) ? 'kpd in A' : block(r.text, 'report-b').includes(MARKER) ? 'kpd in B' : 'missing',
    );
    expect(positions.sort()).toEqual(['kpd in A', 'kpd in B']);
    for (const { body, text } of requests) {
      const seen = `${text}\n${JSON.stringify(body.response_format)}`;
      for (const secret of [kpd.id, nas.id, RUN_MODEL, 'offline-analyst-1']) expect(seen).not.toContain(secret);
      expect(seen).not.toMatch(/kpd-mads|three-round|findebate|\bNAS\b|\bSAS\b|single agent|Karl Popper/i);
      expect(text).toContain('[withheld]'); // the report really named them, and they were removed
      expect(body.temperature).toBe(0);
    }
    expect(result).toMatchObject({ wins: { a: 2, b: 0 }, ties: 0, winRate: { a: 1, b: 0 }, consistent: true });
    expect(result.comparisons.map((c) => [c.order, c.label, c.winner])).toEqual([
      ['a-first', 'A', 'a'],
      ['b-first', 'B', 'a'],
    ]);
  });

  it('calls the language model with a prompt, the verdict schema and the temperature only: no step, no protocol', async () => {
    fake.setScript([{ match: 'Report A', reply: { winner: 'tie', reason: 'Even.' } }]);
    const model = judge.languageModel!;
    const calls: ModelCall[] = [];
    const direct: ModelProvider = {
      ...judge,
      languageModel: { ...model, complete: (call) => (calls.push(call), model.complete(call)) },
      generate: () => Promise.reject(new Error('a judge is not a step')),
    };
    await judgePairwise({ provider: direct, a: kpd, b: nas });

    const { $schema: _meta, ...schema } = z.toJSONSchema(pairwiseVerdict) as Record<string, unknown>;
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(Object.keys(call).sort()).toEqual(['output', 'repair', 'signal', 'system', 'tag', 'temperature', 'user']);
      expect(call).toMatchObject({ output: { name: 'pairwise_verdict' }, temperature: 0, repair: undefined, tag: { stepId: 'pairwise_verdict' } });
    }
    // What reached the endpoint: the two prompts, the verdict's schema under its own name, the temperature.
    const bodies = sent().map((r) => r.body as unknown as Record<string, unknown> & { messages: { role: string; content: string }[] });
    expect(bodies).toHaveLength(2);
    for (const [i, body] of bodies.entries()) {
      expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'response_format', 'stream', 'stream_options', 'temperature']);
      expect(body.messages).toEqual([
        { role: 'system', content: calls[i].system },
        { role: 'user', content: calls[i].user },
      ]);
      expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'pairwise_verdict', schema, strict: false } });
      expect(body).toMatchObject({ model: 'judge-model', temperature: 0 });
    }
  });

  it('turns a judge that follows the position into a split, and counts ties as comparisons', async () => {
    fake.setScript([{ match: 'Report A', reply: { winner: 'A', reason: 'First one.' } }]);
    const biased = await judgePairwise({ provider: judge, a: kpd, b: nas });
    expect(biased).toMatchObject({ wins: { a: 1, b: 1 }, ties: 0, winRate: { a: 0.5, b: 0.5 }, consistent: false });

    // Tie when the KPD-MADS report is A; the other report when it is A.
    fake.setScript([{ match: 'Report A', reply: (req) => ({ winner: block(conversationText(req), 'report-a').includes(MARKER) ? 'tie' : 'A', reason: 'r' }) }]);
    const mixed = await judgePairwise({ provider: judge, a: kpd, b: nas });
    expect(mixed).toMatchObject({ wins: { a: 0, b: 1 }, ties: 1, winRate: { a: 0, b: 0.5 }, consistent: false });
    expect(winRate(['a', 'tie', 'b', 'a'], 'a')).toBe(0.5);
    expect(winRate([], 'a')).toBeNull();
  });

  it('repairs one invalid answer, and refuses clearly when the repair is invalid too', async () => {
    fake.setScript([
      { match: 'Report A', reply: '{"winner": "C"}', times: 1 },
      { match: 'Report A', reply: { winner: 'tie', reason: 'Even.' } },
    ]);
    const repaired = await judgePairwise({ provider: judge, a: kpd, b: nas });
    expect(repaired).toMatchObject({ ties: 2, winRate: { a: 0, b: 0 } });
    expect(sent()).toHaveLength(3);
    expect(
      sent()
        .filter((r) => r.text.includes('not valid for this step'))
        .map((r) => r.text),
    ).toEqual([expect.stringContaining('winner')]);

    fake.requests.length = 0;
    fake.setScript([{ match: 'Report A', reply: 'I think A is better.' }]);
    await expect(judgePairwise({ provider: judge, a: kpd, b: nas })).rejects.toThrow(/not valid after one repair: The answer is not valid JSON/);
    expect(sent()).toHaveLength(4);
  });

  it('refuses the same run twice and runs on different borrowers', async () => {
    await expect(judgePairwise({ provider: judge, a: kpd, b: kpd })).rejects.toThrow(/same run/);
    await expect(judgePairwise({ provider: judge, a: kpd, b: { ...nas, company: { id: 'samsung-electronics' } } })).rejects.toThrow(/different borrowers/);
    expect(sent()).toHaveLength(0);
  });
});

describe('rubric judge', () => {
  /** A judge that scores every argument it is shown, with wrong arithmetic on purpose. */
  function scoreAll(req: ChatRequest) {
    const ids = [...conversationText(req).matchAll(/^- \[([^\]]+)\] \(/gm)].map((m) => m[1]);
    return {
      scores: ids.map((argumentId, i) => ({ argumentId, logic: 8, evidence: i % 2 ? 6 : 7, responsiveness: 5, honesty: 9, weighted: 99 })),
      fallacies: [{ argumentId: ids[0], fallacy: 'slippery_slope', explanation: 'One bad quarter becomes default.' }],
      trace: ids.map((argumentId) => ({ argumentId, standing: 'UPHELD', note: 'Stood.' })),
      overall: {
        affirmativeTotal: 1,
        negativeTotal: 1,
        keyInsight: 'Liquidity decides it.',
        unresolved: ['Capex path'],
        recommendation: 'Approve with covenants.',
      },
    };
  }

  it("scores a three-round run's arguments, computing the weights and side totals itself", async () => {
    fake.setScript([{ match: 'Debate transcript', reply: scoreAll }]);
    const result = await judgeRubric({ provider: judge, run: three });

    const [{ text, body }] = sent();
    expect(body.response_format?.json_schema?.name).toBe('rubric_judgment');
    expect(text).not.toContain(three.id);
    expect(text).not.toMatch(/three-round|rubric judge\b.*debate with/i);
    // The run's own judge turn is not shown to the automated judge.
    expect(text).not.toMatch(/· judgment/);
    expect(text).toContain('<transcript>');

    const round1 = three.turns.filter((t) => t.step.startsWith('R1-')).flatMap((t) => (t.output as { arguments: { id: string }[] }).arguments.map((a) => a.id));
    expect(round1.length).toBeGreaterThanOrEqual(6);
    expect(result.arguments.map((a) => a.id)).toEqual(round1);
    const s0 = result.judgment.scores[0];
    expect(s0.weighted).toBe(weightedScore({ logic: 8, evidence: 7, responsiveness: 5, honesty: 9 }));
    expect(s0.weighted).toBe(7.1); // 2.4 + 2.1 + 1.25 + 1.35
    // Side totals are averages of the side's weighted scores (a sum would favour the side with more arguments).
    const sideTotal = (team: string) => {
      const w = result.judgment.scores.filter((s) => result.arguments.find((a) => a.id === s.argumentId)!.team === team).map((s) => s.weighted);
      return Math.round((w.reduce((n, x) => n + x, 0) / w.length) * 100) / 100;
    };
    expect(result.judgment.overall.affirmativeTotal).toBe(sideTotal('affirmative'));
    expect(result.judgment.overall.negativeTotal).toBe(sideTotal('negative'));
    // An average stays on the 1–10 scale whatever the number of arguments (the old sum of three or more passed 10).
    for (const total of [result.judgment.overall.affirmativeTotal, result.judgment.overall.negativeTotal]) {
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(10);
    }
    expect(result.judgment.fallacies[0].fallacy).toBe('slippery_slope');
  });

  it('sends back an answer that skips arguments or invents ids, naming them', async () => {
    fake.setScript([
      {
        match: 'Debate transcript',
        times: 1,
        reply: (req) => ({ ...scoreAll(req), scores: [{ argumentId: 'X-9', logic: 5, evidence: 5, responsiveness: 5, honesty: 5, weighted: 5 }] }),
      },
      { match: 'Debate transcript', reply: scoreAll },
    ]);
    const result = await judgeRubric({ provider: judge, run: three });
    expect(result.judgment.scores.length).toBe(result.arguments.length);
    const repair = sent()[1].text;
    expect(repair).toMatch(/not arguments of the transcript: X-9/);
    expect(repair).toMatch(/missing R1-A-1/);
  });

  it('names the arguments of a KPD-MADS run by their claims, on both sides', () => {
    const { arguments: args, text } = renderTranscript(kpd.turns);
    expect(new Set(args.map((a) => a.team))).toEqual(new Set(['affirmative', 'negative']));
    expect(args.length).toBe(new Set(kpd.turns.flatMap((t) => t.claims.map((c) => c.id))).size);
    // Turns are numbered, not named by step id (claim ids keep their own names, for the scores).
    expect(text.match(/^## .*$/gm)).toEqual(kpd.turns.map((t, i) => `## Turn ${i + 1} · ${t.team} side · ${t.act}`));
  });
});

describe('offline analyst', () => {
  it('makes both judges refuse with a clear message and no model call', async () => {
    const offline = createOfflineAnalyst();
    await expect(judgePairwise({ provider: offline, a: kpd, b: nas })).rejects.toThrow(JudgeError);
    await expect(judgePairwise({ provider: offline, a: kpd, b: nas })).rejects.toThrow(NEEDS_MODEL);
    await expect(judgeRubric({ provider: offline, run: three })).rejects.toThrow(/need a language model.*not one/);
    expect(sent()).toHaveLength(0);
  });
});

describe('withhold', () => {
  it('removes whole words in any case and leaves longer words alone', () => {
    expect(withhold('NAS and nas-like; financial sas Sas.', ['nas', 'SAS'])).toBe('[withheld] and [withheld]-like; financial [withheld] [withheld].');
  });
});
