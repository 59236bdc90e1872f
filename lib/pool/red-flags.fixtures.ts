// For the red-flag tests: the demo pool's flags checked by hand against data/demo/evidence.jsonl,
// written once for the engine, pool, export and command-line tests that expect them.
import type { RedFlag } from '@/lib/domain/red-flags';

/** Samsung Electronics' red flags at 2025-06-30, newest first. */
export const SAMSUNG_FLAGS: RedFlag[] = [
  {
    kind: 'regulatory_sanction',
    evidenceId: 'samsung-electronics-022',
    date: '2021-08-27',
    title: '공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래 (2021.08.27)',
  },
  {
    kind: 'regulatory_sanction',
    evidenceId: 'samsung-electronics-020',
    date: '2021-02-04',
    title: '임직원 형사 제재: 증거인멸 교사(2019.12.09), 노동조합법 위반 확정(2021.02.04)',
  },
  {
    kind: 'regulatory_sanction',
    evidenceId: 'samsung-electronics-019',
    date: '2021-01-25',
    title: '파기환송심 확정: 이재용 부회장 등 징역 2년 6개월 (2021.01.25)',
  },
  {
    kind: 'regulatory_sanction',
    evidenceId: 'samsung-electronics-021',
    date: '2020-12-28',
    title: '산업안전보건 관련 제재: 기흥 CO2 누출 벌금(2020.02.14), 광주사업장 과태료 386.3백만원',
  },
];
