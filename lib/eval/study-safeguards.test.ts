// The study safeguards on real offline runs of all five systems, on a throwaway database: the
// checks of a study's picks (unpaired reports, pairs in two output languages) that the new-study
// action enforces, "next report" after a submission, and blinded reports that show every system under the same neutral headings,
// in the same frame (no transcript, whose turns would name the system; one list of sources).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlindReportView } from '@/components/studies/blind-report';
import type { DatabaseHandle } from '@/lib/db/client';
import { getReport } from '@/lib/db/queries/runs';
import {
  insertStudy,
  listAssignmentsForEvaluator,
  listRunsOfReports,
  nextAssignmentForEvaluator,
  setStudyStatus,
  submitAssignment,
} from '@/lib/db/queries/studies';
import { insertUser } from '@/lib/db/queries/users';
import { ALL_ITEMS } from '@/lib/domain/study';
import { planAssignments } from '@/lib/eval/study-design';
import { testBackends } from '@/lib/db/test-db';
import type { Language, ProtocolId } from '@/lib/domain/protocol';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { blindSources, redactor, type BlindReport } from '@/lib/eval/study-blind';
import { loadBlindReport } from '@/lib/eval/study-blind-load';
import { hasPickProblems, pickProblems } from '@/lib/eval/study-pairing';
import { offlineRun, seededDatabase } from '@/lib/eval/test-runs';
import { translator } from '@/lib/i18n';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc, type Block } from '@/lib/report/model';
import type { RunView } from '@/lib/report/run-view';

type Picked = { view: RunView; reportId: string };

/** Every heading of a blinded report's body: its sections' titles and any group's title inside. */
function headingsOf(report: BlindReport): string[] {
  const walk = (blocks: Block[]): string[] => blocks.flatMap((b) => (b.kind === 'group' ? [b.title, ...walk(b.blocks)] : []));
  return report.sections.flatMap((s) => [s.title, ...walk(s.blocks)]);
}

type Labels = Parameters<typeof BlindReportView>[0]['labels'];
const renderBlind = (report: BlindReport, labels: Labels, locale: 'en' | 'ko') =>
  renderToStaticMarkup(createElement(BlindReportView, { report, labels, t: translator(ratingMessages, locale) }));

/** The h2–h4 headings of the rendered report. */
function renderedHeadings(report: BlindReport, labels: Labels, locale: 'en' | 'ko') {
  return [...renderBlind(report, labels, locale).matchAll(/<h[2-4][^>]*>(.*?)<\/h[2-4]>/g)].map((m) => m[1]);
}

/**
 * The page's frame: the markup with the report's own blocks taken out, every text replaced by a
 * dot and each run of list items by one, so only what the page is made of remains.
 */
const withoutBlocks = (report: BlindReport): BlindReport => ({ ...report, sections: report.sections.map((s) => ({ ...s, blocks: [] })) });
function frameOf(report: BlindReport, labels: Labels) {
  return renderBlind(withoutBlocks(report), labels, 'en')
    .replace(/>[^<]+</g, '>·<')
    .replace(/(?:<li\b[^>]*>.*?<\/li>)+/g, '<li/>');
}

describe.each(testBackends())('study safeguards over offline runs of every system (%s)', (backend) => {
  let handle: DatabaseHandle;
  const bySystem = new Map<ProtocolId, Picked>();
  let nasKo: Picked;
  let nasSamsung: Picked;

  const run = async (protocol: ProtocolId, companyId: string, language: Language): Promise<Picked> => {
    const view = await offlineRun(handle, { protocol, companyId, params: { language, asOf: '2025-06-30' } });
    return { view, reportId: (await getReport({ db: handle.db, runId: view.id }))!.id };
  };

  beforeAll(async () => {
    handle = await seededDatabase(backend);
    for (const protocol of PROTOCOLS) bySystem.set(protocol, await run(protocol, 'tesla', 'en'));
    nasKo = await run('nas', 'tesla', 'ko');
    nasSamsung = await run('nas', 'samsung-electronics', 'en');
  }, 240_000);
  afterAll(async () => handle?.close());

  const problemsOf = async (picks: Picked[]) => {
    const rows = await listRunsOfReports({ db: handle.db, reportIds: picks.map((p) => p.reportId) });
    return pickProblems(rows.map((r) => ({ reportId: r.reportId, companyId: r.companyId, protocol: r.protocol, language: r.language })));
  };

  it('reads what pairs a pick: company, system and output language', async () => {
    const kpd = bySystem.get('kpd-mads')!;
    const rows = await listRunsOfReports({ db: handle.db, reportIds: [kpd.reportId, nasKo.reportId] });
    expect(
      rows
        .map(({ reportId, companyId, protocol, language, status }) => ({ reportId, companyId, protocol, language, status }))
        .sort((a, b) => a.protocol.localeCompare(b.protocol)),
    ).toEqual([
      { reportId: kpd.reportId, companyId: 'tesla', protocol: 'kpd-mads', language: 'en', status: 'succeeded' },
      { reportId: nasKo.reportId, companyId: 'tesla', protocol: 'nas', language: 'ko', status: 'succeeded' },
    ]);
  });

  it('finds nothing wrong with paired reports in one language, five systems included', async () => {
    expect(await problemsOf([bySystem.get('kpd-mads')!, bySystem.get('nas')!])).toEqual({ unpaired: [], mixedLanguages: [] });
    expect(hasPickProblems(await problemsOf([...bySystem.values()]))).toBe(false);
  });

  it('names a report whose company has no report of another system', async () => {
    const problems = await problemsOf([bySystem.get('kpd-mads')!, bySystem.get('nas')!, nasSamsung]);
    expect(problems).toEqual({ unpaired: [nasSamsung.reportId], mixedLanguages: [] });
    // Two reports of the same system for one company pair with nothing either.
    expect((await problemsOf([bySystem.get('nas')!, nasKo])).unpaired.sort()).toEqual([bySystem.get('nas')!.reportId, nasKo.reportId].sort());
  });

  it('names a company whose pair mixes output languages', async () => {
    const problems = await problemsOf([bySystem.get('kpd-mads')!, nasKo]);
    expect(problems).toEqual({ unpaired: [], mixedLanguages: [{ companyId: 'tesla', languages: ['en', 'ko'] }] });
    expect(hasPickProblems(problems)).toBe(true);
  });

  it('blinds every system under the same four neutral headings, in both interface languages', async () => {
    const expected = {
      en: ['Conclusion', 'Points in favour', 'Points against and risks', 'Supporting analysis'],
      ko: ['결론', '긍정적 요인', '부정적 요인과 위험', '근거 분석'],
    };
    for (const locale of ['en', 'ko'] as const) {
      for (const [protocol, { view }] of bySystem) {
        const { report, labels } = await loadBlindReport({ db: handle.db, runId: view.id, locale });
        expect(headingsOf(report), `${protocol} ${locale}`).toEqual(expected[locale]);
        const t = translator(ratingMessages, locale);
        expect(renderedHeadings(report, labels, locale), `${protocol} ${locale} rendered`).toEqual([
          t('reportHeading'),
          ...expected[locale],
          t('sourcesHeading'),
        ]);
      }
    }
  });

  it('gives the evaluator the same frame for every system: the report, then one list of the sources cited, and no transcript', async () => {
    const frames = new Map<string, ProtocolId[]>();
    for (const [protocol, { view }] of bySystem) {
      const { report, labels } = await loadBlindReport({ db: handle.db, runId: view.id, locale: 'en' });
      // The data the page renders: the same keys for every system, nothing of the run's turns.
      expect(Object.keys(report).sort(), protocol).toEqual(['asOf', 'companyName', 'contentLanguage', 'sections', 'sources']);
      expect(
        report.sections.map((s) => s.id),
        protocol,
      ).toEqual(['conclusion', 'favourable', 'adverse', 'analysis']);
      // The sources: each once, by date, with no claim's quoted value; all of them on the page.
      expect(report.sources.length, protocol).toBeGreaterThan(0);
      expect(
        report.sources.every((c) => c.value === undefined && c.source.length > 0),
        protocol,
      ).toBe(true);
      expect(new Set(report.sources.map((c) => JSON.stringify(c))).size, protocol).toBe(report.sources.length);
      expect(
        report.sources.map((c) => c.date),
        protocol,
      ).toEqual(report.sources.map((c) => c.date).sort());
      const html = renderBlind(report, labels, 'en');
      const listed = /data-testid="blind-sources".*$/s.exec(html)![0];
      expect(listed.match(/<li\b/g)?.length, protocol).toBe(report.sources.length);
      // Around the report's own text: no turn, speaker or transcript.
      const around = renderBlind(withoutBlocks(report), labels, 'en');
      for (const word of ['blind-transcript', '<article', '<details', 'Turn ', 'Analyst', 'Affirmative speaker', 'Negative speaker', 'Questions raised']) {
        expect(around, `${protocol}: ${word}`).not.toContain(word);
      }
      const frame = frameOf(report, labels);
      frames.set(frame, [...(frames.get(frame) ?? []), protocol]);
    }
    // One frame for all five systems.
    expect([...frames.values()]).toEqual([[...bySystem.keys()]]);
  });

  it("moves each system's parts under the neutral headings rather than dropping them", async () => {
    const textOf = (blocks: Block[]) => JSON.stringify(blocks);
    // SAS: the stress test's critique and the final report's primary risk under "against", the judge's ruling under analysis.
    const sas = bySystem.get('sas')!;
    const sasDoc = buildReportDoc(await loadReportInput({ db: handle.db, runId: sas.view.id }), 'en', { blind: true });
    const r = redactor({ stepIds: sasDoc.transcript.map((t) => t.step), model: sas.view.model, turnWord: 'Turn' });
    const sasBlind = (await loadBlindReport({ db: handle.db, runId: sas.view.id, locale: 'en' })).report;
    const group = (sectionId: string, title: string) => {
      const g = sasDoc.sections.find((s) => s.id === sectionId)!.blocks.find((b) => b.kind === 'group' && b.title === title);
      return g && g.kind === 'group' ? g.blocks : [];
    };
    const paragraphs = (blocks: Block[]) => blocks.flatMap((b) => (b.kind === 'paragraph' ? [r(b.text)] : []));
    const section = (report: BlindReport, id: string) => report.sections.find((s) => s.id === id)!.blocks;
    expect(paragraphs(group('final-report', 'Primary risk')).length).toBe(1);
    for (const p of paragraphs(group('final-report', 'Primary risk'))) expect(textOf(section(sasBlind, 'adverse'))).toContain(JSON.stringify(p).slice(1, -1));
    for (const p of paragraphs(group('final-report', 'Mitigation'))) expect(textOf(section(sasBlind, 'favourable'))).toContain(JSON.stringify(p).slice(1, -1));
    for (const p of paragraphs(group('final-report', 'Executive summary')))
      expect(textOf(section(sasBlind, 'conclusion'))).toContain(JSON.stringify(p).slice(1, -1));
    const stress = sasDoc.sections.find((s) => s.id === 'stress')!.blocks[0];
    expect(stress.kind).toBe('fields');
    if (stress.kind === 'fields') expect(textOf(section(sasBlind, 'adverse'))).toContain(JSON.stringify(r(stress.items[1].value)).slice(1, -1));

    // Three-round: the rubric's score table is analysis; its key insight concludes.
    const three = (await loadBlindReport({ db: handle.db, runId: bySystem.get('three-round')!.view.id, locale: 'en' })).report;
    expect(section(three, 'analysis').filter((b) => b.kind === 'table').length).toBeGreaterThanOrEqual(2);
    expect(section(three, 'conclusion').some((b) => b.kind === 'fields' && b.items.some((f) => f.label === 'Key insight' && f.value.length > 0))).toBe(true);

    // KPD-MADS: favourable and adverse lines keep their own headings' sides.
    const kpd = bySystem.get('kpd-mads')!;
    const kpdDoc = buildReportDoc(await loadReportInput({ db: handle.db, runId: kpd.view.id }), 'en', { blind: true });
    const kpdBlind = (await loadBlindReport({ db: handle.db, runId: kpd.view.id, locale: 'en' })).report;
    const lines = (blocks: Block[]): string[] => blocks.flatMap((b) => (b.kind === 'list' ? b.items : b.kind === 'group' ? lines(b.blocks) : []));
    const kpdR = redactor({ stepIds: kpdDoc.transcript.map((t) => t.step), model: kpd.view.model, turnWord: 'Turn' });
    expect(lines(section(kpdBlind, 'favourable'))).toEqual(lines(kpdDoc.sections.find((s) => s.id === 'favorable')!.blocks).map(kpdR));
    expect(lines(section(kpdBlind, 'adverse'))).toEqual(lines(kpdDoc.sections.find((s) => s.id === 'adverse')!.blocks).map(kpdR));
  });

  it('leads to the next unrated report: this study in order, then another open one, then none', async () => {
    const db = handle.db;
    const admin = await insertUser({ db, email: 'admin@next.test', name: 'Admin', role: 'admin', passwordHash: null });
    const me = await insertUser({ db, email: 'me@next.test', name: 'Me', role: 'evaluator', passwordHash: null });
    const other = await insertUser({ db, email: 'other@next.test', name: 'Other', role: 'evaluator', passwordHash: null });
    const reports = [...bySystem.values()].slice(0, 3).map((p) => p.reportId);
    const make = async (name: string, seed: number, ids: string[], open: boolean) => {
      const study = await insertStudy({
        db,
        name,
        seed,
        createdById: admin.id,
        assignments: planAssignments({ seed, evaluatorIds: [me.id, other.id], reportIds: ids }),
      });
      if (open) await setStudyStatus({ db, id: study.id, status: 'open' });
      return study;
    };
    const first = await make('First', 1, reports, true);
    const second = await make('Second', 2, [nasSamsung.reportId], true);
    await make('Draft', 3, [nasKo.reportId], false);
    const mine = (await listAssignmentsForEvaluator({ db, evaluatorId: me.id })).filter((a) => a.studyId === first.id);
    const theirs = (await listAssignmentsForEvaluator({ db, evaluatorId: other.id })).filter((a) => a.studyId === first.id);
    const inSecond = (await listAssignmentsForEvaluator({ db, evaluatorId: me.id })).find((a) => a.studyId === second.id)!;
    expect(mine.map((a) => a.position)).toEqual([1, 2, 3]);
    const full = Object.fromEntries(ALL_ITEMS.map((k) => [k, 3]));
    const next = (excludeId: string, studyId = first.id) => nextAssignmentForEvaluator({ db, evaluatorId: me.id, studyId, excludeId });

    // Another evaluator's progress changes nothing of mine.
    await submitAssignment({ db, id: theirs[1].id, answers: full });
    expect(await submitAssignment({ db, id: mine[0].id, answers: full })).toBe(true);
    expect(await next(mine[0].id)).toBe(mine[1].id);
    // Rated out of order: the one still open in this study comes first, by position.
    expect(await submitAssignment({ db, id: mine[2].id, answers: full })).toBe(true);
    expect(await next(mine[2].id)).toBe(mine[1].id);
    expect(await submitAssignment({ db, id: mine[1].id, answers: full })).toBe(true);
    // This study done: the other open study; never the draft.
    expect(await next(mine[1].id)).toBe(inSecond.id);
    expect(await submitAssignment({ db, id: inSecond.id, answers: full })).toBe(true);
    expect(await next(inSecond.id, second.id)).toBeUndefined();
    // Closing a study takes its unrated reports off the way.
    expect(await nextAssignmentForEvaluator({ db, evaluatorId: other.id, studyId: first.id, excludeId: theirs[1].id })).toBe(theirs[0].id);
    await setStudyStatus({ db, id: first.id, status: 'closed' });
    expect(await nextAssignmentForEvaluator({ db, evaluatorId: other.id, studyId: first.id, excludeId: theirs[1].id })).toBe(
      (await listAssignmentsForEvaluator({ db, evaluatorId: other.id })).find((a) => a.studyId === second.id)!.id,
    );
  });
});

describe('the sources an evaluator sees', () => {
  it('lists each source once, by date then name, without the value one claim quoted', () => {
    const cite = (source: string, date: string, value?: string) => ({ source, date, value, verified: true, url: `https://example.com/${source}` });
    expect(blindSources([cite('B', '2025-02-01', '12%'), cite('A', '2025-03-01'), cite('B', '2025-02-01', '40 days'), cite('C', '2025-02-01')])).toEqual([
      { source: 'B', date: '2025-02-01', verified: true, url: 'https://example.com/B' },
      { source: 'C', date: '2025-02-01', verified: true, url: 'https://example.com/C' },
      { source: 'A', date: '2025-03-01', verified: true, url: 'https://example.com/A' },
    ]);
    // Verified and unverified citations of one source stay apart: the badge says which.
    expect(blindSources([cite('A', '2025-01-01'), { ...cite('A', '2025-01-01'), verified: false }]).map((c) => c.verified)).toEqual([false, true]);
  });
});
