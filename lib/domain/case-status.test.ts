import { describe, expect, it } from 'vitest';
import { closedCaseNote, shownCaseStatus } from '@/lib/domain/case-status';

describe('the status a case shows', () => {
  it('reads "analyzing" only while a run is queued or running', () => {
    expect(shownCaseStatus('analyzing', 1)).toBe('analyzing');
    expect(shownCaseStatus('analyzing', 0)).toBe('not_submitted');
    expect(shownCaseStatus('draft', 0)).toBe('draft');
    expect(shownCaseStatus('draft', 2)).toBe('analyzing');
  });

  it("leaves the committee's statuses as they are", () => {
    expect(shownCaseStatus('submitted', 0)).toBe('submitted');
    expect(shownCaseStatus('decided', 0)).toBe('decided');
    expect(shownCaseStatus('returned', 1)).toBe('returned');
  });

  it('tells the RM a decided case is decided, not "with the credit committee"', () => {
    expect(closedCaseNote('decided')).toBe('caseDecided');
    expect(closedCaseNote('submitted')).toBe('withCommittee');
    for (const open of ['draft', 'analyzing', 'returned'] as const) expect(closedCaseNote(open)).toBeNull();
  });
});
