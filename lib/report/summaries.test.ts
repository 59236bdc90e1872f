// The summaries say what the topics do not (issue 27, item 10; lib/report/summaries.ts): on every
// demo company's report, by every system in both languages, no sentence of a summary restates a
// sentence of a topic's reading. KPD-MADS's and NAS's favorable and adverse summaries are read
// against their topics, SAS's executive summary and key takeaways against its evidence review;
// the three-round debate and FinDebate have no summary beside topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { translator } from '@/lib/i18n';
import { reportMessages } from '@/lib/i18n/messages/report';
import { buildReportDoc, type Block, type ReportDoc } from '@/lib/report/model';
import { DEMO_CASES, offlineReportRun, openReportTestDb } from '@/lib/report/test-runs';

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
const sentences = (text: string) =>
  normalize(text)
    .split(/(?<=[.!?。])\s+/)
    .filter(Boolean);
/** Without a leading label ("Internal control risk (2024-03-12): ") and the closing full stop. */
const core = (sentence: string) => (/^[^“”"「」:：]{1,80}?[:：]\s*(.+)$/.exec(sentence)?.[1] ?? sentence).replace(/[.。]$/, '').trim();
/** Letters outside quotes and brackets: a sentence with fewer than 15 only names an item, which a summary may. */
const ownLetters = (text: string) => {
  let t = text.replace(/“[^”]*”/g, ' ');
  for (let before = ''; before !== t;) [before, t] = [t, t.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ')];
  return (t.match(/\p{L}/gu) ?? []).length;
};

const texts = (blocks: Block[]): string[] =>
  blocks.flatMap((b) =>
    b.kind === 'paragraph' || b.kind === 'note'
      ? [b.text]
      : b.kind === 'list'
        ? b.items
        : b.kind === 'fields'
          ? b.items.map((f) => f.value)
          : b.kind === 'group'
            ? texts(b.blocks)
            : [],
  );

/** The report's summary texts and its topic readings, by the shape of the system's report. */
function summariesAndTopics(doc: ReportDoc): { summaries: string[]; topics: string[] } {
  const section = (id: string) => doc.sections.find((s) => s.id === id)?.blocks ?? [];
  if (doc.sections.some((s) => s.id === 'topics')) {
    const topics = section('topics').flatMap((g) =>
      g.kind === 'group' ? g.blocks.flatMap((b) => (b.kind === 'fields' ? b.items.map((f) => f.value) : [])) : [],
    );
    return { summaries: [...texts(section('favorable')), ...texts(section('adverse'))], topics };
  }
  const t = translator(reportMessages, doc.locale);
  const group = (title: string) => section('final-report').filter((b) => b.kind === 'group' && b.title === title);
  return { summaries: [...texts(group(t('executiveSummary'))), ...texts(group(t('keyTakeaways')))], topics: texts(group(t('evidenceReview'))) };
}

describe.each(testBackends())('summaries beside topics on every demo company (%s)', (backend) => {
  let handle: DatabaseHandle;
  const docs: { name: string; protocol: string; doc: ReportDoc }[] = [];
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const { companyId, asOf } of DEMO_CASES)
      for (const protocol of PROTOCOLS)
        for (const language of ['en', 'ko'] as const) {
          const input = await offlineReportRun(handle, protocol, companyId, language, asOf);
          docs.push({ name: `${protocol} ${companyId} ${language}`, protocol, doc: buildReportDoc(input, language) });
        }
  }, 600_000);
  afterAll(() => handle?.close());

  it('no summary sentence restates a sentence of a topic’s reading', () => {
    const restated: string[] = [];
    const checked = new Map<string, number>();
    for (const { name, protocol, doc } of docs) {
      const { summaries, topics } = summariesAndTopics(doc);
      const readings = topics.map(normalize);
      const readingSentences = new Set(topics.flatMap(sentences));
      for (const sentence of summaries.flatMap(sentences)) {
        checked.set(protocol, (checked.get(protocol) ?? 0) + (readings.length ? 1 : 0));
        if (readingSentences.has(sentence)) restated.push(`${name}: ${sentence}`);
        else if (ownLetters(core(sentence)) >= 15 && readings.some((r) => r.includes(core(sentence)))) restated.push(`${name}: ${sentence}`);
      }
    }
    expect(restated).toEqual([]);
    // Not vacuous: the systems with summaries beside topics had sentences to read on several companies.
    for (const protocol of ['kpd-mads', 'nas', 'sas']) expect(checked.get(protocol) ?? 0, protocol).toBeGreaterThan(20);
  });

  it('each summary line that gives up its restated reading keeps the item it rests on and links to its topic', () => {
    const doc = docs.find((d) => d.name === 'kpd-mads samsung-electronics en')!.doc;
    const lists = doc.sections
      .filter((s) => s.id === 'favorable' || s.id === 'adverse')
      .flatMap((s) => s.blocks.flatMap((g) => (g.kind === 'group' ? g.blocks : [])));
    const items = lists.flatMap((l) => (l.kind === 'list' ? l.items : []));
    expect(items.length).toBeGreaterThan(5);
    // Samsung's favorable internal-control point rests on its most material item there, the
    // settlement that withdrew every US suit with Apple (evidence is argued material-first).
    expect(items).toContain('Apple과 소취하 계약: 양사 간 미국 내 모든 소송 취하 (2018.06.26) · 2022-08-16 — see Topics by factor');
    const anchors = new Set(doc.sections.find((s) => s.id === 'topics')!.blocks.map((g) => (g.kind === 'group' ? g.anchor : undefined)));
    for (const l of lists)
      if (l.kind === 'list')
        for (const parts of l.parts ?? []) for (const p of parts ?? []) if (typeof p !== 'string') expect(anchors.has(p.anchor)).toBe(true);
    // The screening of a borrower whose record is one decisive event has neither.
    const screening = docs.find((d) => d.name === 'kpd-mads taeyoung-engineering-construction en')!.doc;
    expect(screening.status).toBe('red_flag_screening');
  });
});
