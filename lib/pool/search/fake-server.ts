// Test helper: a local HTTP server (port 0) standing in for a search API. It records every
// request so tests can check how the key and the parameters were sent, and answers with
// whatever the test's handler returns — shaped like the real provider's responses.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON; undefined when empty. */
  body: unknown;
};

export type FakeReply = { status?: number; headers?: Record<string, string>; body?: unknown; delayMs?: number };

export type FakeServer = {
  url: string;
  requests: RecordedRequest[];
  /** Replaced per test; called once per request. */
  handle: (req: RecordedRequest, n: number) => FakeReply;
  close: () => Promise<void>;
};

export async function startFakeServer(): Promise<FakeServer> {
  const fake: FakeServer = {
    url: '',
    requests: [],
    handle: () => ({ status: 500, body: { error: 'no handler set' } }),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
      fake.requests.push(recorded);
      const reply = fake.handle(recorded, fake.requests.length);
      const send = () => {
        if (res.destroyed) return;
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers });
        res.end(payload);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
