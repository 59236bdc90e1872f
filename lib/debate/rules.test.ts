import { describe, expect, it } from 'vitest';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { checkStepRules } from '@/lib/debate/rules';

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

  it("refuses D3 claims on the factors D1 used, and favorable readings", () => {
    const context = new Map([['D1', { claims: [claim('D1-c1', 'management_continuity')] }]]);
    const out = { text: 't', claims: [claim('D3-c1', 'management_continuity', 'adverse'), claim('D3-c2', 'internal_control_risk', 'favorable'), claim('D3-c3', 'employment_stability', 'context')], questions: [] };
    const problems = checkStepRules(d3, out, { context, availableFactors: new Set(['management_continuity', 'internal_control_risk', 'employment_stability', 'industry_competition_intensity']) }).join(' ');
    expect(problems).toMatch(/reused: D3-c1/);
    expect(problems).toMatch(/D3-c2/);
    // With no unused factor left in the pool, reuse is allowed (the text must say so).
    const thin = checkStepRules(d3, { ...out, claims: [out.claims[0]] }, { context, availableFactors: new Set(['management_continuity']) });
    expect(thin.join(' ')).not.toMatch(/reused/);
  });

  it('counts no citation dated after the as-of date as the citation a claim needs', () => {
    const late = { ...cite, evidenceId: 'e9', date: '2025-02-01', verified: false, afterAsOf: true };
    const claims = [claim('D1-c1', 'management_continuity'), { ...claim('D1-c2', 'certifications'), citations: [late] }, { ...claim('D1-c3', 'employment_stability'), citations: [late, cite] }];
    const problems = checkStepRules(d1, { text: 't', claims, questions: [] }, { context: new Map() });
    expect(problems).toEqual(['every claim needs a citation dated on or before the as-of date; these have none: D1-c2.']);
  });

  it('holds text to the step limit', () => {
    const out = { text: 'x'.repeat(601), claims: [claim('a', 'certifications'), claim('b', 'management_continuity'), claim('c', 'employment_stability')], questions: [] };
    expect(checkStepRules(d1, out, { context: new Map() }).join(' ')).toMatch(/601 characters; the limit is 600/);
  });
});
