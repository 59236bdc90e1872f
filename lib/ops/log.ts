// Structured logs for the app, the workers and the scripts: one JSON object per line in
// production, for a log collector to index by runId, stepId or workerId; readable lines in
// development. Every field passes through one cleaner that turns errors into their message (a
// JSON log never carries a stack) and blanks out secrets, so a careless
// `log.error('…', { err, config })` cannot leak an API key or a database password.
//
// Logged text can come from users (an error that quotes a 5 MB imported title), so every string
// is cut to MAX_STRING characters before it is cleaned, and the cleaning (lib/util/redact.ts:
// configured secrets, URL passwords, key parameters, bearer tokens) runs in linear time: a log
// call must never hold up the server, whatever the text (docs/security.md).
//
//   import { log } from '@/lib/ops/log';
//   const runLog = log.child({ component: 'runner', runId });
//   runLog.error('run stopped unexpectedly', { stepId, err });
import { env, type Env } from '@/lib/env';
import { redact, REDACTED, redactValues } from '@/lib/util/redact';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'pretty';
export type LogFields = Record<string, unknown>;

export type Logger = {
  info: (msg: string, fields?: LogFields) => void;
  warn: (msg: string, fields?: LogFields) => void;
  error: (msg: string, fields?: LogFields) => void;
  /** A logger that adds these fields (e.g. `component`, `runId`) to every line. */
  child: (fields: LogFields) => Logger;
};

export type LoggerOptions = {
  /** Default: LOG_FORMAT, else json when NODE_ENV=production and pretty otherwise. */
  format?: LogFormat;
  /** Values never to print. Default: the secrets configured in the environment. */
  secrets?: string[];
  /** Default: info to stdout, warn and error to stderr. */
  write?: (level: LogLevel, line: string) => void;
  now?: () => Date;
};

const RESERVED = new Set(['ts', 'level', 'msg', 'component']);
/** Field names whose values are secrets whatever they hold (`promptTokens` is not one: it ends in s). */
const SECRET_KEY = /passw(or)?d|secret|api_?key|authorization|cookie|token$/i;
const MAX_DEPTH = 6;
/** The most characters of one string (the message, a field, an error's text) a line carries. */
export const MAX_STRING = 4000;
/** Past the cut, this much more is cleaned first, so a secret that straddles the cut is still blanked. */
const CUT_MARGIN = 512;
/** The most elements of one array a line carries. */
const MAX_ITEMS = 100;

/** The configured values a log line must never contain: keys, secrets, the database password. */
export function secretsFromEnv(e: Env): string[] {
  const values = [
    e.OPENAI_API_KEY,
    e.AUTH_SECRET,
    e.AUDIT_SECRET,
    e.AUTH_OIDC_CLIENT_SECRET,
    e.METRICS_TOKEN,
    e.OPENDART_API_KEY,
    e.SERPAPI_API_KEY,
    e.TAVILY_API_KEY,
    e.BRAVE_SEARCH_API_KEY,
  ];
  if (e.DATABASE_URL) {
    try {
      values.push(decodeURIComponent(new URL(e.DATABASE_URL).password));
    } catch {
      // Validated as a URL by lib/env.ts already; nothing more to find.
    }
  }
  // Very short values would blank out ordinary words.
  return values.filter((v): v is string => typeof v === 'string' && v.length >= 6);
}

function defaultFormat(e: Env): LogFormat {
  return e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'pretty');
}

function defaultWrite(level: LogLevel, line: string) {
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
}

type Settings = { format: LogFormat; secrets: string[] };

function resolveSettings(options: LoggerOptions): Settings {
  let e: Env | undefined;
  try {
    if (!options.format || !options.secrets) e = env();
  } catch {
    // An invalid environment is reported by start-up itself; logging must still work meanwhile.
  }
  return {
    format: options.format ?? (e ? defaultFormat(e) : 'json'),
    secrets: options.secrets ?? (e ? secretsFromEnv(e) : []),
  };
}

/**
 * A string as a log line may carry it: at most MAX_STRING characters, saying how many were cut,
 * with secrets blanked. Only the kept part and a short margin are cleaned, so the work is bounded
 * whatever the length of the text.
 */
export function redactText(text: string, secrets: string[]) {
  if (text.length <= MAX_STRING) return redact(text, secrets);
  const head = redact(text.slice(0, MAX_STRING + CUT_MARGIN), secrets);
  let keep = Math.min(MAX_STRING, head.length);
  // Never end on the first half of a surrogate pair.
  if (keep > 0 && /[\uD800-\uDBFF]/.test(head[keep - 1])) keep--;
  const cut = head.length - keep + Math.max(0, text.length - MAX_STRING - CUT_MARGIN);
  return `${head.slice(0, keep)}… [${cut.toLocaleString('en')} more characters cut]`;
}

/**
 * A query the database refused, as Drizzle reports it (DrizzleQueryError, known by its shape so
 * this module needs no database code): its message lists the query's parameters, which can be a
 * password hash, a session id or a token, so a log line never takes that message.
 */
type FailedQuery = Error & { query: string; params: unknown[] };
const isFailedQuery = (err: unknown): err is FailedQuery =>
  err instanceof Error && typeof (err as Partial<FailedQuery>).query === 'string' && Array.isArray((err as Partial<FailedQuery>).params);

/**
 * An error's message, with its cause's: `fetch failed` alone does not say the connection was
 * refused. A failed query is its SQL and the database's reason; the reason can quote a value
 * (`invalid input syntax for type uuid: "…"`), so the query's parameters are blanked in it too.
 */
function errorText(err: Error): string {
  if (isFailedQuery(err)) {
    const values = err.params.filter((p): p is string => typeof p === 'string');
    const reason = err.cause instanceof Error ? redactValues(err.cause.message, values) : undefined;
    return reason ? `Failed query: ${err.query} (${reason})` : `Failed query: ${err.query}`;
  }
  const cause = err.cause instanceof Error ? (isFailedQuery(err.cause) ? errorText(err.cause) : err.cause.message) : undefined;
  return cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
}

/**
 * The frames of a stack without its first lines, which repeat the message (for a failed query,
 * with its parameters): the line itself already says the message, cleaned.
 */
function stackFrames(stack: string): string {
  const lines = stack.split('\n');
  const first = lines.findIndex((line) => /^\s+at\s/.test(line));
  return first === -1 ? '' : lines.slice(first).join('\n');
}

/** A JSON-safe copy of a field value: errors as their message, secrets blanked, cycles cut. */
function clean(value: unknown, secrets: string[], depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactText(errorText(value), secrets);
  if (value instanceof Date) return value.toISOString();
  if (seen.has(value) || depth >= MAX_DEPTH) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => clean(v, secrets, depth + 1, seen));
    return value.length > MAX_ITEMS ? [...items, `[${(value.length - MAX_ITEMS).toLocaleString('en')} more items cut]`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v != null ? REDACTED : clean(v, secrets, depth + 1, seen);
  return out;
}

function prettyValue(v: unknown) {
  return typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
}

function formatLine(level: LogLevel, msg: string, fields: LogFields, settings: Settings, now: Date): string {
  const { secrets } = settings;
  const component = typeof fields.component === 'string' ? fields.component : undefined;
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (RESERVED.has(k) || v === undefined) continue;
    rest[k] = SECRET_KEY.test(k) && v !== null ? REDACTED : clean(v, secrets);
  }
  const text = redactText(msg, secrets);
  if (settings.format === 'json') {
    return JSON.stringify({ ts: now.toISOString(), level, msg: text, ...(component ? { component } : {}), ...rest });
  }
  const parts = [now.toISOString().slice(11, 23), level.toUpperCase().padEnd(5), ...(component ? [`[${component}]`] : []), text];
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) parts.push(`${k}=${prettyValue(v)}`);
  // Developers reading a terminal get the stack of an error field; JSON logs never do.
  const stacks = Object.entries(fields)
    .filter(([k, v]) => !SECRET_KEY.test(k) && v instanceof Error && v.stack)
    .map(([, v]) => redactText(stackFrames((v as Error).stack!), secrets))
    .filter(Boolean);
  return [parts.join(' '), ...stacks].join('\n');
}

/** A logger with its own settings; `log` below is the process's, configured from the environment. */
export function createLogger(options: LoggerOptions = {}, bound: LogFields = {}): Logger {
  let settings: Settings | undefined;
  const write = options.write ?? defaultWrite;
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    try {
      settings ??= resolveSettings(options);
      write(level, formatLine(level, msg, { ...bound, ...fields }, settings, now()));
    } catch (err) {
      // A log call must never break the code that makes it.
      write(level, JSON.stringify({ ts: new Date().toISOString(), level, msg: 'unloggable line', err: String((err as Error)?.message ?? err) }));
    }
  };
  return {
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger(options, { ...bound, ...fields }),
  };
}

export const log: Logger = createLogger();
