// The audit page's words for an entry (lib/ops/audit-detail.ts): labelled fields in English and
// Korean from the details the writers record, never JSON.
import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditDetailFields, MAX_VALUE_CHARS } from '@/lib/ops/audit-detail';

const asPairs = (fields: ReturnType<typeof auditDetailFields>) => fields.map((f) => [f.label, f.value]);

describe('audit entries in words', () => {
  it('names the sign-in events and a refused import in both languages, and shows an unknown action as recorded', () => {
    expect(['auth.sign_in', 'auth.sign_in_failed', 'auth.locked', 'pool.import_rejected'].map((a) => auditActionLabel(a, 'en'))).toEqual([
      'Signed in',
      'Sign-in failed',
      'Account locked',
      'Import refused',
    ]);
    expect(['auth.sign_in', 'auth.sign_in_failed', 'auth.locked', 'pool.import_rejected'].map((a) => auditActionLabel(a, 'ko'))).toEqual([
      '로그인',
      '로그인 실패',
      '계정 잠김',
      '자료 가져오기 거부',
    ]);
    expect(auditActionLabel('notification.read', 'en')).toBe('notification.read');
  });

  it('a failed sign-in: the email as typed, the reason in words, the address', () => {
    const detail = { email: 'kim@bank.example', reason: 'invalid', address: '203.0.113.7' };
    expect(asPairs(auditDetailFields(detail, 'en'))).toEqual([
      ['Email as typed', 'kim@bank.example'],
      ['Reason', 'Wrong password'],
      ['Client address', '203.0.113.7'],
    ]);
    expect(asPairs(auditDetailFields(detail, 'ko'))).toEqual([
      ['입력한 이메일', 'kim@bank.example'],
      ['사유', '비밀번호 오류'],
      ['접속 주소', '203.0.113.7'],
    ]);
    expect(asPairs(auditDetailFields({ email: 'kim@bank.example', minutes: 2, address: null }, 'en'))).toEqual([
      ['Email as typed', 'kim@bank.example'],
      ['Locked for (minutes)', '2'],
      ['Client address', '—'],
    ]);
  });

  it('a refused import: counts with digit grouping, files with their rows, reasons as a list', () => {
    const detail = {
      source: 'filings.jsonl, notes.csv',
      origin: 'import',
      rejected: 1234,
      skippedDuplicates: 0,
      files: [
        { file: 'notes.csv', rows: 1200 },
        { file: 'filings.jsonl', rows: 34 },
      ],
      reasons: ['category is missing or unknown', 'published_date 2099-01-01 is in the future'],
    };
    expect(asPairs(auditDetailFields(detail, 'en'))).toEqual([
      ['Source', 'filings.jsonl, notes.csv'],
      ['Origin', 'File import'],
      ['Rejected rows', '1,234'],
      ['Duplicates skipped', '0'],
      ['Files with rejected rows', 'notes.csv (1,200), filings.jsonl (34)'],
      ['First reasons', 'category is missing or unknown, published_date 2099-01-01 is in the future'],
    ]);
    expect(auditDetailFields(detail, 'ko').find((f) => f.key === 'origin')?.value).toBe('파일 가져오기');
  });

  it('a decision, a profile change and a rating: outcomes in words, records and nested lists in one line', () => {
    expect(asPairs(auditDetailFields({ outcome: 'approve_with_conditions', withConditions: true, submittedAt: null }, 'en'))).toEqual([
      ['Outcome', 'Approve with conditions'],
      ['With conditions', 'Yes'],
      ['Submitted at', '—'],
    ]);
    expect(auditDetailFields({ outcome: 'return' }, 'ko')[0].value).toBe('RM 반송');
    expect(auditDetailFields({ updatedCompanies: [{ id: 'guard-co', fields: ['name_en', 'identifiers.cik'] }] }, 'en')[0].value).toBe(
      'guard-co (name_en, identifiers.cik)',
    );
    expect(auditDetailFields({ answers: { q1: 5, q2: 3, comment: 'clear' } }, 'en')[0].value).toBe('q1: 5; q2: 3; comment: clear');
  });

  it('labels a field it does not know from its name, cuts long values and long lists, and reads an empty detail as nothing', () => {
    const fields = auditDetailFields({ someNewThing: 'x'.repeat(1000), snake_case_key: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }, 'en');
    expect(fields.map((f) => f.label)).toEqual(['Some new thing', 'Snake case key']);
    expect([...fields[0].value]).toHaveLength(MAX_VALUE_CHARS);
    expect(fields[0].value.endsWith('…')).toBe(true);
    expect(fields[1].value).toBe('1, 2, 3, 4, 5, 6, 7, 8, 9, 10 +2');
    expect(auditDetailFields({}, 'en')).toEqual([]);
    expect(auditDetailFields(null, 'en')).toEqual([]);
  });
  it("the document and watch entries' details have labels in both languages, none humanized from its key", () => {
    const details = [
      { documentId: 'tesla--upload-0c84', evidenceId: 'tesla-4c46', page: 2, charStart: 120, charEnd: 348, edited: false },
      { file: '10-k.html', bytes: 2048, reason: 'damaged zip' },
      { companyId: 'tesla', file: '10-k.html', format: 'html', chars: 1000, pages: 0, chunks: 3, candidates: 45 },
      { state: 'done', model: 'gpt-4o', proposed: 3, chunksRead: 2, dropped: { notQuoted: 1 }, promptTokens: 10, completionTokens: 5, costUsd: 0.01 },
      { state: 'reading', model: 'gpt-4o', startedAt: '2026-11-27T10:00:00Z' },
      { entryId: 'e1', frequency: 'daily', caseId: null, adverseThreshold: 3, autoRescreen: false },
      { alertId: 'a1', fromCaseId: 'c1', asOf: '2026-11-27', automatic: true },
    ];
    for (const detail of details) {
      const ko = auditDetailFields(detail, 'ko');
      expect(
        ko.map((f) => f.label).filter((label) => !/[\uAC00-\uD7A3]/.test(label)),
        JSON.stringify(detail),
      ).toEqual([]);
      const en = auditDetailFields(detail, 'en');
      expect(en.map((f) => f.label)).not.toContain('Evidence id');
    }
    expect(asPairs(auditDetailFields({ state: 'reading', evidenceId: 'tesla-4c46' }, 'ko'))).toEqual([
      ['읽기 상태', '읽는 중'],
      ['근거 항목', 'tesla-4c46'],
    ]);
  });
});
