// Grouping flags by event, on Taeyoung E&C's real workout filing (data/demo/evidence.jsonl,
// 접수번호 20250217001661) and sentences of the same disclosure as an uploaded original gives them.
import { describe, expect, it } from 'vitest';
import { findRedFlags, type RedFlagSource } from '@/lib/pool/red-flags';

const VIEWER = 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661';
const ORIGINAL = 'https://opendart.fss.or.kr/api/document.xml?rcept_no=20250217001661';
const IMPORTED: RedFlagSource = {
  id: 'taeyoung-engineering-construction-001',
  category: 'distress_creditor_management',
  title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
  text: "OpenDART 주요사항보고서(채권은행 등의 관리절차 개시, bnkMngtPcbg) 기록 응답: 관리절차개시 결정일 2024년 01월 11일, 관리기관 '(주)태영건설 금융채권자협의회 (주채권은행: 한국산업은행)', 관리기간 2024년 01월 11일 ~ 2027년 05월 30일, 관리사유 '경영정상화', 확인일자 2025년 02월 17일 (접수번호 20250217001661).",
  eventDate: '2024-01-11',
  publishedDate: '2025-02-17',
  sourceUrl: VIEWER,
};
const sentence = (id: string, text: string, eventDate: string | null, sourceUrl?: string): RedFlagSource => ({
  id,
  category: 'distress_creditor_management',
  title: text,
  text,
  eventDate,
  publishedDate: '2025-02-17',
  ...(sourceUrl ? { sourceUrl } : {}),
});
const ids = (flags: ReturnType<typeof findRedFlags>) => flags.map((f) => [f.kind, f.evidenceId, f.alsoEvidenceIds ?? []]);

describe('one flag per event', () => {
  it('merges the same disclosure in two link forms, with the same event date or none, dated by the event', () => {
    const dated = sentence(
      'tyc-upload-1',
      "관리기관 '(주)태영건설 금융채권자협의회 (주채권은행: 한국산업은행)', 관리절차개시 결정일 2024년 01월 11일",
      '2024-01-11',
      ORIGINAL,
    );
    const undated = sentence('tyc-upload-2', "관리기관 '(주)태영건설 금융채권자협의회 (주채권은행: 한국산업은행)'", null, ORIGINAL);
    const flags = findRedFlags([IMPORTED, dated, undated]);
    expect(ids(flags)).toEqual([['creditor_workout', IMPORTED.id, ['tyc-upload-1', 'tyc-upload-2']]]);
    expect(flags[0].date).toBe('2024-01-11');
  });

  it('keeps apart another event date of the same filing, another filing, and items without a link', () => {
    const later = sentence('tyc-upload-3', '관리절차개시 결정일 2025년 03월 02일, 관리기관 채권은행', '2025-02-01', ORIGINAL);
    const otherFiling = sentence(
      'tyc-other',
      '관리절차개시 결정일 2024년 01월 11일, 관리기관 채권은행',
      '2024-01-11',
      'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20240111000123',
    );
    const noLink = sentence('tyc-nolink', '관리절차개시 결정일 2024년 01월 11일, 관리기관 채권은행', '2024-01-11');
    const flags = findRedFlags([IMPORTED, later, otherFiling, noLink]);
    expect(flags).toHaveLength(4);
    expect(flags.every((f) => f.alsoEvidenceIds === undefined)).toBe(true);
    // An undated copy beside two dated events of its filing cannot say which it is: a flag of its own.
    const undated = sentence('tyc-upload-2', '관리기관 채권은행 금융채권자협의회', null, ORIGINAL);
    expect(ids(findRedFlags([IMPORTED, later, undated]))).toEqual([
      ['creditor_workout', 'tyc-upload-2', []],
      ['creditor_workout', 'tyc-upload-3', []],
      ['creditor_workout', IMPORTED.id, []],
    ]);
  });
});
