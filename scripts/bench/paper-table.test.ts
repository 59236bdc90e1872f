import { describe, expect, it } from 'vitest';
import { wilcoxonSignedRank } from '@/lib/eval/stats';
import reference from '@/lib/eval/fixtures/wilcoxon-reference.json';
import { PAPER, PAPER_WILCOXON, type PaperWilcoxonRow } from './paper-published';
import {
  followsNote,
  formatLatencyTable,
  formatWilcoxonTable,
  latencyRatio,
  mean,
  paperWilcoxonTable,
  roundsTo,
  summarisePaperCases,
  uncorrectedFromWn,
  whichMode,
  whyNotMeasured,
  wilcoxonTableRow,
  type PaperCase,
} from './paper-table';

const TOL = 1e-9;
const scipy = (name: string) => reference.wilcoxon.find((c) => c.name === name)!;

// Three demo companies measured, one left out as the engine leaves a thin pool out: Taeyoung E&C
// has a single item (its creditor-bank management disclosure) at the as-of date.
const cases: PaperCase[] = [
  {
    companyId: 'samsung-electronics',
    name: 'Samsung Electronics Co., Ltd.',
    kpd: { sequentialMs: 21_500, dagMs: 15_100, rei: 18, breadth: 6, depths: [3, 3, 3, 3, 3, 3], completionTokens: 8050, calls: 11 },
    nas: { sequentialMs: 7_800, dagMs: 7_400, rei: 10, breadth: 10, depths: Array(10).fill(1), completionTokens: 3398, calls: 1 },
  },
  {
    companyId: 'taeyoung-engineering-construction',
    name: 'Taeyoung Engineering & Construction Co., Ltd.',
    excluded: {
      status: 'insufficient_evidence',
      reason: whyNotMeasured(
        'insufficient_evidence',
        { items: 1, factors: 1, minItems: 3, minFactors: 2, missingFactors: ['management_continuity', 'employment_stability'] },
        null,
      ),
    },
  },
  {
    companyId: 'tesla',
    name: 'Tesla, Inc.',
    kpd: { sequentialMs: 19_600, dagMs: 13_700, rei: 18, breadth: 6, depths: [3, 3, 3, 3, 3, 3], completionTokens: 8137, calls: 11 },
    nas: { sequentialMs: 6_600, dagMs: 8_100, rei: 9, breadth: 9, depths: Array(9).fill(1), completionTokens: 1139, calls: 1 },
  },
  {
    companyId: 'travelers-companies',
    name: 'The Travelers Companies, Inc.',
    kpd: { sequentialMs: 16_100, dagMs: 9_900, rei: 9, breadth: 3, depths: [3, 3, 3], completionTokens: 6095, calls: 11 },
    nas: { sequentialMs: 2_700, dagMs: 2_600, rei: 3, breadth: 3, depths: [1, 1, 1], completionTokens: 845, calls: 1 },
  },
];

describe('latency ratio and means', () => {
  it("is the ratio of the mean latencies, as the paper's 91.97 s / 11.55 s", () => {
    expect(latencyRatio([91_970], [11_550])).toBeCloseTo(7.9628, 4);
    // Mean of ratios would be (10 + 2) / 2 = 6; the paper compares means: 22 / 6.
    expect(latencyRatio([20, 24], [2, 10])).toBeCloseTo(22 / 6, 12);
    expect(latencyRatio([], [1])).toBeNull();
    expect(latencyRatio([5], [0])).toBeNull();
    expect(mean([])).toBeNull();
  });

  it('leaves a case ended as insufficient evidence out of the means and lists it with its reason', () => {
    const summary = summarisePaperCases(cases);
    expect(summary.included).toEqual(['samsung-electronics', 'tesla', 'travelers-companies']);
    expect(summary.excluded).toEqual([
      {
        companyId: 'taeyoung-engineering-construction',
        name: 'Taeyoung Engineering & Construction Co., Ltd.',
        status: 'insufficient_evidence',
        reason:
          '1 item over 1 factor at the as-of date, below the 3 items over 2 factors a debate needs; no evidence on management continuity, employment stability',
      },
    ]);
    expect(summary.mean!.kpd.sequentialS).toBeCloseTo(19.0666667, 6);
    expect(summary.mean!.nas.sequentialS).toBeCloseTo(5.7, 9);
    expect(summary.mean!.kpd.dagS).toBeCloseTo(12.9, 9);
    expect(summary.mean!.kpd.rei).toBe(15);
    expect(summary.mean!.nas.rei).toBeCloseTo(22 / 3, 12);
    expect(summary.mean!.nas.breadth).toBeCloseTo(22 / 3, 12);
    expect(summary.ratio.sequential).toBeCloseTo(57_200 / 17_100, 12);
    expect(summary.ratio.dag).toBeCloseTo(38_700 / 18_100, 12);
    expect(summary.reiRatio).toBeCloseTo(15 / (22 / 3), 12);
    expect(summary.mean!.kpd.completionTokens).toBeCloseTo(22_282 / 3, 9);
    expect(summary.mean!.nas.completionTokens).toBe(1794);
    expect(summary.paper).toEqual({ kpdS: 91.97, nasS: 11.55, ratio: 91.97 / 11.55, kpdRei: 14.33, nasRei: 8, reiRatio: 14.33 / 8 });
  });

  it('has no means and no ratio when no case could be compared', () => {
    const summary = summarisePaperCases([cases[1]]);
    expect(summary.mean).toBeNull();
    expect(summary.ratio).toEqual({ sequential: null, dag: null });
    expect(summary.reiRatio).toBeNull();
    expect(summary.excluded).toHaveLength(1);
  });

  it("records the paper's trees consistently: REI means are the means of the per-case figures", () => {
    expect(mean(PAPER.tree.kpd.rei)!.toFixed(2)).toBe(PAPER.tree.kpd.meanRei.toFixed(2));
    expect(mean(PAPER.tree.nas.rei)!.toFixed(2)).toBe(PAPER.tree.nas.meanRei.toFixed(2));
  });

  it('prints per-case rows, the mean, the paper and the excluded case', () => {
    const text = formatLatencyTable(cases, summarisePaperCases(cases), { ttftMs: 100, tokensPerSecond: 500 });
    expect(text).toContain('at 100 ms to first token and 500 tokens/s');
    const row = (label: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(label))!
        .split(/\s{2,}/);
    expect(row('Samsung Electronics')).toEqual(['Samsung Electronics Co., Ltd.', '21.50', '15.10', '7.80', '7.40', '2.76', '18 (6)', '10 (10)']);
    expect(row('mean of 3')).toEqual(['mean of 3', '19.07', '12.90', '5.70', '6.03', '3.35', '15.00 (5.0)', '7.33 (7.3)']);
    expect(row('paper (GPT-4o, 3 cases)')).toEqual(['paper (GPT-4o, 3 cases)', '91.97', '—', '11.55', '—', '7.96', '14.33 (6.3)', '8.00 (8.0)']);
    expect(text).toContain('KPD-MADS / NAS latency: 3.35× sequential, 2.14× concurrent; the paper: 7.96× (91.97 s / 11.55 s).');
    expect(text).toContain('- Taeyoung Engineering & Construction Co., Ltd.: insufficient evidence: 1 item over 1 factor');
    expect(text).not.toMatch(/^Taeyoung/m);
    expect(text).toContain(
      "here 7427 completion tokens per case for KPD-MADS over 11 calls against 1794 for NAS in 1 call (the offline analyst's answers, not GPT-4o's).",
    );
  });

  it('says why a run without a shortfall was not measured', () => {
    expect(whyNotMeasured('failed', null, ' Step D3 failed: the model answered with no claims. ')).toBe('Step D3 failed: the model answered with no claims.');
    expect(whyNotMeasured('budget_exceeded', undefined, null)).toBe('the run ended budget exceeded');
    const nine = [
      'industry_growth_outlook',
      'industry_competition_intensity',
      'technological_disruption_risk',
      'economic_sensitivity',
      'government_support_programs',
      'management_continuity',
      'employment_stability',
      'certifications',
      'public_interest_trend',
    ];
    expect(whyNotMeasured('insufficient_evidence', { items: 1, factors: 1, minItems: 3, minFactors: 2, missingFactors: nine }, null)).toBe(
      '1 item over 1 factor at the as-of date, below the 3 items over 2 factors a debate needs; no evidence on 9 of the 10 guideline factors',
    );
  });
});

describe('which tie mode a published figure follows', () => {
  it('compares at the printed precision, half-up', () => {
    expect(roundsTo(-3.059411708155671, -3.059, 3)).toBe(true);
    expect(roundsTo(-3.1529631254723287, -3.059, 3)).toBe(false);
    expect(roundsTo(0.0016162222150599857, 0.002, 3)).toBe(true);
    expect(roundsTo(0.0025, 0.003, 3)).toBe(true);
    expect(roundsTo(0.00149, 0.002, 3)).toBe(false);
    expect(roundsTo(null, 0.002, 3)).toBe(false);
  });

  it("puts the paper's W = 0, n = 12 row down to: Z and r without tie correction, p either way", () => {
    const c = scipy('paper n=12 W=0 with ties');
    expect(whichMode(-3.059, 3, c.tieCorrected.z, c.uncorrected.z)).toBe('uncorrected');
    expect(whichMode(-0.883, 3, c.tieCorrected.r, c.uncorrected.r)).toBe('uncorrected');
    expect(whichMode(0.002, 3, c.tieCorrected.p, c.uncorrected.p)).toBe('either');
  });

  it('tells a tie-corrected p from an uncorrected one when the rounding separates them', () => {
    // Five identical differences: p = .025 tie-corrected, .043 without (SciPy).
    const c = scipy('all differences tied');
    expect(whichMode(0.025, 3, c.tieCorrected.p, c.uncorrected.p)).toBe('tie-corrected');
    expect(whichMode(0.043, 3, c.tieCorrected.p, c.uncorrected.p)).toBe('uncorrected');
    expect(whichMode(0.03, 2, c.tieCorrected.p, c.uncorrected.p)).toBe('tie-corrected');
    expect(whichMode(0.01, 3, c.tieCorrected.p, c.uncorrected.p)).toBe('neither');
    expect(whichMode(0.01, 3, undefined, c.uncorrected.p)).toBe('unknown');
  });

  it('gives the uncorrected Z, p and r from W and n alone, as SciPy does for any ratings with that W and n', () => {
    for (const name of ['paper n=12 W=0 with ties', 'random likert n=20', 'n=4 ties', 'likert 1-5, 15 raters']) {
      const c = scipy(name);
      const fromWn = uncorrectedFromWn(c.W, c.n);
      expect(Math.abs(fromWn.z - c.uncorrected.z)).toBeLessThan(TOL);
      expect(Math.abs(fromWn.p - c.uncorrected.p)).toBeLessThan(TOL);
      expect(Math.abs(fromWn.r - c.uncorrected.r)).toBeLessThan(TOL);
    }
    expect(() => uncorrectedFromWn(40, 12)).toThrow(/between 0 and/);
    expect(() => uncorrectedFromWn(0, 0)).toThrow(/whole number/);
  });

  it('groups the figures that follow the same mode into one clause', () => {
    expect(followsNote({ z: 'uncorrected', p: 'either', r: 'uncorrected' }, { z: 3, p: 3, r: 3 })).toBe(
      'Z and r: without tie correction; p: either mode at 3 decimals',
    );
    expect(followsNote({ z: 'uncorrected', p: 'tie-corrected', r: 'uncorrected' }, { z: 2, p: 3, r: 2 })).toBe(
      'Z and r: without tie correction; p: tie-corrected',
    );
    expect(followsNote({ z: 'tie-corrected', p: 'tie-corrected', r: 'tie-corrected' }, { z: 2, p: 3, r: 2 })).toBe('Z, p, r: tie-corrected');
  });
});

describe("the paper's Wilcoxon table", () => {
  const table = paperWilcoxonTable();

  it("recomputes the recorded row in both modes to SciPy's figures and names the mode of each published figure", () => {
    const row = table[0];
    const c = scipy('paper n=12 W=0 with ties');
    expect(row.published).toEqual({ W: 0, n: 12, z: -3.059, p: 0.002, r: -0.883, decimals: { z: 3, p: 3, r: 3 } });
    expect(row.corrected).toMatchObject({ n: 12, W: 0, tieCorrection: true });
    expect(Math.abs(row.corrected!.z! - c.tieCorrected.z)).toBeLessThan(TOL);
    expect(Math.abs(row.corrected!.p! - c.tieCorrected.p)).toBeLessThan(TOL);
    expect(Math.abs(row.uncorrected!.z! - c.uncorrected.z)).toBeLessThan(TOL);
    expect(Math.abs(row.uncorrected!.r! - c.uncorrected.r)).toBeLessThan(TOL);
    expect(row.follows).toEqual({ z: 'uncorrected', p: 'either', r: 'uncorrected' });
    expect(row.note).toBe('Z and r: without tie correction; p: either mode at 3 decimals');
    expect(row.medians).toEqual({ nas: 3, kpd: 4 });
  });

  it('has a row per criterion of the study and says plainly which figures the repository lacks', () => {
    expect(table.map((r) => r.measure)).toEqual([null, 'trustworthiness', 'explanatoryAdequacy', 'practicalApplicability', 'sus']);
    for (const row of table.slice(1)) {
      expect(row.corrected).toBeUndefined();
      expect(row.note).toMatch(/^published Z \/ p \/ r and the ratings are not in the repository/);
    }
    expect(table.find((r) => r.measure === 'sus')!.note).toMatch(/tie-corrected variance \(not checkable here\)$/);
  });

  it('matches a published row with W and n but no ratings from W and n alone', () => {
    const row = wilcoxonTableRow({
      measure: 'sus',
      label: 'SUS',
      published: { W: 0, n: 12, z: -3.059, p: 0.002, r: -0.883, decimals: { z: 3, p: 3, r: 3 } },
      ratings: null,
    });
    expect(row.follows).toEqual({ z: 'uncorrected', p: 'uncorrected', r: 'uncorrected' });
    expect(row.note).toBe('Z, p, r: without tie correction; the tie-corrected figures need the ratings');
  });

  it('says when the ratings do not have the published W and n', () => {
    const rows: PaperWilcoxonRow = { ...PAPER_WILCOXON[0], ratings: { nas: [3, 3, 4], kpd: [4, 4, 4], source: 'test' } };
    expect(wilcoxonTableRow(rows).note).toMatch(/these ratings give W = 0, n = 2, not the published W = 0, n = 12/);
  });

  it('is symmetric in which system is x: Z, p and r do not depend on the order', () => {
    const { nas, kpd } = PAPER_WILCOXON[0].ratings!;
    const a = wilcoxonSignedRank(kpd, nas, { tieCorrection: false });
    const b = wilcoxonSignedRank(nas, kpd, { tieCorrection: false });
    expect([a.z, a.p, a.r]).toEqual([b.z, b.p, b.r]);
  });

  it('prints both modes beside the published figures, one note per row', () => {
    const text = formatWilcoxonTable(table);
    const line = text
      .split('\n')
      .find((l) => l.startsWith('W = 0, n = 12'))!
      .split(/\s{2,}/);
    expect(line).toEqual([
      'W = 0, n = 12 (all favour KPD-MADS)',
      '12',
      '0',
      '-3.153',
      '.0016',
      '-0.910',
      '-3.059',
      '.0022',
      '-0.883',
      '-3.059 / .002 / -0.883',
    ]);
    expect(text).toContain(
      '- W = 0, n = 12 (all favour KPD-MADS): Z and r: without tie correction; p: either mode at 3 decimals (medians of these ratings: KPD-MADS 4, NAS 3).',
    );
    expect(text).toContain("The paper's raw ratings were not published.");
  });
});
