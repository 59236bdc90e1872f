// The engine taking real models' answers in (docs/protocols.md, "Taking answers in"): a scripted
// provider rewrites the offline analyst's answers the ways real models write them, and the steps
// must succeed with every repair saved — or fail at once, with the reason, when there is nothing
// to take in.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRunSteps } from '@/lib/db/queries/runs';
import { evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import { FACTOR_IDS } from '@/lib/domain/factors';
import { claimsOf } from '@/lib/domain/output-parts';
import type { Report, Turn } from '@/lib/domain/outputs';
import type { StepRepair } from '@/lib/domain/stored';
import { stopReason } from '@/lib/i18n/failures';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { roomFor } from '@/lib/llm/output-caps';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';
import { readEvidence } from '@/lib/pool/as-of';
import { loadRunView } from '@/lib/report/run-view';

const COMPANY = 'samsung-electronics';

/**
 * The offline analyst posing as a model (so it gets the repair attempt and the cut-off retry),
 * each answer passed through `script` with the step's request and the call's number for the step.
 */
function scripted(script: (result: GenerateResult, req: GenerateRequest, call: number) => GenerateResult | Promise<GenerateResult>) {
  const inner = createOfflineAnalyst();
  const requests: GenerateRequest[] = [];
  const provider: ModelProvider = {
    name: inner.name,
    model: inner.model,
    isLLM: true,
    async generate(req) {
      requests.push(req);
      const call = requests.filter((r) => r.step.id === req.step.id).length;
      // The answer's usage is the script's to say: the inner analyst does not meter the run's budget.
      return script(await inner.generate({ ...req, budget: undefined }), req, call);
    },
  };
  return { provider, requests, callsOf: (stepId: string) => requests.filter((r) => r.step.id === stepId) };
}

describe.each(testBackends())('taking answers in, in the engine, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  const stepRow = async (runId: string, stepId: string) => (await listRunSteps({ db, runId })).find((s) => s.stepId === stepId)!;

  it("takes the offline analyst's answers, which follow the schema exactly, with no repair at all, in every protocol", async () => {
    for (const protocolId of ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'] as const) {
      const provider = createOfflineAnalyst();
      const run = await createRun({ db, protocolId, companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'ko' } });
      expect((await executeRun({ db, runId: run.id, provider })).status, protocolId).toBe('succeeded');
      const repaired = (await listRunSteps({ db, runId: run.id })).filter((s) => s.repairs.length).map((s) => `${s.stepId}: ${JSON.stringify(s.repairs)}`);
      expect(repaired, protocolId).toEqual([]);
    }
  }, 60_000);

  // NAS in one call from here on: what a call's answer goes through (a sectioned step's calls go
  // through the same, lib/debate/engine-sections.test.ts).
  it('takes a fenced answer with a preamble, an extra field and dotted dates, and saves every repair on the step', async () => {
    let written = '';
    const { provider } = scripted((result) => {
      const report = JSON.parse(result.raw) as Report & Record<string, unknown>;
      const first = report.topics.find((t) => t.citations.length)!.citations[0];
      written = first.date.replaceAll('-', '.');
      first.date = written;
      report.confidence = 'high';
      return { ...result, raw: `Here is my report.\n\`\`\`json\n${JSON.stringify(report, null, 2)}\n\`\`\`\nI hope it helps.` };
    });
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider, wholeCalls: true });
    expect(result.status, result.error).toBe('succeeded');

    const row = await stepRow(run.id, 'NAS');
    const iso = written.replaceAll('.', '-');
    expect(row.repairs).toEqual<StepRepair[]>([
      {
        kind: 'unwrapped',
        attempt: 1,
        detail:
          'took the JSON out of a ```json code fence; dropped the text before the JSON: “Here is my report.”; dropped the text after the JSON: “I hope it helps.”',
      },
      { kind: 'date-normalised', attempt: 1, detail: `“${written}” → ${iso}` },
      { kind: 'field-dropped', attempt: 1, detail: 'confidence: not a field of this output, dropped' },
    ]);
    const output = row.output as Report;
    expect(output).not.toHaveProperty('confidence');
    expect(output.topics.find((t) => t.citations.length)!.citations[0]).toMatchObject({ date: iso, verified: true });
    // The run view carries them to the step card and the export.
    const view = await loadRunView({ db, runId: run.id });
    expect(view.turns[0].repairs).toEqual(row.repairs);
  });

  it('asks again with more room for an answer cut off at the token limit, and records it', async () => {
    const { provider, callsOf } = scripted((result, _req, call) =>
      call === 1
        ? { ...result, raw: result.raw.slice(0, 200), finishReason: 'length', usage: { promptTokens: 900, completionTokens: 300 } }
        : { ...result, finishReason: 'stop' },
    );
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('succeeded');
    const [first, second] = callsOf('NAS');
    const room = roomFor(provider.model);
    expect(first.maxTokens).toBeUndefined();
    expect(second.maxTokens).toBe(room);
    expect(second.repair).toBeUndefined();
    expect((await stepRow(run.id, 'NAS')).repairs).toEqual([
      { kind: 'truncated-retry', attempt: 1, detail: `cut off at the token limit after 300 tokens; asked again with room for ${room.toLocaleString('en-US')}` },
    ]);
  });

  it("gives a cut-off answer only the room the run's budget leaves", async () => {
    const { provider, callsOf } = scripted((result, _req, call) =>
      call === 1 ? { ...result, raw: result.raw.slice(0, 200), finishReason: 'length', usage: { promptTokens: 900, completionTokens: 300 } } : result,
    );
    // After the cut call (900 + 300) and a prompt like its own (900), 1,000 tokens are left.
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en', maxTokens: 3_100 } });
    await executeRun({ db, runId: run.id, provider, wholeCalls: true });
    expect(callsOf('NAS')[1].maxTokens).toBe(1_000);
  });

  it('asks for a shorter answer when a cut-off answer already had all the room there is, and fails a second cut with the reason', async () => {
    const cap = roomFor(createOfflineAnalyst().model);
    const shorter = scripted((result, _req, call) =>
      call === 1 ? { ...result, raw: result.raw.slice(0, 200), finishReason: 'length', usage: { promptTokens: 900, completionTokens: cap } } : result,
    );
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider: shorter.provider, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: run.id, provider: shorter.provider, wholeCalls: true })).status).toBe('succeeded');
    const second = shorter.callsOf('NAS')[1];
    expect(second.maxTokens).toBeUndefined();
    expect(second.repair?.previous).toHaveLength(200);
    expect(second.repair?.problems).toEqual([
      `the answer was cut off at the token limit (${cap.toLocaleString('en-US')} tokens) and there is no more room: give the whole answer again, shorter`,
    ]);
    expect((await stepRow(run.id, 'NAS')).repairs.map((r) => [r.kind, r.attempt])).toEqual([['repair-request', 1]]);

    const always = scripted((result) => ({
      ...result,
      raw: result.raw.slice(0, 200),
      finishReason: 'length',
      usage: { promptTokens: 900, completionTokens: 300 },
    }));
    const cut = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider: always.provider, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: cut.id, provider: always.provider, wholeCalls: true })).status).toBe('failed');
    expect(always.callsOf('NAS')).toHaveLength(2);
    expect(await stepRow(cut.id, 'NAS')).toMatchObject({ status: 'failed', error: stopReason('cutOff', { tokens: '300' }) });
    // The failed step keeps what was asked on the way, for the reviewer: the retry with more room.
    expect((await stepRow(cut.id, 'NAS')).repairs.map((r) => [r.kind, r.attempt])).toEqual([['truncated-retry', 1]]);
    expect((await loadRunView({ db, runId: cut.id })).turns[0].repairs).toEqual((await stepRow(cut.id, 'NAS')).repairs);

    const atCap = scripted((result) => ({
      ...result,
      raw: result.raw.slice(0, 200),
      finishReason: 'length',
      usage: { promptTokens: 900, completionTokens: cap },
    }));
    const short = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider: atCap.provider, params: { asOf: '2025-06-30', language: 'en' } });
    expect((await executeRun({ db, runId: short.id, provider: atCap.provider, wholeCalls: true })).status).toBe('failed');
    expect(await stepRow(short.id, 'NAS')).toMatchObject({
      status: 'failed',
      error: `The answer was cut off at the token limit (${cap.toLocaleString('en-US')} tokens), also when asked again for a shorter answer.`,
    });
  });

  it('asks again once after an empty answer or a refusal, and fails the step with that reason when it repeats', async () => {
    for (const [answer, error] of [
      [{ raw: '  ' }, 'The model returned an empty answer.'],
      [{ raw: '', refusal: 'I cannot assist with that request.' }, 'The model declined to answer: “I cannot assist with that request.”'],
      [{ raw: '죄송하지만 이 요청은 도와드릴 수 없습니다.' }, 'The model declined to answer: “죄송하지만 이 요청은 도와드릴 수 없습니다.”'],
    ] as const) {
      const { provider, callsOf } = scripted((result) => ({ ...result, ...answer }));
      const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
      expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('failed');
      expect(callsOf('NAS')).toHaveLength(2);
      // Asked again plainly: no repair request with the empty answer in it.
      expect(callsOf('NAS')[1].repair).toBeUndefined();
      expect(await stepRow(run.id, 'NAS')).toMatchObject({ status: 'failed', error });
      expect((await stepRow(run.id, 'NAS')).repairs.map((r) => [r.kind, r.attempt])).toEqual([['repair-request', 1]]);
    }
  });

  it('takes the second answer when only the first was empty or refused, and records that it asked again', async () => {
    for (const [answer, detail] of [
      [{ raw: '' }, 'the answer was empty; asked again once'],
      [{ raw: '', refusal: 'I cannot help with that.' }, 'the model declined; asked again once'],
    ] as const) {
      const { provider, callsOf } = scripted((result, _req, call) => (call === 1 ? { ...result, ...answer } : result));
      const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
      expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('succeeded');
      expect(callsOf('NAS')).toHaveLength(2);
      expect((await stepRow(run.id, 'NAS')).repairs).toEqual([{ kind: 'repair-request', attempt: 1, detail }]);
    }
  });

  it('verifies citations only against what the step was shown: a pool item of the other side stays unverified, a dated-after-as-of one supports nothing', async () => {
    // An as-of date inside the pool's history, so some items are published after it.
    const dates = (
      await db.select({ id: evidenceItems.id, publishedDate: evidenceItems.publishedDate }).from(evidenceItems).where(eq(evidenceItems.companyId, COMPANY))
    ).sort((a, b) => a.publishedDate.localeCompare(b.publishedDate));
    const asOf = dates[Math.floor(dates.length * 0.8)].publishedDate;
    const late = dates.find((d) => d.publishedDate > asOf)!;
    const pool = await readEvidence({ db, companyId: COMPANY, asOf, recencyDays: 3650 });
    let unshown = '';
    const { provider } = scripted((result, req) => {
      if (req.step.id !== 'D1') return result;
      const shown = new Set(req.evidence.map((e) => e.id));
      const other = pool.find((e) => !shown.has(e.id))!;
      unshown = other.id;
      const turn = JSON.parse(result.raw) as Turn;
      turn.claims[0].citations.push(
        { evidenceId: other.id, source: other.sourceName, date: other.publishedDate },
        { evidenceId: late.id, source: 'DART', date: late.publishedDate },
      );
      return { ...result, raw: JSON.stringify(turn) };
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: COMPANY, provider, params: { asOf, recencyDays: 3650, language: 'ko' } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status, result.error).toBe('succeeded');

    const d1 = await stepRow(run.id, 'D1');
    const cited = (d1.output as Turn).claims[0].citations as (Turn['claims'][number]['citations'][number] & { verified: boolean; afterAsOf?: boolean })[];
    expect(cited.find((c) => c.evidenceId === unshown)).toMatchObject({ verified: false });
    expect(cited.find((c) => c.evidenceId === unshown)).not.toHaveProperty('afterAsOf');
    expect(cited.find((c) => c.evidenceId === late.id)).toMatchObject({ verified: false, afterAsOf: true });
    // The offline analyst's own citation is still support.
    expect(cited[0].verified).toBe(true);
    expect(d1.repairs.map((r) => r.kind).sort()).toEqual(['citation-after-as-of', 'citation-unverified', 'citation-unverified']);
    expect(d1.repairs.find((r) => r.detail.startsWith(unshown))?.detail).toBe(`${unshown} is in the pool but was not shown to this step`);

    const view = await loadRunView({ db, runId: run.id });
    const checks = Object.fromEntries(view.report!.checks.map((c) => [c.id, c]));
    // Later turns that copy D1's citation are flagged the same way: they too were never shown the item.
    expect(checks['after-as-of'].ok).toBe(false);
    expect(checks['after-as-of'].items).toContain(`D1: ${late.id} ${late.publishedDate}`);
    expect(checks['unverified-citations'].items).toContain(`D1: ${unshown}`);
  });

  it('takes out of a closing the new evidence it still cites after its repair, records each, and the run goes on', async () => {
    const invented = { evidenceId: `${COMPANY}-9288`, source: 'Maeil Business Newspaper', date: '2025-01-14' };
    // D9 cites an item no turn cited in its answer and again in its repair; D10 only in its first answer.
    const { provider, callsOf } = scripted((result, req, call) => {
      if (!(req.step.id === 'D9' || (req.step.id === 'D10' && call === 1))) return result;
      const turn = JSON.parse(result.raw) as Turn;
      turn.claims[0].citations.push({ ...invented });
      return { ...result, raw: JSON.stringify(turn) };
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status, result.error).toBe('succeeded');
    expect(callsOf('D9')).toHaveLength(2);
    expect(callsOf('D10')).toHaveLength(2);
    expect(callsOf('D9')[1].repair?.problems.join(' ')).toContain(`a closing brings no new evidence; new: ${invented.evidenceId}.`);

    const d9 = await stepRow(run.id, 'D9');
    const ids = (d9.output as Turn).claims.flatMap((c) => c.citations.map((x) => x.evidenceId));
    expect(ids).not.toContain(invented.evidenceId);
    // What the offline analyst cited stays: only the new citation went.
    expect(ids.length).toBeGreaterThan(0);
    const dropped = d9.repairs.filter((r) => r.kind === 'citation-dropped');
    expect(dropped).toEqual([
      {
        kind: 'citation-dropped',
        attempt: 2,
        detail: `${invented.evidenceId} (${invented.source}, ${invented.date}) taken out: the turns this step answers do not cite it, and it may bring no new evidence`,
      },
    ]);
    expect(d9.repairs.map((r) => r.kind)).toContain('repair-request');
    // A closing that got it right on its repair has nothing taken out.
    const d10 = await stepRow(run.id, 'D10');
    expect(d10.repairs.map((r) => r.kind)).toEqual(['repair-request']);
  });

  it('still fails a closing that brings a new factor after its repair, with the reason', async () => {
    let fresh = '';
    const { provider } = scripted((result, req) => {
      if (req.step.id !== 'D9') return result;
      // A factor none of the turns it closes used.
      const used = new Set(req.context.flatMap((t) => claimsOf(t.output).map((c) => c.factor)));
      fresh = FACTOR_IDS.find((f) => !used.has(f))!;
      const turn = JSON.parse(result.raw) as Turn;
      turn.claims[0].factor = fresh;
      return { ...result, raw: JSON.stringify(turn) };
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: COMPANY, provider, params: { asOf: '2025-06-30', language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status).toBe('failed');
    const d9 = await stepRow(run.id, 'D9');
    expect(d9.status).toBe('failed');
    expect(d9.error).toBe(`The output did not meet the step's rules after one repair: a closing brings no new factors; new: ${fresh}.`);
  });
});
