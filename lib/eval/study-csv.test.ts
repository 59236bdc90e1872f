import { describe, expect, it } from 'vitest';
import { ratingsCsv, type CsvAssignment } from '@/lib/eval/study-csv';

const base: CsvAssignment = {
  id: 'as-1',
  position: 1,
  evaluator: 'E-0A1B2C3D',
  companyId: 'acme',
  companyName: 'Acme',
  protocol: 'KPD-MADS',
  runId: 'run-1',
  reportId: 'rep-1',
  answers: {},
  savedAt: null,
  submittedAt: null,
};

// The file an analyst loads into R or a spreadsheet: pinned byte for byte.
describe('ratingsCsv', () => {
  it('writes a header and one CRLF line per assignment, with the SUS score when every SUS item is answered', () => {
    const full = {
      trustworthiness: 4,
      explanatoryAdequacy: 5,
      practicalApplicability: 3,
      sus1: 5,
      sus2: 1,
      sus3: 5,
      sus4: 1,
      sus5: 5,
      sus6: 1,
      sus7: 5,
      sus8: 1,
      sus9: 5,
      sus10: 2,
    };
    const csv = ratingsCsv({
      studyId: 'st-1',
      studyName: 'Pilot, "blind"',
      rows: [
        { ...base, answers: full, savedAt: new Date('2025-03-01T09:30:00Z'), submittedAt: new Date('2025-03-01T10:00:00.5Z') },
        { ...base, id: 'as-2', position: 2, evaluator: 'E-99FF0011', companyName: '주식회사\n에이', answers: { trustworthiness: 2 } },
        { ...base, id: 'as-3', position: 3, companyName: '=cmd|calc' },
      ],
    });
    expect(csv).toBe(
      'study_id,study_name,assignment_id,evaluator,company_id,company_name,protocol,run_id,report_id,position,trustworthiness,explanatoryAdequacy,practicalApplicability,sus1,sus2,sus3,sus4,sus5,sus6,sus7,sus8,sus9,sus10,sus_score,saved_at,submitted_at\r\n' +
        'st-1,"Pilot, ""blind""",as-1,E-0A1B2C3D,acme,Acme,KPD-MADS,run-1,rep-1,1,4,5,3,5,1,5,1,5,1,5,1,5,2,97.5,2025-03-01T09:30:00.000Z,2025-03-01T10:00:00.500Z\r\n' +
        `st-1,"Pilot, ""blind""",as-2,E-99FF0011,acme,"주식회사\n에이",KPD-MADS,run-1,rep-1,2,2,,,,,,,,,,,,,,,\r\n` +
        `st-1,"Pilot, ""blind""",as-3,E-0A1B2C3D,acme,'=cmd|calc,KPD-MADS,run-1,rep-1,3,,,,,,,,,,,,,,,,\r\n`,
    );
  });

  // Issue 30, item 2: the file named every evaluator by email and name next to their answers.
  it('names no evaluator: one pseudonym column, no email or name, even when the rows carry them', () => {
    const row = { ...base, evaluatorEmail: 'eva@example.com', evaluatorName: 'Eva Evaluator' } as CsvAssignment;
    const csv = ratingsCsv({ studyId: 's', studyName: 'n', rows: [row] });
    const [head, line] = csv.split('\r\n');
    expect(head.split(',').filter((c) => c.startsWith('evaluator'))).toEqual(['evaluator']);
    expect(line).toContain(',E-0A1B2C3D,');
    expect(csv).not.toContain('eva@example.com');
    expect(csv).not.toContain('Eva Evaluator');
  });

  it('writes only the header for a study without assignments', () => {
    expect(ratingsCsv({ studyId: 's', studyName: 'n', rows: [] }).split('\r\n')).toHaveLength(2);
  });
});
