// Test-only: a local HTTP server that answers like OpenDART and SEC EDGAR from the recorded
// responses in data/fixtures/, so connector tests exercise real HTTP (headers, status codes,
// Retry-After) without the network. Tests can queue failures per endpoint. As a process for the
// browser tests (scripts/fixtures/filing-server.ts) it can start quiet (every OpenDART endpoint
// says "no data") and take what to serve over HTTP (`control`): still a stand-in for OpenDART
// that only tests start, never part of the app.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data/fixtures');

/** Recorded files whose names differ from their endpoint. */
const DART_ALIASES: Record<string, string> = { company: 'company_samsung.json', list: 'list_samsung.json' };

function dartFixtures(): Map<string, string> {
  const byName = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) byName.set(entry.name, full);
    }
  };
  walk(path.join(FIXTURES, 'opendart'));
  return byName;
}

export type Failure = { dartStatus: string; message?: string } | { httpStatus: number; retryAfter?: string; body?: string };

export type RecordedRequest = { path: string; query: URLSearchParams; headers: IncomingHttpHeaders };

export type FixtureServer = {
  /** e.g. http://127.0.0.1:51234 */
  origin: string;
  dartBaseUrl: string;
  requests: RecordedRequest[];
  /** The next `times` requests whose path ends with `match` get this answer instead of the fixture. */
  fail(match: string, failure: Failure, times?: number): void;
  /** Serve a file (relative to data/fixtures/) or a value at a path. */
  serve(pathname: string, content: { file: string } | { json: unknown }): void;
  /** Forget queued failures, served overrides and recorded requests. */
  reset(): void;
  close(): Promise<void>;
};

export type FixtureServerOptions = {
  dartKey: string;
  /** 0 (any free port) by default. */
  port?: number;
  /** Every OpenDART endpoint answers 013 (no data) unless something is served at its path. */
  quietDart?: boolean;
  /** POST /__fixtures/serve {path, file | json} and POST /__fixtures/reset change what is served. */
  control?: boolean;
};

const CONTROL_BODY_LIMIT = 1_000_000;

export async function startFixtureServer(options: FixtureServerOptions): Promise<FixtureServer> {
  const dart = dartFixtures();
  const failures: { match: string; failure: Failure; left: number }[] = [];
  const overrides = new Map<string, { file: string } | { json: unknown }>();
  const requests: RecordedRequest[] = [];

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };

    if (options.control && req.method === 'POST' && url.pathname.startsWith('/__fixtures/')) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > CONTROL_BODY_LIMIT) req.destroy();
      });
      req.on('end', () => {
        if (url.pathname === '/__fixtures/reset') {
          overrides.clear();
          failures.length = 0;
          return json(200, { ok: true });
        }
        try {
          const { path: at, file, json: value } = JSON.parse(body) as { path?: string; file?: string; json?: unknown };
          if (url.pathname !== '/__fixtures/serve' || typeof at !== 'string') return json(400, { error: 'bad request' });
          // Only files under data/fixtures/: the path is joined and checked to stay inside it.
          if (typeof file === 'string') {
            if (!path.resolve(FIXTURES, file).startsWith(FIXTURES + path.sep)) return json(400, { error: 'bad file' });
            overrides.set(at, { file });
          } else overrides.set(at, { json: value });
          json(200, { ok: true });
        } catch {
          json(400, { error: 'bad request' });
        }
      });
      return;
    }

    const queued = failures.find((f) => f.left > 0 && url.pathname.endsWith(f.match));
    if (queued) {
      queued.left--;
      const f = queued.failure;
      if ('dartStatus' in f) return json(200, { status: f.dartStatus, message: f.message ?? '테스트 응답' });
      return json(f.httpStatus, f.body ?? { error: `HTTP ${f.httpStatus}` }, f.retryAfter ? { 'retry-after': f.retryAfter } : {});
    }

    const override = overrides.get(url.pathname);
    if (override) return json(200, 'json' in override ? override.json : readFileSync(path.join(FIXTURES, override.file), 'utf8'));

    const dartMatch = /^\/api\/([A-Za-z]+)\.json$/.exec(url.pathname);
    if (dartMatch) {
      // Like OpenDART: a wrong key is a 200 with status 010, not an HTTP error.
      if (url.searchParams.get('crtfc_key') !== options.dartKey) return json(200, { status: '010', message: '등록되지 않은 키입니다.' });
      if (options.quietDart) return json(200, { status: '013', message: '조회된 데이타가 없습니다.' });
      const file = dart.get(DART_ALIASES[dartMatch[1]] ?? `${dartMatch[1]}.json`);
      return file ? json(200, readFileSync(file, 'utf8')) : json(200, { status: '013', message: '조회된 데이타가 없습니다.' });
    }

    const edgarMatch = /^\/submissions\/(CIK\d{10}\.json)$/.exec(url.pathname);
    if (edgarMatch) {
      try {
        return json(200, readFileSync(path.join(FIXTURES, 'edgar', edgarMatch[1]), 'utf8'));
      } catch {
        return json(404, { error: 'not found' });
      }
    }
    json(404, { error: 'not found' });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    dartBaseUrl: `${origin}/api`,
    requests,
    fail: (match, failure, times = 1) => failures.push({ match, failure, left: times }),
    serve: (pathname, content) => overrides.set(pathname, content),
    reset: () => {
      failures.length = 0;
      overrides.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // fetch keeps connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}
