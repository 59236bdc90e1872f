import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { createLogger, MAX_STRING, type LogLevel } from '@/lib/ops/log';
import { redactUrlPasswords } from '@/lib/util/redact';

function capture() {
  const lines: { level: LogLevel; line: string }[] = [];
  return { lines, write: (level: LogLevel, line: string) => void lines.push({ level, line }) };
}

const fixedNow = () => new Date('2025-03-01T09:30:00.123Z');

/** A line for an error with a cause, as fetch throws them. */
function lineForErrorWithCause() {
  const out = capture();
  createLogger({ format: 'json', secrets: [], write: out.write }).warn('probe failed', {
    err: new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }),
  });
  return out.lines[0].line;
}

describe('log in json mode', () => {
  it('writes one JSON object per line with ts, level, msg, component and the bound and given fields', () => {
    const out = capture();
    const runLog = createLogger({ format: 'json', secrets: [], write: out.write, now: fixedNow }).child({ component: 'runner', runId: 'r-1' });
    runLog.info('step finished', { stepId: 'D5', ms: 1234 });
    runLog.warn('slow step', { stepId: 'AG' });
    expect(out.lines).toHaveLength(2);
    expect(out.lines[0].line).not.toContain('\n');
    expect(JSON.parse(out.lines[0].line)).toEqual({
      ts: '2025-03-01T09:30:00.123Z',
      level: 'info',
      msg: 'step finished',
      component: 'runner',
      runId: 'r-1',
      stepId: 'D5',
      ms: 1234,
    });
    expect(JSON.parse(out.lines[1].line)).toMatchObject({ level: 'warn', component: 'runner', runId: 'r-1', stepId: 'AG' });
  });

  it('prints an error as its message, never its stack', () => {
    const out = capture();
    const err = new Error('connection refused');
    createLogger({ format: 'json', secrets: [], write: out.write }).error('run stopped', { err, nested: { cause: new TypeError('bad input') } });
    const parsed = JSON.parse(out.lines[0].line);
    expect(out.lines[0].level).toBe('error');
    expect(parsed.err).toBe('connection refused');
    expect(parsed.nested).toEqual({ cause: 'bad input' });
    expect(JSON.parse(lineForErrorWithCause()).err).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
    expect(out.lines[0].line).not.toContain('at ');
    expect(out.lines[0].line).not.toContain(err.stack!.split('\n')[1].trim());
  });

  it('fields cannot overwrite ts, level or msg', () => {
    const out = capture();
    createLogger({ format: 'json', secrets: [], write: out.write, now: fixedNow }).info('real', { level: 'fake', msg: 'fake', ts: 'fake' });
    expect(JSON.parse(out.lines[0].line)).toEqual({ ts: '2025-03-01T09:30:00.123Z', level: 'info', msg: 'real' });
  });
});

describe('log redaction of configured secrets', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
  });

  it('blanks OPENAI_API_KEY, AUTH_SECRET and the DATABASE_URL password wherever they appear', () => {
    const apiKey = 'sk-live-abcdef0123456789';
    const authSecret = 'auth-secret-that-is-at-least-32-characters-long';
    const dbPassword = 'pg-Pa55word-xyz';
    process.env.OPENAI_API_KEY = apiKey;
    process.env.AUTH_SECRET = authSecret;
    process.env.DATABASE_URL = `postgres://crosscheck:${dbPassword}@db.internal:5432/crosscheck`;
    resetEnvForTests();

    const out = capture();
    // No secrets option: the logger reads them from the environment, as the process's `log` does.
    const logger = createLogger({ format: 'json', write: out.write });
    logger.error(`request with key ${apiKey} failed`, {
      err: new Error(`401 for ${apiKey}`),
      config: { headers: [`Bearer ${apiKey}`], note: `secret is ${authSecret}` },
      connection: `could not connect with password ${dbPassword}`,
      url: 'postgres://other:hunter2hunter@host/db',
      apiKey: 'anything-here',
      promptTokens: 120,
    });
    const line = out.lines[0].line;
    for (const secret of [apiKey, authSecret, dbPassword, 'hunter2hunter', 'anything-here']) expect(line).not.toContain(secret);
    const parsed = JSON.parse(line);
    expect(parsed.msg).toBe('request with key [redacted] failed');
    expect(parsed.err).toBe('401 for [redacted]');
    expect(parsed.config.headers).toEqual(['Bearer [redacted]']);
    expect(parsed.url).toBe('postgres://other:[redacted]@host/db');
    expect(parsed.apiKey).toBe('[redacted]');
    // A name that only looks like a secret is kept.
    expect(parsed.promptTokens).toBe(120);
  });
});

describe('log in pretty mode', () => {
  it('writes a readable line with the component and fields, and the stack for a developer', () => {
    const out = capture();
    createLogger({ format: 'pretty', secrets: ['sk-secret-123'], write: out.write, now: fixedNow })
      .child({ component: 'bus' })
      .error('subscriber threw', { runId: 'r-9', err: new Error('boom sk-secret-123') });
    const [first, ...stack] = out.lines[0].line.split('\n');
    expect(first).toBe('09:30:00.123 ERROR [bus] subscriber threw runId=r-9 err="boom [redacted]"');
    expect(stack[0]).toMatch(/^\s+at /);
  });

  it('defaults to json in production and pretty otherwise, and LOG_FORMAT wins', () => {
    const saved = { ...process.env };
    try {
      const formatFor = (vars: Record<string, string | undefined>) => {
        process.env = { ...saved, ...vars };
        resetEnvForTests();
        const out = capture();
        createLogger({ secrets: [], write: out.write }).info('hello');
        return out.lines[0].line.startsWith('{') ? 'json' : 'pretty';
      };
      expect(formatFor({ NODE_ENV: 'production', LOG_FORMAT: undefined })).toBe('json');
      expect(formatFor({ NODE_ENV: 'development', LOG_FORMAT: undefined })).toBe('pretty');
      expect(formatFor({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' })).toBe('pretty');
      expect(formatFor({ NODE_ENV: 'development', LOG_FORMAT: 'json' })).toBe('json');
    } finally {
      process.env = { ...saved };
      resetEnvForTests();
    }
  });
});

describe('log lines from user text', () => {
  const timed = (fn: () => void) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };

  it('redacting a URL password runs in linear time: a 1 MB adversarial string is cleaned in well under a second', () => {
    // Each of these made the old pattern backtrack over the rest of the text at every position:
    // 80,000 characters took about 6 s, so 1 MB would take many minutes.
    for (const adversarial of ['a'.repeat(1_000_000), 'a://b'.repeat(200_000), 'x://'.repeat(250_000), 'a://b:c'.repeat(150_000)]) {
      expect(timed(() => redactUrlPasswords(adversarial))).toBeLessThan(200);
    }
    // And the time grows with the length, not its square: 4x the text takes well under 16x the time.
    const small = 'a'.repeat(200_000);
    const large = 'a'.repeat(800_000);
    const best = (s: string) => Math.min(...[0, 1, 2].map(() => timed(() => redactUrlPasswords(s))));
    expect(best(large)).toBeLessThan(Math.max(8 * best(small), 20));
  });

  it('still blanks every URL password, and leaves text without one as it was', () => {
    expect(redactUrlPasswords('postgres://u:p4ss@db/x and https://a:b@c/ and mailto:x@y')).toBe(
      'postgres://u:[redacted]@db/x and https://a:[redacted]@c/ and mailto:x@y',
    );
    expect(redactUrlPasswords('see https://example.com/a:b@c and ftp://user@host')).toBe('see https://example.com/a:b@c and ftp://user@host');
    expect(redactUrlPasswords('ws://u:one@h, WS://U:two@h')).toBe('ws://u:[redacted]@h, WS://U:[redacted]@h');
    expect(redactUrlPasswords('://u:p@h')).toBe('://u:p@h');
  });

  it('a log call with a 5 MB string field (a rejected import row) cuts it, says how much, and returns at once', () => {
    const out = capture();
    const title = `postgres://u:secret-pw@h ${'가'.repeat(5_000_000)}`;
    const ms = timed(() =>
      createLogger({ format: 'json', secrets: [], write: out.write }).error(`insert failed: ${title}`, {
        err: new Error(`value too long: ${title}`),
        title,
        rows: Array(1000).fill('x'),
      }),
    );
    expect(ms).toBeLessThan(500);
    const line = JSON.parse(out.lines[0].line);
    for (const text of [line.msg, line.err, line.title]) {
      expect(text.length).toBeLessThan(MAX_STRING + 100);
      expect(text).toMatch(/… \[[\d,]+ more characters cut\]$/);
      expect(text).toContain('u:[redacted]@h');
      expect(text).not.toContain('secret-pw');
    }
    const cut = Number(/\[([\d,]+) more/.exec(line.title)![1].replace(/,/g, ''));
    expect(line.title.length - /… \[.*$/.exec(line.title)![0].length + cut).toBe(title.length - 'secret-pw'.length + '[redacted]'.length);
    expect(line.rows).toHaveLength(101);
    expect(line.rows[100]).toBe('[900 more items cut]');
  });

  it('blanks a configured secret that straddles the cut', () => {
    const out = capture();
    const secret = 'sk-straddling-secret-0123456789';
    createLogger({ format: 'json', secrets: [secret], write: out.write }).info('x', { text: `${'a'.repeat(MAX_STRING - 10)}${secret}${'b'.repeat(10_000)}` });
    expect(out.lines[0].line).not.toContain(secret.slice(0, 10));
  });
});
