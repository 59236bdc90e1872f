import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, HttpRequestError, MAX_WAIT_MS, parseRetryAfter, requestJson, retryAfterMs, sleep } from '@/lib/util/http';

let server: Server | undefined;
const received: { method?: string; headers: IncomingMessage['headers']; body: string }[] = [];

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  received.length = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, headers: req.headers, body });
      handler(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e as HttpRequestError,
  );

describe('requestJson', () => {
  it('GETs JSON with an Accept header and returns the parsed body', async () => {
    const origin = await serve((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":[1,2]}'));
    await expect(requestJson(`${origin}/x`, { timeoutMs: 1_000, headers: { 'X-Extra': 'y' } })).resolves.toEqual({ ok: [1, 2] });
    expect(received[0]).toMatchObject({ method: 'GET', headers: { accept: 'application/json', 'x-extra': 'y' }, body: '' });
  });

  it('POSTs a JSON body with its content type', async () => {
    const origin = await serve((res) => res.writeHead(200).end('[]'));
    await requestJson(new URL('/search', origin), { method: 'POST', json: { q: '가' }, timeoutMs: 1_000 });
    expect(received[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"가"}' });
  });

  it('turns a failed status into an error with the status, the body and the Retry-After wait', async () => {
    const origin = await serve((res) => res.writeHead(429, { 'retry-after': '7' }).end('{"error":"slow down"}'));
    const error = await failure(requestJson(`${origin}/x`, { timeoutMs: 1_000 }));
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).toMatchObject({ kind: 'status', message: 'HTTP 429', status: 429, details: { body: '{"error":"slow down"}', retryAfterMs: 7000 } });
  });

  it('says when a 2xx body is not JSON', async () => {
    const origin = await serve((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>점검 중</html>'));
    const error = await failure(requestJson(`${origin}/x`, { timeoutMs: 1_000 }));
    expect(error).toMatchObject({ kind: 'not-json', status: 200, message: 'the body is not JSON' });
  });

  it('times out a server that never answers, and one that stops halfway through the body', async () => {
    let origin = await serve(() => undefined);
    expect(await failure(requestJson(`${origin}/x`, { timeoutMs: 50 }))).toMatchObject({
      kind: 'timeout',
      message: 'timed out after 50 ms',
      details: { duringBody: false },
    });
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    origin = await serve((res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{"partial":'));
    expect(await failure(requestJson(`${origin}/x`, { timeoutMs: 100 }))).toMatchObject({ kind: 'timeout', details: { duringBody: true } });
  });

  it('names a network error with its cause', async () => {
    const origin = await serve(() => undefined);
    server!.close();
    const error = await failure(requestJson(`${origin}/x`, { timeoutMs: 1_000 }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/fetch failed \(.*ECONNREFUSED/);
  });

  it("throws the caller's abort reason as it is", async () => {
    const origin = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(requestJson(`${origin}/x`, { timeoutMs: 5_000, signal: controller.signal })).rejects.toThrow(/^user cancelled$/);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 1.5 ')).toBe(1500);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT'))).toBe(0);
    for (const bad of ['soon', '-5', '1e3', '', null, undefined]) expect(parseRetryAfter(bad)).toBeNull();
  });

  it('caps an absurd wait at what a timer can wait', () => {
    expect(parseRetryAfter('9'.repeat(400))).toBe(MAX_WAIT_MS);
    expect(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', 0)).toBe(MAX_WAIT_MS);
  });

  it('prefers retry-after-ms in headers', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '9' }))).toBe(120);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '9' }))).toBe(9000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('backoffDelay and sleep', () => {
  it('doubles per retry with jitter in the upper half, capped', () => {
    expect(backoffDelay(0, 500, 30_000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 30_000, () => 0)).toBe(2000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
  });

  it('sleeps, and stops with the reason when the signal fires', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(sleep(10_000, controller.signal)).rejects.toThrow('stop');
    await expect(sleep(10, controller.signal)).rejects.toThrow('stop');
  });
});
