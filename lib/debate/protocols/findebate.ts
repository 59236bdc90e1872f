// FinDebate (docs/protocols.md), adapted to credit: five specialists read retrieved document
// passages (no web search: the system is retrieval-grounded by design), a writer commits to a
// stance, one bounded debate round strengthens it (trust) and then stress-tests the strengthened
// case (the skeptic reviews the trust agent's output), a leader merges both, and a safety check
// keeps the draft when the debate moved the stance or the horizons, or recommended nothing. That
// last comparison is the engine's, not the model's (lib/debate/enforce.ts).
import type { PoolLane, ProtocolDef, SpecialistFocus, StepDef } from '@/lib/domain/protocol';
import { poolWords } from '@/lib/debate/protocols/lanes';

/**
 * The published system's four families of retrieval queries, adapted to credit, in English and
 * Korean: how the business performs, where it is heading, what threatens repayment, and who runs
 * it. Passages are retrieved with these queries only; each step draws on the families of its lane.
 */
export const QUERY_FAMILIES = {
  performance: 'revenue sales operating profit results orders assets backlog growth 매출 영업이익 실적 수주 자산 성장',
  outlook: 'outlook guidance plan industry market demand competition technology support certification 전망 계획 산업 시장 수요 경쟁 기술 지원 인증',
  risk: 'risk litigation default sanction liquidity debt audit rehabilitation 위험 소송 부도 제재 유동성 채무 감사 회생',
  management: 'management CEO executives governance strategy shareholder disclosure 경영진 대표이사 지배구조 전략 최대주주 공시',
} as const;
export type QueryFamily = keyof typeof QUERY_FAMILIES;
const families = (...names: QueryFamily[]) => names.map((n) => QUERY_FAMILIES[n]);

type Lane = { id: string; agent: string; focus: SpecialistFocus; identity: string; subject: string; families: QueryFamily[]; pool: PoolLane };

// Each specialist gets one lane so five parallel briefings cover the case without overlapping;
// its passages come from the query families that lane draws on, and of the pool it is shown the
// items of its lane's factors (`pool`): what its subject names, where the rule tagger files it
// (lib/pool/factors.ts). Together the lanes show every item to at least one specialist — every
// factor is in some lane, `other` (and untagged) in two — and the pool is no longer shown whole
// five times over (issue 27, item 15). The red flags are in every step's run header.
const LANES: Lane[] = [
  {
    id: 'S-PERF',
    agent: 'performance-analyst',
    focus: 'performance',
    identity: 'a business performance analyst',
    subject: 'how the business is performing: orders, output, market position and its trend',
    families: ['performance'],
    // Market shares are filed under competition, the workforce under employment, orders and
    // contracts under `other`.
    pool: { factors: ['industry_competition_intensity', 'employment_stability', 'other'] },
  },
  {
    id: 'S-MKT',
    agent: 'market-analyst',
    focus: 'market-outlook',
    identity: 'an industry and market analyst',
    subject: "the industry's growth, competition, technology shifts and cyclical exposure",
    families: ['outlook'],
    // Public interest in its products is demand, as the offline analyst's market lane reads it.
    pool: {
      factors: ['industry_growth_outlook', 'industry_competition_intensity', 'technological_disruption_risk', 'economic_sensitivity', 'public_interest_trend'],
    },
  },
  {
    id: 'S-MGMT',
    agent: 'management-analyst',
    focus: 'management-sentiment',
    identity: 'a management and sentiment analyst',
    subject: 'management continuity, governance and the tone of disclosures and coverage',
    families: ['management'],
    // Governance and ownership disclosures are filed under internal control; coverage's tone is
    // the public interest trend.
    pool: { factors: ['management_continuity', 'internal_control_risk', 'employment_stability', 'public_interest_trend'] },
  },
  {
    id: 'S-COLL',
    agent: 'collateral-analyst',
    focus: 'collateral',
    identity: 'a collateral and valuation analyst',
    subject: 'assets, certifications, rights and support programmes that back or secure the credit',
    families: ['performance', 'outlook'],
    // Patents (rights) are filed under technological disruption; assets and contracts under `other`.
    pool: { factors: ['certifications', 'government_support_programs', 'technological_disruption_risk', 'other'] },
  },
  {
    id: 'S-RISK',
    agent: 'risk-analyst',
    focus: 'credit-risk',
    identity: 'a credit risk analyst',
    subject: 'litigation, sanctions, distress signals, internal-control findings and other risks to repayment',
    families: ['risk'],
    // Every item read adverse, whatever its factor: litigation, sanctions and distress filed under
    // internal control among them. The rest of internal control (boards, ownership, clean audits)
    // is governance, the management analyst's, and the offline analyst's risk lane reads adverse
    // items only (lib/llm/offline/briefing.ts).
    pool: { factors: [], adverse: true },
  },
];
const SPECIALISTS = LANES.map((l) => l.id);

/** "an industry and market analyst" → "the industry and market analyst". */
const definite = (identity: string) => identity.replace(/^an? /, 'the ');

/** "a, b or c". */

// A specialist is told what the other four cover, so that a finding outside its lane is left to
// the specialist whose lane it is rather than briefed twice.
const specialist = (lane: Lane): StepDef => ({
  id: lane.id,
  agent: lane.agent,
  role: 'specialist',
  focus: lane.focus,
  team: 'neutral',
  act: 'analysis',
  context: [],
  webSearch: false,
  evidence: 'documents',
  lane: lane.pool,
  queries: families(...lane.families),
  output: 'briefing',
  rules: { citationsRequired: true, findingsOrNothing: true },
  task: [
    `You are ${lane.identity}.`,
    `From the retrieved passages, brief the writer on ${lane.subject}, as it bears on the borrower's capacity to repay.`,
    'One claim per finding, each cited to its passage; state plainly where the passages are silent.',
    poolWords(lane.pool),
    'Stay in your lane. Four other specialists brief the writer alongside you, each on its own lane; leave their findings to them:',
    ...LANES.filter((other) => other !== lane).map((other, i, all) => `- ${definite(other.identity)} — ${other.subject}${i === all.length - 1 ? '.' : ';'}`),
  ].join('\n'),
});

export const FINDEBATE: ProtocolDef = {
  id: 'findebate',
  name: 'FinDebate',
  description:
    'Five retrieval-grounded specialists, a stance-taking draft, one safe debate round (trust, then the skeptic on it, then the leader) and a safety check.',
  steps: [
    ...LANES.map(specialist),
    {
      id: 'DRAFT',
      agent: 'writer',
      role: 'draft-writer',
      team: 'neutral',
      act: 'draft',
      context: SPECIALISTS,
      webSearch: false,
      evidence: 'none',
      output: 'stanceDraft',
      task: [
        'Synthesise the five briefings into a draft credit view with a stance on repayment: favorable, neutral or adverse.',
        'Give the outlook for the next 12 months (`12m`) and the next three years (`36m`), and for two years (`24m`) only if the briefings speak to it, each horizon once, with a confidence between 0 and 1 that matches the strength of the evidence: do not claim certainty the briefings do not give.',
        "Keep the specialists' claims that carry the stance, with their citations.",
      ].join('\n'),
    },
    {
      id: 'TRUST',
      agent: 'trust-agent',
      role: 'trust',
      team: 'neutral',
      act: 'debate',
      context: ['DRAFT'],
      webSearch: false,
      evidence: 'documents',
      // Of the pool, what could back the draft's claims: items on a claim's factor not read against
      // it, but not those the draft cites (its claims quote them) — not the whole pool again.
      turnLane: { backs: ['DRAFT'] },
      queries: families('performance', 'outlook', 'risk', 'management'),
      output: 'turn',
      task: [
        "Strengthen the draft's evidence without changing its stance or horizons: find better, newer or more direct passages for its claims and set `respondsTo` to the claim each one supports.",
        'If a claim cannot be supported, say so rather than stretch a passage.',
        "The evidence block above holds only the pool's items that could back a claim of the draft, the most material dozen at most: on the claim's factor and not read against it (any reading, where the claim reads either way), other than the items the draft cites (its claims quote them).",
      ].join('\n'),
    },
    {
      id: 'SKEPTIC',
      agent: 'skeptic',
      role: 'skeptic',
      team: 'negative',
      act: 'debate',
      // After the trust agent, as published: the skeptic stress-tests the strengthened case.
      context: ['DRAFT', 'TRUST'],
      webSearch: false,
      evidence: 'documents',
      // Of the pool, the risks neither turn cites, what the trust agent cites, and the items on its
      // claims' factors read otherwise (to find where its support overreaches): not the whole pool again.
      turnLane: { checks: ['TRUST'], adverse: true },
      queries: families('risk', 'outlook'),
      output: 'turn',
      // Everything asked has a place in the turn: risks and overreach as cited claims (checked,
      // weighed by the leader), mitigations and the two scenarios in the prose the leader merges.
      // Scenario fields of their own would reach no report: the committee reads the kept version
      // (a stance draft), into which the leader carries them (docs/protocols.md, FinDebate).
      task: [
        'Probe the draft as the trust agent strengthened it.',
        '- Each risk the draft and the trust agent both miss: one claim, cited to its passage, polarity adverse; set `respondsTo` when it answers a specific claim of the draft or of the trust agent.',
        "- Where the trust agent's support overreaches (an old item, a passage that does not say what is claimed): one claim answering that support claim through `respondsTo`, cited to the passage that shows it.",
        '- In `text`: the risks in a few sentences; for each, what would contain it (a mitigation the passages show, or that none is shown); then a base case and a downside case for repayment.',
        "The evidence block above holds only these of the pool's items, the most material dozen at most besides those that test the trust agent's claims: items read adverse that neither the draft nor the trust agent cites, the items the trust agent cites, and items on the factor of one of its claims that are not read that claim's way.",
      ].join('\n'),
    },
    {
      id: 'LEADER',
      agent: 'leader',
      role: 'leader',
      team: 'neutral',
      act: 'aggregation',
      context: ['DRAFT', 'TRUST', 'SKEPTIC'],
      webSearch: false,
      evidence: 'none',
      output: 'stanceDraft',
      task: [
        "Merge the trust agent's stronger evidence and the skeptic's risks into the draft.",
        "Keep the draft's stance and horizons unless the debate produced evidence that clearly overturns them; if so, say why in `text`.",
      ].join('\n'),
    },
    {
      id: 'SAFETY',
      agent: 'safety-checker',
      role: 'safety-checker',
      team: 'neutral',
      act: 'safety-check',
      // The debate turns too: a round that recommended nothing leaves the draft standing.
      context: ['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER'],
      webSearch: false,
      evidence: 'none',
      output: 'safetyCheck',
      // A decision and edits, not a copy: the engine assembles the kept version from the draft's
      // or the leader's output and the edits (lib/debate/enforce.ts), so nothing is re-typed.
      task: [
        "Compare the leader's version with the draft. Set `stanceChanged` and `horizonsChanged` (a horizon changed when its outlook did, or when it was dropped or added; a new confidence alone is not a change).",
        'If either changed, or the trust agent and the skeptic recommended nothing (no claim between them), keep the draft (`kept`: "draft") and explain in `reason` what the debate tried to change; otherwise keep the leader\'s version (`kept`: "final") and say so in `reason`.',
        'Do not copy the version you keep: it is kept as it stands. In `edits`, reword only a claim of that version whose text a credit committee could not read as written, giving its `claimId` and the new `wording`; its reading and its citations stay. Usually `edits` is empty.',
      ].join('\n'),
    },
  ],
  reportStep: 'SAFETY',
};
