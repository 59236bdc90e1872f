// What one model call may ask for and what it counts (issue 14): max_tokens never past the model's
// output cap, whatever the run's budget leaves; an answer cut off at the cap is not the budget
// running out; and every request the endpoint took counts, a retried one, a failed one and a
// cut-off one included. Against a small scripted endpoint: each test says chunk by chunk what the
// endpoint streams, and where the connection drops.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT_SCHEMAS } from '@/lib/domain/outputs';
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import { resetEnvForTests } from '@/lib/env';
import { createOpenAiProvider, estimatePromptTokens } from './openai';
import { DEFAULT_MAX_OUTPUT_TOKENS, outputCapOf, roomFor } from './output-caps';
import { spentBy, type CallBudget, type GenerateRequest } from './types';

describe('output caps', () => {
  afterEach(() => {
    delete process.env.OPENAI_MAX_OUTPUT_TOKENS_GPT_4O_MINI;
    delete process.env.OPENAI_MAX_OUTPUT_TOKENS_LLAMA_3_1_8B;
  });

  it('gives a known model its published cap, dated snapshots and routed names included, and an unknown one the default or OPENAI_MAX_OUTPUT_TOKENS', () => {
    const e = { OPENAI_MAX_OUTPUT_TOKENS: undefined };
    expect(outputCapOf('gpt-4o-mini', e)).toBe(16_384);
    expect(outputCapOf('gpt-4o-mini-2024-07-18', e)).toBe(16_384);
    expect(outputCapOf('openai/gpt-4.1', e)).toBe(32_768);
    expect(outputCapOf('gpt-4o-2024-05-13', e)).toBe(4_096);
    expect(outputCapOf('o4-mini', e)).toBe(100_000);
    expect(outputCapOf('llama-3.1-8b', e)).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    // The setting is for models we do not know; a known model keeps its own cap.
    expect(outputCapOf('llama-3.1-8b', { OPENAI_MAX_OUTPUT_TOKENS: 8_192 })).toBe(8_192);
    expect(outputCapOf('gpt-4o-mini', { OPENAI_MAX_OUTPUT_TOKENS: 8_192 })).toBe(16_384);
    // One model's own setting wins over both.
    process.env.OPENAI_MAX_OUTPUT_TOKENS_GPT_4O_MINI = '2000';
    process.env.OPENAI_MAX_OUTPUT_TOKENS_LLAMA_3_1_8B = '6000';
    expect(outputCapOf('gpt-4o-mini', e)).toBe(2_000);
    expect(outputCapOf('llama-3.1-8b', { OPENAI_MAX_OUTPUT_TOKENS: 8_192 })).toBe(6_000);
    process.env.OPENAI_MAX_OUTPUT_TOKENS_GPT_4O_MINI = 'plenty';
    expect(() => outputCapOf('gpt-4o-mini', e)).toThrow(/OPENAI_MAX_OUTPUT_TOKENS_GPT_4O_MINI/);
  });

  it('gives a call what the budget leaves, never more than the cap; the cap alone without a budget', () => {
    const e = { OPENAI_MAX_OUTPUT_TOKENS: undefined };
    expect(roomFor('gpt-4o-mini', 1_000_000, e)).toBe(16_384);
    expect(roomFor('gpt-4o-mini', 900, e)).toBe(900);
    expect(roomFor('gpt-4o-mini', undefined, e)).toBe(16_384);
    expect(roomFor('llama-3.1-8b', 1_000_000, e)).toBe(4_096);
    expect(roomFor('gpt-4o-mini', -5, e)).toBe(0);
  });
});

/** One scripted reply: content chunks, then how the stream ends. */
type Reply = { chunks: string[]; end: 'stop' | 'length' | 'drop'; usage?: { prompt: number; completion: number } };

function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const step: StepDef = {
  id: 'D1',
  agent: 'A1',
  role: 'debater',
  team: 'affirmative',
  act: 'constructive',
  context: [],
  webSearch: false,
  evidence: 'pool',
  output: 'turn',
  task: 'Argue.',
};

function request(budget?: CallBudget, signal = new AbortController().signal): GenerateRequest & { tokens: string[] } {
  const tokens: string[] = [];
  return {
    runId: 'run1',
    protocol: { id: 'kpd-mads', name: 'KPD-MADS', description: '', steps: [step], reportStep: 'AG' } as ProtocolDef,
    step,
    params: { language: 'en', asOf: '2025-01-01', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 },
    company: { id: 'acme', name: 'Acme', nameEn: 'Acme', country: 'KR', industry: null },
    evidence: [],
    passages: [],
    context: [],
    prompt: { system: 'Shared guideline and evidence.', user: 'Step D1: argue the favorable case.' },
    schema: OUTPUT_SCHEMAS.turn,
    jsonSchema: z.toJSONSchema(OUTPUT_SCHEMAS.turn) as Record<string, unknown>,
    tools: {},
    signal,
    onToken: (t) => tokens.push(t),
    tokens,
    ...(budget ? { budget } : {}),
  };
}

/** Streamed chunks in tokens as the provider estimates them (about four characters a token). */
const chunkTokens = (chunks: string[]) => chunks.reduce((n, c) => n + Math.max(1, Math.ceil(c.length / 4)), 0);

/** A budget that allows `allowance` and records what it is told. */
function recordingBudget(allowance: number) {
  const seen = { spent: 0, exhausted: 0 };
  const budget: CallBudget = {
    allow: () => allowance,
    spend: (n) => void (seen.spent += n),
    exhausted: () => void seen.exhausted++,
  };
  return { budget, seen };
}

describe('what a call asks for and counts, against a scripted endpoint', () => {
  let server: Server;
  let url: string;
  let replies: Reply[] = [];
  const bodies: { max_tokens?: number; messages: unknown[] }[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', async () => {
        bodies.push(JSON.parse(raw));
        const reply = replies.shift() ?? { chunks: ['{}'], end: 'stop' };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: '' }));
        for (const c of reply.chunks) {
          res.write(chunk({ content: c }));
          await new Promise((r) => setTimeout(r, 5));
        }
        if (reply.end === 'drop') {
          // Give the client the chunks before the connection goes.
          await new Promise((r) => setTimeout(r, 30));
          res.socket?.destroy();
          return;
        }
        res.write(chunk({}, reply.end));
        if (reply.usage) {
          const usage = {
            prompt_tokens: reply.usage.prompt,
            completion_tokens: reply.usage.completion,
            total_tokens: reply.usage.prompt + reply.usage.completion,
          };
          res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage })}\n\n`);
        }
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  afterEach(() => {
    replies = [];
    bodies.length = 0;
    delete process.env.OPENAI_MAX_OUTPUT_TOKENS_TINY_LOCAL;
    resetEnvForTests();
  });

  const provider = (model = 'gpt-4o-mini', maxRetries = 2) =>
    createOpenAiProvider({ baseURL: url, model, maxRetries, timeoutMs: 5_000, structuredOutput: 'json_object', sleep: async () => {} });

  it('asks for no more than the model writes in one answer when the budget leaves more', async () => {
    replies = [{ chunks: ['{"text":"ok","claims":[]}'], end: 'stop', usage: { prompt: 50, completion: 9 } }];
    const { budget } = recordingBudget(1_000_000);
    await provider('gpt-4o-mini').generate(request(budget));
    expect(bodies[0].max_tokens).toBe(16_384);

    replies = [{ chunks: ['{"text":"ok","claims":[]}'], end: 'stop', usage: { prompt: 50, completion: 9 } }];
    await provider('gpt-4o-mini').generate(request(recordingBudget(700).budget));
    expect(bodies[1].max_tokens).toBe(700);
  });

  it('an answer cut off at the model cap is handed back, not taken for the budget running out; one cut at the budget stops the run', async () => {
    process.env.OPENAI_MAX_OUTPUT_TOKENS_TINY_LOCAL = '40';
    replies = [{ chunks: ['{"text":"a long', ' answer'], end: 'length', usage: { prompt: 50, completion: 40 } }];
    const roomy = recordingBudget(100_000);
    const result = await provider('tiny-local').generate(request(roomy.budget));
    expect(bodies[0].max_tokens).toBe(40);
    expect(roomy.seen.exhausted).toBe(0);
    expect(result.raw).toBe('{"text":"a long answer');
    expect(result.usage).toEqual({ promptTokens: 50, completionTokens: 40 });

    replies = [{ chunks: ['{"text":"a long', ' answer'], end: 'length', usage: { prompt: 50, completion: 30 } }];
    const tight = recordingBudget(30);
    const cut = await provider('tiny-local')
      .generate(request(tight.budget))
      .catch((err: unknown) => err);
    expect(bodies[1].max_tokens).toBe(30);
    expect(tight.seen.exhausted).toBe(1);
    expect(cut).toBeInstanceOf(Error);
    // The cut-off call still says what it used: the endpoint's own count.
    expect(spentBy(cut)).toEqual({ promptTokens: 50, completionTokens: 30 });
  });

  it('counts an attempt that dropped mid-stream in the usage of the retry that answered', async () => {
    const answer = '{"text":"Revenue grows.","claims":[]}';
    const first = ['{"te', 'xt":"Rev', 'enue'];
    replies = [
      { chunks: first, end: 'drop' },
      { chunks: [answer], end: 'stop', usage: { prompt: 120, completion: 12 } },
    ];
    const { budget, seen } = recordingBudget(5_000);
    const req = request(budget);
    const result = await provider('gpt-4o-mini', 2).generate(req);
    expect(req.tokens.slice(0, 3)).toEqual(first);
    expect(result.raw).toBe(answer);
    expect(bodies).toHaveLength(2);
    // The dropped attempt: its prompt and its three chunks, estimated (the endpoint never said);
    // then what the endpoint reported for the answer.
    const dropped = estimatePromptTokens(bodies[0] as Parameters<typeof estimatePromptTokens>[0]);
    expect(result.usage).toEqual({ promptTokens: 120 + dropped, completionTokens: 12 + chunkTokens(first) });
    // The meter heard of every streamed chunk as it came, the dropped attempt's too.
    expect(seen.spent).toBe(chunkTokens(first) + chunkTokens([answer]));
  });

  it('says what a call that failed spent: every attempt the endpoint took, and nothing for a cancelled wait', async () => {
    const first = ['{"te', 'xt"'];
    const second = ['{"text":"Rev'];
    replies = [
      { chunks: first, end: 'drop' },
      { chunks: second, end: 'drop' },
    ];
    const failed = await provider('gpt-4o-mini', 1)
      .generate(request(recordingBudget(5_000).budget))
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    const sent = bodies.map((b) => estimatePromptTokens(b as Parameters<typeof estimatePromptTokens>[0]));
    expect(spentBy(failed)).toEqual({ promptTokens: sent[0] + sent[1], completionTokens: chunkTokens(first) + chunkTokens(second) });

    // Cancelled before anything was sent: nothing spent.
    const controller = new AbortController();
    controller.abort();
    const cancelled = await provider('gpt-4o-mini')
      .generate(request(undefined, controller.signal))
      .catch((err: unknown) => err);
    expect(spentBy(cancelled)).toEqual({ promptTokens: 0, completionTokens: 0 });
  });
});
