// The red-flag screening (docs/protocols.md, "Red-flag screening") on the demo's distressed
// borrower, Taeyoung E&C, whose pool as of 2025-03-31 is one creditor-bank workout filing: every
// system ends as a screening before any step, offline and with a model, in both languages; the
// report leads with the event, says what the pool lacks and what to weigh, on the page, in Markdown,
// in the PDF and the JSON export; the flagged item's source is frozen with the run; the case can go
// to the committee with it. The same pool the day before the filing still ends short of evidence.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { countCompletedRuns, getCaseById, markCaseAnalyzing } from '@/lib/db/queries/cases';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { evidenceItems } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun, isRetryable } from '@/lib/debate/engine';
import { runOutlook } from '@/lib/debate/sufficiency';
import { DEMO_IDS, seedDemo } from '@/lib/demo/seed';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import type { RunEvent } from '@/lib/domain/protocol';
import { resetEnvForTests } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';
import { readEvidence } from '@/lib/pool/as-of';
import { findRedFlags } from '@/lib/pool/red-flags';
import { renderExport } from '@/lib/report/export';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc } from '@/lib/report/model';
import { extractPdfText } from '@/lib/report/pdf-text';

const TAEYOUNG = 'taeyoung-engineering-construction';
const AS_OF = '2025-03-31';
const TITLE = '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30';
const SOURCE = 'OpenDART API — 태영건설 주요사항보고서(채권은행 등의 관리절차 개시)';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

/** A model that must not be called: a screening calls none. */
const modelThatMustNotBeCalled = (calls: string[]): ModelProvider => ({
  name: 'openai',
  model: 'gpt-4o-mini',
  isLLM: true,
  generate(req) {
    calls.push(req.step.id);
    throw new Error(`the model was called for ${req.step.id}`);
  },
});

describe.each(testBackends())('red-flag screening on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    process.env.AUDIT_SECRET ??= 'screening-test-audit-secret-0123456789abcdef';
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
  }, 120_000);
  afterAll(() => handle?.close());

  it('foresees the outcome from the pool: a screening with the flag, short of evidence the day before, a debate for Samsung', async () => {
    const outlook = async (companyId: string, asOf: string) => {
      const pool = await readEvidence({ db, companyId, asOf, recencyDays: 1095 });
      return runOutlook(pool, findRedFlags(pool).length);
    };
    expect(await outlook(TAEYOUNG, AS_OF)).toMatchObject({ kind: 'screening', redFlags: 1, shortfall: { items: 1, factors: 1 } });
    expect(await outlook(TAEYOUNG, '2025-02-16')).toMatchObject({ kind: 'insufficient', shortfall: { items: 0, factors: 0 } });
    expect(await outlook('samsung-electronics', '2025-06-30')).toEqual({ kind: 'debate' });
  });

  it('ends every system as a screening before any step, offline and with a model, in both languages', async () => {
    const calls: string[] = [];
    const outcomes: string[] = [];
    for (const protocolId of PROTOCOLS) {
      for (const language of ['ko', 'en'] as const) {
        for (const provider of [createOfflineAnalyst(), modelThatMustNotBeCalled(calls)]) {
          const run = await createRun({ db, protocolId, companyId: TAEYOUNG, provider, params: { asOf: AS_OF, language } });
          const events: RunEvent[] = [];
          const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
          const result = await executeRun({ db, runId: run.id, provider });
          unsubscribe();
          outcomes.push(`${protocolId}/${language}/${provider.name}: ${result.status}`);
          const row = (await getRun({ db, id: run.id }))!;
          expect(row.redFlags.map((f) => [f.kind, f.evidenceId])).toEqual([['creditor_workout', `${TAEYOUNG}-001`]]);
          expect(row.shortfall).toMatchObject({ items: 1, factors: 1, minItems: 3, minFactors: 2 });
          expect(row.citedEvidence?.map((s) => s.id)).toEqual([`${TAEYOUNG}-001`]);
          expect(row.promptTokens + row.completionTokens).toBe(0);
          expect((await listRunSteps({ db, runId: run.id })).every((s) => s.status === 'pending')).toBe(true);
          expect(events.map((e) => [e.type, 'status' in e ? e.status : null])).toEqual([['run-finished', 'red_flag_screening']]);
          // Its flags go with its end, for a page that has been open since the launch.
          expect(events[0].type === 'run-finished' && events[0].redFlags).toEqual(row.redFlags);
        }
      }
    }
    expect(calls).toEqual([]);
    expect(outcomes.filter((o) => !o.endsWith(': red_flag_screening'))).toEqual([]);
    expect(outcomes).toHaveLength(PROTOCOLS.length * 2 * 2);
    expect(isRetryable('red_flag_screening')).toBe(false);
  });

  it('writes the screening report: the event with its source and why it decides, what the pool lacks, what to weigh', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: TAEYOUNG, provider, params: { asOf: AS_OF, language: 'ko' } });
    await executeRun({ db, runId: run.id, provider });
    const input = await loadReportInput({ db, runId: run.id });

    const en = buildReportDoc(input, 'en');
    expect(en.notice).toEqual({
      tone: 'info',
      title: 'Red-flag screening, not a full analysis',
      text: expect.stringContaining(
        'As of 2025-03-31 the knowledge pool held 1 evidence item on 1 of the ten guideline factors, too little for a debate (it needs at least 3 items on 2 factors), but it holds 1 decisive red flag. No debate was held and no model was called',
      ),
    });
    expect(en.header.find((f) => f.label === 'Status')?.value).toBe('Red-flag screening');
    expect(en.sections.map((s) => s.id)).toEqual(['screening-events', 'screening-gaps', 'screening-weigh', 'screening-method']);
    const [event] = en.sections[0].blocks;
    expect(event).toMatchObject({ kind: 'group', title: 'Creditor-bank workout — 2024-01-11' });
    const fields = event.kind === 'group' && event.blocks[0].kind === 'fields' ? event.blocks[0].items : [];
    expect(Object.fromEntries(fields.map((f) => [f.label, f.value]))).toEqual({
      'What happened': TITLE,
      When: '2024-01-11',
      Source: SOURCE,
      'Why it decides': expect.stringMatching(/^The borrower’s creditor banks took over the management of its debts \(a workout\)\./),
    });
    const citation = event.kind === 'group' ? event.blocks[1] : null;
    expect(citation).toMatchObject({
      kind: 'citations',
      items: [{ evidenceId: `${TAEYOUNG}-001`, url: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661', verified: true }],
    });
    const gaps = en.sections[1].blocks;
    expect(gaps[1]).toMatchObject({ kind: 'list' });
    const missing = gaps[1].kind === 'list' ? gaps[1].items : [];
    expect(missing).toHaveLength(9);
    expect(missing).toContain('Industry growth outlook');
    expect(missing).not.toContain('Internal control risk');
    const weigh = en.sections[2].blocks[0].kind === 'list' ? en.sections[2].blocks[0].items : [];
    expect(weigh[0]).toMatch(/^The workout’s terms and end date/);
    expect(weigh[1]).toBe('Whether each event is still current on the decision date: this screening reads the evidence up to 2025-03-31 only.');
    expect(en.redFlags.map((f) => f.label)).toEqual(['Creditor-bank workout']);
    // No step ran: no transcript of eleven steps that were never taken.
    expect(en.transcript).toEqual([]);

    const ko = buildReportDoc(input, 'ko');
    expect(ko.notice?.title).toBe('위험 신호 점검 (전체 분석 아님)');
    expect(ko.sections.map((s) => s.title)).toEqual(['결정적 사건', '풀에 없는 것', '위원회가 따져 볼 점', '점검 방법']);
    expect(JSON.stringify(ko.sections)).toContain('채권은행이 차주의 채무 관리에 들어갔습니다(워크아웃)');
    // No English left in the Korean screening's own words (the titles of items are the filings').
    expect(JSON.stringify(ko.sections)).not.toMatch(/\b(the|pool|workout|committee)\b/i);

    // Markdown and PDF (the run's language: Korean) and the JSON export carry the same screening.
    const md = (await renderExport(input, 'md')).body as string;
    expect(md).toContain('위험 신호 점검 (전체 분석 아님)');
    expect(md).toContain('## 결정적 사건');
    expect(md).toContain('채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11');
    expect(md).toContain('2025-03-31 기준 지식 풀에 있는 증거는 10개 가이드라인 요인 중 1개 요인에 걸친 증거 항목 1개로, 토론하기에는 부족합니다');
    expect(md).toContain('다만 결정적 위험 신호 1건이 있습니다.');
    expect(md).toContain('https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661');
    expect(md).toContain('산업 성장 전망');
    expect(md).not.toContain(`## ${ko.labels.transcript}`);
    const pdf = (await extractPdfText((await renderExport(input, 'pdf')).body as Uint8Array)).join('\n');
    expect(pdf).toContain('위험 신호 점검');
    expect(pdf).toContain('결정적 사건');
    const json = JSON.parse((await renderExport(input, 'json')).body as string);
    expect(json).toMatchObject({
      status: 'red_flag_screening',
      shortfall: { items: 1, factors: 1 },
      redFlags: [{ kind: 'creditor_workout', evidenceId: `${TAEYOUNG}-001` }],
    });
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('keeps the flagged item as the run read it after the pool is edited', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'nas', companyId: TAEYOUNG, provider, params: { asOf: AS_OF, language: 'en' } });
    await executeRun({ db, runId: run.id, provider });
    await db
      .update(evidenceItems)
      .set({ sourceName: 'Edited afterwards', sourceUrl: 'https://example.com/edited' })
      .where(eq(evidenceItems.id, `${TAEYOUNG}-001`));
    try {
      const doc = buildReportDoc(await loadReportInput({ db, runId: run.id }), 'en');
      expect(doc.redFlags[0]).toMatchObject({ source: SOURCE, url: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661' });
      expect(JSON.stringify(doc.sections)).not.toContain('Edited afterwards');
    } finally {
      await db
        .update(evidenceItems)
        .set({ sourceName: SOURCE, sourceUrl: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661' })
        .where(eq(evidenceItems.id, `${TAEYOUNG}-001`));
    }
  });

  it('is a finished analysis the case can be submitted with, and the case stays analysing', async () => {
    const kase = (await getCaseById({ db, id: DEMO_IDS.thinCase }))!;
    expect(await countCompletedRuns({ db, caseId: kase.id })).toBe(0);
    const provider = createOfflineAnalyst();
    const run = await createRun({
      db,
      protocolId: 'sas',
      companyId: kase.companyId,
      provider,
      caseId: kase.id,
      createdById: kase.ownerId,
      params: { asOf: kase.asOfDate, language: 'ko' },
    });
    await markCaseAnalyzing({ db, id: kase.id });
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('red_flag_screening');
    expect(await countCompletedRuns({ db, caseId: kase.id })).toBe(1);
    expect((await getCaseById({ db, id: kase.id }))!.status).toBe('analyzing');
  });
});
