// The report a credit committee reads: red flags before anything else (page model, Markdown),
// and claims that read against their evidence flagged on the claim and in the final checks.
// Built from the real demo items: 태영건설's creditor-bank workout filing (OpenDART
// bnkMngtPcbg), a clean internal-control audit and a board composition note of 삼성전자, tagged
// as the import tags them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Run } from '@/lib/db/schema';
import type { RedFlag } from '@/lib/domain/red-flags';
import { tagByCategory } from '@/lib/pool/factors';
import { findRedFlags } from '@/lib/pool/red-flags';
import { renderMarkdown } from '@/lib/report/markdown';
import { buildReportDoc, type ReportInput, type Sources } from '@/lib/report/model';
import { runDocument } from '@/lib/report/run-doc';
import { reduceRun, stateFromView } from '@/lib/report/run-state';

type DemoItem = {
  id: string;
  category: string;
  title: string;
  text: string;
  event_date: string | null;
  published_date: string;
  source_name: string;
  source_url: string;
};
const demo = new Map(
  readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as DemoItem)
    .map((d) => [d.id, d]),
);
const WORKOUT = demo.get('taeyoung-engineering-construction-001')!;
const CLEAN_AUDIT = demo.get('samsung-electronics-018')!;
const BOARD = demo.get('samsung-electronics-017')!;

/** A cited source as a finished run's snapshot records it: title, link and the item's tagged reading. */
const source = (d: DemoItem): Sources[string] => ({
  title: d.title,
  url: d.source_url,
  publishedDate: d.published_date,
  sourceName: d.source_name,
  kind: 'evidence',
  frozen: true,
  polarity: tagByCategory(d).polarity,
});
const cite = (d: DemoItem) => ({ evidenceId: d.id, source: d.source_name, date: d.published_date, verified: true });

function input({
  redFlags,
  claims,
}: {
  redFlags: RedFlag[];
  claims: { id: string; polarity: 'favorable' | 'adverse' | 'context'; text: string; cites: DemoItem[] }[];
}): ReportInput {
  const at = new Date('2025-06-30T09:00:00Z');
  const run = {
    id: '00000000-0000-4000-8000-000000000001',
    protocol: 'kpd-mads',
    status: 'succeeded',
    error: null,
    provider: 'offline',
    model: 'offline',
    mode: 'dag',
    companyId: 'taeyoung-engineering-construction',
    params: { asOf: '2025-06-30', language: 'en' },
    redFlags,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: '0',
  } as unknown as Run;
  const step = (stepId: string, team: string, output: unknown) => ({
    stepId,
    agent: team === 'affirmative' ? 'A1' : 'AG',
    team,
    act: team === 'affirmative' ? 'constructive' : 'report',
    contextStepIds: [],
    status: 'done',
    text: 'A turn.',
    output,
    toolCalls: [],
    startedAt: at,
    finishedAt: at,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: '0',
    error: null,
    repairs: [],
  });
  const d1 = {
    text: 'Capacity to repay holds up.',
    claims: claims.map((c) => ({ id: c.id, text: c.text, factor: 'internal_control_risk', polarity: c.polarity, citations: c.cites.map(cite) })),
    questions: [],
  };
  const content = { overview: 'Overview.', objective: 'Objective.', favorableSummary: [], adverseSummary: [], topics: [] };
  const view = runDocument({
    run,
    steps: [step('D1', 'affirmative', d1), step('AG', 'neutral', content)] as never,
    report: { content, checks: [] } as never,
    company: { id: 'taeyoung-engineering-construction', name: '태영건설', nameEn: 'Taeyoung Engineering & Construction' } as never,
  });
  const sources = Object.fromEntries([WORKOUT, CLEAN_AUDIT, BOARD].map((d) => [d.id, source(d)]));
  return { view, sources, sourcesState: 'frozen', protocolName: 'KPD-MADS', totalSteps: 2, redFlagSources: { [WORKOUT.id]: source(WORKOUT) } };
}

const workoutFlags = () =>
  findRedFlags([
    {
      id: WORKOUT.id,
      category: WORKOUT.category,
      title: WORKOUT.title,
      text: WORKOUT.text,
      eventDate: WORKOUT.event_date,
      publishedDate: WORKOUT.published_date,
    },
  ]);

describe('red flags in the report', () => {
  it('finds the workout in the real filing, dated when the procedure opened', () => {
    expect(workoutFlags().map((f) => [f.kind, f.evidenceId, f.date])).toContainEqual(['creditor_workout', WORKOUT.id, '2024-01-11']);
  });

  it('lists each flag with its kind in words, date, title and source link, in English and Korean', () => {
    const flags = workoutFlags().filter((f) => f.kind === 'creditor_workout');
    const en = buildReportDoc(input({ redFlags: flags, claims: [] }), 'en');
    expect(en.redFlags).toEqual([
      {
        kind: 'creditor_workout',
        label: 'Creditor-bank workout',
        date: '2024-01-11',
        title: WORKOUT.title,
        evidenceId: WORKOUT.id,
        source: WORKOUT.source_name,
        url: WORKOUT.source_url,
      },
    ]);
    expect(en.redFlagLabels.heading).toBe('Red flags');
    const ko = buildReportDoc(input({ redFlags: flags, claims: [] }), 'ko');
    expect(ko.redFlags.map((f) => f.label)).toEqual(['채권은행 관리절차(워크아웃)']);
    expect(ko.redFlagLabels.heading).toBe('위험 신호');
  });

  it("names the flagged item as the run's snapshot froze it, not as the pool reads after an edit", () => {
    const flags = workoutFlags().filter((f) => f.kind === 'creditor_workout');
    const base = input({ redFlags: flags, claims: [] });
    const edited = { ...base, redFlagSources: { [WORKOUT.id]: { ...source(WORKOUT), url: 'https://edited.example/elsewhere', sourceName: 'Edited' } } };
    expect(buildReportDoc(edited, 'en').redFlags.map((f) => [f.url, f.source])).toEqual([[WORKOUT.source_url, WORKOUT.source_name]]);
  });

  it('Markdown: the red flags come right after the title, before the header table, with the link to the filing', () => {
    const flags = workoutFlags().filter((f) => f.kind === 'creditor_workout');
    const md = renderMarkdown(buildReportDoc(input({ redFlags: flags, claims: [] }), 'en'));
    const heading = md.indexOf('## ⚠ Red flags (1)');
    expect(heading).toBeGreaterThan(md.indexOf('# Crosscheck report'));
    expect(heading).toBeLessThan(md.indexOf('| Company'));
    expect(md).toContain(`- **Creditor-bank workout** — 2024-01-11 — `);
    expect(md).toContain(`](${WORKOUT.source_url})`);
  });

  it('says nothing about red flags when there are none: no empty panel', () => {
    const doc = buildReportDoc(input({ redFlags: [], claims: [] }), 'en');
    expect(doc.redFlags).toEqual([]);
    expect(renderMarkdown(doc)).not.toContain('Red flags');
  });
});

describe('reads against its evidence, in the report', () => {
  it("flags a favorable claim citing the workout filing on the claim's turn and in the final checks", () => {
    const doc = buildReportDoc(
      input({
        redFlags: [],
        claims: [
          { id: 'D1-c1', polarity: 'favorable', text: 'Creditor support secures repayment.', cites: [WORKOUT] },
          { id: 'D1-c2', polarity: 'favorable', text: 'Outside directors sit on the board.', cites: [BOARD] },
          { id: 'D1-c3', polarity: 'favorable', text: 'Internal controls were found effective.', cites: [CLEAN_AUDIT] },
        ],
      }),
      'en',
    );
    const check = doc.checks.find((c) => c.id === 'reading-consistency');
    expect(check).toEqual({
      id: 'reading-consistency',
      ok: false,
      label: 'Every claim reads with the tagged reading of the evidence it cites',
      items: [`D1-c1 (D1, Favorable) cites an item tagged adverse: ${WORKOUT.title}`],
    });
    expect(doc.transcript.find((t) => t.step === 'D1')?.flags).toEqual([
      `D1-c1 reads against its evidence: Favorable claim, cited item tagged adverse (${WORKOUT.title})`,
    ]);
    const md = renderMarkdown(doc);
    expect(md).toContain('- **⚠** D1-c1 reads against its evidence');
    expect(md).toContain('- **flagged** — Every claim reads with the tagged reading');
  });

  it('passes when every claim reads with its evidence; a context item never flags', () => {
    const doc = buildReportDoc(
      input({
        redFlags: [],
        claims: [
          { id: 'D1-c1', polarity: 'adverse', text: 'The company is in a creditor-led workout.', cites: [WORKOUT] },
          { id: 'D1-c2', polarity: 'adverse', text: 'The board composition does not offset it.', cites: [BOARD] },
        ],
      }),
      'ko',
    );
    expect(doc.checks.find((c) => c.id === 'reading-consistency')).toEqual({
      id: 'reading-consistency',
      ok: true,
      label: '모든 주장이 인용한 증거의 태그와 같은 방향으로 읽힘',
      items: [],
    });
    expect(doc.transcript.every((t) => t.flags.length === 0)).toBe(true);
  });
});

describe('red flags on the live run page', () => {
  const flag: RedFlag = { kind: 'creditor_workout', evidenceId: WORKOUT.id, date: '2024-01-11', title: WORKOUT.title };
  const live = { seq: 0, events: [] };

  it('the first paint carries the flags the run stored; a page open since the launch gets them with run-started', () => {
    const { view } = input({ redFlags: [flag], claims: [] });
    const stored = stateFromView(view, { startedAt: null, finishedAt: null, redFlags: [flag] }, live, {});
    expect(stored.redFlags).toEqual([flag]);

    const queued = stateFromView({ ...view, status: 'queued' }, { startedAt: null, finishedAt: null, redFlags: [] }, live, {});
    expect(queued.redFlags).toEqual([]);
    const ref = {
      id: WORKOUT.id,
      title: WORKOUT.title,
      date: WORKOUT.published_date,
      source: WORKOUT.source_name,
      url: WORKOUT.source_url,
      polarity: 'adverse' as const,
    };
    const started = reduceRun(queued, {
      type: 'run-started',
      runId: view.id,
      at: '2025-06-30T09:00:00.000Z',
      steps: [],
      redFlags: [flag],
      evidence: { [WORKOUT.id]: ref },
    });
    expect(started.redFlags).toEqual([flag]);
    expect(started.evidence[WORKOUT.id]).toEqual(ref);
    // A run-started without flags (a retry's second start) keeps what the page shows.
    expect(reduceRun(started, { type: 'run-started', runId: view.id, at: '2025-06-30T09:05:00.000Z', steps: [] }).redFlags).toEqual([flag]);

    // A red-flag screening ends before any run-started: a page open since the launch gets the
    // flags and their items with its end.
    const screened = reduceRun(queued, {
      type: 'run-finished',
      runId: view.id,
      at: '2025-06-30T09:00:01.000Z',
      status: 'red_flag_screening',
      redFlags: [flag],
      evidence: { [WORKOUT.id]: ref },
    });
    expect({ status: screened.status, redFlags: screened.redFlags, item: screened.evidence[WORKOUT.id] }).toEqual({
      status: 'red_flag_screening',
      redFlags: [flag],
      item: ref,
    });
  });
});
