import { describe, expect, it } from 'vitest';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { checkStepRules, dropNewEvidence } from '@/lib/debate/rules';

const cite = { evidenceId: 'e1', source: 'DART', date: '2024-01-11' };
const claim = (id: string, factor: string, polarity = 'favorable') => ({ id, text: `claim ${id}`, factor, polarity, citations: [cite] });

describe('step rules', () => {
  const d1 = getStep(getProtocol('kpd-mads'), 'D1');
  const d2 = getStep(getProtocol('kpd-mads'), 'D2');
  const d3 = getStep(getProtocol('kpd-mads'), 'D3');

  it('asks D1 for three favorable signals, fewer only when the pool has fewer factors', () => {
    const two = { text: 'short', claims: [claim('D1-c1', 'management_continuity'), claim('D1-c2', 'certifications')], questions: [] };
    expect(checkStepRules(d1, two, { context: new Map() }).join(' ')).toMatch(/at least 3 claims/);
    expect(checkStepRules(d1, two, { context: new Map(), availableFactors: new Set(['management_continuity', 'certifications']) })).toEqual([]);
  });

  it('wants exactly three questions on real claims of the examined turn, across two factors', () => {
    const context = new Map([['D1', { claims: [claim('D1-c1', 'management_continuity'), claim('D1-c2', 'certifications')] }]]);
    const q = (id: string, target: string) => ({ id, targetClaimId: target, text: 'why?' });
    expect(checkStepRules(d2, { text: 't', claims: [], questions: [q('q1', 'D1-c1'), q('q2', 'D1-c2'), q('q3', 'D1-c1')] }, { context })).toEqual([]);
    const problems = checkStepRules(d2, { text: 't', claims: [], questions: [q('q1', 'D1-c1'), q('q2', 'D9-c9')] }, { context });
    expect(problems.join(' ')).toMatch(/exactly 3 questions/);
    expect(problems.join(' ')).toMatch(/D9-c9|q2/);
  });

  it('refuses D3 claims on the factors D1 used, and favorable readings', () => {
    const context = new Map([['D1', { claims: [claim('D1-c1', 'management_continuity')] }]]);
    const out = {
      text: 't',
      claims: [
        claim('D3-c1', 'management_continuity', 'adverse'),
        claim('D3-c2', 'internal_control_risk', 'favorable'),
        claim('D3-c3', 'employment_stability', 'context'),
      ],
      questions: [],
    };
    const problems = checkStepRules(d3, out, {
      context,
      availableFactors: new Set(['management_continuity', 'internal_control_risk', 'employment_stability', 'industry_competition_intensity']),
    }).join(' ');
    expect(problems).toMatch(/reused: D3-c1/);
    expect(problems).toMatch(/D3-c2/);
    // With no unused factor left in the pool, reuse is allowed (the text must say so).
    const thin = checkStepRules(d3, { ...out, claims: [out.claims[0]] }, { context, availableFactors: new Set(['management_continuity']) });
    expect(thin.join(' ')).not.toMatch(/reused/);
  });

  it('counts no citation dated after the as-of date as the citation a claim needs', () => {
    const late = { ...cite, evidenceId: 'e9', date: '2025-02-01', verified: false, afterAsOf: true };
    const claims = [
      claim('D1-c1', 'management_continuity'),
      { ...claim('D1-c2', 'certifications'), citations: [late] },
      { ...claim('D1-c3', 'employment_stability'), citations: [late, cite] },
    ];
    const problems = checkStepRules(d1, { text: 't', claims, questions: [] }, { context: new Map() });
    expect(problems).toEqual(['every claim needs a citation dated on or before the as-of date; these have none: D1-c2.']);
  });

  it('holds text to the step limit', () => {
    const out = {
      text: 'x'.repeat(601),
      claims: [claim('a', 'certifications'), claim('b', 'management_continuity'), claim('c', 'employment_stability')],
      questions: [],
    };
    expect(checkStepRules(d1, out, { context: new Map() }).join(' ')).toMatch(/601 characters; the limit is 600/);
  });
});

describe('three-round rules', () => {
  const tr = getProtocol('three-round');
  const arg = (id: string, evidence = [cite]) => ({ id, claim: `claim ${id}`, reasoning: 'because', factor: 'certifications', evidence });
  const round = (...ids: string[]) => ({ text: 't', arguments: ids.map((id) => arg(id)) });

  it('round 1: three to five arguments, fewer only when the pool offers fewer factors', () => {
    const r1 = getStep(tr, 'R1-A');
    expect(checkStepRules(r1, round('R1-A-1', 'R1-A-2'), { context: new Map(), availableFactors: new Set(['a', 'b', 'c', 'd']) })).toEqual([
      'give 3 to 5 numbered arguments; got 2.',
    ]);
    expect(checkStepRules(r1, round('R1-A-1', 'R1-A-2', 'R1-A-3'), { context: new Map(), availableFactors: new Set(['a', 'b', 'c']) })).toEqual([]);
    expect(checkStepRules(r1, round('1', '2', '3', '4', '5', '6'), { context: new Map() })).toEqual(['give 3 to 5 numbered arguments; got 6.']);
    expect(checkStepRules(r1, round('R1-A-1', 'R1-A-2'), { context: new Map(), availableFactors: new Set(['a', 'b']) })).toEqual([]);
  });

  it('round 1: every argument cites evidence dated on or before the as-of date', () => {
    const late = { ...cite, afterAsOf: true };
    const out = { text: 't', arguments: [arg('R1-N-1'), arg('R1-N-2', []), arg('R1-N-3', [late])] };
    expect(checkStepRules(getStep(tr, 'R1-N'), out, { context: new Map() })).toEqual([
      'every argument needs evidence dated on or before the as-of date; these have none: R1-N-2, R1-N-3.',
    ]);
  });

  it('round 2 answers every argument of the other side, and only those; the judge scores every argument', () => {
    const context = new Map<string, unknown>([
      ['R1-N', round('R1-N-1', 'R1-N-2', 'R1-N-3')],
      ['R1-A', round('R1-A-1', 'R1-A-2', 'R1-A-3')],
    ]);
    const response = (targetId: string) => ({ targetId, kind: 'refute', reasoning: 'r', followUp: 'f?' });
    const r2 = getStep(tr, 'R2-A');
    expect(checkStepRules(r2, { text: 't', responses: ['R1-N-1', 'R1-N-2', 'R1-N-3'].map(response) }, { context })).toEqual([]);
    expect(checkStepRules(r2, { text: 't', responses: ['R1-N-1', 'R1-A-2'].map(response) }, { context })).toEqual([
      'every argument of R1-N must be answered; these are not: R1-N-2, R1-N-3.',
      'responses must name arguments of R1-N; these do not: R1-A-2.',
    ]);
    const score = (argumentId: string) => ({ argumentId, logic: 5, evidence: 5, responsiveness: 5, honesty: 5, weighted: 5 });
    const judgment = {
      overall: { keyInsight: 'k', affirmativeTotal: 5, negativeTotal: 5, unresolved: [], recommendation: 'r' },
      scores: ['R1-A-1', 'R1-A-2', 'R1-A-3', 'R1-N-1', 'R1-N-2'].map(score),
      fallacies: [],
      trace: [],
    };
    expect(checkStepRules(getStep(tr, 'JUDGE'), judgment, { context })).toEqual(['every argument of R1-A and R1-N must be scored; these are not: R1-N-3.']);
  });

  it('takes out of a closing only the citations of evidence its turns did not cite, wherever they sit', () => {
    const kpd = getProtocol('kpd-mads');
    const d9 = getStep(kpd, 'D9');
    const context = new Map([['D1', { claims: [claim('D1-c1', 'management_continuity')] }]]);
    const invented = { evidenceId: 'e-9288', source: 'Reuters', date: '2024-05-02' };
    const unnamed = { source: 'Yonhap', date: '2024-03-01' };
    const out = { text: 't', claims: [{ ...claim('D9-c1', 'management_continuity'), citations: [cite, invented, unnamed] }], questions: [] };
    expect(checkStepRules(d9, out, { context })).toEqual(['a closing brings no new evidence; new: e-9288.']);
    expect(dropNewEvidence(d9, out, context)).toEqual([invented]);
    // What the turns cite stays, and so does a citation with no id (the citation rule flags it).
    expect(out.claims[0].citations).toEqual([cite, unnamed]);
    expect(checkStepRules(d9, out, { context })).toEqual([]);
    // Three-round closings keep their evidence under arguments.
    const tr = getProtocol('three-round');
    const closing = tr.steps.find((s) => s.rules?.noNewMaterial)!;
    const args = { arguments: [{ id: 'A-1', evidence: [invented, cite] }] };
    expect(dropNewEvidence(closing, args, context)).toEqual([invented]);
    expect(args.arguments[0].evidence).toEqual([cite]);
    // A step that may bring new material keeps everything.
    const d1 = { text: 't', claims: [{ ...claim('D1-c1', 'management_continuity'), citations: [cite, invented] }], questions: [] };
    expect(dropNewEvidence(getStep(kpd, 'D1'), d1, context)).toEqual([]);
    expect(d1.claims[0].citations).toHaveLength(2);
  });
});

describe('specialist briefings: a finding or an explicit "nothing in the material"', () => {
  const specialists = [
    getStep(getProtocol('sas'), 'B-F'),
    getStep(getProtocol('sas'), 'B-M'),
    getStep(getProtocol('sas'), 'B-I'),
    ...getProtocol('findebate').steps.filter((s) => s.role === 'specialist'),
  ];
  const shown = { ...cite, verified: true };

  it('declares the rule on every specialist step of SAS and FinDebate', () => {
    expect(specialists.map((s) => [s.id, s.rules?.findingsOrNothing])).toEqual(specialists.map((s) => [s.id, true]));
  });

  it.each(specialists.map((s) => [s.id, s] as const))('%s: one sentence and no findings fails; a cited finding or the explicit nothing passes', (_id, step) => {
    const empty = checkStepRules(step, { text: 'The company appears stable.', claims: [] }, { context: new Map() });
    expect(empty.join(' ')).toMatch(/no finding.*nothingInMaterial/);
    const found = { text: 'One finding.', claims: [{ ...claim(`${step.id}-c1`, 'management_continuity', 'context'), citations: [shown] }] };
    expect(checkStepRules(step, found, { context: new Map() })).toEqual([]);
    expect(checkStepRules(step, { text: 'The material holds nothing on this topic.', nothingInMaterial: true, claims: [] }, { context: new Map() })).toEqual(
      [],
    );
  });

  it('counts no citation that matches nothing the step was shown, or dated after the as-of date, as a finding', () => {
    const bf = specialists[0];
    const invented = { text: 't', claims: [{ ...claim('B-F-c1', 'other', 'context'), citations: [{ ...cite, evidenceId: 'made-up', verified: false }] }] };
    expect(checkStepRules(bf, invented, { context: new Map() }).join(' ')).toMatch(/no finding/);
    const late = { text: 't', claims: [{ ...claim('B-F-c1', 'other', 'context'), citations: [{ ...cite, verified: false, afterAsOf: true }] }] };
    expect(checkStepRules(bf, late, { context: new Map() }).join(' ')).toMatch(/no finding/);
  });

  it('refuses "nothing in the material" beside findings: one or the other', () => {
    const both = { text: 't', nothingInMaterial: true, claims: [{ ...claim('B-F-c1', 'other', 'context'), citations: [shown] }] };
    expect(checkStepRules(specialists[0], both, { context: new Map() }).join(' ')).toMatch(/nothingInMaterial is true but the answer has 1 claim/);
  });

  it('leaves steps without the rule alone: a debate turn may make no claim', () => {
    const followUp = getStep(getProtocol('sas'), 'F-A');
    expect(checkStepRules(followUp, { text: 'No follow-up came.', claims: [], questions: [] }, { context: new Map() })).toEqual([]);
  });
});
