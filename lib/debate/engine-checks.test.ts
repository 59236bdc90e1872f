// Checks that do not take the model's word (docs/protocols.md), in the engine, for any provider:
// a scripted provider (the offline analyst posing as a model) answers as a careless model would,
// and the engine must correct FinDebate's safety check and the rubric judge's arithmetic, send a
// short round 1 or an incomplete round 2 back once, and run the judge cold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { companies as companiesTable } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, DEFAULT_JUDGE_TEMPERATURE, executeRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import type { StepOutput, StoredSafetyCheck } from '@/lib/domain/outputs';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';
import { loadRunView } from '@/lib/report/run-view';

const COMPANY = 'samsung-electronics';
const AS_OF = '2025-06-30';

type Draft = StepOutput<'stanceDraft'>;
// The safety checker answers with a decision and edits; the engine stores it with the kept version.
type Answer = StepOutput<'safetyCheck'>;
type Safety = StoredSafetyCheck;
type Judgment = StepOutput<'rubricJudgment'>;

function scripted(script: (result: GenerateResult, req: GenerateRequest, call: number) => GenerateResult) {
  const inner = createOfflineAnalyst();
  const requests: GenerateRequest[] = [];
  const provider: ModelProvider = {
    name: inner.name,
    model: inner.model,
    isLLM: true,
    async generate(req) {
      requests.push(req);
      const call = requests.filter((r) => r.step.id === req.step.id).length;
      return script(await inner.generate({ ...req, budget: undefined }), req, call);
    },
  };
  return { provider, requests, callsOf: (stepId: string) => requests.filter((r) => r.step.id === stepId) };
}

const rewrite = <T>(result: GenerateResult, change: (out: T) => T): GenerateResult => ({ ...result, raw: JSON.stringify(change(JSON.parse(result.raw) as T)) });
const contextOutput = <T>(req: GenerateRequest, role: string) =>
  req.context.find((t) => req.protocol.steps.find((s) => s.id === t.stepId)?.role === role)?.output as T;
const flip = (s: Draft['stance']): Draft['stance'] => (s === 'adverse' ? 'favorable' : 'adverse');
// The repairs the engine's own checks record (the others are about taking the answer in).
const ENGINE = ['draft-restored', 'safety-corrected', 'scores-recomputed'];
const decided = <R extends { kind: string }>(repairs: R[]) => repairs.filter((r) => ENGINE.includes(r.kind));

describe.each(testBackends())("checks that do not take the model's word, on %s", (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  const stepRow = async (runId: string, stepId: string) => (await listRunSteps({ db, runId })).find((s) => s.stepId === stepId)!;

  it('the offline analyst meets every check on every demo company: three-round and FinDebate succeed with nothing re-asked or corrected', async () => {
    const companies = (await db.select({ id: companiesTable.id }).from(companiesTable)).map((c) => c.id).sort();
    const ran: string[] = [];
    for (const companyId of companies) {
      for (const protocolId of ['three-round', 'findebate'] as const) {
        const provider = createOfflineAnalyst();
        const run = await createRun({ db, protocolId, companyId, provider, params: { asOf: AS_OF, language: companyId === 'tesla' ? 'en' : 'ko' } });
        const result = await executeRun({ db, runId: run.id, provider });
        // A pool too thin to debate ends before any step (lib/debate/sufficiency.ts), with a
        // red-flag screening when it holds decisive red flags.
        if (result.status === 'insufficient_evidence' || result.status === 'red_flag_screening') continue;
        expect(result.status, `${companyId} ${protocolId}: ${result.error}`).toBe('succeeded');
        const corrected = (await listRunSteps({ db, runId: run.id })).flatMap((r) => decided(r.repairs).map((x) => `${r.stepId}: ${x.detail}`));
        expect(corrected, `${companyId} ${protocolId}`).toEqual([]);
        ran.push(`${companyId}/${protocolId}`);
      }
    }
    // Every demo company whose pool is enough to debate at this date, both protocols.
    expect(ran).toEqual(expect.arrayContaining(['samsung-electronics/three-round', 'samsung-electronics/findebate', 'tesla/three-round', 'tesla/findebate']));
    expect(ran.length).toBeGreaterThanOrEqual(6);
  }, 240_000);

  it('FinDebate: a leader that flips the stance and a safety checker that calls it safe → the engine keeps the draft and says why', async () => {
    const { provider } = scripted((result, req) => {
      // The leader overturns the draft's stance and every horizon's outlook (the draft's, not its
      // own merge's: the debate may already have moved those)...
      if (req.step.role === 'leader') {
        const draft = contextOutput<Draft>(req, 'draft-writer');
        return rewrite<Draft>(result, (d) => ({ ...d, stance: flip(draft.stance), horizons: draft.horizons.map((h) => ({ ...h, outlook: flip(h.outlook) })) }));
      }
      // ...and the safety checker, taking the leader's word, calls nothing changed.
      if (req.step.role === 'safety-checker') {
        const leader = contextOutput<Draft>(req, 'leader');
        const answer: Answer = {
          reason: 'Stance and horizons are unchanged; the leader’s version is kept.',
          stanceChanged: false,
          horizonsChanged: false,
          kept: 'final',
          edits: [{ claimId: leader.claims[0].id, wording: 'Reworded.' }],
        };
        return { ...result, raw: JSON.stringify(answer) };
      }
      return result;
    });
    const run = await createRun({ db, protocolId: 'findebate', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status, result.error).toBe('succeeded');

    const draft = (await stepRow(run.id, 'DRAFT')).output as Draft;
    const leader = (await stepRow(run.id, 'LEADER')).output as Draft;
    expect(leader.stance).toBe(flip(draft.stance));
    const safety = await stepRow(run.id, 'SAFETY');
    const check = safety.output as unknown as Safety;
    expect(check).toMatchObject({ stanceChanged: true, horizonsChanged: true, kept: 'draft' });
    expect(check.report.stance).toBe(draft.stance);
    expect(check.report.horizons).toEqual(draft.horizons);
    // The kept version is the draft as written: the edit to the leader's claim did not apply.
    expect(check.report.claims.map((c) => c.text)).toEqual(draft.claims.map((c) => c.text));
    expect(check.reason).toBe(
      `Checked by the engine, not taken from the safety checker: the leader’s version moved the stance from ${draft.stance} to ${leader.stance} and it changed the outlook of the horizons (${draft.horizons
        .map((h) => `${{ '12m': '12 months', '24m': '2 years', '36m': '3 years' }[h.horizon]}: ${h.outlook} → ${flip(h.outlook)}`)
        .join('; ')}). The draft is kept, because one bounded debate round may strengthen or qualify a view but not overturn it.`,
    );
    expect(safety.text).toBe(check.reason);
    expect(decided(safety.repairs).map((r) => r.kind)).toEqual(['draft-restored']);
    expect(decided(safety.repairs)[0].detail).toBe(
      `the draft (stance ${draft.stance}) is kept because the leader moved the stance from ${draft.stance} to ${leader.stance}, and the leader changed horizon outlooks (${draft.horizons
        .map((h) => `${h.horizon}: ${h.outlook} → ${flip(h.outlook)}`)
        .join(
          '; ',
        )}); the safety checker answered stanceChanged false, horizonsChanged false, kept final; 1 edit set aside (${leader.claims[0].id}): they reword the version that is not kept`,
    );
    // The report the committee reads is the corrected one.
    const view = await loadRunView({ db, runId: run.id });
    expect((view.report!.content as unknown as Safety).kept).toBe('draft');
    expect((view.report!.content as unknown as Safety).report.stance).toBe(draft.stance);
  }, 60_000);

  it('FinDebate: a debate round that recommended nothing leaves the draft, whatever the safety checker says', async () => {
    const { provider } = scripted((result, req) => {
      if (req.step.act === 'debate') return { ...result, raw: JSON.stringify({ text: 'Nothing to add to the draft.', claims: [], questions: [] }) };
      if (req.step.role === 'safety-checker') {
        const leader = contextOutput<Draft>(req, 'leader');
        // An older-style answer that copies the version out: the copy is not the answer's to give
        // (the schema drops it), and the engine assembles the kept version itself.
        return {
          ...result,
          raw: JSON.stringify({
            reason: 'Unchanged; the final version is kept.',
            stanceChanged: false,
            horizonsChanged: false,
            kept: 'final',
            edits: [],
            report: leader,
          }),
        };
      }
      return result;
    });
    const run = await createRun({ db, protocolId: 'findebate', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'ko' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const draft = (await stepRow(run.id, 'DRAFT')).output as Draft;
    const safety = await stepRow(run.id, 'SAFETY');
    const check = safety.output as unknown as Safety;
    expect(check).toMatchObject({ stanceChanged: false, horizonsChanged: false, kept: 'draft' });
    expect(check.report).toEqual(draft);
    // In the run's language: Korean.
    expect(check.reason).toBe(
      '안전 점검 에이전트의 답이 아니라 엔진이 직접 확인한 결과: 신뢰 에이전트와 회의론자가 아무 제안도 하지 않아 토론이 더한 것이 없으므로 초안을 유지한다.',
    );
    expect(decided(safety.repairs).map((r) => r.kind)).toEqual(['draft-restored']);
    expect(decided(safety.repairs)[0].detail).toMatch(
      /^the draft \(stance \w+\) is kept because the trust agent and the skeptic made no point between them \(no recommendations\); the safety checker answered stanceChanged false, horizonsChanged false, kept final$/,
    );
  }, 60_000);

  it('FinDebate: the skeptic runs after the trust agent and receives its turn; the safety checker receives the debate', async () => {
    const { provider, callsOf } = scripted((result) => result);
    const run = await createRun({ db, protocolId: 'findebate', companyId: COMPANY, provider, mode: 'dag', params: { asOf: AS_OF, language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const [skeptic] = callsOf('SKEPTIC');
    expect(skeptic.context.map((t) => t.stepId)).toEqual(['DRAFT', 'TRUST']);
    expect(callsOf('SAFETY')[0].context.map((t) => t.stepId)).toEqual(['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER']);
    const rows = await listRunSteps({ db, runId: run.id });
    const at = (id: string) => rows.find((r) => r.stepId === id)!;
    expect(at('SKEPTIC').startedAt!.getTime()).toBeGreaterThanOrEqual(at('TRUST').finishedAt!.getTime());
  }, 60_000);

  it('three-round: a judge that adds wrongly and sums the sides → weighted scores recomputed, side totals averaged', async () => {
    const { provider } = scripted((result, req) =>
      req.step.role === 'judge'
        ? rewrite<Judgment>(result, (j) => {
            // Every weighted score off by one, and the totals as sums of those.
            const scores = j.scores.map((s) => ({ ...s, weighted: Math.round((s.weighted + 1) * 100) / 100 }));
            const sum = (p: string) => scores.filter((s) => s.argumentId.startsWith(p)).reduce((n, s) => n + s.weighted, 0);
            return { ...j, scores, overall: { ...j.overall, affirmativeTotal: sum('R1-A-'), negativeTotal: sum('R1-N-') } };
          })
        : result,
    );
    const run = await createRun({ db, protocolId: 'three-round', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const judge = await stepRow(run.id, 'JUDGE');
    const j = judge.output as Judgment;
    for (const s of j.scores) expect(s.weighted).toBe(Math.round((0.3 * s.logic + 0.3 * s.evidence + 0.25 * s.responsiveness + 0.15 * s.honesty) * 100) / 100);
    const mean = (p: string) => {
      const w = j.scores.filter((s) => s.argumentId.startsWith(p)).map((s) => s.weighted);
      return Math.round((w.reduce((n, x) => n + x, 0) / w.length) * 100) / 100;
    };
    expect(j.overall.affirmativeTotal).toBe(mean('R1-A-'));
    expect(j.overall.negativeTotal).toBe(mean('R1-N-'));
    expect(j.overall.affirmativeTotal).toBeLessThanOrEqual(10);
    expect(judge.repairs.map((r) => r.kind)).toEqual(['scores-recomputed']);
    const first = j.scores[0];
    expect(judge.repairs[0].detail).toContain(`${first.argumentId} weighted ${Math.round((first.weighted + 1) * 100) / 100} → ${first.weighted}`);
    expect(judge.repairs[0].detail).toContain(`→ ${j.overall.affirmativeTotal} (the average of its weighted scores)`);
    const view = await loadRunView({ db, runId: run.id });
    expect((view.report!.content as Judgment).overall.negativeTotal).toBe(mean('R1-N-'));
  }, 60_000);

  it('three-round: a round 1 of two arguments is sent back once with the rule, and the second answer taken', async () => {
    const { provider, callsOf } = scripted((result, req, call) =>
      req.step.id === 'R1-A' && call === 1 ? rewrite<StepOutput<'argumentsRound'>>(result, (r) => ({ ...r, arguments: r.arguments.slice(0, 2) })) : result,
    );
    const run = await createRun({ db, protocolId: 'three-round', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    const calls = callsOf('R1-A');
    expect(calls).toHaveLength(2);
    expect(calls[1].repair!.problems).toEqual(['give 3 to 5 numbered arguments; got 2.']);
    const row = await stepRow(run.id, 'R1-A');
    expect((row.output as StepOutput<'argumentsRound'>).arguments.length).toBeGreaterThanOrEqual(3);
    expect(row.repairs.map((r) => r.kind)).toEqual(['repair-request']);
  }, 60_000);

  it('three-round: an argument without evidence twice over fails the step with the reason', async () => {
    const { provider, callsOf } = scripted((result, req) =>
      req.step.id === 'R1-N'
        ? rewrite<StepOutput<'argumentsRound'>>(result, (r) => ({ ...r, arguments: r.arguments.map((a, i) => (i === 0 ? { ...a, evidence: [] } : a)) }))
        : result,
    );
    const run = await createRun({ db, protocolId: 'three-round', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status).toBe('failed');
    expect(callsOf('R1-N')).toHaveLength(2);
    const row = await stepRow(run.id, 'R1-N');
    expect(row.status).toBe('failed');
    expect(row.error).toContain('every argument needs evidence dated on or before the as-of date; these have none: R1-N-1.');
  }, 60_000);

  it('three-round: a round 2 that leaves an argument unanswered is sent back once', async () => {
    let dropped = '';
    const { provider, callsOf } = scripted((result, req, call) =>
      req.step.id === 'R2-N' && call === 1
        ? rewrite<StepOutput<'responsesRound'>>(result, (r) => {
            dropped = r.responses.at(-1)!.targetId;
            return { ...r, responses: r.responses.slice(0, -1) };
          })
        : result,
    );
    const run = await createRun({ db, protocolId: 'three-round', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
    expect(callsOf('R2-N')[1].repair!.problems).toEqual([`every argument of R1-A must be answered; these are not: ${dropped}.`]);
    const r1a = (await stepRow(run.id, 'R1-A')).output as StepOutput<'argumentsRound'>;
    const r2n = (await stepRow(run.id, 'R2-N')).output as StepOutput<'responsesRound'>;
    expect(r2n.responses.map((r) => r.targetId)).toEqual(r1a.arguments.map((a) => a.id));
  }, 60_000);

  it("runs the judge at a low temperature by default, or at the run's judge temperature, and every other step at the run's", async () => {
    for (const [params, judge] of [
      [{ temperature: 0.7 }, DEFAULT_JUDGE_TEMPERATURE],
      [{ temperature: 0.7, judgeTemperature: 0 }, 0],
    ] as const) {
      const { provider, requests } = scripted((result) => result);
      const run = await createRun({ db, protocolId: 'three-round', companyId: COMPANY, provider, params: { asOf: AS_OF, language: 'en', ...params } });
      expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');
      const temps = Object.fromEntries(requests.map((r) => [r.step.id, r.params.temperature]));
      expect(temps).toEqual({ 'R1-A': 0.7, 'R1-N': 0.7, 'R2-A': 0.7, 'R2-N': 0.7, 'R3-A': 0.7, 'R3-N': 0.7, JUDGE: judge });
    }
    expect(DEFAULT_JUDGE_TEMPERATURE).toBe(0.2);
  }, 60_000);
});
