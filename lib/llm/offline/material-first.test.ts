// Material items first (issue 27 item 13, lib/pool/materiality.ts): on the day a 10-K lands, two
// dozen items share one publication date, and a government suit or a one-time charge must lead
// its side's evidence in the prompt and be argued by the side it belongs to — not left below a
// headcount because "newest first" had nothing to tell them apart.
import { stepOutputSchema, toStoredShape } from '@/lib/domain/step-output';
import { describe, expect, it } from 'vitest';
import { contextFor } from '@/lib/debate/context-scope';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { buildPrompt } from '@/lib/debate/prompts';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { Claim } from '@/lib/domain/outputs';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { tagByCategory } from '@/lib/pool/factors';
import { createOfflineAnalyst } from './index';
import { evidenceAsOf, requestFor, runProtocol, type Case, type StepRun } from './test-fixtures';
import { ruleProblems } from './test-rules';

const KPD = PROTOCOLS_BY_ID['kpd-mads'];

/** Evidence ids in the order the step's prompt shows them. */
function shownOrder(run: StepRun): string[] {
  const { user } = buildPrompt(run.request);
  const block = user.slice(0, user.indexOf('</evidence>'));
  return [...block.matchAll(/^\[([^\]]+)\] \| published/gm)].map((m) => m[1]);
}

/** The evidence ids a side's claims cite over a run. */
function citedBy(runs: Map<string, StepRun>, team: 'affirmative' | 'negative'): Set<string> {
  const ids = new Set<string>();
  for (const run of runs.values()) {
    if (run.step.team !== team) continue;
    for (const claim of (run.output.claims as Claim[] | undefined) ?? []) for (const c of claim.citations) if (c.evidenceId) ids.add(c.evidenceId);
  }
  return ids;
}

describe('Tesla as of 2025-06-30 (the demo draft): nineteen items of the FY2024 10-K on one day', () => {
  // The decisive adverse items of that 10-K: the Delaware rescission of the CEO award with a
  // $345 million fee award (a red flag: a suit lost), and the civil complaints of two government
  // agencies (California's Civil Rights Department and the EEOC), trial set for 2025.
  const RED_FLAG = 'tesla-032';
  const GOVERNMENT_SUIT = 'tesla-033';
  const TESLA: Case = { companyId: 'tesla', language: 'en', asOf: '2025-06-30', recencyDays: 365 };
  const adverse = new Set(
    evidenceAsOf(TESLA.companyId, TESLA.asOf, TESLA.recencyDays)
      .filter((e) => e.polarity === 'adverse')
      .map((e) => e.id),
  );

  it('shows the red flag and the government suit first among the adverse items of every prompt that holds both', async () => {
    const runs = await runProtocol(TESLA, KPD);
    let prompts = 0;
    for (const run of runs.values()) {
      const order = shownOrder(run).filter((id) => adverse.has(id));
      if (!order.includes(RED_FLAG) || !order.includes(GOVERNMENT_SUIT)) continue;
      prompts++;
      expect(order.slice(0, 2), run.step.id).toEqual([RED_FLAG, GOVERNMENT_SUIT]);
    }
    // D2 and D7 (the negative side's turns on D1's factors) see the whole adverse side.
    expect(prompts).toBeGreaterThanOrEqual(2);
  });

  it("has the negative side argue both in the offline analyst's KPD-MADS run, every rule kept", async () => {
    const runs = await runProtocol(TESLA, KPD);
    const negative = citedBy(runs, 'negative');
    expect(negative.has(RED_FLAG)).toBe(true);
    expect(negative.has(GOVERNMENT_SUIT)).toBe(true);
    expect(citedBy(runs, 'affirmative').has(GOVERNMENT_SUIT)).toBe(false);
    for (const run of runs.values()) expect(ruleProblems(run, runs), run.step.id).toEqual([]);
  });
});

// A constructed pool in the shape the issue describes (not a real filing): a large issuer's
// annual report, twenty-four items published the same day, among them a pending government
// antitrust suit and a multi-billion one-time charge, and favorable items on the suit's factor (a
// dismissed suit, a clean audit) so the affirmative opening takes that factor first.
const FILED = '2024-11-01';
const ROWS: [string, string, string, string | null][] = [
  [
    'legal_proceedings',
    'Patent infringement suit dismissed',
    'A patent infringement suit filed in 2022 in the Eastern District of Texas was dismissed with prejudice on June 12, 2024.',
    null,
  ],
  [
    'governance_ownership',
    'Auditor: unqualified opinion; internal control effective',
    'The independent auditor issued an unqualified opinion and found internal control over financial reporting effective.',
    null,
  ],
  [
    'certification',
    'Information security management certified to ISO/IEC 27001',
    'The information security management system is certified to ISO/IEC 27001.',
    'ISO/IEC 27001',
  ],
  [
    'employment',
    'Headcount of 164,000 full-time equivalent employees',
    'As of the fiscal year end the Company had about 164,000 full-time equivalent employees.',
    '164,000',
  ],
  [
    'rnd_activity',
    'Research and development expense of $31.4 billion',
    'Research and development expense was $31.4 billion for the fiscal year, up 5%.',
    '$31.4 billion',
  ],
  ['industry_competition', 'Market share of 55% in premium smartphones', 'The Company estimates its market share in premium smartphones at 55%.', '55%'],
  ['management_change', 'Chief executive tenure of 13 years', 'The chief executive officer has served for 13 years and was reappointed by the board.', null],
  ['patent', 'Granted patents: 2,300 in the fiscal year', 'The Company was granted about 2,300 patents in the fiscal year.', '2,300'],
  ['supply_contract', 'Multi-year supply agreement for display panels', 'The Company entered into a multi-year supply agreement for display panels.', null],
  ['news', 'Net sales of $391.0 billion, up 2%, a record', 'Total net sales were a record $391.0 billion, up 2% on the year before.', '$391.0 billion'],
  [
    'legal_proceedings',
    'Department of Justice antitrust suit: monopolization complaint pending',
    'On March 21, 2024 the U.S. Department of Justice, joined by a number of state attorneys general, filed a civil antitrust lawsuit in federal court alleging monopolization of smartphone markets. The case is pending.',
    null,
  ],
  [
    'disclosure_other',
    'One-time income tax charge of $10.2 billion',
    'The Company recorded a one-time income tax charge of $10.2 billion, net, after a court ruling on a foreign tax matter; the amount was paid from escrow.',
    '$10.2 billion',
  ],
  [
    'risk_factor',
    'Intense competition in all markets',
    'The Company faces intense competition from competitors with aggressive pricing and rapid product launches.',
    null,
  ],
  [
    'risk_factor',
    'Demand depends on macroeconomic conditions',
    "Demand for the Company's products depends on economic conditions, inflation and interest rates.",
    null,
  ],
  ['risk_factor', 'Rapid technological change', 'The Company must keep up with rapid technological change and could see its products become obsolete.', null],
  [
    'risk_factor',
    'Key person risk: dependent on the services of senior management',
    'The Company is dependent on the services of its senior management and key personnel.',
    null,
  ],
  ['employment', 'Union organising at retail stores', 'Employees at several retail stores voted to join unions during the year.', null],
  [
    'legal_proceedings',
    'Consumer class actions over device performance',
    'Several consumer class actions over device performance were filed in 2023 and remain in discovery.',
    null,
  ],
  ['risk_factor', 'Regulatory scrutiny of the app marketplace', 'The app marketplace is subject to regulatory scrutiny in several jurisdictions.', null],
  ['esg', 'Scope 3 emissions increased 4%', 'Reported scope 3 emissions increased 4% on the year before.', '4%'],
  ['governance_ownership', 'Annual meeting: all director nominees elected', 'At the annual meeting shareholders elected all director nominees.', null],
  ['disclosure_other', 'Dividend of $0.25 per share declared', 'The board declared a quarterly dividend of $0.25 per share.', '$0.25'],
  [
    'government_support',
    'Tax incentives for domestic manufacturing investment',
    'The Company receives tax incentives for its domestic manufacturing investment.',
    null,
  ],
  [
    'risk_factor',
    'Supply concentration in a few manufacturing partners',
    'Substantially all manufacturing is performed by a few outsourcing partners, mostly in Asia.',
    null,
  ],
];
const SUIT = 'issuer-11';
const CHARGE = 'issuer-12';

function issuerPool(): EvidenceAsOf[] {
  return ROWS.map(([category, title, text, value], i) => ({
    id: `issuer-${String(i + 1).padStart(2, '0')}`,
    companyId: 'tesla',
    category,
    ...tagByCategory({ category, title, text }),
    factorSource: 'rule' as const,
    title,
    text,
    value,
    eventDate: null,
    publishedDate: FILED,
    sourceName: 'SEC EDGAR — Example issuer Form 10-K (constructed)',
    sourceUrl: 'https://example.invalid/10-k',
    language: 'en',
    stale: false,
  }));
}

/** runProtocol's loop, on the constructed pool instead of the demo's. */
async function runOn(pool: EvidenceAsOf[]): Promise<Map<string, StepRun>> {
  const c: Case = { companyId: 'tesla', language: 'en', asOf: '2025-03-31', recencyDays: 365 };
  const analyst = createOfflineAnalyst();
  const done = new Map<string, StepRun>();
  for (const s of KPD.steps) {
    const context: ContextTurn[] = contextFor(
      s,
      s.context.map((id) => {
        const d = done.get(id)!;
        return { stepId: id, agent: d.step.agent, team: d.step.team, act: d.step.act, text: d.text, output: d.output };
      }),
    );
    const request = { ...requestFor(c, KPD, s, context), evidence: visibleEvidence(s, pool, context), passages: [] };
    const result = await analyst.generate(request);
    const output = toStoredShape(s, stepOutputSchema(s).parse(JSON.parse(result.raw))) as Record<string, unknown>;
    done.set(s.id, { step: s, request, result, output, text: typeof output.text === 'string' ? output.text : '', tokens: [] });
  }
  return done;
}

describe("a large issuer's 10-K with a pending government antitrust suit and a multi-billion one-time charge (constructed)", () => {
  it('shows the suit and the charge first among the items no favorable reading claims, in the prompt of a step that sees the whole pool', async () => {
    const runs = await runOn(issuerPool());
    const d2 = runs.get('D2')!;
    const order = shownOrder(d2).filter((id) => issuerPool().find((e) => e.id === id)!.polarity !== 'favorable');
    expect(order.slice(0, 2).sort()).toEqual([SUIT, CHARGE]);
  });

  it('has the negative side argue both, and the affirmative side neither', async () => {
    const runs = await runOn(issuerPool());
    const negative = citedBy(runs, 'negative');
    expect(negative.has(SUIT)).toBe(true);
    expect(negative.has(CHARGE)).toBe(true);
    const affirmative = citedBy(runs, 'affirmative');
    expect(affirmative.has(SUIT)).toBe(false);
    expect(affirmative.has(CHARGE)).toBe(false);
    for (const run of runs.values()) expect(ruleProblems(run, runs), run.step.id).toEqual([]);
  });
});
