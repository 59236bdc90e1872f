// Part of the fake model server (a test and benchmark utility, never a product path): decides
// what a chat completion answers and writes it the way OpenAI does — one JSON completion, or
// SSE chunks paced by the latency model (time to first token, then tokens per second).
import type { ServerResponse } from 'node:http';
import { hashString, seededRandom } from '@/lib/util/random';
import { jsonFromSchema, type JsonSchema } from './json-from-schema';

export type ChatMessage = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

/** The part of an OpenAI chat-completions request body the fake server reads. */
export type ChatRequest = {
  model?: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema; strict?: boolean } };
  tools?: { type: string; function?: { name: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  seed?: number;
  temperature?: number;
  /** Honoured like OpenAI: the answer stops after this many tokens with finish_reason `length`. */
  max_tokens?: number;
  max_completion_tokens?: number;
};

export type ScriptReply = string | object;

export type ScriptEntry = {
  /** A marker found anywhere in the messages (e.g. a step id), markers that must all occur, a pattern, or a predicate. */
  match: string | string[] | RegExp | ((request: ChatRequest) => boolean);
  /** The answer: text as is, an object as JSON, or built from the request (`generated` is what the fake would send). */
  reply?: ScriptReply | ((request: ChatRequest, help: { generated: () => unknown }) => ScriptReply);
  /** Before answering, call `web_search` once per query (one round each), when the request offers the tool. */
  webSearch?: string[];
  /** How many requests this entry may answer; unlimited when absent. */
  times?: number;
  /**
   * Answer the first request of each matching conversation with this HTTP error (with Retry-After
   * for a 429); the same conversation's retry gets `reply`, or, without one, whatever a later
   * entry or the generator answers.
   */
  fault?: { status: number; retryAfter?: number; retryAfterMs?: number; message?: string };
  /**
   * Answer matching conversations in the realistic mode (scripts/fake-llm/realistic.ts) whatever
   * the server's mode, at the server's rates or at these (each given rate over the defaults).
   */
  realistic?: true | { rates?: { [behaviour: string]: number }; retryAfter?: number; textChars?: number; arrayItems?: { min: number; max: number } };
  /** This entry's answers at another pace than the server's (`--ttft`, `--tps`): a slow server's quick exceptions. */
  pace?: { ttftMs?: number; tokensPerSecond?: number };
};

export type ReplySettings = {
  seed: number;
  toolCallRate: number;
  arrayItems?: { min: number; max: number };
  textChars?: number;
};

/** `refusal`: sent in the refusal field, as OpenAI sends a model's refusal; `cutAt`: stop after this many tokens, as at a token limit. */
export type Plan = { kind: 'content'; content: string; refusal?: boolean; cutAt?: number } | { kind: 'tool'; id: string; query: string };

export function messageText(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

export function conversationText(body: ChatRequest) {
  return body.messages.map(messageText).join('\n');
}

export function matches(entry: ScriptEntry, body: ChatRequest, text: string) {
  if (typeof entry.match === 'string') return text.includes(entry.match);
  if (Array.isArray(entry.match)) return entry.match.every((m) => text.includes(m));
  if (entry.match instanceof RegExp) return entry.match.test(text);
  return entry.match(body);
}

/** ≈ 4 characters a token: the usual rule of thumb, and what the latency model paces. */
export function tokenize(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += 4) out.push(chars.slice(i, i + 4).join(''));
  return out;
}

export function promptTokens(body: ChatRequest) {
  let chars = 0;
  for (const m of body.messages) {
    chars += messageText(m).length;
    for (const call of m.tool_calls ?? []) chars += call.function.arguments.length;
  }
  return Math.ceil(chars / 4);
}

/** In json_object mode the schema travels in the prompt (a ```json block); find the last one. */
export function schemaInMessages(messages: ChatMessage[]): JsonSchema | undefined {
  for (const m of [...messages].reverse()) {
    const blocks = [...messageText(m).matchAll(/```json\s*([\s\S]*?)```/g)].reverse();
    for (const [, body] of blocks) {
      try {
        const parsed = JSON.parse(body) as JsonSchema;
        if (parsed && typeof parsed === 'object' && (parsed.properties || parsed.type === 'object')) return parsed;
      } catch {
        // Not JSON, or not a schema: keep looking.
      }
    }
  }
  return undefined;
}

function defaultDocument(body: ChatRequest, seed: number, settings: ReplySettings): unknown {
  const options = { seed, arrayItems: settings.arrayItems, textChars: settings.textChars };
  const format = body.response_format;
  if (format?.type === 'json_schema' && format.json_schema?.schema) return jsonFromSchema(format.json_schema.schema, options);
  if (format?.type === 'json_object') {
    const schema = schemaInMessages(body.messages);
    return schema ? jsonFromSchema(schema, options) : jsonFromSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, options);
  }
  return jsonFromSchema({ type: 'string' }, options);
}

const DEFAULT_QUERIES = ['latest earnings results', 'credit rating change', 'industry outlook 2025', 'management change'];

/** What to answer: a web_search call (scripted, or at `toolCallRate`) or content (`generate` replaces the schema filler). */
export function planReply(body: ChatRequest, script: ScriptEntry | undefined, settings: ReplySettings, callId: string, generate?: () => ScriptReply): Plan {
  const text = conversationText(body);
  const seed = (typeof body.seed === 'number' ? body.seed : settings.seed) ^ hashString(text);
  const offersSearch = body.tools?.some((t) => t.function?.name === 'web_search') && body.tool_choice !== 'none';
  if (offersSearch) {
    // Decided on the opening messages only, so the same conversation plans the same rounds.
    const opening = body.messages
      .filter((m) => m.role === 'system' || m.role === 'user')
      .slice(0, 2)
      .map(messageText)
      .join('\n');
    const rng = seededRandom(settings.seed ^ hashString(`tools:${opening}`));
    const queries = script?.webSearch ?? (rng() < settings.toolCallRate ? [DEFAULT_QUERIES[Math.floor(rng() * DEFAULT_QUERIES.length)]] : []);
    const roundsDone = body.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
    if (roundsDone < queries.length) return { kind: 'tool', id: callId, query: queries[roundsDone] };
  }
  const generated = generate ?? (() => defaultDocument(body, seed, settings));
  let reply: unknown;
  if (script?.reply !== undefined) reply = typeof script.reply === 'function' ? script.reply(body, { generated }) : script.reply;
  else reply = generated();
  return { kind: 'content', content: typeof reply === 'string' ? reply : JSON.stringify(reply) };
}

/** Cut a document so it no longer parses: what a model cut off mid-answer sends. */
export function truncate(text: string) {
  const chars = [...text];
  return chars.slice(0, Math.max(1, Math.floor(chars.length * 0.6))).join('');
}

/**
 * `stamp`: every streamed chunk carries `x_sent_at`, the wall-clock time (ms, fractional) it was
 * written, for benchmarks that measure how late a worker reads it (scripts/bench/worker-probe.ts).
 * OpenAI's clients ignore fields they do not know.
 */
export type Latency = { ttftMs: number; tokensPerSecond: number; stamp?: boolean };

/** `cachedTokens`: what the server's prompt cache served of the prompt (scripts/fake-llm/prompt-cache.ts); absent with the cache off. */
type Written = { body: ChatRequest; plan: Plan; model: string; id: string; promptTokens: number; cachedTokens?: number };

/** What the answer sends, cut at the request's max_tokens as OpenAI cuts it; `cut` then. */
function emitted(w: Written): { text: string; cut: boolean } {
  const text = w.plan.kind === 'content' ? w.plan.content : JSON.stringify({ query: w.plan.query });
  const asked = w.body.max_completion_tokens ?? w.body.max_tokens;
  const cutAt = w.plan.kind === 'content' ? w.plan.cutAt : undefined;
  const max = asked === undefined ? cutAt : cutAt === undefined ? asked : Math.min(asked, cutAt);
  const tokens = tokenize(text);
  if (max === undefined || tokens.length <= max) return { text, cut: false };
  return { text: tokens.slice(0, Math.max(0, max)).join(''), cut: true };
}

function usageOf(w: Written, completionText: string) {
  const completion = tokenize(completionText).length;
  const details = w.cachedTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: w.cachedTokens } };
  return { prompt_tokens: w.promptTokens, completion_tokens: completion, total_tokens: w.promptTokens + completion, ...details };
}

/** Milliseconds after the request at which token i (0-based) is due. */
export function dueAt(i: number, latency: Latency) {
  return latency.ttftMs + (latency.tokensPerSecond > 0 ? (i * 1000) / latency.tokensPerSecond : 0);
}

export function writeJson(res: ServerResponse, w: Written, latency: Latency, timers: Set<NodeJS.Timeout>) {
  const { text, cut } = emitted(w);
  const n = tokenize(text).length;
  const message =
    w.plan.kind === 'content'
      ? w.plan.refusal
        ? { role: 'assistant', content: null, refusal: text }
        : { role: 'assistant', content: text, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [{ id: w.plan.id, type: 'function', function: { name: 'web_search', arguments: text } }],
        };
  const payload = {
    id: w.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: w.model,
    choices: [{ index: 0, message, finish_reason: cut ? 'length' : w.plan.kind === 'content' ? 'stop' : 'tool_calls', logprobs: null }],
    usage: usageOf(w, text),
  };
  const timer = setTimeout(
    () => {
      timers.delete(timer);
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(payload));
    },
    dueAt(Math.max(0, n - 1), latency),
  );
  timers.add(timer);
  res.on('close', () => clearTimeout(timer));
}

export function writeStream(res: ServerResponse, w: Written, latency: Latency, timers: Set<NodeJS.Timeout>) {
  const { text, cut } = emitted(w);
  const tokens = tokenize(text);
  const base = { id: w.id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: w.model };
  const chunk = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  const piece = (token: string, first: boolean) => {
    if (w.plan.kind === 'content' && w.plan.refusal) return chunk(first ? { role: 'assistant', content: null, refusal: token } : { refusal: token });
    if (w.plan.kind === 'content') return chunk(first ? { role: 'assistant', content: token } : { content: token });
    const fn = first ? { name: 'web_search', arguments: token } : { arguments: token };
    return chunk(
      first ? { role: 'assistant', tool_calls: [{ index: 0, id: w.plan.id, type: 'function', function: fn }] } : { tool_calls: [{ index: 0, function: fn }] },
    );
  };
  const stamped = (data: object) => (latency.stamp ? { ...data, x_sent_at: performance.timeOrigin + performance.now() } : data);
  const send = (data: string | object) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(stamped(data))}\n\n`);

  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  const start = Date.now();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    if (tokens.length === 0) send(piece('', true));
    send(chunk({}, cut ? 'length' : w.plan.kind === 'content' ? 'stop' : 'tool_calls'));
    if (w.body.stream_options?.include_usage) send({ ...base, choices: [], usage: usageOf(w, text) });
    send('[DONE]');
    res.end();
  };
  // Tokens due by now go out together, so a high rate is not limited by timer resolution.
  const pump = () => {
    if (timer) timers.delete(timer);
    if (res.destroyed) return;
    const elapsed = Date.now() - start;
    while (sent < tokens.length && dueAt(sent, latency) <= elapsed) {
      send(piece(tokens[sent], sent === 0));
      sent++;
    }
    if (sent === tokens.length && elapsed >= latency.ttftMs) return finish();
    timer = setTimeout(pump, Math.max(0, start + dueAt(sent, latency) - Date.now()));
    timers.add(timer);
  };
  res.on('close', () => timer && clearTimeout(timer));
  pump();
}
