// The run's own content in the run's language (lib/i18n/content-language.ts): a Korean run's report
// names its factors in Korean and pastes no English company description, whatever the reader's
// interface language; an English run on a Korean borrower keeps its Korean industry line out.
// Every system, real offline runs on the demo pool (lib/report/test-runs.ts).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { FACTORS } from '@/lib/domain/factors';
import type { ProtocolId } from '@/lib/domain/protocol';
import { renderExport } from '@/lib/report/export';
import { buildReportDoc, shortFactorLabel, type Block, type ReportDoc, type ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { isWrittenIn } from '@/lib/i18n/content-language';

const SYSTEMS: ProtocolId[] = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'];
const companies = new Map(
  (JSON.parse(fs.readFileSync('data/demo/companies.json', 'utf8')) as { id: string; description: string; industry: string }[]).map((c) => [c.id, c]),
);
const GUIDELINE = FACTORS.filter((f) => f.id !== 'other');
const englishLabels = GUIDELINE.flatMap((f) => [f.label, shortFactorLabel(f.id, 'en')]);
const koreanLabels = GUIDELINE.flatMap((f) => [f.labelKo, shortFactorLabel(f.id, 'ko')]);

/** Everything the report body shows of the run's content: titles, paragraphs, lists, field values (not their labels). */
function contentOf(doc: ReportDoc): { titles: string[]; text: string[] } {
  const titles: string[] = [];
  const text: string[] = [];
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.kind === 'group') {
        titles.push(b.title);
        walk(b.blocks);
      } else if (b.kind === 'paragraph') text.push(b.text);
      else if (b.kind === 'list') text.push(...b.items);
      else if (b.kind === 'fields') text.push(...b.items.map((i) => i.value));
      else if (b.kind === 'table') text.push(...b.rows.flat());
    }
  };
  for (const s of doc.sections) walk(s.blocks);
  return { titles, text };
}

describe('a report speaks the run’s language', () => {
  let handle: DatabaseHandle;
  const ko: Partial<Record<ProtocolId, ReportInput>> = {};
  const en: Partial<Record<ProtocolId, ReportInput>> = {};
  let koTesla: ReportInput;

  beforeAll(async () => {
    handle = await openReportTestDb('pglite');
    for (const p of SYSTEMS) ko[p] = await finishedRun(handle, p, 'samsung-electronics', 'ko');
    for (const p of SYSTEMS) en[p] = await finishedRun(handle, p, 'samsung-electronics', 'en');
    koTesla = await finishedRun(handle, 'kpd-mads', 'tesla', 'ko');
  }, 240_000);
  afterAll(() => handle?.close());

  it.each(SYSTEMS)('%s, a Korean run on Samsung: Korean factor names and no English description, in either interface', async (p) => {
    const input = ko[p]!;
    const description = companies.get('samsung-electronics')!.description;
    for (const locale of ['en', 'ko'] as const) {
      const doc = buildReportDoc(input, locale);
      const { titles, text } = contentOf(doc);
      expect(titles.length + text.length).toBeGreaterThan(0);
      const all = [...titles, ...text].join('\n');
      for (const label of englishLabels) expect(all, `${p} (${locale} interface) shows "${label}"`).not.toContain(label);
      expect(all).not.toContain(description.slice(0, 40));
      // A title that names a factor names it in Korean.
      for (const title of titles) for (const f of GUIDELINE) if (title.includes(f.label)) throw new Error(`${p}: "${title}" names ${f.id} in English`);
    }
    // The Markdown export (the run's language throughout) shows none of them either.
    const md = String((await renderExport(input, 'md')).body);
    for (const label of englishLabels) expect(md, `${p} export shows "${label}"`).not.toContain(label);
    expect(md).not.toContain(description.slice(0, 40));
  });

  it('KPD-MADS in Korean: topic groups are titled by their Korean factor, once', () => {
    const doc = buildReportDoc(ko['kpd-mads']!, 'en');
    const topics = doc.sections.find((s) => s.id === 'topics')!.blocks.filter((b) => b.kind === 'group');
    expect(topics.length).toBeGreaterThan(0);
    for (const t of topics) {
      const named = FACTORS.filter((f) => t.title.includes(shortFactorLabel(f.id, 'ko')));
      expect(named.length, t.title).toBeGreaterThan(0);
      // "경기 민감도 (2022-08-16)", never "경기 민감도 (2022-08-16) · 경기 민감도".
      for (const f of named) expect(t.title.split(shortFactorLabel(f.id, 'ko')).length, t.title).toBe(2);
    }
    // The summaries are grouped under Korean factor names too.
    const favorable = doc.sections.find((s) => s.id === 'favorable')!.blocks.filter((b): b is Extract<Block, { kind: 'group' }> => b.kind === 'group');
    expect(favorable.some((g) => koreanLabels.includes(g.title))).toBe(true);
  });

  it('a Korean run on Tesla leaves out its English description and industry; the overview stays Korean', () => {
    const tesla = companies.get('tesla')!;
    const doc = buildReportDoc(koTesla, 'en');
    const overview = (doc.sections.find((s) => s.id === 'overview')!.blocks[0] as { text: string }).text;
    expect(overview).not.toContain(tesla.description.slice(0, 30));
    expect(overview).not.toContain(tesla.industry);
    expect(overview).toContain('Tesla.');
    expect(isWrittenIn(overview, 'ko')).toBe(true);
  });

  it.each(SYSTEMS)('%s, an English run on Samsung: English factor names, no Korean industry line', (p) => {
    const samsung = companies.get('samsung-electronics')!;
    for (const locale of ['en', 'ko'] as const) {
      const doc = buildReportDoc(en[p]!, locale);
      const { titles, text } = contentOf(doc);
      // Text may quote a Korean item's own title ("산업 성장 전망: TV·스마트폰…"); labels may not be Korean.
      for (const title of titles) for (const label of koreanLabels) expect(title, `${p} (${locale} interface)`).not.toContain(label);
      expect(text.join('\n')).not.toContain(samsung.industry.slice(0, 12));
    }
  });
});
