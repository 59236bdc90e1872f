import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_CATEGORIES, FACTORS, GUIDELINE_FACTORS, isFactorId } from '@/lib/domain/factors';
import { tagByCategory, tagPassage } from '@/lib/pool/factors';

const tag = (category: string, title: string, text = '') => tagByCategory({ category, title, text });

describe('FACTORS', () => {
  it('lists the ten guideline factors plus other, with unique snake_case ids and both labels', () => {
    expect(GUIDELINE_FACTORS).toHaveLength(10);
    expect(FACTORS.at(-1)?.id).toBe('other');
    expect(new Set(FACTORS.map((f) => f.id)).size).toBe(FACTORS.length);
    for (const f of FACTORS) {
      expect(f.id).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(f.labelKo).toMatch(/[가-힣]/);
      expect(f.reading).toMatch(/→ (favorable|adverse)|context/);
    }
    expect(isFactorId('management_continuity')).toBe(true);
    expect(isFactorId('management')).toBe(false);
  });

  it('reads competition and internal control as adverse when higher, continuity as favorable', () => {
    const reading = Object.fromEntries(FACTORS.map((f) => [f.id, f.reading]));
    expect(reading.industry_competition_intensity).toBe('stronger → adverse');
    expect(reading.internal_control_risk).toBe('higher → adverse');
    expect(reading.management_continuity).toBe('more stable → favorable');
  });
});

describe('tagByCategory', () => {
  it('maps deterministic categories to their factor', () => {
    expect(tag('management_change', 'CFO appointed')).toEqual({ factor: 'management_continuity', polarity: 'context' });
    expect(tag('employment', 'Headcount 125,665 employees').factor).toBe('employment_stability');
    expect(tag('certification', 'INNOBIZ 인증 취득')).toEqual({ factor: 'certifications', polarity: 'favorable' });
    expect(tag('government_support', '정책자금 지원 선정')).toEqual({ factor: 'government_support_programs', polarity: 'favorable' });
    expect(tag('disclosure_other', 'Form 8-K Item 8.01: Other Events')).toEqual({ factor: 'other', polarity: 'context' });
  });

  it('treats sanctions and every distress category as adverse internal control risk', () => {
    for (const category of [
      'sanctions',
      'distress_default',
      'distress_rehabilitation',
      'distress_creditor_management',
      'business_suspension',
      'trading_halt',
    ]) {
      expect(tag(category, '관리절차 개시'), category).toEqual({ factor: 'internal_control_risk', polarity: 'adverse' });
    }
  });

  it('reads patents as favorable when registered and as context when lapsed, rejected or pending', () => {
    const registered = tag('patent', '[등록] 3차원 구조물 영상 획득시스템', '법적상태(수집 시점 기준): 등록. 등록일 2022-10-11');
    expect(registered).toEqual({ factor: 'technological_disruption_risk', polarity: 'favorable' });
    expect(tag('patent', 'US patent granted for battery cell').polarity).toBe('favorable');
    // A lapsed record still carries its old registration date: the lapse must win.
    expect(tag('patent', '[소멸] NC프레스 픽업장치', '법적상태: 소멸. 등록일 2011-03-28').polarity).toBe('context');
    expect(tag('patent', 'Application rejected by the USPTO').polarity).toBe('context');
    expect(tag('patent', '[공개] 포터블 초경인서트 클리닝 장치', '법적상태: 공개.').polarity).toBe('context');
  });

  it('reads management departures as adverse and long tenure as favorable', () => {
    // The 8-K item caption alone names departures, appointments and pay alike: context.
    expect(tag('management_change', 'Form 8-K Item 5.02: Departure of Directors or Certain Officers').polarity).toBe('context');
    expect(tag('management_change', 'Chief Financial Officer resigns').polarity).toBe('adverse');
    expect(tag('management_change', '미등기임원 변동: 선임 6명, 사임 5명').polarity).toBe('adverse');
    expect(tag('management_change', '대표이사 한종희 부회장: 재직 46개월').polarity).toBe('favorable');
  });

  it('does not read 부적정 (adverse audit opinion) as 적정 (clean)', () => {
    expect(tag('governance_ownership', '외부감사 의견 적정')).toEqual({ factor: 'internal_control_risk', polarity: 'favorable' });
    expect(tag('governance_ownership', '외부감사 의견 부적정')).toEqual({ factor: 'internal_control_risk', polarity: 'adverse' });
  });

  it('judges polarity on the title, not on words the body mentions in passing', () => {
    const subsidy = tag(
      'government_support',
      '연구개발 정부보조금 수령: 2022년 반기 827백만원',
      '정부보조금으로 차감되거나 자산화된 연구개발비를 제외하고 12조 1,771억원을 당기비용으로 회계처리',
    );
    expect(subsidy.polarity).toBe('favorable');
    expect(tag('government_support', '中 선전시, 전자제품 보조금 외국 브랜드는 제외').polarity).toBe('adverse');
    expect(tag('certification', '광주사업장 녹색기업 지정취소 (2021.03.02)').polarity).toBe('adverse');
  });

  it('sends risk factors to a factor by content, adverse unless the title states no exposure', () => {
    expect(tag('risk_factor', 'Key-person risk', 'We are highly dependent on the services of Elon Musk')).toEqual({
      factor: 'management_continuity',
      polarity: 'adverse',
    });
    expect(tag('risk_factor', '반도체 시황 불확실성', '인플레이션 심화 및 금리 인상 등 글로벌 경기 이슈')).toEqual({
      factor: 'economic_sensitivity',
      polarity: 'adverse',
    });
    expect(tag('risk_factor', 'New battery chemistries', 'Rapid technological change could make our products obsolete')).toEqual({
      factor: 'technological_disruption_risk',
      polarity: 'adverse',
    });
    expect(tag('risk_factor', 'Production ramp delays', 'We may experience delays in launching production')).toEqual({
      factor: 'other',
      polarity: 'adverse',
    });
  });

  it('files a risk factor by what its title is about before what its body mentions (Tesla 10-K FY2024, Item 1A)', () => {
    const title =
      'We are subject to evolving laws and regulations that could impose substantial costs, legal prohibitions or unfavorable changes upon our operations or products.';
    // Its body mentions technology in passing; the risk is regulation, not technological change.
    expect(tag('risk_factor', title, 'We are continuing to develop our Autopilot and FSD (Supervised) technology.')).toEqual({
      factor: 'internal_control_risk',
      polarity: 'adverse',
    });
    expect(
      tag(
        'risk_factor',
        'Increased scrutiny and changing expectations from stakeholders with respect to the Company’s ESG practices may result in additional costs or risks.',
      ),
    ).toEqual({
      factor: 'internal_control_risk',
      polarity: 'adverse',
    });
  });

  it('reads an item written as a risk as adverse whatever its category, where no rule reads it otherwise', () => {
    // Tesla 10-K FY2024, Item 1A, as a competition item an RM accepted from the document.
    expect(
      tag('industry_competition', 'If we are unable to attract, hire and retain key employees and qualified personnel, our ability to compete may be harmed.'),
    ).toEqual({
      factor: 'industry_competition_intensity',
      polarity: 'adverse',
    });
    // Samsung 2022 half-year report, II-7.
    expect(
      tag('industry_competition', '거시경제 악화 우려에 따른 IT 수요 변동 가능성과 글로벌 공급망 차질 등의 영향으로 시황 불확실성이 상존하고 있습니다.')
        .polarity,
    ).toBe('adverse');
    // A description is not a risk: “이사회 구성: 사내이사 5인·사외이사 4인, 이사회 의장은 사외이사”.
    expect(tag('governance_ownership', '이사회 구성: 사내이사 5인·사외이사 4인, 이사회 의장은 사외이사').polarity).toBe('context');
  });

  it('reads a risk factor that states no exposure as context (constructed: the demo pool and fixtures hold none)', () => {
    expect(tag('risk_factor', 'Interest rate risk: we have no material exposure to variable-rate debt')).toEqual({
      factor: 'economic_sensitivity',
      polarity: 'context',
    });
    expect(tag('risk_factor', '환율 변동 위험: 해당사항 없음')).toEqual({ factor: 'other', polarity: 'context' });
    // "Not" elsewhere in a risk factor is not a statement of no exposure (Tesla 10-K FY2024, Item 1A).
    expect(tag('risk_factor', 'Additional funds may not be available to us when we need or want them.').polarity).toBe('adverse');
  });

  it('reads a legal proceeding as adverse unless it reports the outcome in the company’s favour (Tesla 10-K FY2024, Note 14)', () => {
    expect(
      tag(
        'legal_proceedings',
        'Trial started on January 17, 2023, and on February 3, 2023, a jury rendered a verdict in favor of the defendants on all counts.',
      ).polarity,
    ).toBe('favorable');
    expect(
      tag(
        'legal_proceedings',
        'On September 28, 2023, the EEOC filed a civil complaint against Tesla in the United States District Court for the Northern District of California.',
      ).polarity,
    ).toBe('adverse');
    expect(tag('legal_proceedings', 'Apple과 소취하 계약: 양사 간 미국 내 모든 소송 취하 (2018.06.26)').polarity).toBe('favorable');
    expect(tag('legal_proceedings', '우발부채: 다수 소송·분쟁·규제기관 조사 진행 중, 계열회사 채무보증').polarity).toBe('adverse');
  });

  it('splits industry items between growth outlook and competition intensity', () => {
    expect(tag('industry_competition', '산업 성장 전망: TV·스마트폰 수요 역성장 전망 (2022)')).toEqual({
      factor: 'industry_growth_outlook',
      polarity: 'adverse',
    });
    expect(tag('industry_competition', 'Strong competition from a growing list of established and new competitors')).toEqual({
      factor: 'industry_competition_intensity',
      polarity: 'adverse',
    });
    // "1위" appears in both: losing the top spot is adverse, holding it favorable.
    expect(tag('industry_competition', '“저가 공세에 밀렸다”…삼성, 기업용 노트북 1위 자리 내줘').polarity).toBe('adverse');
    expect(tag('industry_competition', '세트 시장점유율: TV 31.6%(16년 연속 1위)').polarity).toBe('favorable');
  });

  it('classifies news by English and Korean keywords', () => {
    expect(tag('news', '[단독] 고물가·전쟁 후폭풍…애플 이어 삼성도 스마트폰 감산')).toEqual({
      factor: 'economic_sensitivity',
      polarity: 'adverse',
    });
    expect(tag('news', 'Regulator fines lender over internal control failures')).toEqual({
      factor: 'internal_control_risk',
      polarity: 'adverse',
    });
    expect(tag('news', '노조 파업 돌입…생산 차질')).toEqual({ factor: 'employment_stability', polarity: 'adverse' });
    expect(tag('news', 'CEO resigns after record year')).toEqual({ factor: 'management_continuity', polarity: 'adverse' });
    expect(tag('news', '정부, 중소기업 보조금 확대')).toEqual({ factor: 'government_support_programs', polarity: 'favorable' });
    expect(tag('news', '삼성 450조 투자 계획')).toEqual({ factor: 'other', polarity: 'favorable' });
    expect(tag('news', 'Company to present at investor conference')).toEqual({ factor: 'other', polarity: 'context' });
  });

  it('falls back to other/context for a category it does not know', () => {
    expect(tag('weather_report', 'Sunny')).toEqual({ factor: 'other', polarity: 'context' });
  });

  it('tags every demo evidence item with a known factor and covers the whole category vocabulary', () => {
    const lines = fs.readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8').split('\n').filter(Boolean);
    const tagged = lines.map((l) => JSON.parse(l)).map((item) => ({ item, tag: tagByCategory(item) }));
    for (const { item, tag: t } of tagged) {
      expect(EVIDENCE_CATEGORIES, item.id).toContain(item.category);
      expect(isFactorId(t.factor), item.id).toBe(true);
    }
    const taeyoung = tagged.find(({ item }) => item.company_id === 'taeyoung-engineering-construction')!;
    expect(taeyoung.tag).toEqual({ factor: 'internal_control_risk', polarity: 'adverse' });
  });
});

describe('tagging demo items as a credit analyst reads them (lib/llm/offline/fixtures/readings.json)', () => {
  const demo = new Map(
    fs
      .readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; category: string; title: string; text: string })
      .map((r) => [r.id, r] as const),
  );
  const tagOf = (id: string) => tagByCategory(demo.get(id)!);

  it('an EDGAR index entry for Item 5.02 shows no departure by itself: context, not adverse', () => {
    expect(tagOf('tesla-001')).toEqual({ factor: 'management_continuity', polarity: 'context' });
    expect(tagOf('tesla-021')).toEqual({ factor: 'management_continuity', polarity: 'context' });
    // A real departure headline is still adverse.
    expect(tag('management_change', 'CFO resigns with immediate effect').polarity).toBe('adverse');
  });

  it('long average tenure is a stable workforce', () => {
    expect(tagOf('samsung-electronics-014')).toEqual({ factor: 'employment_stability', polarity: 'favorable' });
    expect(tagOf('samsung-electronics-027').polarity).toBe('favorable');
    expect(tagOf('tesla-022').polarity).toBe('context'); // headcount alone
    expect(tagOf('tesla-029').polarity).toBe('adverse'); // union risk still wins
  });

  it('dependence on incentives is a risk; obligations tied to support stay context', () => {
    expect(tagOf('tesla-027')).toEqual({ factor: 'government_support_programs', polarity: 'adverse' });
    expect(tagOf('tesla-030').polarity).toBe('context');
  });

  it('dominant shares and firm pricing are favorable; a share loss stays adverse', () => {
    expect(tagOf('samsung-electronics-010')).toEqual({ factor: 'industry_competition_intensity', polarity: 'favorable' });
    expect(tagOf('travelers-companies-002')).toEqual({ factor: 'industry_competition_intensity', polarity: 'favorable' });
    expect(tagOf('samsung-electronics-035').polarity).toBe('adverse');
    expect(tagOf('samsung-electronics-011')).toEqual({ factor: 'industry_growth_outlook', polarity: 'adverse' });
  });

  it('cross-licences signed to settle patent disputes are favorable', () => {
    expect(tagOf('samsung-electronics-003')).toEqual({ factor: 'technological_disruption_risk', polarity: 'favorable' });
  });
});

describe('tagPassage', () => {
  // A 10-K uploaded whole is titled by its file name: each risk factor is only its own heading.
  const whole = (heading: string) => tagPassage({ documentTitle: 'tsla-20241231', heading, text: '' });

  it('reads the headings of a 10-K risk-factor section as adverse, in a file whose title names no section (Tesla 10-K FY2024, Item 1A)', () => {
    expect(whole('We face strong competition for our products and services from a growing list of established and new competitors.')).toEqual({
      category: 'risk_factor',
      factor: 'industry_competition_intensity',
      polarity: 'adverse',
    });
    expect(
      whole(
        'Increased scrutiny and changing expectations from stakeholders with respect to the Company’s ESG practices may result in additional costs or risks.',
      ).polarity,
    ).toBe('adverse');
    expect(
      whole(
        'We could be subject to liability, penalties and other restrictive sanctions and adverse consequences arising out of certain governmental investigations and proceedings.',
      ),
    ).toEqual({
      category: 'risk_factor',
      factor: 'internal_control_risk',
      polarity: 'adverse',
    });
    expect(whole('Our business may be adversely affected by any disruptions caused by union activities.')).toEqual({
      category: 'risk_factor',
      factor: 'employment_stability',
      polarity: 'adverse',
    });
    expect(
      whole(
        'We must manage ongoing obligations under our agreement with the Research Foundation for the State University of New York relating to our Gigafactory New York.',
      ).polarity,
    ).toBe('adverse');
    expect(
      whole(
        'There is no guarantee that we will have sufficient cash flow from our business to pay our indebtedness or that we will not incur additional indebtedness.',
      ).polarity,
    ).toBe('adverse');
  });

  it('reads every passage of a document titled as risk factors as adverse, whatever its heading', () => {
    const part1 = 'Tesla 10-K FY2024 — Item 1A. Risk Factors (part 1 of 2)';
    expect(
      tagPassage({
        documentTitle: part1,
        heading: 'We will need to maintain public credibility and confidence in our long-term business prospects in order to succeed.',
        text: '',
      }).polarity,
    ).toBe('adverse');
    expect(tagPassage({ documentTitle: part1, heading: null, text: '' }).category).toBe('risk_factor');
  });

  it('reads a governance or process description that states no event as context (Tesla 10-K FY2024, Item 1C)', () => {
    const text = 'Our Audit Committee is responsible for the oversight of risks from cybersecurity threats.';
    expect(tagPassage({ documentTitle: 'tsla-20241231', heading: 'Cybersecurity Governance', text })).toEqual({
      category: 'governance_ownership',
      factor: 'internal_control_risk',
      polarity: 'context',
    });
    expect(
      tagPassage({ documentTitle: 'Tesla 10-K FY2024 — Item 1C. Cybersecurity', heading: 'Cybersecurity Risk Management and Strategy', text: '' }).polarity,
    ).toBe('context');
  });

  it('reads legal-proceedings and Korean contingency sections as adverse, and a Korean market-risk sentence in a heading as a risk', () => {
    expect(tagPassage({ documentTitle: 'tsla-20241231', heading: 'ITEM 3. LEGAL PROCEEDINGS', text: '' })).toEqual({
      category: 'legal_proceedings',
      factor: 'internal_control_risk',
      polarity: 'adverse',
    });
    // The DART original document of Samsung's 2022 half-year report, as the document reader titles it.
    expect(tagPassage({ documentTitle: '반기보고서', heading: '2. 우발부채 등에 관한 사항', text: '' }).polarity).toBe('adverse');
    expect(tagPassage({ documentTitle: '반기보고서', heading: '3. 제재 등과 관련된 사항', text: '' }).polarity).toBe('adverse');
    // Samsung 2022 half-year report, II-7 (data/demo/documents).
    const heading = '거시경제 악화 우려에 따른 IT 수요 변동 가능성과 글로벌 공급망 차질 등의 영향으로 시황 불확실성이 상존하고 있습니다.';
    expect(tagPassage({ documentTitle: '반기보고서', heading, text: '' })).toEqual({
      category: 'risk_factor',
      factor: 'economic_sensitivity',
      polarity: 'adverse',
    });
  });

  it('reads the polarity from the section alone, so a retrieval snippet and the whole chunk read the same', () => {
    const heading = 'Note 14 — Commitments and Contingencies: Legal Proceedings (excerpt)';
    const snippet = tagPassage({ documentTitle: 'tsla-20241231', heading, text: 'a jury rendered a verdict in favor of the defendants on all counts.' });
    const chunk = tagPassage({
      documentTitle: 'tsla-20241231',
      heading,
      text: 'On January 16, 2019, Plaintiffs filed their consolidated complaint … a jury rendered a verdict in favor of the defendants on all counts.',
    });
    expect(snippet.polarity).toBe(chunk.polarity);
  });
});
