// SAS: structured adversarial synthesis (docs/protocols.md), adapted from earnings calls to
// credit. Three specialists distil the pool into briefings; everything after that argues from
// the briefings and the debate only (`evidence: 'none'`), which is the point of SAS:
// the debate tests the distilled case, it does not re-mine the pool. No step searches the web.
import type { PoolLane, ProtocolDef, StepDef } from '@/lib/domain/protocol';
import { poolWords } from '@/lib/debate/protocols/lanes';

const BRIEFINGS = ['B-F', 'B-M', 'B-I'];
const OPENINGS = ['O-A', 'O-N'];
const REBUTTALS = ['R-A', 'R-N'];
const FOLLOW_UPS = ['F-A', 'F-N'];
const CLOSINGS = ['X-A', 'X-N'];
// "Full history": the briefings and every debate act before the step, in protocol order.
const AFTER_CHALLENGE = [...BRIEFINGS, ...OPENINGS, 'C'];
const AFTER_REBUTTALS = [...AFTER_CHALLENGE, ...REBUTTALS];
const AFTER_JUDGING = [...AFTER_REBUTTALS, 'J-DA'];
const AFTER_FOLLOW_UPS = [...AFTER_JUDGING, ...FOLLOW_UPS];
const WHOLE_DEBATE = [...AFTER_FOLLOW_UPS, ...CLOSINGS];
// Each side's case as it argued it, in protocol order: the stress test gets the winner's (below).
const SIDED_TURNS = [...OPENINGS, ...REBUTTALS, ...FOLLOW_UPS, ...CLOSINGS];

type Side = { suffix: 'A' | 'N'; team: 'affirmative' | 'negative'; position: string; other: string };
const SIDES: Side[] = [
  { suffix: 'A', team: 'affirmative', position: 'the borrower can service and repay its debt', other: 'negative' },
  { suffix: 'N', team: 'negative', position: "the borrower's capacity to repay is at risk", other: 'affirmative' },
];

// B-I's narrative: one limit, in characters, which is what the engine checks (lib/debate/rules.ts).
const INDUSTRY_MAX_CHARS = 2000;

// The factual briefing lists every figure and dated fact, so it reads the whole pool; the other
// two read the lane their subject names (lib/debate/evidence-scope.ts), which keeps three copies
// of the pool out of the case's prompts. B-F shows every item to the debate that follows.
const MANAGEMENT_LANE: PoolLane = { factors: ['management_continuity', 'internal_control_risk', 'employment_stability', 'public_interest_trend'] };
const INDUSTRY_LANE: PoolLane = {
  factors: [
    'industry_growth_outlook',
    'industry_competition_intensity',
    'technological_disruption_risk',
    'economic_sensitivity',
    'government_support_programs',
  ],
};

const briefings: StepDef[] = [
  {
    id: 'B-F',
    agent: 'factual-analyst',
    role: 'specialist',
    focus: 'figures',
    team: 'neutral',
    act: 'distillation',
    context: [],
    webSearch: false,
    evidence: 'pool',
    output: 'briefing',
    rules: { citationsRequired: true, findingsOrNothing: true },
    task: [
      'Write the factual briefing the debate will rely on. List every figure and dated fact the evidence states that bears on repayment — counts, amounts, ratings, dates of events — one claim each, with its citation.',
      'Report, do not interpret: nothing inferred, nothing estimated, no adjectives the source does not use.',
    ].join('\n'),
  },
  {
    id: 'B-M',
    agent: 'management-analyst',
    role: 'specialist',
    focus: 'management-behaviour',
    team: 'neutral',
    act: 'distillation',
    context: [],
    webSearch: false,
    evidence: 'documents',
    lane: MANAGEMENT_LANE,
    output: 'briefing',
    rules: { citationsRequired: true, findingsOrNothing: true },
    task: [
      "Write the management and behaviour briefing: how credible management's statements are, how stable the leadership is, and what the tone of its disclosures and calls suggests.",
      'Back every claim with a short quotation from a passage or an evidence item, cited. Where they give no basis for a judgement, say so rather than guess.',
      poolWords(MANAGEMENT_LANE),
    ].join('\n'),
  },
  {
    id: 'B-I',
    agent: 'industry-analyst',
    role: 'specialist',
    focus: 'industry-narrative',
    team: 'neutral',
    act: 'distillation',
    context: [],
    webSearch: false,
    evidence: 'pool',
    lane: INDUSTRY_LANE,
    output: 'briefing',
    maxChars: INDUSTRY_MAX_CHARS,
    rules: { citationsRequired: true, findingsOrNothing: true },
    task: [
      `Write the market and industry briefing as one narrative of at most ${INDUSTRY_MAX_CHARS} characters in \`text\`: growth outlook, competitive pressure, technological and cyclical exposure, and public support, as the structured evidence shows them.`,
      'Record each point that the narrative rests on as a cited claim.',
      poolWords(INDUSTRY_LANE),
    ].join('\n'),
  },
];

const openings: StepDef[] = SIDES.map((side) => ({
  id: `O-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'opening',
  context: BRIEFINGS,
  webSearch: false,
  evidence: 'none',
  output: 'turn',
  rules: { citationsRequired: true, polarity: side.team === 'affirmative' ? 'favorable' : 'adverse-or-context' },
  task: [
    `Open the ${side.team} case: argue that ${side.position}.`,
    "Work from the three briefings only and cite the evidence they cite. You have not seen the other side's opening; make your own case, do not anticipate theirs.",
  ].join('\n'),
}));

const rebuttals: StepDef[] = SIDES.map((side) => ({
  id: `R-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'rebuttal',
  context: AFTER_CHALLENGE,
  webSearch: false,
  evidence: 'none',
  output: 'turn',
  task: [
    `Answer every challenge the devil's advocate (C) put to the ${side.team} opening, setting \`respondsTo\` to the question; then rebut the ${side.other} opening where the briefings allow.`,
    'Concede what you cannot defend: a conceded point costs less than one the judge finds unsupported.',
    // Only the devil's advocate asks in SAS: its follow-up questions (J-DA) are the ones the
    // follow-up step answers, so a question a side put here would go unanswered.
    "Ask no questions of your own: in this debate only the devil's advocate asks, and it follows up on your answers itself.",
  ].join('\n'),
}));

const followUps: StepDef[] = SIDES.map((side) => ({
  id: `F-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'follow-up',
  context: AFTER_JUDGING,
  webSearch: false,
  evidence: 'none',
  output: 'turn',
  task: [
    `Answer the follow-up question the devil's advocate (J-DA) addressed to the ${side.team} side, setting \`respondsTo\` to it.`,
    'If J-DA was satisfied with your rebuttal and asked nothing, say so in one sentence and make no claims.',
  ].join('\n'),
}));

const closings: StepDef[] = SIDES.map((side) => ({
  id: `X-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'closing',
  context: AFTER_FOLLOW_UPS,
  webSearch: false,
  evidence: 'none',
  output: 'turn',
  rules: { noNewMaterial: true },
  task: [
    `Close the ${side.team} case: why, after the challenges, rebuttals and follow-ups, ${side.position}.`,
    'Name the points you conceded and the ones the other side left unanswered. Nothing new: no factor and no evidence the debate did not already use.',
  ].join('\n'),
}));

export const SAS: ProtocolDef = {
  id: 'sas',
  name: 'Structured adversarial synthesis (SAS)',
  description:
    "Three specialist briefings, a five-act debate with a devil's advocate on the briefings only, then judge, stress test and a lead analyst's report.",
  steps: [
    ...briefings,
    ...openings,
    {
      id: 'C',
      agent: 'devils-advocate',
      role: 'devils-advocate',
      team: 'neutral',
      act: 'challenge',
      context: [...BRIEFINGS, ...OPENINGS],
      webSearch: false,
      evidence: 'none',
      output: 'turn',
      task: [
        "You are the devil's advocate and take no side. Put one to three pointed challenges to each opening (O-A and O-N) as questions aimed at their claims through `targetClaimId`.",
        "Go for what would hurt most if it were wrong: a figure read out of context, a quotation stretched, a risk or strength left out of the briefings' picture. No claims of your own.",
      ].join('\n'),
    },
    ...rebuttals,
    {
      id: 'J-DA',
      agent: 'devils-advocate',
      role: 'devils-advocate',
      team: 'neutral',
      act: 'judgment',
      context: AFTER_REBUTTALS,
      webSearch: false,
      evidence: 'none',
      output: 'turn',
      task: [
        'Judge each rebuttal (R-A and R-N) against the challenges you put in C: say in `text`, side by side, whether it answered them convincingly and why.',
        'For a side that did not convince you, press with exactly one follow-up question aimed at the rebuttal claim (or, if it made none, at the opening claim) that fell short. A side that convinced you gets no question.',
      ].join('\n'),
    },
    ...followUps,
    ...closings,
    {
      id: 'JUDGE',
      agent: 'judge',
      role: 'judge',
      team: 'neutral',
      act: 'judgment',
      context: WHOLE_DEBATE,
      webSearch: false,
      evidence: 'none',
      output: 'sasJudgment',
      task: [
        "Decide which side's case held up better against the briefings and the devil's advocate, and justify it in one sentence.",
        'Judge the arguments, not the eloquence: a case that conceded honestly can still be the stronger one. Apply the same standard to both sides.',
      ].join('\n'),
    },
    {
      id: 'STRESS',
      agent: 'stress-analyst',
      role: 'stress-analyst',
      team: 'neutral',
      act: 'analysis',
      // As published: the stress test sees only the winning thesis — the upheld side's opening,
      // rebuttal, follow-up and closing, and the verdict that upheld it — not the whole debate.
      // The engine drops the losing side's turns once JUDGE has named the winner.
      context: [...SIDED_TURNS, 'JUDGE'],
      onlyWinnerOf: 'JUDGE',
      webSearch: false,
      evidence: 'none',
      output: 'sasStress',
      task: [
        'You receive the case the judge upheld, as its side argued it, and the verdict. Find the single assumption that case can least afford to lose: the one that, if false, would overturn the conclusion about repayment.',
        'State it in `assumption` and explain in `critique` why it is fragile and what evidence would confirm or break it.',
      ].join('\n'),
    },
    {
      id: 'LEAD',
      agent: 'lead-analyst',
      role: 'lead-analyst',
      team: 'neutral',
      act: 'report',
      // As published: the briefings, the entire debate, the verdict and the stress critique.
      context: [...WHOLE_DEBATE, 'JUDGE', 'STRESS'],
      webSearch: false,
      evidence: 'none',
      output: 'sasReport',
      // One call. As sections (four parts at the same time, then the summary) every call resent
      // the whole debate: 30,282 prompt tokens on the engine benchmark's Samsung case against
      // about 6,900 for one call, which writes its ~2,200 tokens in one stream instead.
      task: [
        "Write the final credit report of about 700–800 words across its sections, adopting the judge's conclusion and building the stress analyst's critique into it.",
        '- `executiveSummary`: the conclusion on repayment capability and its main reason.',
        '- `evidenceReview`: the evidence for and against, with dates and sources.',
        '- `keyTakeaways`: the points a credit committee should remember.',
        '- `primaryRisk` and `mitigation`: the fragile assumption, and what would reduce or monitor it.',
        '- `outlook`: what to watch next and when.',
        'Write as an analyst to the committee: never mention the debate, the agents or any step of how the report was produced.',
      ].join('\n'),
    },
  ],
  reportStep: 'LEAD',
};
