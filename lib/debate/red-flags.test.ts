// Red flags end to end on the demo pool (docs/protocols.md, "Red flags"): found at run start,
// kept on the run, handed to every step in the prompt's header and the provider's request, and
// addressed by each system's final step on the offline analyst, so the report's check passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getReport, getRun } from '@/lib/db/queries/runs';
import { testBackends } from '@/lib/db/test-db';
import { finalChecks } from '@/lib/debate/checks';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import type { ProtocolId, RunEvent } from '@/lib/domain/protocol';
import { claimsOf } from '@/lib/domain/output-parts';
import { buildOutput, createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';
import { AS_OF, openReportTestDb } from '@/lib/report/test-runs';
import { SAMSUNG_FLAGS } from '@/lib/pool/red-flags.fixtures';

const PROTOCOLS: ProtocolId[] = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'];

/** The offline analyst, keeping every request it was sent. */
function recording(): ModelProvider & { requests: GenerateRequest[] } {
  const inner = createOfflineAnalyst();
  const requests: GenerateRequest[] = [];
  return {
    name: inner.name,
    model: inner.model,
    isLLM: inner.isLLM,
    requests,
    generate: (request) => {
      requests.push(request);
      return inner.generate(request);
    },
  };
}

describe.each(testBackends())('red flags in a run on %s', (backend) => {
  let handle: DatabaseHandle;
  const runs = new Map<string, { runId: string; requests: GenerateRequest[]; started: RunEvent[] }>();

  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const protocolId of PROTOCOLS) {
      for (const language of ['ko', 'en'] as const) {
        const provider = recording();
        const run = await createRun({ db: handle.db, protocolId, companyId: 'samsung-electronics', provider, params: { asOf: AS_OF, language } });
        const started: RunEvent[] = [];
        const { unsubscribe } = runBus().subscribe(run.id, (event) => {
          if (event.type === 'run-started') started.push(event);
        });
        const result = await executeRun({ db: handle.db, runId: run.id, provider });
        unsubscribe();
        expect(result.status, result.error).toBe('succeeded');
        runs.set(`${protocolId}:${language}`, { runId: run.id, requests: provider.requests, started });
      }
    }
  }, 240_000);
  afterAll(() => handle?.close());

  it('keeps the flags found at the as-of date on the run, newest first, and announces them as the run starts', async () => {
    for (const [key, { runId, started }] of runs) {
      const run = await getRun({ db: handle.db, id: runId });
      expect(run.redFlags, key).toEqual(SAMSUNG_FLAGS);
      expect(
        started.map((e) => (e.type === 'run-started' ? e.redFlags : undefined)),
        key,
      ).toEqual([SAMSUNG_FLAGS]);
    }
  });

  it('hands every step the same flags, with the source and date to cite them, and names them early in every prompt', () => {
    for (const [key, { requests }] of runs) {
      const protocolId = key.split(':')[0] as ProtocolId;
      // Every step asked (a sectioned report once per call: docs/protocols.md, "Sections").
      expect([...new Set(requests.map((r) => r.step.id))].sort(), key).toEqual(
        getProtocol(protocolId)
          .steps.map((s) => s.id)
          .sort(),
      );
      for (const r of requests) {
        expect(
          r.redFlags?.map(({ kind, evidenceId, date, title }) => ({ kind, evidenceId, date, title })),
          `${key} ${r.step.id}`,
        ).toEqual(SAMSUNG_FLAGS);
        expect(r.redFlags?.[0]).toMatchObject({ sourceName: expect.stringContaining('삼성전자'), publishedDate: '2022-08-16' });
        const system = r.prompt.system;
        const block = system.indexOf('<red-flags>');
        expect(block, `${key} ${r.step.id}`).toBeGreaterThan(0);
        // In the system message, which every step of the run shares byte for byte; the evidence
        // block comes after it, in the user message.
        expect(system).not.toContain('<evidence>');
        expect(system).toContain('[samsung-electronics-022] regulatory sanction | event 2021-08-27 | published 2022-08-16');
      }
      const systems = new Set(requests.map((r) => r.prompt.system));
      expect(systems.size, key).toBe(1);
    }
  });

  it("each system's final step addresses every flag, first, and the report passes its red-flag check", async () => {
    for (const [key, { runId }] of runs) {
      const protocolId = key.split(':')[0] as ProtocolId;
      const report = await getReport({ db: handle.db, runId });
      const check = report.checks.find((c) => c.id === 'red-flags-addressed');
      expect(check, key).toEqual({ id: 'red-flags-addressed', ok: true, message: expect.any(String), items: [] });
      const content = report.content as Record<string, unknown>;
      const reportStep = getProtocol(protocolId).reportStep;
      const text = JSON.stringify(content);
      // A report's topics cite each flag (its reading need not name the id); an answer with no citation field names it in prose.
      const topical = protocolId === 'kpd-mads' || protocolId === 'nas';
      for (const f of SAMSUNG_FLAGS) expect(text, `${key} ${f.evidenceId}`).toContain(topical ? `"evidenceId":"${f.evidenceId}"` : `[${f.evidenceId}]`);
      if (topical) {
        const topics = (content as { topics: { adverse: string; affirmative: string; citations: { evidenceId?: string }[] }[] }).topics;
        expect(
          topics.slice(0, 4).map((t) => t.citations.map((c) => c.evidenceId)),
          key,
        ).toEqual(SAMSUNG_FLAGS.map((f) => [f.evidenceId]));
        expect(topics.slice(0, 4).every((t) => t.affirmative === '' && t.adverse.length > 0)).toBe(true);
      } else if (protocolId === 'findebate') {
        const claims = claimsOf((content as { report: unknown }).report);
        expect(
          claims.slice(0, 4).map((c) => [c.polarity, c.citations[0]?.evidenceId]),
          key,
        ).toEqual(SAMSUNG_FLAGS.map((f) => ['adverse', f.evidenceId]));
      } else {
        expect(reportStep).toMatch(/LEAD|JUDGE/);
      }
    }
  });

  it("reads the flags from the items in the run's language, marking Korean titles in English prose", async () => {
    const en = await getReport({ db: handle.db, runId: runs.get('nas:en')!.runId });
    const first = (en.content as { adverseSummary: string[] }).adverseSummary[0];
    expect(first).toBe(
      'Red flag (2021-08-27): “공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래 (2021.08.27)” (Korean source text) — a decisive credit event against repayment.',
    );
    // The flag's topic is headed by its title and cites it: its reading says what happened, when, and why it decides.
    const topic = (en.content as { topics: { topic: string; adverse: string; citations: { evidenceId?: string }[] }[] }).topics[0];
    expect(topic.topic).toBe('Red flag: 공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래 (2021.08.27)');
    expect(topic.citations.map((c) => c.evidenceId)).toEqual(['samsung-electronics-022']);
    expect(topic.adverse).toBe(
      'On 2021-08-27 a regulator or a court sanctioned the borrower or its officers (published 2022-08-16). A decisive credit event: it weighs against repayment capacity whatever the rest of the evidence shows, and no favorable signal offsets it.',
    );
    const ko = await getReport({ db: handle.db, runId: runs.get('sas:ko')!.runId });
    expect((ko.content as { keyTakeaways: string[] }).keyTakeaways[0]).toMatch(
      /^위험 신호 — 2021-08-27에 규제기관이나 법원이 차주 또는 그 임원에게 제재를 가했습니다: “공정위 과징금/,
    );
  });

  it("without the offline analyst's red-flag readings the same final steps fail the check, naming each flag", () => {
    for (const [key, { requests }] of runs) {
      const protocolId = key.split(':')[0] as ProtocolId;
      // FinDebate's safety check keeps the draft or the leader's version, and both already carry
      // the readings: the draft, the first step that writes them, is the one to compare.
      const reportStep = protocolId === 'findebate' ? 'DRAFT' : getProtocol(protocolId).reportStep;
      const request = requests.find((r) => r.step.id === reportStep)!;
      // The same request without flags: the analyst writes the report as it did before red flags existed.
      const bare = buildOutput({ ...request, redFlags: undefined });
      const check = finalChecks({
        steps: [{ stepId: reportStep, text: '', output: bare }],
        known: new Map(),
        language: 'ko',
        redFlags: SAMSUNG_FLAGS,
        reportStep,
      }).find((c) => c.id === 'red-flags-addressed')!;
      // Some systems cite a sanction adversely on their own; none addresses all four.
      expect(check.ok, key).toBe(false);
      expect(check.items.length).toBeGreaterThan(0);
      for (const item of check.items) expect(SAMSUNG_FLAGS.map((f) => `${f.title} [${f.evidenceId}]`)).toContain(item);
    }
  });

  it('a one-item pool with a red flag ends as a red-flag screening that keeps the flag; without the flag, as insufficient evidence', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db: handle.db, protocolId: 'nas', companyId: 'taeyoung-engineering-construction', provider, params: { asOf: '2025-03-31' } });
    const result = await executeRun({ db: handle.db, runId: run.id, provider });
    expect(result.status).toBe('red_flag_screening');
    expect((await getRun({ db: handle.db, id: run.id })).redFlags).toEqual([
      {
        kind: 'creditor_workout',
        evidenceId: 'taeyoung-engineering-construction-001',
        date: '2024-01-11',
        title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
      },
    ]);
    // As of the day before the filing was published, there is nothing to flag.
    const early = await createRun({
      db: handle.db,
      protocolId: 'nas',
      companyId: 'taeyoung-engineering-construction',
      provider,
      params: { asOf: '2025-02-16' },
    });
    expect((await executeRun({ db: handle.db, runId: early.id, provider })).status).toBe('insufficient_evidence');
    expect((await getRun({ db: handle.db, id: early.id })).redFlags).toEqual([]);
  });
});
