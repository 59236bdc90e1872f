import { describe, expect, it } from 'vitest';
import type { Team } from '@/lib/domain/protocol';
import { buildReasoningTree, citationGrounding, normaliseFactor, type TreeNode, type TreeTurn } from '@/lib/eval/tree';

const cite = [{ evidenceId: 'ev-1', source: 'DART', date: '2024-05-01' }];
const claim = (id: string, factor: string, respondsTo?: string) => ({
  id,
  text: `claim ${id}`,
  factor,
  polarity: 'context',
  citations: cite,
  ...(respondsTo ? { respondsTo } : {}),
});
const question = (id: string, targetClaimId: string) => ({ id, targetClaimId, text: `question ${id}` });
const turn = (stepId: string, team: Team, act: string, claims: unknown[] = [], questions: unknown[] = []): TreeTurn => ({
  stepId,
  team,
  act,
  output: { text: `text of ${stepId}`, claims, questions },
});

const REPORT = (topics: { topic: string; factor: string }[]) => ({
  objective: 'Repayment capability of Acme as of 2024-06-30',
  overview: 'Machine tools maker.',
  favorableSummary: [],
  adverseSummary: [],
  topics: topics.map((t) => ({ ...t, affirmative: 'a', adverse: '', citations: cite })),
});

const keys = (nodes: TreeNode[]): unknown => nodes.map((n) => (n.children.length ? { [n.key]: keys(n.children) } : n.key));

describe('a NAS-like flat report', () => {
  const factors = [
    'industry_growth_outlook',
    'industry_competition_intensity',
    'government_support_programs',
    'internal_control_risk',
    'management_continuity',
    'employment_stability',
    'certifications',
  ];
  // Headcount at two dates: two entries, one topic.
  const topics = [...factors.map((factor) => ({ topic: factor, factor })), { topic: 'headcount 2023', factor: 'employment_stability' }];
  const tree = buildReasoningTree([{ stepId: 'NAS', team: 'neutral', act: 'report', output: REPORT(topics) }]);

  it('has one branch per factor, each one level deep', () => {
    expect(tree.breadth).toBe(7);
    expect(tree.depths).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(tree.rei).toBe(7);
    expect(tree.branches.find((b) => b.factor === 'employment_stability')!.nodes).toHaveLength(2);
  });

  it("roots the tree in the report's objective and names branches by the guideline", () => {
    expect(tree.root).toEqual({ stepId: 'NAS', text: 'Repayment capability of Acme as of 2024-06-30' });
    expect(tree.branches[0]).toMatchObject({ topic: 'Industry growth outlook', factor: 'industry_growth_outlook' });
  });
});

describe('a KPD-like debate', () => {
  const turns: TreeTurn[] = [
    turn('D1', 'affirmative', 'constructive', [
      claim('D1-c1', 'industry_growth_outlook'),
      claim('D1-c2', 'certifications'),
      claim('D1-c3', 'government_support_programs'),
    ]),
    turn('D2', 'negative', 'cross-examination', [], [question('D2-q1', 'D1-c1'), question('D2-q2', 'D1-c2'), question('D2-q3', 'D1-c2')]),
    turn('D3', 'negative', 'constructive', [
      claim('D3-c1', 'industry_competition_intensity'),
      claim('D3-c2', 'internal_control_risk'),
      claim('D3-c3', 'economic_sensitivity'),
    ]),
    turn('D4', 'affirmative', 'cross-examination', [], [question('D4-q1', 'D3-c1'), question('D4-q2', 'D3-c2'), question('D4-q3', 'D3-c3')]),
    // A rebuttal tagged with its own factor still deepens the branch it answers.
    turn('D5', 'affirmative', 'rebuttal', [claim('D5-c1', 'industry_growth_outlook', 'D3-c1')]),
    turn('D6', 'negative', 'cross-examination', [], [question('D6-q1', 'D5-c1')]),
    turn('D7', 'negative', 'rebuttal', [claim('D7-c1', 'industry_growth_outlook', 'D1-c1')]),
    turn('D8', 'affirmative', 'cross-examination', [], [question('D8-q1', 'D7-c1')]),
    turn('D9', 'affirmative', 'closing', [claim('D9-c1', 'industry_growth_outlook', 'D2-q1')]),
    turn('D10', 'negative', 'closing', [claim('D10-c1', 'industry_competition_intensity', 'D4-q1')]),
    { stepId: 'AG', team: 'neutral', act: 'aggregation', output: REPORT([{ topic: 'growth', factor: 'industry_growth_outlook' }]) },
  ];
  const tree = buildReasoningTree(turns);

  it('measures each topic by how far the debate pursued it', () => {
    expect(tree.branches.map((b) => [b.factor, b.depth])).toEqual([
      ['industry_growth_outlook', 3],
      ['industry_competition_intensity', 3],
      ['economic_sensitivity', 2],
      ['government_support_programs', 1],
      ['internal_control_risk', 2],
      ['certifications', 2],
    ]);
    expect(tree.breadth).toBe(6);
    expect(tree.rei).toBe(13);
    expect(tree.unlinked).toEqual([]);
  });

  it('hangs challenges, rebuttals and replies under what they answer', () => {
    const growth = tree.branches[0];
    expect(keys(growth.nodes)).toEqual([{ 'D1/D1-c1': [{ 'D2/D2-q1': ['D9/D9-c1'] }, { 'D7/D7-c1': ['D8/D8-q1'] }] }]);
    const competition = tree.branches[1];
    expect(keys(competition.nodes)).toEqual([{ 'D3/D3-c1': [{ 'D4/D4-q1': ['D10/D10-c1'] }, { 'D5/D5-c1': ['D6/D6-q1'] }] }]);
    // A node keeps the factor of what it is about; the branch it sits in follows the link.
    expect(competition.nodes[0].children[1].children[0]).toMatchObject({ kind: 'question', factor: 'industry_growth_outlook', level: 3 });
  });

  it('keeps the report as the root, not as a branch', () => {
    expect(tree.root?.stepId).toBe('AG');
    expect(tree.branches.flatMap((b) => b.nodes).some((n) => n.stepId === 'AG')).toBe(false);
  });

  it("applies an evaluator's corrections", () => {
    // D5 really answered D3's internal-control claim; D7 made an argument of its own.
    const corrected = buildReasoningTree(turns, { 'D5/D5-c1': 'D3/D3-c2', 'D7/D7-c1': null });
    const byFactor = Object.fromEntries(corrected.branches.map((b) => [b.factor, b.depth]));
    expect(byFactor).toMatchObject({ industry_competition_intensity: 3, internal_control_risk: 3, industry_growth_outlook: 3 });
    expect(corrected.branches[0].nodes.map((n) => n.key)).toEqual(['D1/D1-c1', 'D7/D7-c1']);
    // A correction that points forward is ignored rather than trusted.
    expect(buildReasoningTree(turns, { 'D5/D5-c1': 'D9/D9-c1' }).rei).toBe(13);
  });
});

describe('links the agents drew carelessly', () => {
  it('resolves ids both sides reused by looking across the table', () => {
    const args = (prefix: string) => [
      { id: '1', claim: `${prefix} one`, reasoning: 'r', factor: 'industry_growth_outlook', evidence: cite },
      { id: '2', claim: `${prefix} two`, reasoning: 'r', factor: 'internal_control_risk', evidence: cite },
    ];
    const responses = (targets: string[]) => ({
      text: '',
      responses: targets.map((targetId) => ({ targetId, kind: 'refute', reasoning: 'no', followUp: '?' })),
    });
    const tree = buildReasoningTree([
      { stepId: 'R1-A', team: 'affirmative', act: 'constructive', output: { text: '', arguments: args('A') } },
      { stepId: 'R1-N', team: 'negative', act: 'constructive', output: { text: '', arguments: args('N') } },
      { stepId: 'R2-A', team: 'affirmative', act: 'rebuttal', output: responses(['1']) },
      { stepId: 'R2-N', team: 'negative', act: 'rebuttal', output: responses(['1', '2']) },
      { stepId: 'JUDGE', team: 'neutral', act: 'judgment', output: { overall: { recommendation: 'Approve with covenants.' } } },
    ]);
    expect(tree.root?.text).toBe('Approve with covenants.');
    const growth = tree.branches.find((b) => b.factor === 'industry_growth_outlook')!;
    expect(keys(growth.nodes)).toEqual([{ 'R1-A/1': ['R2-N/r1'] }, { 'R1-N/1': ['R2-A/r1'] }]);
    expect(tree.depths).toEqual([2, 2]);
    expect(tree.rei).toBe(4);
  });

  it('accepts a step-qualified reference to an unqualified id, and drops questions aimed at nothing', () => {
    const tree = buildReasoningTree([
      turn('D1', 'affirmative', 'constructive', [claim('c1', 'Management continuity')]),
      turn('D2', 'negative', 'cross-examination', [], [question('q1', 'D1-c1'), question('q2', 'D1-c9')]),
      // A reference to a later or missing step cannot make a level: this claim stands on its own.
      turn('D3', 'negative', 'constructive', [claim('c1', 'economic_sensitivity', 'D4-c1')]),
      turn('AG', 'neutral', 'aggregation'),
    ]);
    expect(tree.branches.map((b) => [b.factor, b.depth])).toEqual([
      ['economic_sensitivity', 1],
      ['management_continuity', 2],
    ]);
    expect(tree.unlinked).toEqual(['D2/q2']);
  });

  it('is empty for no turns', () => {
    expect(buildReasoningTree([])).toEqual({ root: null, branches: [], breadth: 0, depths: [], rei: 0, unlinked: [] });
  });
});

describe('helpers', () => {
  it('normalises factor labels to ids', () => {
    expect(normaliseFactor('경영 연속성')).toBe('management_continuity');
    expect(normaliseFactor(' certifications ')).toBe('certifications');
    expect(normaliseFactor('')).toBe('other');
    expect(normaliseFactor('Supply chain')).toBe('supply chain');
  });

  it('computes citation grounding as resolved over all, null when nothing was cited', () => {
    expect(citationGrounding(8, 10)).toBe(0.8);
    expect(citationGrounding(0, 0)).toBeNull();
    expect(() => citationGrounding(3, 2)).toThrow(RangeError);
    expect(() => citationGrounding(-1, 2)).toThrow(RangeError);
  });
});
