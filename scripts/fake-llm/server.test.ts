import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT_SCHEMAS, type OutputKind } from '@/lib/domain/outputs';
import { jsonFromSchema, type JsonSchema } from './json-from-schema';
import { startFakeLlm, type FakeLlm } from './server';

const KINDS = Object.keys(OUTPUT_SCHEMAS) as OutputKind[];
const jsonSchemaOf = (kind: OutputKind) => z.toJSONSchema(OUTPUT_SCHEMAS[kind]) as JsonSchema;

type Chunk = {
  choices: {
    delta: { role?: string; content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
};

function chatBody(extra: Record<string, unknown> = {}) {
  return {
    model: 'fake-llm',
    messages: [
      { role: 'system', content: 'You are A1. Step D1.' },
      { role: 'user', content: 'Argue the favorable case.' },
    ],
    ...extra,
  };
}

async function post(fake: FakeLlm, body: unknown, signal?: AbortSignal) {
  return fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
}

/** Splits an SSE body into its `data:` payloads, checking the framing on the way. */
function sseData(text: string) {
  const events = text.split('\n\n');
  expect(events.pop()).toBe('');
  return events.map((e) => {
    expect(e.startsWith('data: ')).toBe(true);
    return e.slice('data: '.length);
  });
}

async function streamed(fake: FakeLlm, body: unknown) {
  const res = await post(fake, { ...(body as object), stream: true });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const data = sseData(await res.text());
  expect(data.at(-1)).toBe('[DONE]');
  return data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
}

const contentOf = (chunks: Chunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('schema-valid documents', () => {
  it.each(KINDS)('%s: generated JSON validates against the zod schema for many seeds', (kind) => {
    for (let seed = 1; seed <= 25; seed++) {
      const doc = jsonFromSchema(jsonSchemaOf(kind), { seed });
      const parsed = OUTPUT_SCHEMAS[kind].safeParse(doc);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const schema = jsonSchemaOf('turn');
    expect(jsonFromSchema(schema, { seed: 7 })).toEqual(jsonFromSchema(schema, { seed: 7 }));
    const docs = new Set(Array.from({ length: 5 }, (_, i) => JSON.stringify(jsonFromSchema(schema, { seed: i + 1 }))));
    expect(docs.size).toBeGreaterThan(1);
  });

  it('honours array bounds, numeric ranges, $ref and nullable unions', () => {
    const schema: JsonSchema = {
      type: 'object',
      $defs: { score: { type: 'integer', minimum: 3, maximum: 4 } },
      properties: {
        items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        score: { $ref: '#/$defs/score' },
        note: { anyOf: [{ type: 'null' }, { type: 'string', minLength: 5, maxLength: 8 }] },
        kind: { const: 'fixed' },
      },
      required: ['items', 'ratio', 'score', 'note', 'kind'],
    };
    for (let seed = 1; seed <= 20; seed++) {
      const doc = jsonFromSchema(schema, { seed }) as { items: string[]; ratio: number; score: number; note: string; kind: string };
      expect(doc.items).toHaveLength(2);
      expect(doc.ratio).toBeGreaterThan(0);
      expect(doc.ratio).toBeLessThan(1);
      expect([3, 4]).toContain(doc.score);
      expect(doc.note.length).toBeGreaterThanOrEqual(5);
      expect(doc.note.length).toBeLessThanOrEqual(8);
      expect(doc.kind).toBe('fixed');
    }
  });

  it('uses 3 items per array when asked (for rule-checked benchmark steps)', () => {
    const doc = jsonFromSchema(jsonSchemaOf('turn'), { seed: 3, arrayItems: { min: 3, max: 3 } }) as { claims: { factor: string }[] };
    expect(doc.claims).toHaveLength(3);
    expect(new Set(doc.claims.map((c) => c.factor)).size).toBe(3);
  });
});

describe('fake OpenAI-compatible server', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ seed: 11 });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.setScript([]);
    fake.configure({ ttftMs: 0, tokensPerSecond: 0, rejectJsonSchema: false, toolCallRate: 0, faults: undefined });
  });

  it('serves /v1/models and a base URL ending in /v1', async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${fake.url}/models`);
    expect((await res.json()).data[0].id).toBe('fake-llm');
  });

  it.each(KINDS)('answers a json_schema request for %s with a valid document (non-streaming)', async (kind) => {
    const res = await post(fake, chatBody({ response_format: { type: 'json_schema', json_schema: { name: kind, schema: jsonSchemaOf(kind) } } }));
    const body = await res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(OUTPUT_SCHEMAS[kind].safeParse(JSON.parse(body.choices[0].message.content)).success).toBe(true);
  });

  it('streams SSE chunks: role first, content deltas, a finish chunk, usage, then [DONE]', async () => {
    const chunks = await streamed(
      fake,
      chatBody({
        stream_options: { include_usage: true },
        response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: jsonSchemaOf('turn') } },
      }),
    );
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const content = contentOf(chunks);
    expect(OUTPUT_SCHEMAS.turn.safeParse(JSON.parse(content)).success).toBe(true);
    const deltas = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.every((c) => [...c.choices[0].delta.content!].length <= 4)).toBe(true);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0].finish_reason).toBe('stop');
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage!.completion_tokens).toBe(deltas.length);
    const promptChars = 'You are A1. Step D1.'.length + 'Argue the favorable case.'.length;
    expect(usage.usage!.prompt_tokens).toBe(Math.ceil(promptChars / 4));
  });

  it('omits the usage chunk unless include_usage is asked for', async () => {
    const chunks = await streamed(fake, chatBody());
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('answers json_object mode with valid JSON, using a schema found in the prompt', async () => {
    const user = `Write the report.\n\`\`\`json\n${JSON.stringify(jsonSchemaOf('report'))}\n\`\`\``;
    const res = await post(fake, { ...chatBody(), messages: [{ role: 'user', content: user }], response_format: { type: 'json_object' } });
    const content = (await res.json()).choices[0].message.content;
    expect(OUTPUT_SCHEMAS.report.safeParse(JSON.parse(content)).success).toBe(true);
    const plain = await post(fake, { ...chatBody(), response_format: { type: 'json_object' } });
    expect(JSON.parse((await plain.json()).choices[0].message.content)).toHaveProperty('text');
  });

  it('rejects json_schema with 400 when configured to, like endpoints without structured output', async () => {
    fake.configure({ rejectJsonSchema: true });
    const res = await post(fake, chatBody({ response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: jsonSchemaOf('turn') } } }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe('response_format');
  });

  it('answers scripted replies by marker, for a limited number of times, and from functions', async () => {
    fake.setScript([
      { match: 'Step D1.', reply: { text: 'scripted' }, times: 1 },
      { match: /Step D\d+/, reply: (_req, { generated }) => ({ wrapped: generated() }) },
    ]);
    const first = await (await post(fake, chatBody())).json();
    expect(JSON.parse(first.choices[0].message.content)).toEqual({ text: 'scripted' });
    const second = await (await post(fake, chatBody())).json();
    expect(JSON.parse(second.choices[0].message.content)).toHaveProperty('wrapped');
  });

  const searchTool = { type: 'function', function: { name: 'web_search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };

  it('calls web_search first when scripted, then answers after the tool result', async () => {
    fake.setScript([{ match: 'Step D1.', webSearch: ['acme orders 2024'] }]);
    const chunks = await streamed(fake, chatBody({ tools: [searchTool] }));
    const call = chunks[0].choices[0].delta.tool_calls![0];
    expect(call.function.name).toBe('web_search');
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t) => t.function.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ query: 'acme orders 2024' });
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('tool_calls');

    const followUp = chatBody({ tools: [searchTool] });
    followUp.messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: call.id!, type: 'function', function: { name: 'web_search', arguments: args } }] } as never,
      { role: 'tool', tool_call_id: call.id!, content: '[]' } as never,
    );
    const answer = await streamed(fake, followUp);
    expect(answer.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(contentOf(answer).length).toBeGreaterThan(0);
  });

  it('calls the tool at toolCallRate, but never when tool_choice is none', async () => {
    fake.configure({ toolCallRate: 1 });
    const body = await (await post(fake, chatBody({ tools: [searchTool] }))).json();
    expect(body.choices[0].message.tool_calls[0].function.name).toBe('web_search');
    const none = await (await post(fake, chatBody({ tools: [searchTool], tool_choice: 'none' }))).json();
    expect(none.choices[0].message.tool_calls).toBeUndefined();
  });

  it('paces streaming by time to first token and tokens per second', async () => {
    fake.configure({ ttftMs: 150, tokensPerSecond: 100 });
    fake.setScript([{ match: 'Step D1.', reply: 'x'.repeat(4 * 30) }]); // 30 tokens
    const started = performance.now();
    const res = await post(fake, { ...chatBody(), stream: true });
    const reader = res.body!.getReader();
    let firstContentAt = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      if (!firstContentAt && text.includes('"content":"x')) firstContentAt = performance.now() - started;
    }
    const total = performance.now() - started;
    expect(firstContentAt).toBeGreaterThanOrEqual(140);
    // 29 more tokens at 100/s ≈ 290 ms after the first; generous upper bound for slow CI.
    expect(total).toBeGreaterThanOrEqual(150 + 290 - 30);
    expect(total).toBeLessThan(150 + 290 + 1500);
  });

  it("answers a script entry at the entry's own pace, and other requests at the server's", async () => {
    fake.configure({ ttftMs: 600, tokensPerSecond: 20 });
    fake.setScript([
      { match: 'Step D1.', reply: 'q'.repeat(4 * 20), pace: { ttftMs: 0, tokensPerSecond: 1000 } }, // 20 tokens
      { match: 'Step D2.', reply: 'q'.repeat(4 * 20) },
    ]);
    const timed = async (step: string) => {
      const started = performance.now();
      const chunks = await streamed(fake, chatBody({ messages: [{ role: 'user', content: `Step ${step}. Write.` }] }));
      return { ms: performance.now() - started, text: contentOf(chunks) };
    };
    const quick = await timed('D1');
    const slow = await timed('D2');
    expect(quick.text).toBe('q'.repeat(80));
    expect(slow.text).toBe('q'.repeat(80));
    // The server's pace: 600 ms to the first token, then 19 more at 20/s (950 ms).
    expect(slow.ms).toBeGreaterThanOrEqual(600 + 950 - 30);
    // The entry's: about 20 ms in all; the bound leaves room for a slow machine.
    expect(quick.ms).toBeLessThan(600);
  });

  it('stamps every streamed chunk with the time it was sent, when asked to, and sends the same answer', async () => {
    fake.configure({ ttftMs: 0, tokensPerSecond: 200, stampChunks: true });
    fake.setScript([{ match: 'Step D1.', reply: 'y'.repeat(4 * 10) }]); // 10 tokens, 50 ms apart
    const before = performance.timeOrigin + performance.now();
    const chunks = (await streamed(fake, chatBody())) as (Chunk & { x_sent_at?: number })[];
    const after = performance.timeOrigin + performance.now();
    fake.configure({ stampChunks: false });
    expect(contentOf(chunks)).toBe('y'.repeat(40));
    const stamps = chunks.map((c) => c.x_sent_at!);
    expect(stamps.every((t) => typeof t === 'number' && t >= before && t <= after)).toBe(true);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    // The tenth token goes out about 45 ms after the first.
    expect(stamps.at(-1)! - stamps[0]).toBeGreaterThanOrEqual(40);
    // Unstamped, as every other test and the product's tests see it.
    expect((await streamed(fake, chatBody())).some((c) => 'x_sent_at' in c)).toBe(false);
  });

  it('delays a non-streaming answer by the same model', async () => {
    fake.configure({ ttftMs: 120, tokensPerSecond: 0 });
    const started = performance.now();
    await (await post(fake, chatBody())).json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  describe('fault injection', () => {
    it('429 with Retry-After, for the next N requests only', async () => {
      fake.failNext({ status: 429, retryAfter: 2 }, 2);
      for (let i = 0; i < 2; i++) {
        const res = await post(fake, chatBody());
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('2');
        expect((await res.json()).error.type).toBe('rate_limit_error');
      }
      expect((await post(fake, chatBody())).status).toBe(200);
      expect(fake.requests.at(-2)!.fault).toBe('429');
    });

    it('a scripted fault fails the first request of each matching conversation; its retry gets the next answer', async () => {
      fake.setScript([
        { match: 'PROBE', fault: { status: 429, retryAfter: 8 } },
        { match: 'PROBE', reply: { text: 'after the wait' } },
      ]);
      const conversation = (n: number) => chatBody({ messages: [{ role: 'user', content: `PROBE conversation ${n}` }] });
      const refused = await post(fake, conversation(1));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('8');
      const retried = await (await post(fake, conversation(1))).json();
      expect(JSON.parse(retried.choices[0].message.content)).toEqual({ text: 'after the wait' });
      // Another conversation is refused once too; one without the marker never.
      expect((await post(fake, conversation(2))).status).toBe(429);
      expect((await post(fake, conversation(2))).status).toBe(200);
      expect((await post(fake, chatBody())).status).toBe(200);
    });

    it('retry-after-ms and 500', async () => {
      fake.failNext({ status: 429, retryAfterMs: 250 });
      fake.failNext({ status: 500 });
      expect((await post(fake, chatBody())).headers.get('retry-after-ms')).toBe('250');
      expect((await post(fake, chatBody())).status).toBe(500);
    });

    it('a hung connection answers nothing until the client gives up', async () => {
      fake.failNext({ kind: 'hang' });
      const started = performance.now();
      await expect(post(fake, chatBody(), AbortSignal.timeout(200))).rejects.toThrow();
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      expect((await post(fake, chatBody())).status).toBe(200);
    });

    it('malformed: a truncated document that no longer parses, in a well-formed stream', async () => {
      fake.failNext({ kind: 'malformed' });
      const chunks = await streamed(fake, chatBody({ response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: jsonSchemaOf('turn') } } }));
      expect(() => JSON.parse(contentOf(chunks))).toThrow();
    });

    it('reset: the connection drops without an answer', async () => {
      fake.failNext({ kind: 'reset' });
      await expect(post(fake, chatBody())).rejects.toThrow();
    });

    it('a seeded random rate injects the same faults in the same order', async () => {
      const pattern = async () => {
        fake.configure({ faults: { rate: 0.4, kinds: ['429', '500'], seed: 99 } });
        const statuses: number[] = [];
        for (let i = 0; i < 15; i++) statuses.push((await post(fake, chatBody())).status);
        return statuses;
      };
      const first = await pattern();
      expect(first.some((s) => s === 429 || s === 500)).toBe(true);
      expect(first.some((s) => s === 200)).toBe(true);
      expect(await pattern()).toEqual(first);
    });
  });
});

describe('CLI', () => {
  it('starts on the given port and prints its base URL', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'server.ts'), '--port', '0', '--ttft', '10'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = out.match(/(http:\/\/\S+\/v1)/);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const res = await fetch(`${url}/models`);
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
