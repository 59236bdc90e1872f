import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEBATE_ITEMS, inLane, mostMaterial, visibleEvidence } from '@/lib/debate/evidence-scope';
import { sortEvidence } from '@/lib/debate/prompts';
import { FINDEBATE } from '@/lib/debate/protocols';
import { evidenceAsOf } from '@/lib/llm/offline/test-fixtures';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';

type Polarity = 'favorable' | 'adverse' | 'context' | null;
const item = (id: string, factor: string | null, polarity: Polarity = 'favorable'): EvidenceAsOf =>
  ({ id, factor, polarity, title: id, text: id, publishedDate: '2024-01-01', sourceName: 's', stale: false }) as unknown as EvidenceAsOf;

const pool = [
  item('mc-fav', 'management_continuity'),
  item('mc-adv', 'management_continuity', 'adverse'),
  item('mc-ctx', 'management_continuity', 'context'),
  item('cert-fav', 'certifications'),
  item('cert-adv', 'certifications', 'adverse'),
  item('lit-adv', 'litigation_risk', 'adverse'),
  item('untagged', null, null),
];
// D1-like turn: one claim on management continuity that cites a litigation item.
const d1: ContextTurn = {
  stepId: 'D1',
  agent: 'A1',
  team: 'affirmative',
  act: 'constructive',
  text: '',
  output: {
    text: '',
    claims: [
      {
        id: 'D1-c1',
        text: 'x',
        factor: 'management_continuity',
        polarity: 'favorable',
        citations: [{ evidenceId: 'lit-adv', source: 's', date: '2024-01-01' }],
      },
    ],
  },
};
const ids = (items: EvidenceAsOf[]) => items.map((e) => e.id);

describe('visibleEvidence', () => {
  it('shows the whole pool to `pool` steps and nothing to `none` steps', () => {
    expect(ids(visibleEvidence({ evidence: 'pool', team: 'affirmative' }, pool, []))).toHaveLength(pool.length);
    expect(visibleEvidence({ evidence: 'none', team: 'neutral' }, pool, [d1])).toEqual([]);
  });
  it("gives the opening speech its side's items: read its way, either way, or untagged", () => {
    expect(ids(visibleEvidence({ evidence: 'side', team: 'affirmative' }, pool, []))).toEqual(['mc-fav', 'mc-ctx', 'cert-fav', 'untagged']);
    expect(ids(visibleEvidence({ evidence: 'side', team: 'negative' }, pool, []))).toEqual(['mc-adv', 'mc-ctx', 'cert-adv', 'lit-adv', 'untagged']);
  });
  it("gives an answering step its side's items on the context's factors, and every item the context cites", () => {
    // Negative answering D1: adverse and context items on management continuity, plus the cited litigation item.
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [d1]))).toEqual(['mc-adv', 'mc-ctx', 'lit-adv']);
    // A cited item of the other side's polarity stays visible.
    const citesFavorable = {
      ...d1,
      output: {
        text: '',
        claims: [{ ...(d1.output as { claims: object[] }).claims[0], citations: [{ evidenceId: 'cert-fav', source: 's', date: '2024-01-01' }] }],
      },
    };
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [citesFavorable]))).toEqual(['mc-adv', 'mc-ctx', 'cert-fav']);
  });
  it("gives the answering constructive its side's items on factors the context did not use, never the cited ones", () => {
    expect(ids(visibleEvidence({ evidence: 'fresh-factors', team: 'negative' }, pool, [d1]))).toEqual(['cert-adv', 'untagged']);
  });
  it('filters nothing by side for a neutral step', () => {
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'neutral' }, pool, [d1]))).toEqual(['mc-fav', 'mc-adv', 'mc-ctx', 'lit-adv']);
  });
});

describe('visibleEvidence: a FinDebate specialist sees its lane of the pool', () => {
  const specialists = FINDEBATE.steps.filter((s) => s.role === 'specialist');
  const lanes = [
    item('share-fav', 'industry_competition_intensity'),
    item('staff-ctx', 'employment_stability', 'context'),
    item('demand-adv', 'industry_growth_outlook', 'adverse'),
    item('patent-fav', 'technological_disruption_risk'),
    item('cycle-adv', 'economic_sensitivity', 'adverse'),
    item('search-fav', 'public_interest_trend'),
    item('ceo-fav', 'management_continuity'),
    item('board-ctx', 'internal_control_risk', 'context'),
    item('cert-adv', 'certifications', 'adverse'),
    item('grant-fav', 'government_support_programs'),
    item('order-fav', 'other'),
    item('untagged', null, null),
    // A factor outside the ten is filed under `other`; read adverse, it is the risk analyst's too.
    item('lit-adv', 'litigation_risk', 'adverse'),
  ];
  const seen = (pool: EvidenceAsOf[]) => Object.fromEntries(specialists.map((s) => [s.id, ids(visibleEvidence(s, pool, []))]));

  it("shows each specialist the items of its lane's factors, and the risk analyst every adverse item", () => {
    expect(seen(lanes)).toEqual({
      'S-PERF': ['share-fav', 'staff-ctx', 'order-fav', 'untagged', 'lit-adv'],
      'S-MKT': ['share-fav', 'demand-adv', 'patent-fav', 'cycle-adv', 'search-fav'],
      'S-MGMT': ['staff-ctx', 'search-fav', 'ceo-fav', 'board-ctx'],
      'S-COLL': ['patent-fav', 'cert-adv', 'grant-fav', 'order-fav', 'untagged', 'lit-adv'],
      'S-RISK': ['demand-adv', 'cycle-adv', 'cert-adv', 'lit-adv'],
    });
  });

  it('reads a lane only on a step that reads the pool or documents', () => {
    const lane = specialists[0].lane!;
    const laned = visibleEvidence({ evidence: 'documents', team: 'neutral', lane }, lanes, []);
    expect(laned.length).toBeLessThan(lanes.length);
    expect(visibleEvidence({ evidence: 'pool', team: 'neutral', lane }, lanes, [])).toEqual(laned);
    expect(visibleEvidence({ evidence: 'pool', team: 'neutral' }, lanes, [])).toHaveLength(lanes.length);
    expect(visibleEvidence({ evidence: 'none', team: 'neutral', lane }, lanes, [])).toEqual([]);
    expect(inLane({ factors: ['other'] }, { factor: null, polarity: null })).toBe(true);
    expect(inLane({ factors: ['certifications'] }, { factor: 'other', polarity: 'adverse' })).toBe(false);
    expect(inLane({ factors: ['certifications'], adverse: true }, { factor: 'other', polarity: 'adverse' })).toBe(true);
  });

  // Coverage: every item of every demo borrower's pool a step may cite reaches at least one
  // specialist, at every date an item is published (each such date's pool is non-empty and holds
  // a new item). A stale item newer evidence on its factor supersedes is no one's to cite (Rule 5).
  const companies = (JSON.parse(fs.readFileSync(path.join(process.cwd(), 'data/demo/companies.json'), 'utf8')) as { id: string }[]).map((c) => c.id);
  it.each(companies)("shows every citable item of %s's pool to a specialist, at every as-of date", (companyId) => {
    const dates = [...new Set(evidenceAsOf(companyId, '9999-12-31', 3650).map((e) => e.publishedDate))];
    expect(dates.length).toBeGreaterThan(0);
    for (const asOf of dates) {
      const pool = evidenceAsOf(companyId, asOf, 3 * 365);
      expect(pool.length, asOf).toBeGreaterThan(0);
      const fresh = new Set(pool.filter((e) => !e.stale).map((e) => e.factor ?? 'other'));
      const citable = pool.filter((e) => !e.stale || !fresh.has(e.factor ?? 'other'));
      const shown = new Set(specialists.flatMap((s) => ids(visibleEvidence(s, pool, []))));
      expect(
        ids(citable).filter((id) => !shown.has(id)),
        `${companyId} as of ${asOf}`,
      ).toEqual([]);
      expect(
        [...shown].filter((id) => !ids(citable).includes(id)),
        `${companyId} as of ${asOf}`,
      ).toEqual([]);
    }
  });

  it("shows Samsung's specialists 73 items of its 40 where each saw all 40 (the benchmark case, 2024-12-31)", () => {
    const pool = evidenceAsOf('samsung-electronics', '2024-12-31', 3 * 365);
    expect(pool).toHaveLength(40);
    expect(Object.fromEntries(Object.entries(seen(pool)).map(([id, shown]) => [id, shown.length]))).toEqual({
      'S-PERF': 11,
      'S-MKT': 13,
      'S-MGMT': 19,
      'S-COLL': 13,
      'S-RISK': 17,
    });
  });
});

describe("visibleEvidence: FinDebate's trust agent and skeptic see what the turns they answer need", () => {
  const step = (id: string) => FINDEBATE.steps.find((s) => s.id === id)!;
  const pool = [
    item('sanction-adv', 'internal_control_risk', 'adverse'),
    item('lawsuit-adv', 'internal_control_risk', 'adverse'),
    item('audit-fav', 'internal_control_risk'),
    item('board-ctx', 'internal_control_risk', 'context'),
    item('share-fav', 'industry_competition_intensity'),
    item('share-new-fav', 'industry_competition_intensity'),
    item('rival-adv', 'industry_competition_intensity', 'adverse'),
    item('cycle-adv', 'economic_sensitivity', 'adverse'),
    item('grant-fav', 'government_support_programs'),
    item('order-ctx', 'other', 'context'),
    item('lit-adv', 'litigation_risk', 'adverse'),
    item('untagged', null, null),
  ];
  const claim = (id: string, factor: string, polarity: string, cites: string) => ({
    id,
    text: id,
    factor,
    polarity,
    citations: [{ evidenceId: cites, source: 's', date: '2024-01-01' }],
  });
  const turn = (stepId: string, act: ContextTurn['act'], claims: object[]): ContextTurn => ({
    stepId,
    agent: stepId,
    team: 'neutral',
    act,
    text: '',
    output: { text: '', claims },
  });
  // A draft: a sanction against repayment, market share for it, and an `other` item read either way.
  const draft = turn('DRAFT', 'draft', [
    claim('DRAFT-c1', 'internal_control_risk', 'adverse', 'sanction-adv'),
    claim('DRAFT-c2', 'industry_competition_intensity', 'favorable', 'share-fav'),
    claim('DRAFT-c3', 'other', 'context', 'order-ctx'),
  ]);
  // The trust agent backs the sanction claim with the lawsuit.
  const trust = turn('TRUST', 'debate', [claim('TRUST-c1', 'internal_control_risk', 'adverse', 'lawsuit-adv')]);

  it('shows the trust agent what could back a claim of the draft: on its factor, not read against it, not already cited', () => {
    // Not the clean audit (against the sanction claim), the rival (against the share claim), the
    // cycle or the grant (no claim on them), nor what the draft cites; `other` takes the factor
    // outside the ten and the untagged item, read either way like its claim.
    expect(ids(visibleEvidence(step('TRUST'), pool, [draft]))).toEqual(['lawsuit-adv', 'board-ctx', 'share-new-fav', 'lit-adv', 'untagged']);
  });

  it('shows the skeptic the risks neither turn cites, what the trust agent cites, and what reads otherwise on its factors', () => {
    // Every adverse item the draft and the trust agent leave uncited (the rival, the cycle, the
    // litigation), the lawsuit the trust agent cites, and the items on its factor not read its
    // way — the clean audit and the board, where its support may overreach. Not the sanction the
    // draft cites, read as the trust agent's claim reads, nor the draft's favorable items.
    expect(ids(visibleEvidence(step('SKEPTIC'), pool, [draft, trust]))).toEqual(['lawsuit-adv', 'audit-fav', 'board-ctx', 'rival-adv', 'cycle-adv', 'lit-adv']);
    // A trust agent with nothing to add leaves the skeptic the uncited risks only.
    expect(ids(visibleEvidence(step('SKEPTIC'), pool, [draft, turn('TRUST', 'debate', [])]))).toEqual(['lawsuit-adv', 'rival-adv', 'cycle-adv', 'lit-adv']);
  });

  it("shows them a good deal less than the whole pool on the benchmark case, with the reference run's turns", () => {
    const samsung = evidenceAsOf('samsung-electronics', '2024-12-31', 3 * 365);
    const cites = (ids: string[]) =>
      ids.map((id, n) => claim(`c${n}`, samsung.find((e) => e.id === id)!.factor ?? 'other', samsung.find((e) => e.id === id)!.polarity ?? 'context', id));
    // The offline writer's draft on Samsung: its 13 pool items (a passage left out), as the claims read them.
    const samsungDraft = turn(
      'DRAFT',
      'draft',
      cites([
        'samsung-electronics-022',
        'samsung-electronics-020',
        'samsung-electronics-019',
        'samsung-electronics-021',
        'samsung-electronics-032',
        'samsung-electronics-014',
        'samsung-electronics-009',
        'samsung-electronics-027',
        'samsung-electronics-003',
        'samsung-electronics-012',
        'samsung-electronics-011',
        'samsung-electronics-006',
        'samsung-electronics-028',
      ]),
    );
    const samsungTrust = turn('TRUST', 'debate', cites(['samsung-electronics-026', 'samsung-electronics-038']));
    expect(samsung).toHaveLength(40);
    // Of the 15 and 18 items their lanes hold there, the most material dozen (the skeptic also every item the trust agent cites).
    expect(visibleEvidence(step('TRUST'), samsung, [samsungDraft])).toHaveLength(12);
    const skeptic = visibleEvidence(step('SKEPTIC'), samsung, [samsungDraft, samsungTrust]);
    expect(skeptic).toHaveLength(12);
    expect(skeptic.map((e) => e.id)).toEqual(expect.arrayContaining(['samsung-electronics-026', 'samsung-electronics-038']));
  });
});

describe('what a debater is not shown', () => {
  const dated = (id: string, factor: string, date: string, stale: boolean, polarity: Polarity = 'favorable'): EvidenceAsOf =>
    ({ ...item(id, factor, polarity), publishedDate: date, stale }) as EvidenceAsOf;

  it('a stale item newer evidence on its factor supersedes, unless it is a red flag or a turn it answers cites it; the whole-pool steps still see it', () => {
    const pool = [
      dated('mc-new', 'management_continuity', '2024-03-01', false),
      dated('mc-old', 'management_continuity', '2019-03-01', true),
      dated('cert-old', 'certifications', '2019-05-01', true),
      dated('ic-old-flag', 'internal_control_risk', '2019-06-01', true, 'adverse'),
      dated('ic-new', 'internal_control_risk', '2024-02-01', false, 'adverse'),
    ];
    const flags = new Set(['ic-old-flag']);
    // The affirmative opening: its side's items, less the superseded management item; the lone stale certification stays.
    expect(ids(visibleEvidence({ evidence: 'side', team: 'affirmative' }, pool, [], flags)).sort()).toEqual(['cert-old', 'mc-new']);
    // The negative side's: the stale red flag stays beside the newer item on its factor.
    expect(ids(visibleEvidence({ evidence: 'side', team: 'negative' }, pool, [], flags)).sort()).toEqual(['ic-new', 'ic-old-flag']);
    // A rebuttal of a turn that cites the superseded item still sees it.
    const cites: ContextTurn = {
      ...d1,
      output: {
        text: '',
        claims: [
          {
            id: 'D1-c1',
            text: 'x',
            factor: 'management_continuity',
            polarity: 'favorable',
            citations: [{ evidenceId: 'mc-old', source: 's', date: '2019-03-01' }],
          },
        ],
      },
    };
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [cites], flags))).toContain('mc-old');
    expect(ids(visibleEvidence({ evidence: 'context-factors', team: 'negative' }, pool, [d1], flags))).not.toContain('mc-old');
    expect(ids(visibleEvidence({ evidence: 'pool', team: 'neutral' }, pool, [], flags))).toContain('mc-old');
  });

  it("a FinDebate specialist's lane and the trust agent's and skeptic's lanes leave out a superseded stale item, but the skeptic sees one the trust agent cites", () => {
    const step = (id: string) => FINDEBATE.steps.find((s) => s.id === id)!;
    // Tesla as of 2025-06-30: a 2019 8-K index line beside the 2025 10-K, both on `other`.
    const pool = [
      dated('ramp-adv', 'other', '2025-01-30', false, 'adverse'),
      dated('esg-ctx', 'other', '2025-01-30', false, 'context'),
      dated('8k-2019', 'other', '2019-12-26', true, 'context'),
      dated('ceo-adv', 'management_continuity', '2025-01-30', false, 'adverse'),
      dated('8k-2018', 'management_continuity', '2018-07-30', true, 'context'),
      dated('flag-2019', 'internal_control_risk', '2019-06-01', true, 'adverse'),
      dated('lit-new', 'internal_control_risk', '2025-01-30', false, 'adverse'),
    ];
    const flags = new Set(['flag-2019']);
    expect(ids(visibleEvidence(step('S-PERF'), pool, [], flags))).toEqual(['ramp-adv', 'esg-ctx']);
    expect(ids(visibleEvidence(step('S-MGMT'), pool, [], flags))).toEqual(['ceo-adv', 'flag-2019', 'lit-new']);
    const claim = (id: string, factor: string, polarity: string, cites: string) => ({
      id,
      text: id,
      factor,
      polarity,
      citations: [{ evidenceId: cites, source: 's', date: '2025-01-30' }],
    });
    const turn = (stepId: string, claims: object[]): ContextTurn => ({
      stepId,
      agent: stepId,
      team: 'neutral',
      act: 'debate',
      text: '',
      output: { text: '', claims },
    });
    const draft = turn('DRAFT', [claim('DRAFT-c1', 'other', 'adverse', 'ramp-adv'), claim('DRAFT-c2', 'management_continuity', 'adverse', 'ceo-adv')]);
    expect(ids(visibleEvidence(step('TRUST'), pool, [draft], flags))).toEqual(['esg-ctx']);
    // The trust agent leans on the 2018 index line: the skeptic is shown it, to say it is old.
    const trust = turn('TRUST', [claim('TRUST-c1', 'management_continuity', 'context', '8k-2018')]);
    const skeptic = ids(visibleEvidence(step('SKEPTIC'), pool, [draft, trust], flags));
    expect(skeptic).toContain('8k-2018');
    expect(skeptic).not.toContain('8k-2019');
  });

  it(`past ${DEBATE_ITEMS} items, the most material, every factor kept and every cited item`, () => {
    const factors = ['management_continuity', 'certifications', 'employment_stability'];
    // Twenty items on three factors; items with a larger amount read as more material.
    const many = Array.from(
      { length: 20 },
      (_, i) =>
        ({
          ...item(`i${String(i).padStart(2, '0')}`, i < 18 ? factors[i % 2] : factors[2]),
          value: `${(i + 1) * 1000} KRW`,
          publishedDate: `2024-01-${String(i + 1).padStart(2, '0')}`,
        }) as unknown as EvidenceAsOf,
    );
    const kept = mostMaterial(many, new Set(['i00']));
    expect(kept).toHaveLength(DEBATE_ITEMS);
    expect(ids(kept)).toContain('i00');
    // employment_stability's two items are the least material or not, one of them is shown.
    expect(kept.some((e) => e.factor === 'employment_stability')).toBe(true);
    // Besides the kept and one per factor, the rest are the most material in the prompt's own order.
    const order = ids(sortEvidence(many));
    const firstEmployment = order.find((id) => many.find((e) => e.id === id)!.factor === 'employment_stability')!;
    const rest = ids(kept).filter((id) => id !== 'i00' && id !== firstEmployment);
    const expected = order.filter((id) => id !== 'i00' && id !== firstEmployment).slice(0, rest.length);
    expect(rest.sort()).toEqual(expected.sort());
    // In the pool's order, and nothing to choose under the cap.
    expect(ids(kept)).toEqual(ids(many).filter((id) => ids(kept).includes(id)));
    expect(mostMaterial(many.slice(0, 5))).toEqual(many.slice(0, 5));
  });
});
