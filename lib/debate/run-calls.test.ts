// Every model call a run makes is kept as sent and answered (lib/db/queries/run-calls.ts,
// docs/case-file.md): a model run on the fake OpenAI server, whose recorded request bodies must be
// exactly what was kept, with a malformed answer and a 429 on the way; an offline run; the cap;
// and an attempt fenced out of its run, which keeps nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { CALL_SIDE_CAP, CUT_MARKER, listRunCalls, packSide, unpackSide } from '@/lib/db/queries/run-calls';
import { LeaseLostError, listRunSteps, recordRunCall } from '@/lib/db/queries/runs';
import { auditLog, runCalls, runs } from '@/lib/db/schema';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { callsDigest } from '@/lib/util/case-file-digest';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(testBackends())('run calls: what each model call was sent and answered, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let fake: FakeLlm;
  const params = { asOf: '2024-12-31', language: 'en' as const };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    fake = await startFakeLlm({ ttftMs: 2, tokensPerSecond: 5000 });
  });
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  async function sealOf(runId: string) {
    return db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'run.calls_sealed'), eq(auditLog.entityId, runId)));
  }

  it('an offline run keeps one call per step, says it is not a model, and is sealed in the audit chain', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider, params });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const steps = await listRunSteps({ db, runId: run.id });
    const calls = await listRunCalls({ db, runId: run.id, withText: true });
    // Every step was asked at least once; the offline analyst never needs a second try.
    expect(new Set(calls.map((c) => c.stepId))).toEqual(new Set(steps.map((s) => s.stepId)));
    for (const c of calls) {
      expect(c).toMatchObject({ provider: 'offline', isLlm: false, attempt: 1, error: null });
      const request = JSON.parse(c.requestText!) as { offline: string; system: string; user: string };
      expect(request.offline).toMatch(/not a language model/);
      expect(request.user).toContain(`Step ${c.stepId} (`);
      expect(sha(c.answerText!)).toBe(c.answerSha256);
      expect(sha(c.requestText!)).toBe(c.requestSha256);
      expect(c.answerBytes).toBe(Buffer.byteLength(c.answerText!));
      expect(c.answerText!.length).toBeGreaterThan(20);
    }
    // A whole-step answer is the JSON the step's output was taken in from.
    const whole = calls.find((c) => c.stepId === 'D1' && c.partKey === null)!;
    expect(JSON.parse(whole.answerText!)).toMatchObject({ claims: expect.any(Array) });
    const seals = await sealOf(run.id);
    expect(seals).toHaveLength(1);
    expect(seals[0].detail).toEqual({ calls: calls.length, digest: callsDigest(calls) });
  }, 60_000);

  it('a model run keeps each request body exactly as the endpoint received it, and each raw answer, retries and repairs included', async () => {
    const offline = createOfflineAnalyst();
    const reference = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    const expected = await listRunSteps({ db, runId: reference.id });
    fake.setScript(expected.map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })));
    const before = fake.requests.length;
    fake.failNext({ status: 429, retryAfter: 1 });
    fake.failNext({ kind: 'malformed' });
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', sleep: async () => {} });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider, params: { ...params, temperature: 0.3 } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');

    const calls = await listRunCalls({ db, runId: run.id, withText: true });
    const kept = calls.flatMap((c) => (JSON.parse(c.requestText!) as { requests: unknown[] }).requests);
    const received = fake.requests.slice(before).map((r) => r.body);
    // The same bodies, the failed 429 attempt's included: as many, and each one identical.
    const canon = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
    expect(kept).toHaveLength(received.length);
    expect(canon(kept)).toEqual(canon(received));
    for (const c of calls) {
      expect(c).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', isLlm: true });
      expect((JSON.parse(c.requestText!) as { requests: { model: string; temperature?: number }[] }).requests[0]).toMatchObject({
        model: 'gpt-4o-mini',
        messages: expect.any(Array),
        response_format: { type: 'json_schema' },
      });
      expect(c.usage!.promptTokens).toBeGreaterThan(0);
      expect(sha(c.answerText!)).toBe(c.answerSha256);
    }
    // The malformed answer is kept as received (it does not parse), then its repair as call 2.
    const broken = calls.find((c) => {
      try {
        JSON.parse(c.answerText!);
        return false;
      } catch {
        return true;
      }
    })!;
    expect(broken).toBeDefined();
    const repaired = calls.find((c) => c.stepId === broken.stepId && c.partKey === broken.partKey && c.callNo === broken.callNo + 1)!;
    expect(repaired.attempt).toBe(broken.attempt + 1);
    expect(repaired.requestText).toContain('not valid JSON');
    // The 429: one call whose request went out twice.
    expect(calls.some((c) => (JSON.parse(c.requestText!) as { requests: unknown[] }).requests.length === 2)).toBe(true);
    // Every other answer is the scripted reply for its step, byte for byte.
    const replies = new Map(expected.map((s) => [s.stepId, JSON.stringify(s.output)]));
    for (const c of calls.filter((c) => c !== broken && c.partKey === null)) expect(c.answerText, c.stepId).toBe(replies.get(c.stepId));
    expect((await sealOf(run.id))[0].detail).toEqual({ calls: calls.length, digest: callsDigest(calls) });
  }, 60_000);

  it('a side longer than the cap is cut with a marker; its length before the cut and the sha256 of what is kept are recorded', () => {
    const long = 'é'.repeat(CALL_SIDE_CAP); // two bytes each: twice the cap
    const packed = packSide(long);
    const kept = unpackSide(packed.gz);
    expect(packed.truncated).toBe(true);
    expect(packed.bytes).toBe(2 * CALL_SIDE_CAP);
    expect(kept.endsWith(CUT_MARKER)).toBe(true);
    expect(kept.startsWith('é'.repeat(CALL_SIDE_CAP / 2))).toBe(true);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(CALL_SIDE_CAP + Buffer.byteLength(CUT_MARKER));
    expect(packed.sha256).toBe(sha(kept));
    // Compressed: far smaller than the text.
    expect(packed.gz.length).toBeLessThan(CALL_SIDE_CAP / 50);
    const short = packSide('{"a":1}');
    expect(short).toMatchObject({ truncated: false, bytes: 7, sha256: sha('{"a":1}') });
  });

  it('an attempt that no longer holds its run keeps nothing', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider, params });
    await db.update(runs).set({ workerId: 'queue/job-a/0' }).where(eq(runs.id, run.id));
    const call = {
      runId: run.id,
      stepId: 'N1',
      partKey: null,
      attempt: 1,
      execution: 'queue/job-b/0',
      provider: 'offline',
      model: 'offline',
      isLlm: false,
      request: {},
      answer: '{}',
      finishReason: null,
      error: null,
      usage: null,
      startedAt: new Date(),
      finishedAt: new Date(),
    };
    await expect(recordRunCall({ db, runId: run.id, workerId: 'queue/job-b/0', call })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await db.select().from(runCalls).where(eq(runCalls.runId, run.id))).toHaveLength(0);
    // The holder's own write goes in, numbered 1, then 2.
    await recordRunCall({ db, runId: run.id, workerId: 'queue/job-a/0', call: { ...call, execution: 'queue/job-a/0' } });
    await recordRunCall({ db, runId: run.id, workerId: 'queue/job-a/0', call: { ...call, execution: 'queue/job-a/0', attempt: 2 } });
    expect((await listRunCalls({ db, runId: run.id })).map((c) => [c.callNo, c.attempt, c.execution])).toEqual([
      [1, 1, 'queue/job-a/0'],
      [2, 2, 'queue/job-a/0'],
    ]);
  });
});
