// FinDebate (docs/protocols.md), adapted to credit: five specialists read retrieved document
// passages (no web search: the system is retrieval-grounded by design), a writer commits to a
// stance, one bounded debate round strengthens and stress-tests it, and a safety check keeps
// the draft when the debate moved the stance or the horizons.
import type { ProtocolDef, SpecialistFocus, StepDef } from '@/lib/domain/protocol';

const SPECIALISTS = ['S-PERF', 'S-MKT', 'S-MGMT', 'S-COLL', 'S-RISK'];

type Lane = { focus: SpecialistFocus; identity: string; subject: string; query: string };

// Each specialist gets one lane so five parallel briefings cover the case without overlapping.
// Its passages come from one retrieval query for the lane, in English and Korean (the published
// system's four query families, adapted to credit).
const specialist = (id: string, agent: string, lane: Lane): StepDef => ({
  id,
  agent,
  role: 'specialist',
  focus: lane.focus,
  team: 'neutral',
  act: 'analysis',
  context: [],
  webSearch: false,
  evidence: 'documents',
  query: lane.query,
  output: 'briefing',
  rules: { citationsRequired: true },
  task: [
    `You are ${lane.identity}.`,
    `From the retrieved passages, brief the writer on ${lane.subject}, as it bears on the borrower's capacity to repay.`,
    'One claim per finding, each cited to its passage; state plainly where the passages are silent. Stay in your lane: the other four specialists cover the rest.',
  ].join('\n'),
});

export const FINDEBATE: ProtocolDef = {
  id: 'findebate',
  name: 'FinDebate',
  description: 'Five retrieval-grounded specialists, a stance-taking draft, one safe debate round (trust, skeptic, leader) and a safety check.',
  steps: [
    specialist('S-PERF', 'performance-analyst', {
      focus: 'performance',
      identity: 'a business performance analyst',
      subject: 'how the business is performing: orders, output, market position and its trend',
      query: 'revenue sales operating profit growth results 매출 영업이익 실적 성장',
    }),
    specialist('S-MKT', 'market-analyst', {
      focus: 'market-outlook',
      identity: 'an industry and market analyst',
      subject: 'the industry\'s growth, competition, technology shifts and cyclical exposure',
      query: 'industry market demand competition outlook 산업 시장 수요 경쟁 전망',
    }),
    specialist('S-MGMT', 'management-analyst', {
      focus: 'management-sentiment',
      identity: 'a management and sentiment analyst',
      subject: 'management continuity, governance and the tone of disclosures and coverage',
      query: 'management CEO executives governance tone guidance 경영진 대표이사 지배구조',
    }),
    specialist('S-COLL', 'collateral-analyst', {
      focus: 'collateral',
      identity: 'a collateral and valuation analyst',
      subject: 'assets, certifications, rights and support programmes that back or secure the credit',
      query: 'assets property plant collateral valuation 자산 유형자산 담보 평가',
    }),
    specialist('S-RISK', 'risk-analyst', {
      focus: 'credit-risk',
      identity: 'a credit risk analyst',
      subject: 'litigation, sanctions, distress signals, internal-control findings and other risks to repayment',
      query: 'risk litigation default liquidity regulation 위험 소송 채무 유동성 규제',
    }),
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
        'Give the outlook for each horizon (for example 12 months and 3 years) with a confidence between 0 and 1 that matches the strength of the evidence: do not claim certainty the briefings do not give.',
        'Keep the specialists\' claims that carry the stance, with their citations.',
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
      output: 'turn',
      task: [
        'Strengthen the draft\'s evidence without changing its stance or horizons: find better, newer or more direct passages for its claims and set `respondsTo` to the claim each one supports.',
        'If a claim cannot be supported, say so rather than stretch a passage.',
      ].join('\n'),
    },
    {
      id: 'SKEPTIC',
      agent: 'skeptic',
      role: 'skeptic',
      team: 'negative',
      act: 'debate',
      context: ['DRAFT'],
      webSearch: false,
      evidence: 'documents',
      output: 'turn',
      task: [
        'Probe the draft: add the risks it misses, the mitigations that would contain them, and scenarios (base, downside) under which repayment would suffer.',
        'Cite a passage for every risk; set `respondsTo` when a point answers a specific draft claim.',
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
        'Merge the trust agent\'s stronger evidence and the skeptic\'s risks into the draft.',
        'Keep the draft\'s stance and horizons unless the debate produced evidence that clearly overturns them; if so, say why in `text`.',
      ].join('\n'),
    },
    {
      id: 'SAFETY',
      agent: 'safety-checker',
      role: 'safety-checker',
      team: 'neutral',
      act: 'safety-check',
      context: ['DRAFT', 'LEADER'],
      webSearch: false,
      evidence: 'none',
      output: 'safetyCheck',
      task: [
        'Compare the leader\'s version with the draft. Set `stanceChanged` and `horizonsChanged`.',
        'If either changed, keep the draft (`kept`: "draft", `report`: the draft unchanged) and explain in `reason` what the debate tried to change; otherwise keep the leader\'s version (`kept`: "final", `report`: the leader\'s version) and say so in `reason`.',
      ].join('\n'),
    },
  ],
  reportStep: 'SAFETY',
};
