import { describe, expect, it } from 'vitest';
import type { StepSections } from '@/lib/domain/protocol';
import { coversFactor, joinSections, sectionCalls, sectionOf, sectionProblems } from '@/lib/domain/sections';

const SECTIONS: StepSections = {
  parts: [
    { key: 'governance', fields: ['topics'], factors: ['internal_control_risk'], task: 'g' },
    { key: 'rest', fields: ['topics'], factors: ['certifications', 'other'], task: 'r' },
    { key: 'summaries', fields: ['favorableSummary', 'adverseSummary'], task: 's' },
  ],
  overview: { fields: ['overview', 'objective'], task: 'o' },
};

const topic = (factor: string, name: string) => ({ topic: name, factor, affirmative: '', adverse: 'x', citations: [] });
const REPORT = {
  overview: 'An overview.',
  objective: 'What was assessed.',
  favorableSummary: ['f1'],
  adverseSummary: ['a1', 'a2'],
  topics: [topic('certifications', 'c'), topic('internal_control_risk', 'i1'), topic('liquidity', 'l'), topic('internal_control_risk', 'i2')],
};

describe('sections of an answer', () => {
  it('reads a factor outside the ten as `other`, and a known one only as itself', () => {
    expect(coversFactor(['other'], 'liquidity')).toBe(true);
    expect(coversFactor(['other'], 'certifications')).toBe(false);
    expect(coversFactor(['certifications'], 'certifications')).toBe(true);
  });

  it("cuts a whole answer into each call's share and joins the shares in the declared order", () => {
    const calls = sectionCalls(SECTIONS);
    expect(calls.map((c) => c.key)).toEqual(['governance', 'rest', 'summaries', 'overview']);
    expect(sectionOf('report', REPORT, calls[0])).toEqual({ topics: [REPORT.topics[1], REPORT.topics[3]] });
    expect(sectionOf('report', REPORT, calls[1])).toEqual({ topics: [REPORT.topics[0], REPORT.topics[2]] });
    expect(sectionOf('report', REPORT, calls[3])).toEqual({ overview: 'An overview.', objective: 'What was assessed.' });
    // Joined in the calls' order, whatever order the shares are handed in.
    const joined = joinSections(
      'report',
      calls.map((c) => ({ fields: c.fields, output: sectionOf('report', REPORT, c) })),
    );
    expect(joined).toEqual({ ...REPORT, topics: ['i1', 'i2', 'c', 'l'].map((n) => REPORT.topics.find((t) => t.topic === n)) });
    // Keys in the output's order, the prose first.
    expect(Object.keys(joined)).toEqual(['overview', 'objective', 'favorableSummary', 'adverseSummary', 'topics']);
  });

  it('finds what is wrong with a declaration', () => {
    expect(sectionProblems('report', SECTIONS, false)).toEqual([]);
    const broken: StepSections = {
      parts: [
        { key: 'a', fields: ['topics', 'nonsense'], factors: ['certifications'], task: '' },
        { key: 'b', fields: ['topics'], factors: ['certifications'], task: '' },
        { key: 'a', fields: ['favorableSummary'], task: '' },
      ],
      overview: { fields: ['objective'], task: '' },
    };
    expect(sectionProblems('report', broken, true)).toEqual([
      'section a writes nonsense, which report does not have',
      'section key a is used twice',
      'no section writes overview',
      'no section writes adverseSummary',
      'topics: sections a, b share a factor',
      'the overview does not write the prose field overview',
      'a sectioned step declares rules',
    ]);
  });
});
