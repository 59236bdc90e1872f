// FinDebate (docs/protocols.md), adapted to credit: five specialists read retrieved document
// passages (no web search: the system is retrieval-grounded by design), a writer commits to a
// stance, one bounded debate round strengthens and stress-tests it, and a safety check keeps
// the draft when the debate moved the stance or the horizons.
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';

const SPECIALISTS = ['S-PERF', 'S-MKT', 'S-MGMT', 'S-COLL', 'S-RISK'];

// Each specialist gets one lane so five parallel briefings cover the case without overlapping.
const specialist = (id: string, agent: string, identity: string, focus: string): StepDef => ({
  id,
  agent,
  team: 'neutral',
  act: 'analysis',
  context: [],
  webSearch: false,
  evidence: 'documents',
  output: 'briefing',
  rules: { citationsRequired: true },
  task: [
    `You are ${identity}.`,
    `From the retrieved passages, brief the writer on ${focus}, as it bears on the borrower's capacity to repay.`,
    'One claim per finding, each cited to its passage; state plainly where the passages are silent. Stay in your lane: the other four specialists cover the rest.',
  ].join('\n'),
});

export const FINDEBATE: ProtocolDef = {
  id: 'findebate',
  name: 'FinDebate',
  description: 'Five retrieval-grounded specialists, a stance-taking draft, one safe debate round (trust, skeptic, leader) and a safety check.',
  steps: [
    specialist('S-PERF', 'performance-analyst', 'a business performance analyst', 'how the business is performing: orders, output, market position and its trend'),
    specialist('S-MKT', 'market-analyst', 'an industry and market analyst', 'the industry\'s growth, competition, technology shifts and cyclical exposure'),
    specialist('S-MGMT', 'management-analyst', 'a management and sentiment analyst', 'management continuity, governance and the tone of disclosures and coverage'),
    specialist('S-COLL', 'collateral-analyst', 'a collateral and valuation analyst', 'assets, certifications, rights and support programmes that back or secure the credit'),
    specialist('S-RISK', 'risk-analyst', 'a credit risk analyst', 'litigation, sanctions, distress signals, internal-control findings and other risks to repayment'),
    {
      id: 'DRAFT',
      agent: 'writer',
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
