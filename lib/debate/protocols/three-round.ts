// The three-round structured debate with a rubric judge (docs/protocols.md). Each side argues
// from the pool in round 1 and may search in rounds 1–2, where evidence decides; the closings
// and the judge only weigh what was said, so they do not search. The judge sees the pool to
// check that cited evidence says what the arguments claim. What the engine checks rather than
// takes on the model's word: round 1's 3–5 arguments with evidence, round 2 answering every
// argument (both with one re-ask, lib/debate/rules.ts), the judge's weighted scores and side
// averages (recomputed, lib/debate/enforce.ts) and the judge's low temperature.
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';

type Side = { suffix: 'A' | 'N'; other: 'A' | 'N'; team: 'affirmative' | 'negative'; position: string };
const SIDES: Side[] = [
  { suffix: 'A', other: 'N', team: 'affirmative', position: 'the borrower can service and repay its debt' },
  { suffix: 'N', other: 'A', team: 'negative', position: "the borrower's capacity to repay is at risk" },
];

const round1: StepDef[] = SIDES.map((side) => ({
  id: `R1-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'constructive',
  context: [],
  webSearch: true,
  evidence: 'pool',
  output: 'argumentsRound',
  // Checked, with one re-ask: 3–5 arguments (fewer only when the pool offers fewer factors), each citing evidence.
  rules: { argumentCount: { min: 3, max: 5 }, citationsRequired: true },
  task: [
    `Argue that ${side.position}. Give numbered arguments (the checked rules below say how many), ids \`R1-${side.suffix}-1\`, \`R1-${side.suffix}-2\`, …`,
    'Each argument needs a claim, the reasoning that links the evidence to repayment, its guideline factor, and at least one cited evidence item. An argument without evidence will be sent back.',
  ].join('\n'),
}));

// Each side answers the other's round-1 arguments, and sees its own round 1 too, so it can
// stay consistent with what it argued. The prompt shows both in step order (shared by the two
// sides' prompts, so a provider's cache serves it once: lib/debate/prompts.ts); the rule and the
// task name the arguments to answer.
const round2: StepDef[] = SIDES.map((side) => ({
  id: `R2-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'rebuttal',
  context: [`R1-${side.other}`, `R1-${side.suffix}`],
  webSearch: true,
  evidence: 'pool',
  output: 'responsesRound',
  // Checked, with one re-ask: every argument of the other side's round 1 answered.
  rules: { coverArguments: [`R1-${side.other}`] },
  task: [
    `Answer every argument of R1-${side.other}, one response each with \`targetId\` set to its id. Classify each response:`,
    '- refute: the argument is wrong, and you show why with evidence, named by id and publication date in `reasoning`;',
    '- challenge: the argument is unproven; you name what is missing;',
    '- concede: the argument stands;',
    '- partial: part of it stands, part does not; say which.',
    'Give your reasoning and, in `followUp`, one question for the other side, which it answers in its closing. No new arguments of your own.',
  ].join('\n'),
}));

const round3: StepDef[] = SIDES.map((side) => ({
  id: `R3-${side.suffix}`,
  agent: side.team,
  role: 'debater',
  team: side.team,
  act: 'closing',
  context: ['R1-A', 'R1-N', 'R2-A', 'R2-N'],
  webSearch: false,
  evidence: 'none',
  output: 'closingRound',
  // The published ≤ 200 words, as characters (what the engine checks; 1,400 fits 200 English
  // words): the task states the checked limit only, so a model is held to one number.
  maxChars: 1400,
  rules: { noNewMaterial: true },
  task: [
    `Close the ${side.team} case (the checked rules below give the length).`,
    `In \`text\`, answer the follow-up questions the other side put to you in round 2 (the \`followUp\` of R2-${side.other}).`,
    '`concessions`: what you conceded in round 2. `unrebutted`: ids of your arguments the other side did not refute. `finalPosition`: where you stand now on repayment, given both.',
    'Nothing new: no argument and no evidence the first two rounds did not use.',
  ].join('\n'),
}));

export const THREE_ROUND: ProtocolDef = {
  id: 'three-round',
  name: 'Three-round debate with rubric judge',
  description: 'Numbered arguments, point-by-point responses and closings, scored by a rubric judge with a fallacy check.',
  steps: [
    ...round1,
    ...round2,
    ...round3,
    {
      id: 'JUDGE',
      agent: 'judge',
      role: 'judge',
      team: 'neutral',
      act: 'judgment',
      context: ['R1-A', 'R1-N', 'R2-A', 'R2-N', 'R3-A', 'R3-N'],
      webSearch: false,
      evidence: 'pool',
      output: 'rubricJudgment',
      // Every round-1 argument scored (checked, one re-ask). The engine recomputes each weighted
      // score and the side averages from the four criteria, and runs this step at the run's judge
      // temperature (low by default), whatever the other steps run at.
      rules: { coverArguments: ['R1-A', 'R1-N'] },
      task: [
        'Judge the debate; you take no side, and score as you would on any other case.',
        'Score every round-1 argument from 1 to 10 on logic, evidence (does the cited item exist in the evidence block, or among the web results the rounds cite, and say what is claimed?), responsiveness (how it held up in round 2) and honesty (concessions, no overstatement). `weighted` = 0.30 × logic + 0.30 × evidence + 0.25 × responsiveness + 0.15 × honesty.',
        'List each fallacy you find, with the argument and a one-line explanation: straw man, appeal to authority, slippery slope, false dilemma, anecdotal evidence, circular reasoning, ad hominem.',
        'Trace every argument to its standing after the debate: UPHELD, PARTIALLY_UPHELD, REFUTED or UNCERTAIN, with a note.',
        "`overall`: each side's total as the AVERAGE of its arguments' weighted scores (not the sum, which would favour the side with more arguments), the key insight, the questions left unresolved, and a recommendation for the credit committee; the recommendation names each red flag above by its evidence id.",
      ].join('\n'),
    },
  ],
  reportStep: 'JUDGE',
};
