// Server render time of a company page with 2,000 evidence items, measured against the real
// production server (`next start` on the current build) over HTTP, signed in as the demo RM.
// Issue target: ≤ 300 ms. Builds first when there is no build or the source is newer (as `npm start`).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@/lib/db/client';
import { seedDemo } from '@/lib/demo/seed';
import { importPool } from '@/lib/pool/import';
import { evidenceBatches, makeCompanies, toJsonl } from './corpus';
import { ensureBuild, freePort } from './next-server';
import { median, percentile, round } from './stats';
import type { Benchmark } from './types';

/** A tiny cookie jar: enough for Auth.js's CSRF and session cookies. */
class Client {
  private cookies = new Map<string, string>();
  constructor(private base: string) {}
  async fetch(pathname: string, init: RequestInit = {}) {
    const response = await fetch(`${this.base}${pathname}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return response;
  }
}

async function waitForHealth(base: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not become healthy in time');
}

export const companyPageBenchmark: Benchmark = {
  name: 'company-page',
  description: 'server render of a company page with 2,000 evidence items (next start, over HTTP)',
  async run(ctx) {
    const root = process.cwd();
    ensureBuild(ctx.log);
    const items = ctx.quick ? 500 : 2000;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-bench-page-'));
    const [company] = makeCompanies(1, 7);
    try {
      const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
      await seedDemo(handle.db, { accounts: true });
      const batch = [...evidenceBatches([company], items, items, 8)][0];
      const encoder = new TextEncoder();
      const report = await importPool({
        db: handle.db,
        actorId: null,
        sources: [
          { name: 'companies.json', bytes: encoder.encode(JSON.stringify([{ id: company.id, name: company.name, country: company.country }])) },
          { name: 'evidence.jsonl', bytes: encoder.encode(toJsonl(batch)) },
        ],
      });
      if (report.imported.evidence !== items) throw new Error(`expected ${items} items, imported ${report.imported.evidence}`);
      await handle.close();

      const port = await freePort();
      const base = `http://localhost:${port}`;
      const server = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port)], {
        cwd: root,
        env: { ...process.env, CROSSCHECK_DATA_DIR: dir, DATABASE_URL: '', AUTH_SECRET: randomBytes(32).toString('base64'), NEXT_TELEMETRY_DISABLED: '1' },
        stdio: 'ignore',
      });
      try {
        await waitForHealth(base);
        const client = new Client(base);
        const { csrfToken } = (await (await client.fetch('/api/auth/csrf')).json()) as { csrfToken: string };
        const signIn = await client.fetch('/api/auth/callback/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'rm@example.com', password: process.env.DEMO_PASSWORD || 'crosscheck-demo', csrfToken, callbackUrl: '/' }),
        });
        if (signIn.status !== 302 || (signIn.headers.get('location') ?? '').includes('error')) throw new Error('could not sign in as the demo RM');

        const samples: number[] = [];
        let bytes = 0;
        for (let i = 0; i < (ctx.quick ? 8 : 30) + 3; i++) {
          const start = performance.now();
          const response = await client.fetch(`/companies/${company.id}`);
          const html = await response.text();
          const ms = performance.now() - start;
          if (response.status !== 200 || !html.includes(company.name)) throw new Error(`the company page answered ${response.status}`);
          bytes = html.length;
          if (i >= 3) samples.push(ms); // the first requests warm up the server
        }
        const name = `company page, ${items} items`;
        return [
          { name, metric: 'median', value: round(median(samples)), unit: 'ms', target: ctx.quick ? undefined : { atMost: 300 } },
          { name, metric: 'p95', value: round(percentile(samples, 95)), unit: 'ms' },
          { name, metric: 'HTML size', value: round(bytes / 1024), unit: 'KiB' },
        ];
      } finally {
        server.kill('SIGTERM');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
