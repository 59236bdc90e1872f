// The red-flag rules on real data: every item of the demo pool with its hand-checked result, the
// OpenDART fixtures mapped the way the connector maps them, Tesla's EDGAR filing index, and the
// reading pool at an as-of date (docs/protocols.md, "Red flags").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import type { RedFlag, RedFlagKind } from '@/lib/domain/red-flags';
import { mapDartRows, type DartEndpoint } from '@/lib/pool/connectors/dart-map';
import { mapEdgarFilings } from '@/lib/pool/connectors/edgar';
import { briefRedFlags, findRedFlags, readRedFlags, RED_FLAG_TEXT_LIMIT, redFlagKindsOf, sentencesOf, type RedFlagSource } from '@/lib/pool/red-flags';
import { SAMSUNG_FLAGS } from '@/lib/pool/red-flags.fixtures';

const ROOT = process.cwd();

type DemoRow = { id: string; category: string; title: string; text: string; event_date?: string | null; published_date: string; source_name: string };
const demoRows: DemoRow[] = readFileSync(path.join(ROOT, 'data/demo/evidence.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const demo: (RedFlagSource & { sourceName: string })[] = demoRows.map((d) => ({
  id: d.id,
  category: d.category,
  title: d.title,
  text: d.text,
  eventDate: d.event_date ?? null,
  publishedDate: d.published_date,
  sourceName: d.source_name,
}));

/**
 * The demo pool's red flags, read by hand. Every other item of data/demo/evidence.jsonl is not a
 * red flag; the ones a careless rule would catch are listed, with why, in NOT_FLAGS.
 */
const FLAGS: Record<string, RedFlagKind[]> = {
  // 채권은행 등의 관리절차 개시 (bnkMngtPcbg): a creditor-bank workout from 2024-01-11.
  'taeyoung-engineering-construction-001': ['creditor_workout'],
  // 공정위 과징금 1,012억원 and a 시정조치.
  'samsung-electronics-022': ['regulatory_sanction'],
  // Officers' criminal sentences (증거인멸 교사, 노동조합법 위반) and a subsidiary's 벌금.
  'samsung-electronics-020': ['regulatory_sanction'],
  // The vice chairman's embezzlement conviction made final (징역 2년 6개월).
  'samsung-electronics-019': ['regulatory_sanction'],
  // Industrial-safety 벌금 and 과태료.
  'samsung-electronics-021': ['regulatory_sanction'],
  // The court rescinded the CEO award and awarded the plaintiff $345 million in fees; on appeal.
  'tesla-032': ['lawsuit_lost'],
};

const NOT_FLAGS: Record<string, string> = {
  'samsung-electronics-004': 'Apple과 소취하 계약: every suit withdrawn',
  'samsung-electronics-018': '내부회계관리제도 감사의견 효과적, 지적사항 없음: a clean internal-control opinion',
  'samsung-electronics-030': "외부감사 의견 '적정': a clean audit opinion",
  'samsung-electronics-026': 'lawsuits pending, management expects no material effect: nothing decided',
  'samsung-electronics-038': '무효심판 맞대응: the company is the one challenging',
  'samsung-electronics-023': 'a green-company designation withdrawn: a certification, not a sanction',
  'samsung-electronics-012': '시황 불확실성: market uncertainty is not a going-concern doubt',
  'tesla-033': 'discrimination suits pending, trial scheduled: nothing decided',
  'tesla-034': 'a securities suit dismissed, final judgment for Tesla; others pending',
  'tesla-035': 'going-private suit: jury verdict for the defendants, affirmed on appeal',
  'tesla-036': 'regulators’ information requests; no agency concluded any wrongdoing',
  'travelers-companies-001': 'a quarterly net loss from catastrophes is not a credit event',
};

function dartFixture(endpoint: DartEndpoint, companyId: string) {
  const body = JSON.parse(readFileSync(path.join(ROOT, `data/fixtures/opendart/material/testdata/${endpoint}.json`), 'utf8'));
  return mapDartRows(endpoint, body.list, { companyId });
}

describe('the red-flag rules on the demo pool', () => {
  it('find exactly the hand-checked flags, item by item', () => {
    for (const item of demo) expect(redFlagKindsOf(item), `${item.id}: ${item.title}`).toEqual(FLAGS[item.id] ?? []);
    expect(Object.keys(FLAGS).every((id) => demo.some((d) => d.id === id))).toBe(true);
  });

  it('do not read clean opinions, withdrawn or won suits, or pending matters as red flags', () => {
    for (const [id, why] of Object.entries(NOT_FLAGS)) {
      const item = demo.find((d) => d.id === id);
      expect(item, id).toBeDefined();
      expect(redFlagKindsOf(item!), `${id}: ${why}`).toEqual([]);
    }
  });

  it('list the flags newest first, each naming its item, date and title, whatever order the pool comes in', () => {
    const expected: RedFlag[] = [
      {
        kind: 'lawsuit_lost',
        evidenceId: 'tesla-032',
        date: '2024-12-02',
        title: '2018 CEO Performance Award litigation: rescission opinion and $345 million fee award, on appeal',
      },
      {
        kind: 'creditor_workout',
        evidenceId: 'taeyoung-engineering-construction-001',
        date: '2024-01-11',
        title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
      },
      ...SAMSUNG_FLAGS,
    ];
    expect(findRedFlags(demo)).toEqual(expected);
    expect(findRedFlags([...demo].reverse())).toEqual(expected);
  });

  it('carry the source and the start of the text a step needs to cite and read a flag', () => {
    const [flag] = briefRedFlags(
      findRedFlags(demo).filter((f) => f.kind === 'creditor_workout'),
      demo,
    );
    expect(flag).toMatchObject({
      evidenceId: 'taeyoung-engineering-construction-001',
      sourceName: demoRows.find((d) => d.id === 'taeyoung-engineering-construction-001')!.source_name,
      publishedDate: '2025-02-17',
    });
    expect(flag.text).toMatch(/^OpenDART 주요사항보고서\(채권은행 등의 관리절차 개시, bnkMngtPcbg\) 기록 응답: 관리절차개시 결정일 2024년 01월 11일/);
  });
});

describe('the red-flag rules on OpenDART filings, mapped by the connector', () => {
  it('read a court rehabilitation filing, a dishonoured note and a creditor-bank workout', () => {
    expect(findRedFlags(dartFixture('ctrcvsBgrq', 'dh-autonex'))).toEqual([
      {
        kind: 'court_rehabilitation',
        evidenceId: 'dart-20230926000754-ctrcvsBgrq',
        date: '2023-09-25',
        title: '회생절차 개시신청: 서울회생법원, 2023년 09월 25일',
      },
    ]);
    expect(findRedFlags(dartFixture('dfOcr', 'dh-autonex'))).toEqual([
      {
        kind: 'payment_default',
        evidenceId: 'dart-20231012000317-dfOcr',
        date: '2023-10-12',
        title: '부도발생: 당사 김제지점 발행 만기어음 부도 (48,322,175원)',
      },
    ]);
    expect(findRedFlags(dartFixture('bnkMngtPcbg', 'taeyoung'))).toEqual([
      {
        kind: 'creditor_workout',
        evidenceId: 'dart-20250217001661-bnkMngtPcbg',
        date: '2024-01-11',
        title: '채권은행 등의 관리절차 개시: (주)태영건설 금융채권자협의회 (주채권은행: 한국산업은행), 2024년 01월 11일 ~ 2027년 05월 30일',
      },
    ]);
  });

  it('do not flag a workout ended because the company recovered, a suit only filed, or a business line closed', () => {
    // 관리절차 중단, 중단사유 '경영정상화 완료'.
    expect(findRedFlags(dartFixture('bnkMngtPcsp', 'tnod'))).toEqual([]);
    // 소송 등의 제기: an injunction application against the company, not a judgment.
    expect(findRedFlags(dartFixture('lwstLg', 'olipass'))).toEqual([]);
    // 영업정지 of one spinning line by the board's own decision.
    expect(findRedFlags(dartFixture('bsnSp', 'taekwang'))).toEqual([]);
  });

  it('do not flag the withdrawal of a thinly traded overseas depositary receipt, and do flag a delisting at home', () => {
    // Samsung's 2024-10-31 decision to delist its Luxembourg DRs (ovDlstDecsn.json), as the
    // disclosure list names the filing.
    const [overseas] = mapDartRows(
      'list',
      [
        {
          rcept_no: '20241031000508',
          corp_name: '삼성전자',
          report_nm: '주요사항보고서(해외증권시장주권등상장폐지결정)',
          flr_nm: '삼성전자',
          rcept_dt: '20241031',
          rm: '유',
        },
      ],
      { companyId: 'samsung-electronics' },
    );
    expect(overseas.category).toBe('trading_halt');
    expect(redFlagKindsOf(overseas)).toEqual([]);
    const [home] = mapDartRows(
      'list',
      [{ rcept_no: '20240401000111', corp_name: '예시전자', report_nm: '상장폐지결정', flr_nm: '한국거래소', rcept_dt: '20240401', rm: '코' }],
      { companyId: 'example' },
    );
    expect(redFlagKindsOf(home)).toEqual(['delisting']);
  });
});

describe('the red-flag rules on EDGAR filings', () => {
  const fixture = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'data/fixtures/edgar', name), 'utf8'));
  const mapOptions = { companyId: 'tesla', cik: '1318605', companyName: 'Tesla, Inc.' };

  it('find nothing in Tesla’s 8-K, 10-K and 10-Q index (no bankruptcy, default or delisting item)', () => {
    for (const name of ['CIK0001318605.json', 'CIK0001318605.recorded-2026-02-03.json']) {
      const evidence = mapEdgarFilings(fixture(name).filings.recent, mapOptions);
      expect(evidence.length, name).toBeGreaterThan(100);
      expect(findRedFlags(evidence), name).toEqual([]);
    }
  });

  it('read 8-K items 1.03, 2.04 and 3.01 as bankruptcy, payment default and delisting', () => {
    const columns = {
      accessionNumber: ['0000000000-24-000001', '0000000000-24-000002', '0000000000-24-000003'],
      filingDate: ['2024-03-01', '2024-02-01', '2024-01-02'],
      form: ['8-K', '8-K', '8-K'],
      reportDate: ['2024-02-28', '2024-01-30', '2023-12-29'],
      items: ['1.03,9.01', '2.04', '3.01'],
      primaryDocument: [null, null, null],
      primaryDocDescription: [null, null, null],
    };
    const flags = findRedFlags(mapEdgarFilings(columns, { ...mapOptions, companyId: 'example', companyName: 'Example Corp.' }));
    expect(flags.map((f) => [f.kind, f.date])).toEqual([
      ['bankruptcy', '2024-02-28'],
      ['payment_default', '2024-01-30'],
      ['delisting', '2023-12-29'],
    ]);
  });
});

describe('how the rules read a text', () => {
  const item = (category: string, title: string, text: string): RedFlagSource => ({
    id: 'x',
    category,
    title,
    text,
    eventDate: null,
    publishedDate: '2024-06-30',
  });

  it('cancel a match only within its own sentence', () => {
    const text = "제54기 감사의견 '적정'. 제55기 감사의견 '한정', 계속기업으로서의 존속능력에 중요한 불확실성이 존재함.";
    expect(redFlagKindsOf(item('governance_ownership', '외부감사인의 감사의견', text))).toEqual(['audit_opinion', 'going_concern']);
    expect(redFlagKindsOf(item('governance_ownership', '외부감사인의 감사의견', "제55기 감사의견 '적정', 강조사항 없음."))).toEqual([]);
    expect(sentencesOf('t', '관리기간 2024.01.11~2027.05.30. 다음 문장')).toEqual(['t', '관리기간 2024.01.11~2027.05.30.', '다음 문장']);
  });

  it('tell an unqualified opinion from a qualified one, and a bank account closed from a trading halt', () => {
    expect(redFlagKindsOf(item('governance_ownership', 'Auditor report', 'The auditor issued an unqualified opinion on the financial statements.'))).toEqual(
      [],
    );
    expect(redFlagKindsOf(item('governance_ownership', 'Auditor report', 'The auditor issued a qualified opinion on inventory.'))).toEqual(['audit_opinion']);
    expect(redFlagKindsOf(item('distress_default', '부도발생', '당좌거래정지 처분을 받음.'))).toEqual(['payment_default']);
    expect(redFlagKindsOf(item('trading_halt', '주권매매거래정지', '상장적격성 실질심사 사유 발생으로 매매거래정지.'))).toEqual(['trading_suspension']);
    expect(redFlagKindsOf(item('trading_halt', '주권매매거래정지해제', '매매거래정지 해제.'))).toEqual([]);
  });

  it('read only the start of a long text, in time linear in its length', () => {
    const late = `${'가'.repeat(RED_FLAG_TEXT_LIMIT)} 당사는 어음 부도가 발생함.`;
    expect(redFlagKindsOf(item('distress_default', '공시', late))).toEqual([]);
    // No full stop for a million characters, over and over what the bounded gaps look across.
    const hostile = '계속기업 '.repeat(200_000);
    const started = performance.now();
    expect(redFlagKindsOf(item('risk_factor', '계속기업 '.repeat(1_000), hostile))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('apply a rule only to the categories it reads', () => {
    // A patent item that mentions 부도 in a device name is not a default.
    expect(redFlagKindsOf(item('patent', '부도체 검사 장치', '어음 부도 감지 장치에 관한 특허'))).toEqual([]);
    expect(redFlagKindsOf(item('news', '중견 건설사 어음 부도', '1차 부도 처리.'))).toEqual(['payment_default']);
    expect(redFlagKindsOf(item('news', '경영진 부도덕 논란', '부도체 소재 사업 매각 검토.'))).toEqual([]);
  });
});

describe.each(testBackends())('reading the red flags of a pool as of a date on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    await seedDemo(handle.db, { accounts: false });
  }, 60_000);
  afterAll(() => handle?.close());

  it('sees nothing published after the as-of date', async () => {
    const companyId = 'taeyoung-engineering-construction';
    expect(await readRedFlags({ db: handle.db, companyId, asOf: '2025-02-16' })).toEqual([]);
    expect(await readRedFlags({ db: handle.db, companyId, asOf: '2025-02-17' })).toEqual([
      {
        kind: 'creditor_workout',
        evidenceId: 'taeyoung-engineering-construction-001',
        date: '2024-01-11',
        title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
      },
    ]);
  });

  it('keeps every flag by default, and with a recency window only those dated inside it', async () => {
    const companyId = 'samsung-electronics';
    const all = await readRedFlags({ db: handle.db, companyId, asOf: '2025-06-30' });
    expect(all.map((f) => f.evidenceId)).toEqual(['samsung-electronics-022', 'samsung-electronics-020', 'samsung-electronics-019', 'samsung-electronics-021']);
    // Cutoff 2021-05-21: only the 2021-08-27 fine is inside.
    expect((await readRedFlags({ db: handle.db, companyId, asOf: '2025-06-30', recencyDays: 1501 })).map((f) => f.evidenceId)).toEqual([
      'samsung-electronics-022',
    ]);
    expect(await readRedFlags({ db: handle.db, companyId, asOf: '2025-06-30', recencyDays: 365 })).toEqual([]);
  });
});
