import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { setRunStatus } from '@/lib/db/queries/runs';
import { evidenceItems } from '@/lib/db/schema';
import { testBackends } from '@/lib/db/test-db';
import { createRun } from '@/lib/debate/engine';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { loadReportInput } from '@/lib/report/load';
import { renderMarkdown } from '@/lib/report/markdown';
import { plainTurnNames, turnNames } from '@/lib/report/turn-names';
import { getProtocol } from '@/lib/debate/protocols';
import { buildReportDoc, shortFactorLabel, type Block, type ReportInput } from '@/lib/report/model';
import { AS_OF, finishedRun, openReportTestDb } from '@/lib/report/test-runs';

const blocksOf = (doc: ReturnType<typeof buildReportDoc>, id: string) => doc.sections.find((s) => s.id === id)?.blocks ?? [];
const groups = (blocks: Block[]) => blocks.filter((b): b is Extract<Block, { kind: 'group' }> => b.kind === 'group');

describe.each(testBackends())('run report on %s', (backend) => {
  let handle: DatabaseHandle;
  const runs: Record<string, ReportInput> = {};

  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const p of ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'] as const) runs[p] = await finishedRun(handle, p);
  }, 120_000);
  afterAll(() => handle?.close());

  it('KPD-MADS: objective, overview, summaries grouped by factor, and topics with both readings and linked citations', async () => {
    const input = runs['kpd-mads'];
    const content = input.view.report!.content as {
      objective: string;
      favorableSummary: string[];
      adverseSummary: string[];
      topics: { topic: string; affirmative: string; citations: { evidenceId: string }[] }[];
    };
    const doc = buildReportDoc(input, 'en');
    expect(doc.sections.map((s) => s.id)).toEqual(['objective', 'overview', 'favorable', 'adverse', 'topics', 'weigh']);
    expect(blocksOf(doc, 'objective')).toEqual([{ kind: 'paragraph', text: content.objective }]);

    // Every summary line lands in exactly one group, and the offline analyst's lines open with their
    // factor. Each restates a topic's reading, so each is shown as the item it rests on, with its
    // date and a link to that topic (lib/report/summaries.ts); no step id is left in a line.
    const favorable = groups(blocksOf(doc, 'favorable'));
    const lists = favorable.map((g) => g.blocks[0] as Extract<Block, { kind: 'list' }>);
    const lines = lists.flatMap((l) => l.items);
    expect(lines).toHaveLength(content.favorableSummary.length);
    const plain = plainTurnNames(getProtocol('kpd-mads'), 'ko');
    expect(lines.filter((l) => content.favorableSummary.map(plain).includes(l))).toEqual([]);
    for (const line of lines) expect(line).toMatch(/ · \d{4}-\d{2}-\d{2} — 요인별 쟁점 참조$/);
    expect(lines.some((l) => /\bD\d+\b/.test(l))).toBe(false);
    const anchors = groups(blocksOf(doc, 'topics')).map((g) => g.anchor);
    expect(anchors).toEqual(anchors.map((_, i) => `topic-${i + 1}`));
    for (const parts of lists.flatMap((l) => l.parts ?? []))
      expect(parts!.filter((p) => typeof p !== 'string').map((p) => typeof p !== 'string' && anchors.includes(p.anchor))).toEqual([true]);
    // A Korean run read in the English interface: its factor groups are named in the run's language (lib/i18n/content-language.ts).
    const factorTitles = new Set(['internal_control_risk', 'management_continuity', 'technological_disruption_risk'].map((f) => shortFactorLabel(f, 'ko')));
    expect(favorable.some((g) => factorTitles.has(g.title))).toBe(true);
    expect(favorable.map((g) => g.title)).not.toContain('Other');

    const topics = groups(blocksOf(doc, 'topics'));
    expect(topics).toHaveLength(content.topics.length);
    expect(JSON.stringify(topics[0])).toContain(content.topics[0].affirmative.slice(0, 40));
    const cited = topics[0].blocks.find((b) => b.kind === 'citations') as Extract<Block, { kind: 'citations' }>;
    expect(cited.items).toHaveLength(content.topics[0].citations.length);
    // Links are the pool items' own source URLs.
    const ids = cited.items.map((c) => c.evidenceId!);
    const rows = await handle.db.select({ id: evidenceItems.id, url: evidenceItems.sourceUrl }).from(evidenceItems).where(inArray(evidenceItems.id, ids));
    expect(cited.items.map((c) => c.url)).toEqual(ids.map((id) => rows.find((r) => r.id === id)!.url));
    expect(cited.items.every((c) => c.verified && /^https?:\/\//.test(c.url!))).toBe(true);

    // Header: offline analyst said plainly; checks from the report record; transcript in protocol order.
    expect(doc.header.find((f) => f.label === 'Analyst')!.value).toMatch(/not an LLM/);
    expect(doc.header.find((f) => f.label === 'As-of date')!.value).toBe(AS_OF);
    expect(doc.checks.map((c) => c.id)).toEqual([
      'red-flags-addressed',
      'undated-or-unsourced',
      'unverified-citations',
      'after-as-of',
      'stale-evidence',
      'reused-factors',
      'output-language',
      'reading-consistency',
    ]);
    expect(doc.transcript.map((t) => t.step)).toEqual(['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG']);
    expect(doc.transcript[1].questions).toHaveLength(3);
    expect(doc.metrics.find((f) => f.label.startsWith('REI'))!.value).toBe(String(input.view.metrics.rei));
    expect(doc.notice).toBeNull();
  });

  it("names the prompt tokens the provider's cache served in the token figure, in both languages, when there are any", () => {
    const input = structuredClone(runs.nas);
    input.view.metrics.tokens = { prompt: 12_000, completion: 800, total: 12_800, cached: 7_500 };
    const tokens = (doc: ReturnType<typeof buildReportDoc>, label: string) => doc.metrics.find((f) => f.label === label)!.value;
    expect(tokens(buildReportDoc(input, 'en'), 'Tokens')).toBe("12,800 (12,000 in, 7,500 of them from the provider's cache; 800 out)");
    expect(tokens(buildReportDoc(input, 'ko'), '토큰')).toBe('12,800(입력 12,000, 그중 제공자 캐시 7,500, 출력 800)');
    input.view.metrics.tokens = { prompt: 12_000, completion: 800, total: 12_800, cached: 0 };
    expect(tokens(buildReportDoc(input, 'en'), 'Tokens')).toBe('12,800 (12,000 in, 800 out)');
  });

  it('KPD-MADS: the corporate overview says which way the debate read each factor it argued', () => {
    const input = runs['kpd-mads'];
    const content = input.view.report!.content as { overview: string };
    // Which way the debate's claims read each factor, from the turns themselves.
    const ways = new Map<string, Set<string>>();
    for (const t of input.view.turns)
      for (const c of t.claims ?? []) if (c.polarity !== 'context') ways.set(c.factor, (ways.get(c.factor) ?? new Set()).add(c.polarity));
    const part = (name: string) => new RegExp(`${name}: ([^;.]+)`).exec(content.overview)?.[1]?.split('·') ?? [];
    const label = (f: string) => shortFactorLabel(f, 'ko');
    const expected = (test: (w: Set<string>) => boolean) =>
      [...ways]
        .filter(([, w]) => test(w))
        .map(([f]) => label(f))
        .sort();
    expect(content.overview).toContain(`토론에서 다룬 요인 ${ways.size}개`);
    expect(part('상환에 유리').sort()).toEqual(expected((w) => w.size === 1 && w.has('favorable')));
    expect(part('불리').sort()).toEqual(expected((w) => w.size === 1 && w.has('adverse')));
    expect(part('양측이 맞섬').sort()).toEqual(expected((w) => w.size === 2));
  });

  it('NAS: the same report shape from one call', () => {
    const doc = buildReportDoc(runs.nas, 'ko');
    expect(doc.sections.map((s) => s.id)).toEqual(['objective', 'overview', 'favorable', 'adverse', 'topics', 'weigh']);
    expect(doc.transcript.map((t) => t.step)).toEqual(['NAS']);
    expect(doc.header.find((f) => f.label === '분석 주체')!.value).toContain('LLM 아님');
  });

  it('a citation dated after the as-of date is marked as such on the page model and in the Markdown, in both languages', () => {
    const input = structuredClone(runs.nas);
    const content = input.view.report!.content as { topics: { citations: Record<string, unknown>[] }[] };
    Object.assign(content.topics[0].citations[0], { verified: false, afterAsOf: true });
    for (const [locale, words] of [
      ['en', 'dated after the as-of date'],
      ['ko', '기준일 이후'],
    ] as const) {
      const doc = buildReportDoc(input, locale);
      const cited = groups(blocksOf(doc, 'topics'))[0].blocks.find((b) => b.kind === 'citations') as Extract<Block, { kind: 'citations' }>;
      expect(cited.items[0]).toMatchObject({ verified: false, afterAsOf: true });
      expect(cited.items.slice(1).every((c) => c.afterAsOf === undefined)).toBe(true);
      const md = renderMarkdown(doc);
      expect(md).toContain(`**⚠ ${doc.labels.afterAsOfLong}**`);
      expect(doc.labels.afterAsOfLong).toContain(words);
    }
  });

  it('three-round: scores, fallacies, the trace table with each argument’s claim, and the overall assessment', () => {
    const input = runs['three-round'];
    const judge = input.view.report!.content as {
      scores: { argumentId: string; weighted: number }[];
      trace: unknown[];
      overall: { affirmativeTotal: number; recommendation: string };
    };
    const doc = buildReportDoc(input, 'en');
    expect(doc.sections.map((s) => s.id)).toEqual(['scores', 'fallacies', 'trace', 'overall', 'weigh']);
    const scores = blocksOf(doc, 'scores')[0] as Extract<Block, { kind: 'table' }>;
    expect(scores.rows.map((r) => r[0])).toEqual(judge.scores.map((s) => s.argumentId));
    expect(scores.rows[0][5]).toBe(judge.scores[0].weighted.toFixed(2));
    const trace = blocksOf(doc, 'trace')[0] as Extract<Block, { kind: 'table' }>;
    expect(trace.rows).toHaveLength(judge.trace.length);
    const r1 = input.view.turns.find((t) => t.step === 'R1-A')!.output as { arguments: { id: string; claim: string }[] };
    expect(trace.rows.find((r) => r[0] === r1.arguments[0].id)![1]).toBe(r1.arguments[0].claim);
    const overall = JSON.stringify(blocksOf(doc, 'overall'));
    expect(overall).toContain(judge.overall.recommendation);
    expect(overall).toContain(String(judge.overall.affirmativeTotal));
  });

  it('SAS: judge and stress records next to the final report; FinDebate: safety check, draft and final', () => {
    const sas = buildReportDoc(runs.sas, 'en');
    expect(sas.sections.map((s) => s.id)).toEqual(['judge', 'stress', 'final-report', 'weigh']);
    const stress = runs.sas.view.turns.find((t) => t.step === 'STRESS')!.output as { assumption: string };
    expect(JSON.stringify(blocksOf(sas, 'stress'))).toContain(stress.assumption);
    expect(groups(blocksOf(sas, 'final-report')).map((g) => g.title)).toEqual([
      'Executive summary',
      'Evidence review',
      'Key takeaways',
      'Primary risk',
      'Mitigation',
      'Outlook',
    ]);

    const fin = buildReportDoc(runs.findebate, 'en');
    expect(fin.sections.map((s) => s.id)).toEqual(['safety', 'draft', 'final', 'weigh']);
    const safety = runs.findebate.view.report!.content as { kept: string; reason: string };
    expect(JSON.stringify(blocksOf(fin, 'safety'))).toContain(safety.reason);
    const draft = runs.findebate.view.turns.find((t) => t.step === 'DRAFT')!.output as { horizons: { horizon: string }[] };
    const horizons = blocksOf(fin, 'draft').find((b) => b.kind === 'table') as Extract<Block, { kind: 'table' }>;
    // Horizons are stored as codes and shown in words.
    expect(draft.horizons.map((h) => h.horizon)).toEqual(['12m', '36m']);
    expect(horizons.rows.map((r) => r[0])).toEqual(['12 months', '3 years']);
    expect(blocksOf(buildReportDoc(runs.findebate, 'ko'), 'draft').find((b) => b.kind === 'table')).toMatchObject({
      rows: [
        ['12개월', expect.any(String), expect.any(String)],
        ['3년', expect.any(String), expect.any(String)],
      ],
    });

    // A run stored before the codes, with free-text labels, still reads.
    const older = structuredClone(runs.findebate);
    for (const t of older.view.turns) {
      const out = t.output as { horizons?: { horizon: string }[] };
      if (out?.horizons) out.horizons = out.horizons.map((h, i) => ({ ...h, horizon: ['12개월', 'near term'][i] }));
    }
    const kept = older.view.report!.content as unknown as { report: { horizons: { horizon: string }[] } };
    kept.report.horizons = kept.report.horizons.map((h, i) => ({ ...h, horizon: ['12 months', '3 years'][i] }));
    const old = buildReportDoc(older, 'en');
    expect(old.sections.map((s) => s.id)).toEqual(['safety', 'draft', 'final', 'weigh']);
    expect((blocksOf(old, 'draft').find((b) => b.kind === 'table') as Extract<Block, { kind: 'table' }>).rows.map((r) => r[0])).toEqual([
      '12 months',
      'near term',
    ]);
  });

  it('a run still going shows what is done with a note; a failed run says so', async () => {
    const provider = createOfflineAnalyst();
    const run = await createRun({ db: handle.db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider, params: { asOf: AS_OF } });
    const queued = buildReportDoc(await loadReportInput({ db: handle.db, runId: run.id }), 'en');
    expect(queued.sections).toEqual([]);
    expect(queued.notice).toMatchObject({ tone: 'info', text: expect.stringContaining('0 of 11 steps') });
    expect(queued.transcript.every((t) => t.text === 'Not started yet.')).toBe(true);

    await setRunStatus({ db: handle.db, id: run.id, status: 'failed', error: 'Step D3 failed; 8 steps could not start.' });
    const failed = buildReportDoc(await loadReportInput({ db: handle.db, runId: run.id }), 'en');
    expect(failed.notice).toMatchObject({ tone: 'error', title: 'This run failed', text: expect.stringContaining('Step D3 failed') });
    expect(renderMarkdown(failed)).toContain('**This run failed**');
  });

  it('Markdown: every section, the checks and the transcript in order; model text cannot inject HTML, links or table cells', () => {
    const input = structuredClone(runs['kpd-mads']);
    const hostile = '<script>alert(1)</script> | [click](javascript:alert(1)) **bold**\n# heading\n- item';
    input.view.turns[0].text = hostile;
    const topic = (input.view.report!.content as unknown as { topics: { affirmative: string; citations: { verified: boolean }[] }[] }).topics[0];
    topic.affirmative = 'cell | breaker <img src=x onerror=alert(1)>';
    topic.citations[0].verified = false;
    const md = renderMarkdown(buildReportDoc(input, 'en'));

    expect(md.startsWith('# Crosscheck report — Samsung Electronics Co., Ltd.\n')).toBe(true);
    for (const heading of [
      '## Objective',
      '## Corporate overview',
      '## Favorable signals',
      '## Adverse signals',
      '## Topics by factor',
      '## Final checks',
      '## Appendix: full transcript',
    ]) {
      expect(md).toContain(`\n${heading}\n`);
    }
    // Each turn under its name, in protocol order (lib/report/turn-names.ts).
    const names = turnNames(getProtocol('kpd-mads'), 'en');
    // The aggregator, a neutral speaker, by its act.
    const title = (s: string) => (s === 'AG' ? 'aggregation' : names.get(s)!.toLowerCase());
    const order = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG'].map((s) => md.toLowerCase().indexOf(`\n### ${title(s)} · `));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]))).toBe(true);

    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[click\\](javascript:alert(1)) \\*\\*bold\\*\\*');
    expect(md).toContain('\\# heading');
    expect(md).toContain('\\- item');
    expect(md).toContain('cell \\| breaker &lt;img src=x onerror=alert(1)&gt;');
    expect(md).not.toMatch(/(?<!\\)\]\(javascript:/);
    // The one unverified citation is marked, the verified ones are linked to their source.
    expect(md.match(/⚠ unverified/g)).toHaveLength(1);
    expect(md).toMatch(/\]\(https?:\/\/[^)\s]+\)/);
  });
});
