// "What the committee must weigh" (lib/report/weigh.ts): the last section of every finished
// report, on every system; its points are the most material ones of each side, on distinct
// factors first; decisive events say whether the report answers them; the gaps count what the
// final checks found and name the factors no side argued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { buildReportDoc, type ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { weighSection, type WeighInput } from '@/lib/report/weigh';
import type { Block } from '@/lib/report/doc';

const listOf = (blocks: Block[], title: string): string[] => {
  const group = blocks.find((b) => b.kind === 'group' && b.title === title);
  const list = group?.kind === 'group' ? group.blocks.find((b) => b.kind === 'list') : undefined;
  return list?.kind === 'list' ? list.items : [];
};

const cite = (n: number) => ({ evidenceId: `e${n}`, source: 'S', date: '2024-01-01', verified: true });
const base: Omit<WeighInput, 'turns'> = {
  sources: {
    e1: { title: 'Workout filing', url: 'https://dart.fss.or.kr/1', publishedDate: '2024-01-11', kind: 'evidence' },
    e2: { title: 'Order win', url: 'https://dart.fss.or.kr/2', publishedDate: '2024-03-01', kind: 'evidence' },
  },
  flags: [{ kind: 'creditor_workout', label: 'Creditor-bank workout', date: '2024-01-11', title: 'Workout filing', evidenceId: 'e1' }],
  checks: [
    { id: 'red-flags-addressed', ok: true, label: '', items: [] },
    { id: 'stale-evidence', ok: false, label: '', items: ['D1: e7', 'D3: e8'] },
    { id: 'after-as-of', ok: false, label: '', items: ['D4: e9 2026-01-01'] },
  ],
  locale: 'en',
  factorLabel: (f) => f.replace(/_/g, ' '),
  speakerLabel: (a) => (a === 'aff' ? 'the affirmative' : 'the negative'),
  cite: (cs) => (cs as ReturnType<typeof cite>[]).map((c) => ({ source: c.source, date: c.date, evidenceId: c.evidenceId, verified: c.verified })),
};

describe('weighSection', () => {
  it('ranks a point resting on a decisive event first, keeps distinct factors, and counts the gaps', () => {
    const claim = (id: string, text: string, factor: string, polarity: string, citations: unknown[]) => ({ id, text, factor, polarity, citations });
    const section = weighSection({
      ...base,
      turns: [
        {
          step: 'D1',
          agent: 'aff',
          team: 'affirmative',
          status: 'done',
          output: {
            claims: [
              claim('c1', 'Orders grew.', 'industry_growth_outlook', 'favorable', [cite(2)]),
              claim('c2', 'Orders grew again.', 'industry_growth_outlook', 'favorable', [cite(2), cite(2)]),
              claim('c3', 'Certified plants.', 'certifications', 'favorable', []),
            ],
          },
        },
        {
          step: 'D3',
          agent: 'neg',
          team: 'negative',
          status: 'done',
          output: {
            claims: [
              claim('n1', 'Margins are thin.', 'economic_sensitivity', 'adverse', [cite(2)]),
              claim('n2', 'The creditors run its debts.', 'internal_control_risk', 'adverse', [cite(1)]),
            ],
          },
        },
        { step: 'D4', agent: 'neg', team: 'negative', status: 'failed', output: { claims: [claim('x', 'Never saved.', 'certifications', 'adverse', [])] } },
      ],
    });
    expect(section.id).toBe('weigh');
    expect(listOf(section.blocks, 'Strongest points against it')).toEqual([
      'The creditors run its debts. — the negative, on internal control risk',
      'Margins are thin. — the negative, on economic sensitivity',
    ]);
    // More evidence ranks higher; distinct factors first: the other growth claim waits behind certifications.
    expect(listOf(section.blocks, 'Strongest points for repayment capability')).toEqual([
      'Orders grew again. — the affirmative, on industry growth outlook',
      'Certified plants. — the affirmative, on certifications',
      'Orders grew. — the affirmative, on industry growth outlook',
    ]);
    expect(listOf(section.blocks, 'Decisive events')).toEqual(['Creditor-bank workout, 2024-01-11: Workout filing (the report answers it)']);
    const gaps = listOf(section.blocks, 'Evidence that is missing or weak');
    expect(gaps[0]).toMatch(/^No side argued: industry competition intensity; technological disruption risk; /);
    expect(gaps[0]).not.toContain('certifications');
    expect(gaps[0]).not.toContain('industry growth outlook');
    expect(gaps.slice(1)).toEqual(['2 cited items are older than the recency window.', '1 citation is dated after the as-of date and supports nothing.']);
  });

  it('says when the report leaves a decisive event unanswered', () => {
    const section = weighSection({ ...base, turns: [], checks: [{ id: 'red-flags-addressed', ok: false, label: '', items: ['Workout filing [e1]'] }] });
    expect(listOf(section.blocks, 'Decisive events')).toEqual(['Creditor-bank workout, 2024-01-11: Workout filing (the report does not answer it)']);
  });
});

describe.each(testBackends())('the bottom line of every system on %s', (backend) => {
  let handle: DatabaseHandle;
  const inputs = new Map<string, ReportInput>();
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const protocol of PROTOCOLS) inputs.set(protocol, await finishedRun(handle, protocol, 'samsung-electronics', 'ko'));
  }, 240_000);
  afterAll(() => handle?.close());

  it.each(PROTOCOLS)('%s: the report ends with what the committee must weigh, points of both sides and the decisive events', (protocol) => {
    for (const locale of ['en', 'ko'] as const) {
      const doc = buildReportDoc(inputs.get(protocol)!, locale);
      const last = doc.sections.at(-1)!;
      expect(last.id).toBe('weigh');
      const titles =
        locale === 'en'
          ? ['Strongest points for repayment capability', 'Strongest points against it', 'Decisive events']
          : ['상환능력을 뒷받침하는 가장 강한 논점', '상환능력에 반하는 가장 강한 논점', '결정적 사건'];
      const [pro, con, events] = titles.map((title) => listOf(last.blocks, title));
      expect(pro.length, `${protocol} ${locale}: favorable points`).toBeGreaterThan(0);
      expect(con.length, `${protocol} ${locale}: adverse points`).toBeGreaterThan(0);
      expect(pro.length).toBeLessThanOrEqual(3);
      // The debaters' own points, not the aggregator's topics that restate them turn after turn.
      if (protocol === 'kpd-mads') expect([...pro, ...con].filter((l) => /— (aggregator|종합 에이전트)/.test(l))).toEqual([]);
      // Samsung's four sanctions are listed, each saying whether the report answers it, as its check says.
      expect(events).toHaveLength(doc.redFlags.length);
      const check = doc.checks.find((c) => c.id === 'red-flags-addressed');
      const answered = locale === 'en' ? '(the report answers it)' : '(보고서가 이를 다룸)';
      expect(events.filter((e) => e.endsWith(answered)).length).toBe(doc.redFlags.length - (check?.items.length ?? 0));
    }
  });
});
