// Fake OpenAI-compatible model server — a TEST AND BENCHMARK UTILITY, never a product path
// (docs/architecture.md). It lets the provider, the engine and the benchmarks run against a real HTTP
// endpoint without a model or the internet: SSE streaming, schema-valid or scripted answers,
// web_search tool calls, a latency model and fault injection (429, 5xx, hung and reset
// connections, truncated JSON). Two modes: `replay` (the default) answers scripted replies and
// otherwise fills the schema; `realistic` answers from the prompt's own evidence and gets things
// wrong the way real models do, each quirk at a seeded rate (realistic.ts).
//
//   import { startFakeLlm } from '@/scripts/fake-llm/server';      // tests, benchmarks (port 0)
//   tsx scripts/fake-llm/server.ts --port 4010 --ttft 400 --tps 50  // by hand
//   tsx scripts/fake-llm/server.ts --mode realistic --rates fence=0.3,empty=0
//   GET /fake/requests                                              // what it did to each request
//   POST /fake/cache/clear                                          // empty the prompt cache
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hashString, seededRandom } from '@/lib/util/random';
import {
  DEFAULT_REALISTIC,
  parseRates,
  realisticAnswer,
  requestRandom,
  fixedRandom,
  withRates,
  type Behaviour,
  type LaterItem,
  type PlantedCitation,
  type Rates,
  type RealisticSettings,
} from './realistic';
import { createPromptCache, PROMPT_CACHES, type PromptCacheSettings } from './prompt-cache';
import { conversationText, matches, planReply, promptTokens, truncate, writeJson, writeStream, type ChatRequest, type ScriptEntry } from './reply';

export type { ChatRequest, ScriptEntry, ScriptReply } from './reply';
export type { Behaviour, LaterItem, PlantedCitation, Rates } from './realistic';

export type FakeMode = 'replay' | 'realistic';
export type RealisticOptions = {
  rates?: Partial<Rates>;
  retryAfter?: number;
  laterItems?: LaterItem[];
  textChars?: number;
  arrayItems?: { min: number; max: number };
};

/** One injected failure: an HTTP error (with Retry-After for 429), or a connection-level fault. */
export type Fault = { status: number; retryAfter?: number; retryAfterMs?: number; message?: string } | { kind: 'hang' | 'malformed' | 'reset' };

export const FAULT_KINDS = ['429', '500', '503', 'hang', 'malformed', 'reset'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FakeLlmOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Model id reported by /v1/models and in completions. */
  model?: string;
  /** Time to first token, ms. Default 0. */
  ttftMs?: number;
  /** Streaming pace after the first token; 0 (default) sends everything at once. */
  tokensPerSecond?: number;
  /** Stamp every streamed chunk with the time it was sent (`x_sent_at`, see reply.ts). */
  stampChunks?: boolean;
  /** Seeds generated documents (a request's own `seed` wins), tool-call and fault draws. */
  seed?: number;
  /** Share of requests offering web_search that first call it (when no script says otherwise). */
  toolCallRate?: number;
  /** Answer json_schema requests with 400, like endpoints without structured output. */
  rejectJsonSchema?: boolean;
  /** Random faults on chat requests, drawn from their own seeded sequence. */
  faults?: { rate: number; kinds: FaultKind[]; seed?: number; retryAfter?: number };
  arrayItems?: { min: number; max: number };
  textChars?: number;
  script?: ScriptEntry[];
  /** `replay` (default): scripted replies, else the schema filled; `realistic`: see realistic.ts. */
  mode?: FakeMode;
  /** Rates (over DEFAULT_RATES) and the rest of the realistic mode's settings. */
  realistic?: RealisticOptions;
  /**
   * Prefix caching as vLLM (the default: 16-token blocks) or OpenAI (128-token increments from
   * 1,024 tokens) do it, reported as usage.prompt_tokens_details.cached_tokens; `off` reports none.
   */
  promptCache?: keyof typeof PROMPT_CACHES | PromptCacheSettings | 'off';
};

export type RecordedRequest = {
  n: number;
  /** ms since the server started. */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatRequest | undefined;
  /** The fault injected into this request, if any. */
  fault?: string;
  /** Realistic mode: the step the prompt names, the quirks of the answer and the citations planted in it. */
  stepId?: string;
  behaviours?: Behaviour[];
  planted?: PlantedCitation[];
  /** Prompt tokens its prompt cache served (usage.prompt_tokens_details.cached_tokens); absent with the cache off or when the request failed first. */
  cachedTokens?: number;
};

/** A recorded request without its body: what GET /fake/requests lists. */
export type RequestSummary = Omit<RecordedRequest, 'headers' | 'body'>;

export type FakeLlm = {
  /** Base URL ending in /v1, as OPENAI_BASE_URL takes it. */
  url: string;
  requests: RecordedRequest[];
  setScript: (entries: ScriptEntry[]) => void;
  /** The next `times` chat requests fail this way (queued after earlier failNext calls). */
  failNext: (fault: Fault, times?: number) => void;
  /** Empties the prompt cache: the next request starts cold. */
  clearCache: () => void;
  /** Change latency, rates, mode or rejection between test cases. */
  configure: (changes: Partial<Omit<FakeLlmOptions, 'port' | 'host' | 'script'>>) => void;
  close: () => Promise<void>;
};

function faultOf(kind: FaultKind, retryAfter = 1): Fault {
  if (kind === '429') return { status: 429, retryAfter };
  if (kind === '500' || kind === '503') return { status: Number(kind) };
  return { kind };
}

function faultLabel(f: Fault) {
  return 'status' in f ? String(f.status) : f.kind;
}

function sendError(res: ServerResponse, status: number, message: string, extra: { headers?: Record<string, string>; param?: string } = {}) {
  if (res.headersSent) return void res.destroy();
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.writeHead(status, { 'Content-Type': 'application/json', ...extra.headers });
  res.end(JSON.stringify({ error: { message, type, param: extra.param ?? null, code: null } }));
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const settings = {
    ttftMs: 0,
    tokensPerSecond: 0,
    seed: 1,
    toolCallRate: 0,
    rejectJsonSchema: false,
    model: 'fake-llm',
    mode: 'replay' as FakeMode,
    ...options,
  };
  const realisticOf = (extra?: ScriptEntry['realistic']): RealisticSettings => {
    const base = settings.realistic ?? {};
    const own = typeof extra === 'object' ? extra : {};
    return {
      rates: withRates(withRates(DEFAULT_REALISTIC.rates, base.rates), own.rates, 'script entry rates'),
      retryAfter: own.retryAfter ?? base.retryAfter ?? DEFAULT_REALISTIC.retryAfter,
      laterItems: base.laterItems ?? DEFAULT_REALISTIC.laterItems,
      textChars: own.textChars ?? base.textChars ?? DEFAULT_REALISTIC.textChars,
      arrayItems: own.arrayItems ?? base.arrayItems ?? DEFAULT_REALISTIC.arrayItems,
    };
  };
  // How often each conversation (by its hash: prompts are long) has been asked: a retry draws afresh.
  const asked = new Map<number, number>();
  // `failed`: the conversations an entry's fault has already answered (each fails once).
  let script: { entry: ScriptEntry; left: number; failed: Set<string> }[] = [];
  const queue: Fault[] = [];
  let faultRng = seededRandom(settings.faults?.seed ?? settings.seed);
  const timers = new Set<NodeJS.Timeout>();
  const started = Date.now();
  const requests: RecordedRequest[] = [];
  const cacheSetting = options.promptCache ?? 'vllm';
  const promptCache = cacheSetting === 'off' ? undefined : createPromptCache(typeof cacheSetting === 'string' ? PROMPT_CACHES[cacheSetting] : cacheSetting);

  const setScript = (entries: ScriptEntry[]) => {
    script = entries.map((entry) => ({ entry, left: entry.times ?? Infinity, failed: new Set<string>() }));
  };
  setScript(options.script ?? []);

  const nextFault = (): Fault | undefined => {
    if (queue.length) return queue.shift();
    const f = settings.faults;
    if (!f || f.rate <= 0 || !f.kinds.length) return undefined;
    if (faultRng() >= f.rate) return undefined;
    return faultOf(f.kinds[Math.floor(faultRng() * f.kinds.length)], f.retryAfter);
  };

  const chat = (body: ChatRequest, record: RecordedRequest, res: ServerResponse) => {
    const text = Array.isArray(body?.messages) ? conversationText(body) : '';
    // An entry that only fails is passed over once it has failed this conversation.
    const spent = (s: (typeof script)[number]) => s.entry.fault !== undefined && s.entry.reply === undefined && s.failed.has(text);
    const scripted = text ? script.find((s) => s.left > 0 && !spent(s) && matches(s.entry, body, text)) : undefined;
    // A scripted failure answers a conversation's first request instead of the random ones.
    const scriptedFault = scripted?.entry.fault && !scripted.failed.has(text) ? scripted.entry.fault : undefined;
    if (scriptedFault) {
      scripted!.failed.add(text);
      scripted!.left--;
    }
    const fault = scriptedFault ?? nextFault();
    if (fault) record.fault = faultLabel(fault);
    if (fault && 'status' in fault) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      const message = fault.message ?? (fault.status === 429 ? 'Rate limit reached (injected).' : 'The server had an error (injected).');
      return sendError(res, fault.status, message, { headers });
    }
    // A hung upstream: accept the request and never answer; close() or the client's abort ends it.
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'reset') return res.socket?.destroy();

    if (!Array.isArray(body?.messages)) return sendError(res, 400, "Missing required parameter: 'messages'.", { param: 'messages' });
    if (settings.rejectJsonSchema && body.response_format?.type === 'json_schema') {
      // Worded like OpenAI's answer for models without structured output.
      return sendError(res, 400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", {
        param: 'response_format',
      });
    }
    if (scripted) scripted.left--;
    const realistic = !scriptedFault && scripted?.entry.reply === undefined && (scripted?.entry.realistic !== undefined || settings.mode === 'realistic');
    let generate: (() => string) | undefined;
    let quirks: { refusal?: boolean; cutAt?: number } = {};
    if (realistic) {
      const key = hashString(text);
      const n = asked.get(key) ?? 0;
      asked.set(key, n + 1);
      // Temperature 0 gives the same answer to the same request; any other varies with each asking.
      const answer = realisticAnswer(
        body,
        realisticOf(scripted?.entry.realistic),
        requestRandom(settings.seed, text, n),
        fixedRandom(body, settings.seed, text),
      );
      record.stepId = answer.stepId;
      if (answer.kind === 'http') {
        record.fault = String(answer.status);
        record.behaviours = answer.behaviours;
        const headers: Record<string, string> = answer.retryAfter !== undefined ? { 'retry-after': String(answer.retryAfter) } : {};
        return sendError(
          res,
          answer.status,
          answer.status === 429 ? 'Rate limit reached for requests (injected).' : 'The server had an error while processing your request (injected).',
          { headers },
        );
      }
      generate = () => answer.content;
      quirks = { refusal: answer.refusal, cutAt: answer.cutAt };
      record.behaviours = answer.behaviours;
      record.planted = answer.planted;
    }
    let plan = planReply(body, scripted?.entry, settings, `call_${record.n}`, generate);
    if (plan.kind === 'content') plan = { ...plan, ...quirks };
    // A web_search call instead: none of the content's quirks were sent.
    else if (realistic) record.behaviours = record.planted = undefined;
    if (fault?.kind === 'malformed' && plan.kind === 'content') plan = { kind: 'content', content: truncate(plan.content) };
    const prompt = promptTokens(body);
    const cachedTokens = promptCache?.lookup(body.messages, prompt);
    if (cachedTokens !== undefined) record.cachedTokens = cachedTokens;
    const written = { body, plan, model: body.model ?? settings.model, id: `chatcmpl-fake-${record.n}`, promptTokens: prompt, cachedTokens };
    const pace = scripted?.entry.pace;
    const latency = {
      ttftMs: pace?.ttftMs ?? settings.ttftMs,
      tokensPerSecond: pace?.tokensPerSecond ?? settings.tokensPerSecond,
      stamp: settings.stampChunks,
    };
    if (body.stream) writeStream(res, written, latency, timers);
    else writeJson(res, written, latency, timers);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ChatRequest | undefined;
      try {
        body = raw ? (JSON.parse(raw) as ChatRequest) : undefined;
      } catch {
        return sendError(res, 400, 'We could not parse the JSON body of your request.');
      }
      // The log of what it did, for a caller in another process (the benchmark); not itself logged.
      if (req.method === 'POST' && path === '/fake/cache/clear') {
        promptCache?.clear();
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'GET' && path === '/fake/requests') {
        const summaries: RequestSummary[] = requests.map(({ headers: _h, body: _b, ...rest }) => rest);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify(summaries));
      }
      const record: RecordedRequest = { n: requests.length + 1, at: Date.now() - started, method: req.method ?? 'GET', path, headers: req.headers, body };
      requests.push(record);
      if (req.method === 'GET' && path === '/v1/models') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ object: 'list', data: [{ id: settings.model, object: 'model', created: 0, owned_by: 'crosscheck-fake' }] }));
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        try {
          return chat(body as ChatRequest, record, res);
        } catch (err) {
          // A bug in the fake (or a script function) must fail the request, not hang it.
          return sendError(res, 500, `Fake server error: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      sendError(res, 404, `Unknown path ${req.method} ${path}.`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}/v1`,
    requests,
    setScript,
    failNext: (fault, times = 1) => {
      for (let i = 0; i < times; i++) queue.push(fault);
    },
    clearCache: () => promptCache?.clear(),
    configure: (changes) => {
      Object.assign(settings, changes);
      if (changes.faults || changes.seed !== undefined) faultRng = seededRandom(settings.faults?.seed ?? settings.seed);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Script entries from a JSON file, for a fake server in its own process (patterns and predicates cannot travel). */
export function readScriptFile(file: string): ScriptEntry[] {
  const entries: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(entries)) throw new Error(`--script ${file}: expected a JSON array of {match, reply}`);
  return entries.map((e, i) => {
    const m = (e as { match?: unknown }).match;
    const ok = typeof m === 'string' || (Array.isArray(m) && m.every((x) => typeof x === 'string'));
    if (!ok) throw new Error(`--script ${file}: entry ${i} needs "match" as a string or an array of strings`);
    return e as ScriptEntry;
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      ttft: { type: 'string', default: '0' },
      tps: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      model: { type: 'string', default: 'fake-llm' },
      'tool-call-rate': { type: 'string', default: '0' },
      'fault-rate': { type: 'string', default: '0' },
      'fault-kinds': { type: 'string', default: '429,500' },
      'reject-json-schema': { type: 'boolean', default: false },
      stamp: { type: 'boolean', default: false },
      /** A JSON file: an array of {match: "marker" | ["all", "markers"], reply, times?}. */
      script: { type: 'string' },
      mode: { type: 'string', default: 'replay' },
      /** Realistic mode's rates over the defaults: `fence=0.3,cutOff=0` (`all=0` first zeroes every one). */
      rates: { type: 'string', default: '' },
      'retry-after': { type: 'string', default: String(DEFAULT_REALISTIC.retryAfter) },
      /** A JSON file: [{id, sourceName, publishedDate}] of pool items dated after the as-of date, for post-as-of citations. */
      'later-items': { type: 'string' },
      /** Prefix caching like `vllm` (16-token blocks), `openai` (128-token steps from 1,024 tokens) or `off`. */
      'prompt-cache': { type: 'string', default: 'vllm' },
    },
  });
  const num = (name: keyof typeof values) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number`);
    return n;
  };
  const kinds = String(values['fault-kinds']).split(',').filter(Boolean);
  const unknownKind = kinds.find((k) => !FAULT_KINDS.includes(k as FaultKind));
  if (unknownKind) throw new Error(`--fault-kinds: unknown kind "${unknownKind}"; choose from ${FAULT_KINDS.join(', ')}`);
  const mode = String(values.mode);
  if (mode !== 'replay' && mode !== 'realistic') throw new Error(`--mode must be replay or realistic, not ${mode}`);
  const cache = String(values['prompt-cache']);
  if (cache !== 'vllm' && cache !== 'openai' && cache !== 'off') throw new Error(`--prompt-cache must be vllm, openai or off, not ${cache}`);
  const laterItems = values['later-items'] ? (JSON.parse(fs.readFileSync(String(values['later-items']), 'utf8')) as LaterItem[]) : undefined;
  const fake = await startFakeLlm({
    mode,
    realistic: { rates: parseRates(String(values.rates)), retryAfter: num('retry-after'), laterItems },
    port: num('port'),
    host: String(values.host),
    ttftMs: num('ttft'),
    tokensPerSecond: num('tps'),
    seed: num('seed'),
    model: String(values.model),
    toolCallRate: num('tool-call-rate'),
    rejectJsonSchema: Boolean(values['reject-json-schema']),
    stampChunks: Boolean(values.stamp),
    faults: { rate: num('fault-rate'), kinds: kinds as FaultKind[] },
    promptCache: cache,
  });
  if (values.script) fake.setScript(readScriptFile(String(values.script)));
  console.log(`Fake OpenAI-compatible server (test utility, not a model; ${mode} mode) at ${fake.url}`);
  console.log(`Try: OPENAI_BASE_URL=${fake.url} OPENAI_API_KEY=fake npm run cli -- debate --provider openai …`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
