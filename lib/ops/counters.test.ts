// Cluster-wide counters: atomic under concurrent increments on both engines, and the provider's
// failed attempts counted through the process database against the fake model server.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeDb, getDb, type DatabaseHandle } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { OUTPUT_SCHEMAS } from '@/lib/domain/outputs';
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import { resetEnvForTests } from '@/lib/env';
import { createOpenAiProvider } from '@/lib/llm/openai';
import type { GenerateRequest } from '@/lib/llm/types';
import { incrementCounter, readCounter, readCounters } from '@/lib/db/queries/counters';
import { flushCounters, PROVIDER_ERRORS } from '@/lib/ops/counters';
import { startFakeLlm, type FakeLlm } from '@/scripts/fake-llm/server';

describe.each(testBackends())('ops counters on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('loses no increment when many arrive at once, and keeps label sets apart whatever their key order', async () => {
    const { db } = handle;
    const a = { provider: 'openai', code: '429' };
    const aReordered = { code: '429', provider: 'openai' };
    const b = { provider: 'openai', code: '500' };
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => incrementCounter({ db, name: 'test_counter', labels: i % 2 ? a : aReordered })),
      ...Array.from({ length: 15 }, () => incrementCounter({ db, name: 'test_counter', labels: b, by: 2 })),
      incrementCounter({ db, name: 'other_counter', labels: a }),
    ]);
    expect(await readCounter({ db, name: 'test_counter', labels: a })).toBe(40);
    expect(await readCounter({ db, name: 'test_counter', labels: b })).toBe(30);
    expect(await readCounter({ db, name: 'test_counter', labels: { provider: 'openai', code: '503' } })).toBe(0);
    const rows = await readCounters({ db, name: 'test_counter' });
    expect(rows.sort((x, y) => x.value - y.value)).toEqual([
      { labels: b, value: 30 },
      { labels: a, value: 40 },
    ]);
  });
});

const step: StepDef = {
  id: 'D1',
  agent: 'A1',
  role: 'debater',
  team: 'affirmative',
  act: 'constructive',
  context: [],
  webSearch: false,
  evidence: 'pool',
  output: 'turn',
  task: 'Argue.',
};

function request(): GenerateRequest {
  return {
    runId: 'run1',
    protocol: { id: 'kpd-mads', name: 'KPD-MADS', description: '', steps: [step], reportStep: 'AG' } as ProtocolDef,
    step,
    params: { language: 'en', asOf: '2025-01-01', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 },
    company: { id: 'acme', name: 'Acme', nameEn: 'Acme', country: 'KR', industry: null },
    evidence: [],
    passages: [],
    context: [],
    prompt: { system: 'Guideline.', user: 'Step D1: argue the favorable case.' },
    schema: OUTPUT_SCHEMAS.turn,
    jsonSchema: z.toJSONSchema(OUTPUT_SCHEMAS.turn) as Record<string, unknown>,
    tools: {},
    signal: new AbortController().signal,
    onToken: () => {},
  };
}

/** Points the environment at a fresh database of this backend, as the app's own would be. */
async function useProcessDatabase(backend: 'pglite' | 'postgres'): Promise<() => Promise<void>> {
  if (backend === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-counters-'));
    delete process.env.DATABASE_URL;
    process.env.CROSSCHECK_DATA_DIR = dir;
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const server = process.env.TEST_DATABASE_URL!;
  const name = `crosscheck_t_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.AUTH_SECRET ??= 'test-secret-of-at-least-thirty-two-characters';
  return () => admin(`drop database if exists ${name} with (force)`);
}

// One backend is enough here (the increments above cover both): PostgreSQL when there is one,
// since opening an embedded process database also loads the demo data, which takes a while.
describe.each(testBackends().slice(-1))('provider errors counted in the process database on %s', (backend) => {
  const saved = { ...process.env };
  let fake: FakeLlm;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    cleanup = await useProcessDatabase(backend);
    resetEnvForTests();
    fake = await startFakeLlm({ seed: 3, faults: { rate: 0.5, kinds: ['429', '500'], seed: 21 } });
  });
  afterEach(() => fake.configure({ faults: undefined }));
  afterAll(async () => {
    await fake?.close();
    await closeDb();
    await cleanup?.();
    process.env = { ...saved };
    resetEnvForTests();
  });

  it('counts every failed attempt by status, including the ones a retry recovered from, and timeouts and resets', async () => {
    const db = await getDb();
    const provider = createOpenAiProvider({
      apiKey: 'sk-test-0123456789',
      baseURL: fake.url,
      model: 'fake-llm',
      maxRetries: 10,
      timeoutMs: 1_000,
      sleep: async () => {},
    });
    for (let i = 0; i < 6; i++) await provider.generate(request());
    fake.configure({ faults: undefined });
    fake.failNext({ kind: 'reset' });
    fake.failNext({ kind: 'hang' });
    await provider.generate(request());
    await flushCounters();

    const injected = (label: string) => fake.requests.filter((r) => r.fault === label).length;
    // The seeded draw really injected both kinds; otherwise the comparison below proves little.
    expect(injected('429')).toBeGreaterThan(0);
    expect(injected('500')).toBeGreaterThan(0);
    const counted = (code: string) => readCounter({ db, name: PROVIDER_ERRORS, labels: { provider: 'openai', code } });
    expect(await counted('429')).toBe(injected('429'));
    expect(await counted('500')).toBe(injected('500'));
    expect(await counted('network')).toBe(1);
    expect(await counted('timeout')).toBe(1);
  });
});
