// The workspace's judge logic on real offline runs and the fake OpenAI-compatible server: a
// valid verdict is stored with its audit entry and listed from either side; a refusal or an
// invalid answer stores nothing and says why.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { listAuditEntries, verifyAuditChain } from '@/lib/db/queries/audit';
import { listPairwiseJudgments, listRubricJudgments, recordRubricJudgment } from '@/lib/db/queries/judgments';
import { judgments, runs, users } from '@/lib/db/schema';
import type { RunView } from '@/lib/report/run-view';
import { runPairwise, runRubric, RUN_ACTIVE } from '@/lib/eval/judge-actions';
import { NEEDS_MODEL } from '@/lib/eval/judges';
import { AppError } from '@/lib/errors';
import { sayText } from '@/lib/i18n';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import type { ModelProvider } from '@/lib/llm/types';
import { startFakeLlm, type ChatRequest, type FakeLlm } from '../../scripts/fake-llm/server';
import { conversationText } from '../../scripts/fake-llm/reply';
import { offlineRun, seededDatabase } from './test-runs';

let handle: DatabaseHandle;
let nas: RunView;
let three: RunView;
let fake: FakeLlm;
let judge: ModelProvider;
let userId: string;

const stored = async () => (await handle.db.select().from(judgments)).length;

function scoreAll(req: ChatRequest) {
  const ids = [...conversationText(req).matchAll(/^- \[([^\]]+)\] \(/gm)].map((m) => m[1]);
  return {
    scores: ids.map((argumentId) => ({ argumentId, logic: 8, evidence: 6, responsiveness: 5, honesty: 9, weighted: 1 })),
    fallacies: [{ argumentId: ids[0], fallacy: 'straw_man', explanation: 'Attacks a weaker version.' }],
    trace: ids.map((argumentId, i) => ({ argumentId, standing: i % 2 ? 'REFUTED' : 'UPHELD', note: 'n' })),
    overall: { affirmativeTotal: 0, negativeTotal: 0, keyInsight: 'Cash covers the debt.', unresolved: ['Capex'], recommendation: 'Approve.' },
  };
}

beforeAll(async () => {
  handle = await seededDatabase('pglite');
  const params = { asOf: '2025-06-30', language: 'en' as const };
  nas = await offlineRun(handle, { protocol: 'nas', companyId: 'tesla', params });
  three = await offlineRun(handle, { protocol: 'three-round', companyId: 'tesla', params });
  [{ id: userId }] = await handle.db.insert(users).values({ email: 'judge-rm@example.test', name: 'Judge RM', role: 'rm' }).returning({ id: users.id });
  fake = await startFakeLlm();
  judge = createOpenAiProvider({ baseURL: fake.url, model: 'judge-model', maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await handle?.close();
});
beforeEach(() => fake.setScript([]));

describe('pairwise judgment', () => {
  it('stores a valid verdict with its audit entry and lists it from either side', async () => {
    // The judge always prefers the report shown second: a split, which the page must show as such.
    fake.setScript([{ match: 'Report A', reply: { winner: 'B', reason: 'Second is better sourced.' } }]);
    const { id, result } = await runPairwise({ db: handle.db, provider: judge, a: three.id, b: nas.id, userId });
    expect(result).toMatchObject({ wins: { a: 1, b: 1 }, winRate: { a: 0.5, b: 0.5 }, consistent: false });

    const [row] = await handle.db.select().from(judgments).where(eq(judgments.id, id));
    expect(row).toMatchObject({ kind: 'pairwise', runId: three.id, otherRunId: nas.id, provider: 'openai', model: 'judge-model', createdById: userId });
    const { rows: audit } = await listAuditEntries({ db: handle.db, filters: { action: 'judge.pairwise' } });
    expect(audit.map((e) => [e.entityId, e.detail])).toEqual([[id, { runIds: [three.id, nas.id], provider: 'openai', model: 'judge-model' }]]);
    expect((await verifyAuditChain({ db: handle.db })).ok).toBe(true);

    const fromA = await listPairwiseJudgments({ db: handle.db, a: three.id, b: nas.id });
    expect(fromA.map((j) => [j.id, j.createdByName, j.result.comparisons.map((c) => [c.order, c.label, c.winner])])).toEqual([
      [
        id,
        'Judge RM',
        [
          ['a-first', 'B', 'b'],
          ['b-first', 'B', 'a'],
        ],
      ],
    ]);
    // Seen from the other run, the same verdicts with the sides exchanged.
    const fromB = await listPairwiseJudgments({ db: handle.db, a: nas.id, b: three.id });
    expect(fromB[0].result.comparisons.map((c) => [c.order, c.label, c.winner])).toEqual([
      ['a-first', 'B', 'b'],
      ['b-first', 'B', 'a'],
    ]);
  });

  it('keeps the counts straight when one side won both orders, seen from either side', async () => {
    // A judge that prefers the longer report, wherever it stands: one run wins both orders.
    const block = (text: string, tag: string) => text.split(`<${tag}>`)[1]?.split(`</${tag}>`)[0] ?? '';
    fake.setScript([
      {
        match: 'Report A',
        reply: (req) => ({
          winner: block(conversationText(req), 'report-a').length > block(conversationText(req), 'report-b').length ? 'A' : 'B',
          reason: 'r',
        }),
      },
    ]);
    const { result } = await runPairwise({ db: handle.db, provider: judge, a: three.id, b: nas.id, userId });
    expect(result.consistent).toBe(true);
    expect(Math.max(result.wins.a, result.wins.b)).toBe(2);
    const [latest] = await listPairwiseJudgments({ db: handle.db, a: nas.id, b: three.id });
    const [latestA] = await listPairwiseJudgments({ db: handle.db, a: three.id, b: nas.id });
    expect(latest.result.wins).toEqual({ a: latestA.result.wins.b, b: latestA.result.wins.a });
    expect(latest.result.winRate).toEqual({ a: latestA.result.winRate.b, b: latestA.result.winRate.a });
  });

  it('stores nothing when the judge answers invalid JSON twice, and says so', async () => {
    const before = await stored();
    fake.setScript([{ match: 'Report A', reply: 'A, clearly.' }]);
    const err = await runPairwise({ db: handle.db, provider: judge, a: three.id, b: nas.id, userId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^The judge's answer was not valid after one repair: The answer is not valid JSON/),
    });
    expect(await stored()).toBe(before);
  });

  it('refuses the offline analyst and a run that is still going, without storing', async () => {
    const before = await stored();
    await expect(runPairwise({ db: handle.db, provider: createOfflineAnalyst(), a: three.id, b: nas.id, userId })).rejects.toMatchObject({
      code: 'unavailable',
      message: NEEDS_MODEL,
    });
    await handle.db.update(runs).set({ status: 'running' }).where(eq(runs.id, nas.id));
    try {
      await expect(runPairwise({ db: handle.db, provider: judge, a: three.id, b: nas.id, userId })).rejects.toMatchObject({
        code: 'conflict',
        message: sayText(RUN_ACTIVE),
        said: RUN_ACTIVE,
      });
    } finally {
      await handle.db.update(runs).set({ status: 'succeeded' }).where(eq(runs.id, nas.id));
    }
    expect(await stored()).toBe(before);
  });
});

describe('rubric judgment', () => {
  it("stores a valid judgment of every argument, with the judge's arithmetic replaced", async () => {
    fake.setScript([{ match: 'Debate transcript', reply: scoreAll }]);
    const { id, result } = await runRubric({ db: handle.db, provider: judge, runId: three.id, userId });
    expect(result.judgment.scores.length).toBe(result.arguments.length);
    expect(result.judgment.scores[0].weighted).toBe(6.8); // 2.4 + 1.8 + 1.25 + 1.35

    const listed = await listRubricJudgments({ db: handle.db, runId: three.id });
    expect(listed[0]).toMatchObject({ id, model: 'judge-model', createdByName: 'Judge RM' });
    expect(listed[0].result.judgment.overall.keyInsight).toBe('Cash covers the debt.');
    expect(await listRubricJudgments({ db: handle.db, runId: nas.id })).toEqual([]);
    const { rows: audit } = await listAuditEntries({ db: handle.db, filters: { action: 'judge.rubric' } });
    expect(audit.map((e) => e.entityId)).toEqual([id]);
  });

  it('stores nothing when the judge skips arguments twice, and names them', async () => {
    const before = await stored();
    fake.setScript([{ match: 'Debate transcript', reply: (req) => ({ ...scoreAll(req), scores: [] }) }]);
    await expect(runRubric({ db: handle.db, provider: judge, runId: three.id, userId })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/score every argument; missing R1-A-1/),
    });
    expect(await stored()).toBe(before);
  });

  it('rejects a rubric row with a second run (the table keeps kinds and run counts consistent)', async () => {
    const bad = handle.db
      .insert(judgments)
      .values({ kind: 'rubric', runId: three.id, otherRunId: nas.id, result: {} as never, provider: 'openai', model: 'm', createdById: userId });
    await expect(bad).rejects.toThrow();
    const pairWithItself = handle.db
      .insert(judgments)
      .values({ kind: 'pairwise', runId: three.id, otherRunId: three.id, result: {} as never, provider: 'openai', model: 'm', createdById: userId });
    await expect(pairWithItself).rejects.toThrow();
    // The query helper is the only writer the app uses; it writes the audit entry too.
    await recordRubricJudgment({
      db: handle.db,
      runId: nas.id,
      result: { judgment: {}, arguments: [], usage: {} } as never,
      provider: 'openai',
      model: 'm',
      createdById: userId,
    });
    expect((await listRubricJudgments({ db: handle.db, runId: nas.id })).length).toBe(1);
  });
});

describe('messages', () => {
  it("the judges' refusals are phrases of the judges table: English in the message, the reader's language on screen", async () => {
    const { judgesMessages } = await import('@/lib/i18n/messages/judges');
    const { asAppError } = await import('@/lib/eval/judge-actions');
    const { JudgeError } = await import('@/lib/eval/judges');
    const { say } = await import('@/lib/i18n');
    const caught = (err: unknown) => {
      try {
        asAppError(err);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('asAppError returned');
    };
    expect(judgesMessages.en.errNeedsModel).toBe(NEEDS_MODEL);
    const invalid = caught(new JudgeError(say(judgesMessages, 'errInvalid', { problems: 'The answer is not valid JSON.' })));
    expect(invalid.code).toBe('unavailable');
    expect(invalid.message).toBe("The judge's answer was not valid after one repair: The answer is not valid JSON.");
    expect(sayText(invalid.said!, 'ko')).toBe('평가 모델의 응답이 한 번 보정한 뒤에도 유효하지 않습니다: The answer is not valid JSON.');
    const borrowers = caught(new JudgeError(say(judgesMessages, 'errBorrowers', { a: 'acme', b: 'tesla' })));
    expect(borrowers.code).toBe('bad_request');
    expect(borrowers.message).toBe('The runs analyse different borrowers (acme, tesla); compare runs on the same borrower.');
    expect(sayText(borrowers.said!, 'ko')).toContain('acme');
    expect(sayText(borrowers.said!, 'ko')).not.toBe(borrowers.message);
  });
});
