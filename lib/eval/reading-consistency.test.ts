// Reading consistency on real demo-pool items, tagged as the import tags them
// (lib/pool/factors.ts): a creditor-bank workout filing is adverse, a clean internal-control
// audit is favorable, a board composition note is context.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tagByCategory } from '@/lib/pool/factors';
import { buildFactorPanels } from './panels';
import { readingMismatches, readsAgainst, type ReadingOf } from './reading-consistency';

type DemoItem = { id: string; category: string; title: string; text: string; source_name: string; published_date: string };
const demo = readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as DemoItem);
const byId = new Map(demo.map((d) => [d.id, d]));
const readingOf: ReadingOf = (id) => {
  const item = byId.get(id);
  return item ? tagByCategory(item).polarity : undefined;
};
const cite = (id: string) => {
  const item = byId.get(id)!;
  return { evidenceId: id, source: item.source_name, date: item.published_date, verified: true };
};

const WORKOUT = 'taeyoung-engineering-construction-001';
const CLEAN_AUDIT = 'samsung-electronics-018';
const BOARD = 'samsung-electronics-017';

describe('reading consistency', () => {
  it('reads the demo items as the import tags them', () => {
    expect([readingOf(WORKOUT), readingOf(CLEAN_AUDIT), readingOf(BOARD)]).toEqual(['adverse', 'favorable', 'context']);
  });

  it("flags a favorable claim citing 태영건설's creditor-bank workout filing", () => {
    const claim = { polarity: 'favorable', citations: [cite(WORKOUT)] };
    expect(readsAgainst(claim, readingOf)).toEqual([{ evidenceId: WORKOUT, reading: 'adverse' }]);
  });

  it('flags an adverse claim citing a clean audit, and names only the contradicting item, once', () => {
    const claim = { polarity: 'adverse', citations: [cite(WORKOUT), cite(CLEAN_AUDIT), cite(CLEAN_AUDIT)] };
    expect(readsAgainst(claim, readingOf)).toEqual([{ evidenceId: CLEAN_AUDIT, reading: 'favorable' }]);
  });

  it('never flags a context item, nor a context-dependent claim, nor an item without a tag', () => {
    expect(readsAgainst({ polarity: 'favorable', citations: [cite(BOARD)] }, readingOf)).toEqual([]);
    expect(readsAgainst({ polarity: 'adverse', citations: [cite(BOARD)] }, readingOf)).toEqual([]);
    expect(readsAgainst({ polarity: 'context', citations: [cite(WORKOUT), cite(CLEAN_AUDIT)] }, readingOf)).toEqual([]);
    // A web result of the run or an id that did not resolve has no tag to contradict.
    expect(
      readsAgainst(
        {
          polarity: 'favorable',
          citations: [
            { evidenceId: 'web-run-1', source: 'news', date: '2024-01-12' },
            { source: 'DART', date: '2024-01-11' },
          ],
        },
        readingOf,
      ),
    ).toEqual([]);
  });

  it('finds the claims and three-round arguments of a run that read against their evidence, in protocol order', () => {
    const turns = [
      {
        step: 'D1',
        team: 'affirmative',
        status: 'done',
        output: {
          text: 'Capacity to repay holds up.',
          claims: [
            { id: 'D1-c1', text: 'Creditor support secures repayment.', factor: 'internal_control_risk', polarity: 'favorable', citations: [cite(WORKOUT)] },
            { id: 'D1-c2', text: 'The board has outside directors.', factor: 'internal_control_risk', polarity: 'favorable', citations: [cite(BOARD)] },
          ],
          questions: [],
        },
      },
      // Not finished: nothing of it is judged.
      {
        step: 'D2',
        team: 'negative',
        status: 'running',
        output: { claims: [{ id: 'D2-c1', text: 'x', factor: 'other', polarity: 'adverse', citations: [cite(CLEAN_AUDIT)] }] },
      },
      {
        step: 'R1-N',
        team: 'negative',
        status: 'done',
        output: {
          text: 'Round one.',
          arguments: [{ id: 'N1', claim: 'Controls are weak.', reasoning: 'See the audit.', factor: 'internal_control_risk', evidence: [cite(CLEAN_AUDIT)] }],
        },
      },
    ];
    expect(readingMismatches(turns, readingOf)).toEqual([
      {
        step: 'D1',
        claimId: 'D1-c1',
        source: 'claim',
        polarity: 'favorable',
        text: 'Creditor support secures repayment.',
        against: [{ evidenceId: WORKOUT, reading: 'adverse' }],
      },
      {
        step: 'R1-N',
        claimId: 'N1',
        source: 'argument',
        polarity: 'adverse',
        text: 'Controls are weak.',
        against: [{ evidenceId: CLEAN_AUDIT, reading: 'favorable' }],
      },
    ]);
  });

  it('marks the pro/con panel arguments that read against their evidence, and only when the readings are given', () => {
    const turns = [
      {
        step: 'D1',
        team: 'affirmative' as const,
        act: 'constructive',
        status: 'done',
        output: {
          text: 'Capacity to repay holds up.',
          claims: [
            { id: 'D1-c1', text: 'Creditor support secures repayment.', factor: 'internal_control_risk', polarity: 'favorable', citations: [cite(WORKOUT)] },
            {
              id: 'D1-c2',
              text: 'Internal controls were found effective.',
              factor: 'internal_control_risk',
              polarity: 'favorable',
              citations: [cite(CLEAN_AUDIT)],
            },
          ],
          questions: [],
        },
      },
    ];
    const marked = (readings?: ReadingOf) =>
      buildFactorPanels(turns, readings)
        .flatMap((p) => [...p.favorable, ...p.adverse, ...p.context])
        .map((a) => [a.claimId, a.readsAgainst]);
    expect(marked(readingOf)).toEqual([
      ['D1-c1', [{ evidenceId: WORKOUT, reading: 'adverse' }]],
      ['D1-c2', []],
    ]);
    expect(marked()).toEqual([
      ['D1-c1', []],
      ['D1-c2', []],
    ]);
  });
});
