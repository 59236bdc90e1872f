import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptSignIn } from '@/lib/auth/credentials';
import { installPeerAddressHeader, PEER_ADDRESS_HEADER } from '@/lib/auth/peer-address';
import { clientAddress } from '@/lib/auth/throttle';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

/** One request to `port` with the given headers; resolves with the body. */
function send(port: number, headers: Record<string, string>) {
  return new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a server whose handler answers `answer(headers as a route handler sees them)`. */
async function serve(answer: (headers: Headers) => Promise<string> | string) {
  const server = createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    void Promise.resolve(answer(headers)).then((body) => res.end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the client address without a trusted proxy (TRUST_PROXY=0)', () => {
  beforeAll(() => installPeerAddressHeader());

  it("is the connection's address, whatever X-Forwarded-For or a forged peer header says", async () => {
    const { server, port } = await serve((headers) => String(clientAddress(headers, 0)));
    try {
      expect(await send(port, {})).toBe('127.0.0.1');
      expect(await send(port, { 'x-forwarded-for': '203.0.113.5' })).toBe('127.0.0.1');
      expect(await send(port, { 'x-forwarded-for': '10.0.0.1, 203.0.113.5', 'x-real-ip': '203.0.113.6' })).toBe('127.0.0.1');
      expect(await send(port, { [PEER_ADDRESS_HEADER]: '203.0.113.7' })).toBe('127.0.0.1');
    } finally {
      await close(server);
    }
  });
});

describe.each(testBackends())('rotating X-Forwarded-For against the sign-in throttle on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    installPeerAddressHeader();
  });
  afterAll(() => handle?.close());

  it('does not escape it: thirty attempts with thirty forwarded addresses count as one client', async () => {
    const now = new Date('2031-06-06T10:00:05Z');
    const { server, port } = await serve(async (headers) => {
      const outcome = await attemptSignIn({
        db,
        email: 'nobody@example.org',
        password: 'guess',
        address: clientAddress(headers, 0),
        demoAllowed: true,
        attemptsPerMinute: 5,
        now,
      });
      return outcome.ok ? 'ok' : outcome.code;
    });
    try {
      const answers: string[] = [];
      for (let i = 0; i < 30; i++) answers.push(await send(port, { 'x-forwarded-for': `198.18.${i}.${i + 1}` }));
      expect(answers.filter((a) => a === 'throttled')).toHaveLength(25);
      expect(answers.slice(0, 5)).toEqual(Array(5).fill('invalid'));
    } finally {
      await close(server);
    }
  }, 60_000);
});
