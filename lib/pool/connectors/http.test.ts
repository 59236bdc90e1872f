import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '@/lib/util/http';
import { redact } from '@/lib/util/redact';
import { fetchJson, HttpError, type RetryNotice } from './http';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

// A server that plays a script: response i answers request i; the last one repeats.
type Script = ((res: ServerResponse) => void)[];
let server: Server | undefined;
let hits = 0;

async function serve(script: Script): Promise<string> {
  hits = 0;
  server = createServer((_req, res) => script[Math.min(hits++, script.length - 1)](res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const ok = (body: unknown) => (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const status =
  (code: number, headers: Record<string, string> = {}, body = '') =>
  (res: ServerResponse) =>
    res.writeHead(code, headers).end(body);

/** The error a call fails with; fails the test if the call succeeds. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: HttpError) => e,
  );

function recorder() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

describe('redact', () => {
  it('removes key query parameters and the raw or URL-encoded secret', () => {
    const url = `https://opendart.fss.or.kr/api/list.json?crtfc_key=${KEY}&corp_code=00126380`;
    expect(redact(url)).toBe('https://opendart.fss.or.kr/api/list.json?crtfc_key=[redacted]&corp_code=00126380');
    expect(redact(`token ${KEY} and ${encodeURIComponent('p@ss/word+1')}`, [KEY, 'p@ss/word+1'])).toBe('token [redacted] and [redacted]');
  });

  it('leaves short values alone so ordinary words survive', () => {
    expect(redact('the key is abc', ['abc'])).toBe('the key is abc');
  });
});

describe('parseRetryAfter and backoffDelay', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('doubles per retry with jitter in the upper half, capped', () => {
    expect(backoffDelay(0, 500, 30_000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 30_000, () => 0)).toBe(2000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
  });
});

describe('fetchJson', () => {
  it('retries 5xx with growing backoff, then returns the body', async () => {
    const origin = await serve([status(500), status(503), ok({ fine: true })]);
    const { sleeps, sleep } = recorder();
    await expect(fetchJson(`${origin}/x`, { sleep, random: () => 0.5 })).resolves.toEqual({ fine: true });
    expect(hits).toBe(3);
    expect(sleeps).toEqual([375, 750]);
  });

  it('honours Retry-After on 429 instead of its own backoff', async () => {
    const origin = await serve([status(429, { 'retry-after': '7' }), ok([1])]);
    const { sleeps, sleep } = recorder();
    await expect(fetchJson(`${origin}/x`, { sleep })).resolves.toEqual([1]);
    expect(sleeps).toEqual([7000]);
  });

  it('gives up after the retries with the status, the attempt count and no key', async () => {
    const origin = await serve([status(429)]);
    const { sleeps, sleep } = recorder();
    const notices: RetryNotice[] = [];
    const error = await failure(fetchJson(`${origin}/api/list.json?crtfc_key=${KEY}`, { sleep, retries: 2, secrets: [KEY], onRetry: (n) => notices.push(n) }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 429, attempts: 3 });
    expect(error.message).toContain('failed after 3 attempts: HTTP 429');
    expect(error.message).toContain('crtfc_key=[redacted]');
    expect(hits).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(JSON.stringify(notices)).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
  });

  it('fails at once when Retry-After asks for longer than it will wait', async () => {
    const origin = await serve([status(429, { 'retry-after': '3600' })]);
    const { sleeps, sleep } = recorder();
    await expect(fetchJson(`${origin}/x`, { sleep })).rejects.toThrow(/asks to wait 3600 s/);
    expect(hits).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry other 4xx and quotes the body without the key', async () => {
    const origin = await serve([status(400, {}, `bad request for crtfc_key=${KEY}`)]);
    const error = await failure(fetchJson(`${origin}/x?crtfc_key=${KEY}`, { secrets: [KEY] }));
    expect(hits).toBe(1);
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toContain('bad request for crtfc_key=[redacted]');
    expect(error.message).not.toContain(KEY);
  });

  it('times out a hanging server and retries the timeout', async () => {
    const origin = await serve([() => undefined]);
    const { sleep } = recorder();
    await expect(fetchJson(`${origin}/x`, { sleep, timeoutMs: 50, retries: 1 })).rejects.toThrow(/failed after 2 attempts: timed out after 50 ms/);
    expect(hits).toBe(2);
  });

  it('retries network errors and names them', async () => {
    const origin = await serve([ok({})]);
    server!.close();
    const { sleeps, sleep } = recorder();
    await expect(fetchJson(`${origin}/x`, { sleep, retries: 1 })).rejects.toThrow(/network error/);
    expect(sleeps).toHaveLength(1);
  });

  it('does not retry when the caller aborts', async () => {
    const origin = await serve([() => undefined]);
    const controller = new AbortController();
    const pending = fetchJson(`${origin}/x`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
    expect(hits).toBe(1);
  });

  it('retries a 200 whose body asks for it, then hands back the last body', async () => {
    const origin = await serve([ok({ status: '020' })]);
    const { sleeps, sleep } = recorder();
    const body = await fetchJson(`${origin}/x`, { sleep, retries: 2, retryOnBody: (b) => ((b as { status: string }).status === '020' ? 'limit' : null) });
    expect(body).toEqual({ status: '020' });
    expect(hits).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('rejects a body that is not JSON', async () => {
    const origin = await serve([status(200, { 'content-type': 'text/html' }, '<html>점검 중</html>')]);
    await expect(fetchJson(`${origin}/x`)).rejects.toThrow(/not JSON/);
  });
});
