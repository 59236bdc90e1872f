// The one place that reads process.env. Everything else calls env() and gets typed,
// validated values; a bad value fails with the variable's name and what is wrong with it.
import { z } from 'zod';

const optional = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().optional());
const flag = z.preprocess((v) => (typeof v === 'string' ? ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase()) : false), z.boolean());
/** On unless set to 0, false, no or off. */
const flagDefaultOn = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? !['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase()) : true),
  z.boolean(),
);

/** A number that may be left unset (or empty). */
const optionalNumber = (n: z.ZodCoercedNumber) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), n.optional());

/** The demo accounts' password when DEMO_PASSWORD is not set (README.md says it too). */
export const DEFAULT_DEMO_PASSWORD = 'crosscheck-demo';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).catch('production'),
  /** PostgreSQL connection string; without it the app embeds PGlite. */
  DATABASE_URL: optional.pipe(z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// or postgresql:// URL' }).optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Folder of the embedded database, the generated auth secret and the lock file. */
  CROSSCHECK_DATA_DIR: optional,
  /** Which embedded folder under .data/ to use when CROSSCHECK_DATA_DIR is not set. */
  CROSSCHECK_ENV: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['dev', 'start', 'test']).optional()),
  AUTH_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters (try: openssl rand -base64 32)').optional()),
  /**
   * Key of the audit log's HMACs (lib/db/audit-key.ts); unset: derived from the session secret.
   * Changing it makes entries written under the old key unverifiable.
   */
  AUDIT_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters (try: openssl rand -base64 32)').optional()),
  AUTH_OIDC_ISSUER: optional.pipe(z.url().optional()),
  AUTH_OIDC_CLIENT_ID: optional,
  AUTH_OIDC_CLIENT_SECRET: optional,
  AUTH_OIDC_NAME: z.string().default('Bank SSO'),
  DEMO: flag,
  /**
   * Sign-in attempts one client address may make per minute, over every instance (lib/auth/throttle.ts).
   * The first line against password guessing; each account also locks after a few failures.
   */
  SIGN_IN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /**
   * Reverse proxies in front of the app that append the address they saw to X-Forwarded-For;
   * the client address is the one the nearest of them saw (lib/auth/throttle.ts). 0: none.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default(DEFAULT_DEMO_PASSWORD),
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: optional.pipe(z.url().optional()),
  OPENAI_MODEL: optional,
  /** Per attempt, including the whole streamed answer. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** json_schema where the endpoint supports it, json_object plus validation otherwise; auto tries the first. */
  OPENAI_STRUCTURED_OUTPUT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['json_schema', 'json_object', 'auto']).default('auto')),
  /**
   * Decision-grade sampling (docs/stability.md): runs on a case, which the committee decides on,
   * ask the model for temperature 0 and OPENAI_SEED. On unless set to 0, false, no or off.
   */
  OPENAI_DECISION_GRADE: flagDefaultOn,
  /** The seed decision-grade runs send, for endpoints that take one; `none` sends no seed. Default 1. */
  OPENAI_SEED: z.preprocess(
    (v) => (typeof v !== 'string' || v.trim() === '' ? 1 : v.trim().toLowerCase() === 'none' ? null : v),
    z.coerce.number().int().min(0).max(2_147_483_647).nullable(),
  ),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Bearer token a Prometheus scraper sends to GET /api/metrics; unset: admins' sessions only. */
  METRICS_TOKEN: optional.pipe(z.string().min(24, 'must be at least 24 characters (try: openssl rand -hex 24)').optional()),

  /** OpenDART (Korea's electronic disclosure API). The key is never logged or shown. */
  OPENDART_API_KEY: optional,
  OPENDART_BASE_URL: z.url().default('https://opendart.fss.or.kr/api'),
  /** SEC EDGAR requires a User-Agent naming the requester, e.g. "Bank Name ops@bank.example". */
  SEC_USER_AGENT: optional,
  SEC_EDGAR_BASE_URL: z.url().default('https://data.sec.gov'),

  /** Web search during runs: the first configured of SerpAPI, Tavily, Brave (or WEB_SEARCH_PROVIDER). */
  WEB_SEARCH_PROVIDER: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['serpapi', 'tavily', 'brave']).optional()),
  SERPAPI_API_KEY: optional,
  SERPAPI_BASE_URL: z.url().default('https://serpapi.com'),
  TAVILY_API_KEY: optional,
  TAVILY_BASE_URL: z.url().default('https://api.tavily.com'),
  BRAVE_SEARCH_API_KEY: optional,
  BRAVE_SEARCH_BASE_URL: z.url().default('https://api.search.brave.com'),

  /**
   * Largest file the import accepts, in megabytes; one upload on the Import page may carry twice
   * this. The page's text, its check before sending, the upload route and the import all read it
   * (lib/pool/import/limits.ts).
   */
  IMPORT_MAX_FILE_MB: z.coerce.number().positive().default(50),
  /** Document chunking for retrieval: target characters per chunk and overlap between chunks. */
  CHUNK_SIZE: z.coerce.number().int().min(200).max(8000).default(1200),
  CHUNK_OVERLAP: z.coerce.number().int().min(0).max(2000).default(150),
  /**
   * What the streams of an uploaded PDF may unpack to, together, in megabytes; counted before the
   * PDF is read, so a decompression bomb is refused by name (lib/pool/documents/pdf-streams.ts).
   */
  DOCUMENT_MAX_DECODED_MB: z.coerce.number().positive().max(4096).default(200),
  /** Uploaded documents one process reads at once (each in a worker thread); a few more wait their turn. */
  DOCUMENT_READERS: z.coerce.number().int().min(1).max(64).default(2),

  /** Operations. Log lines: one JSON object each (json) or readable text (pretty); unset: json in production. */
  LOG_FORMAT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['json', 'pretty']).optional()),
  /** GET /api/health answers 503 (not 200 "degraded") when the job queue cannot be read. */
  HEALTH_REQUIRE_QUEUE: flag,

  // --- Shared limits and budgets (lib/llm/rate-limit.ts, lib/debate/limits.ts) ---------------
  /** Requests and tokens per minute to the OpenAI-compatible endpoint, per model, across every process; unset: unlimited. */
  OPENAI_RPM: optionalNumber(z.coerce.number().int().min(1)),
  OPENAI_TPM: optionalNumber(z.coerce.number().int().min(1)),
  /**
   * The most completion tokens one call asks a model for, for models lib/llm/output-caps.ts does
   * not know (self-hosted ones); a known model's cap comes from there. OPENAI_MAX_OUTPUT_TOKENS_<MODEL>
   * overrides either for one model. Unset: 4,096.
   */
  OPENAI_MAX_OUTPUT_TOKENS: optionalNumber(z.coerce.number().int().min(1)),
  /** Default budgets of a new run (prompt + completion tokens, USD); unset: no budget. */
  RUN_MAX_TOKENS: optionalNumber(z.coerce.number().int().min(1)),
  RUN_MAX_COST_USD: optionalNumber(z.coerce.number().positive()),
  /** Runs one user may have queued or running at once. */
  RUNS_PER_USER_LIMIT: z.coerce.number().int().min(1).max(1000).default(4),

  /**
   * Minutes between portfolio-watch passes (lib/jobs/watch-scheduler.ts), 1 to 60; 0 turns the
   * watch's scheduler off (entries are then checked only by an admin's "check now").
   */
  WATCH_PASS_MINUTES: z.coerce.number().int().min(0).max(60).default(5),

  // ── Job queue and workers (on the embedded database the app process is the only worker) ──
  /** `0` keeps app instances from executing runs, leaving them to `npm run worker` processes. */
  CROSSCHECK_EMBEDDED_WORKER: flagDefaultOn,
  /** Runs one worker process (or an app instance's embedded worker) executes at once. */
  /**
   * Model calls one process makes at once to one model, over all the runs it executes (a run's
   * steps that are ready at the same time each make one). Quotas across processes are
   * OPENAI_RPM / OPENAI_TPM; this only keeps one process from opening too many streams.
   */
  OPENAI_MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(1).max(1000).default(32),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(32),
  /** How often an idle worker asks the queue for a run when no NOTIFY wakes it (pg-boss allows 500 at least). */
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(500).max(60_000).default(500),
  /** On SIGTERM, how long a worker waits for its runs to finish before handing them to another worker. */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
});

export type Env = z.infer<typeof schema>;

export class EnvError extends Error {}

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}\nSee .env.example.`);
  }
  cached = parsed.data;
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvForTests() {
  cached = undefined;
}

/**
 * A model for one agent role, e.g. OPENAI_MODEL_AGGREGATOR or OPENAI_MODEL_DEVILS_ADVOCATE.
 * Role names are open-ended, so these are read here by name rather than in the schema.
 */
export function roleModelEnv(role: string): string | undefined {
  return process.env[roleModelVar(role)]?.trim() || undefined;
}

/** Every per-role model override that is set (OPENAI_MODEL_<ROLE>), sorted by variable, for the system card. */
export function roleModelEnvs(): { variable: string; model: string }[] {
  return Object.entries(process.env)
    .filter(([k, v]) => /^OPENAI_MODEL_[A-Z0-9_]+$/.test(k) && v?.trim())
    .map(([variable, v]) => ({ variable, model: v!.trim() }))
    .sort((a, b) => a.variable.localeCompare(b.variable));
}

/** `devils-advocate` → `OPENAI_MODEL_DEVILS_ADVOCATE`. */
export function roleModelVar(role: string) {
  return `OPENAI_MODEL_${role
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
}

/**
 * A per-model override of OPENAI_RPM, OPENAI_TPM or OPENAI_MAX_OUTPUT_TOKENS, e.g.
 * OPENAI_RPM_GPT_4O_MINI for `gpt-4o-mini`. Model names are open-ended, so these are read by
 * name, like the role models.
 */
export function modelLimitEnv(kind: 'RPM' | 'TPM' | 'MAX_OUTPUT_TOKENS', model: string): number | undefined {
  const name = `OPENAI_${kind}_${model
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
  const value = process.env[name]?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new EnvError(`Invalid environment configuration:\n  ${name}: must be a whole number of at least 1\nSee .env.example.`);
  return n;
}

export function isEmbedded(e: Env = env()) {
  return !e.DATABASE_URL;
}

/** Demo accounts exist and may sign in only on the embedded database or with DEMO=1. */
export function demoEnabled(e: Env = env()) {
  return isEmbedded(e) || e.DEMO;
}

export function oidcConfigured(e: Env = env()) {
  return Boolean(e.AUTH_OIDC_ISSUER && e.AUTH_OIDC_CLIENT_ID && e.AUTH_OIDC_CLIENT_SECRET);
}
