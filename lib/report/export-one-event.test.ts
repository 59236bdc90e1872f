// One event, one flag, in the exports: a flag that more items report (the same filing reached
// the pool twice, lib/pool/red-flag-events.ts) is counted once and cites every copy — in the JSON
// export (`alsoEvidenceIds`, held to docs/run-export.schema.json) and in the Markdown report.
// The flags are found by the rules in real demo items: Samsung Electronics' 과징금 (2022 half-year
// report, 접수번호 20220816001711) as imported and as the sentence an RM accepted from the uploaded
// original document, which the report quotes; and another sanction of the same report.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Run } from '@/lib/db/schema';
import { findRedFlags, type RedFlagSource } from '@/lib/pool/red-flags';
import { renderExport } from '@/lib/report/export';
import type { ReportInput } from '@/lib/report/model';
import { runDocument } from '@/lib/report/run-doc';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

type DemoItem = { id: string; category: string; title: string; text: string; event_date: string | null; published_date: string; source_url: string };
const demo = new Map(
  fs
    .readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as DemoItem)
    .map((d) => [d.id, d]),
);
const item = (d: DemoItem): RedFlagSource => ({
  id: d.id,
  category: d.category,
  title: d.title,
  text: d.text,
  eventDate: d.event_date,
  publishedDate: d.published_date,
  sourceUrl: d.source_url,
});
const FINE = demo.get('samsung-electronics-022')!;
// The uploaded original's sentence, linked by OpenDART's document link: an id as the import derives it.
const COPY: RedFlagSource = {
  id: 'samsung-electronics-5d0c2a41e9b7',
  category: 'sanctions',
  title:
    '또한 당사와 삼성디스플레이㈜는 삼성웰스토리㈜와의 단체급식 거래와 관련하여 「독점규제 및 공정거래에 관한 법률」제23조 제1항 제7호 위반 혐의로 공정거래위원회로부터 2021년 8월 27일 과징금을 부과 받았습니다.',
  text: '또한 당사와 삼성디스플레이㈜는 삼성웰스토리㈜와의 단체급식 거래와 관련하여 「독점규제 및 공정거래에 관한 법률」제23조 제1항 제7호 위반 혐의로 공정거래위원회로부터 2021년 8월 27일 과징금을 부과 받았습니다.',
  eventDate: '2021-08-27',
  publishedDate: '2022-08-16',
  sourceUrl: 'https://opendart.fss.or.kr/api/document.xml?rcept_no=20220816001711',
};

function input(): ReportInput {
  const redFlags = findRedFlags([item(FINE), COPY, item(demo.get('samsung-electronics-020')!)]);
  const run = {
    id: '00000000-0000-4000-8000-000000000002',
    protocol: 'kpd-mads',
    status: 'succeeded',
    error: null,
    provider: 'offline',
    model: 'offline',
    mode: 'dag',
    companyId: 'samsung-electronics',
    params: { asOf: '2025-06-30', language: 'en' },
    redFlags,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: '0',
  } as unknown as Run;
  const content = { overview: 'Overview.', objective: 'Objective.', favorableSummary: [], adverseSummary: [], topics: [] };
  const at = new Date('2025-06-30T09:00:00Z');
  const step = {
    stepId: 'AG',
    agent: 'AG',
    team: 'neutral',
    act: 'report',
    contextStepIds: [],
    status: 'done',
    text: 'A turn.',
    output: content,
    toolCalls: [],
    startedAt: at,
    finishedAt: at,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: '0',
    error: null,
    repairs: [],
  };
  const view = runDocument({
    run,
    steps: [step] as never,
    report: { content, checks: [] } as never,
    company: { id: 'samsung-electronics', name: '삼성전자', nameEn: 'Samsung Electronics' } as never,
  });
  return { view, sources: {}, sourcesState: 'frozen', protocolName: 'KPD-MADS', totalSteps: 1, redFlagSources: {} };
}

describe('a flag two items report, in the exports', () => {
  it('the JSON export counts it once and names both items, and validates', async () => {
    const json = JSON.parse((await renderExport(input(), 'json')).body as string);
    expect(json.redFlags).toEqual([
      { kind: 'regulatory_sanction', evidenceId: FINE.id, date: '2021-08-27', title: FINE.title, alsoEvidenceIds: [COPY.id] },
      {
        kind: 'regulatory_sanction',
        evidenceId: 'samsung-electronics-020',
        date: '2021-02-04',
        title: '임직원 형사 제재: 증거인멸 교사(2019.12.09), 노동조합법 위반 확정(2021.02.04)',
      },
    ]);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('the Markdown report counts it once and names the other item on its line, in both languages', async () => {
    const en = (await renderExport(input(), 'md', 'en')).body as string;
    expect(en).toContain('## ⚠ Red flags (2)');
    expect(en.split('\n').filter((l) => l.includes('Also reported in'))).toEqual([
      expect.stringMatching(new RegExp(`2021-08-27 — .* — Also reported in: ${COPY.id}$`)),
    ]);
    const ko = (await renderExport(input(), 'md', 'ko')).body as string;
    expect(ko).toContain('## ⚠ 위험 신호 (2)');
    expect(ko.split('\n').filter((l) => l.includes('같은 사건을 전하는 다른 항목'))).toEqual([
      expect.stringMatching(new RegExp(`— 같은 사건을 전하는 다른 항목: ${COPY.id}$`)),
    ]);
  });
});
