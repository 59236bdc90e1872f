// The deterministic first-pass tagger that maps an evidence item to one of the guideline factors
// (lib/domain/factors.ts) and a polarity. It is a small rule table on purpose: it must give the
// same answer offline and on every run, and an RM can override any tag.
import { isEvidenceCategory, type EvidenceCategory, type FactorId } from '@/lib/domain/factors';
import type { Polarity } from '@/lib/domain/vocabulary';

export type Tag = { factor: FactorId; polarity: Polarity };

/**
 * The first rule whose `when` matches wins; a rule without `when` is the default. Rules test
 * the title unless `wide` is set: bodies of filings mention exclusions, dismissals and
 * increases in passing, and a headline or title says what the item is about.
 */
type Rule = { when?: RegExp; wide?: true; factor: FactorId; polarity: Polarity };

// Keyword sets shared by several categories. Korean has no word boundaries, so Korean terms
// match as substrings; English terms use \b so "union" does not match "reunion".
const DEPARTURE = /\b(departure|resign\w*|dismiss\w*|step(?:s|ped)? down)\b|사임|해임|퇴임|교체|사퇴/i;
const TENURE = /\b(promoted internally|tenure|reappoint\w*)\b|재직|연임|유임|근속/i;
const LABOUR_TROUBLE = /\b(unions?|strikes?|layoffs?|lay-?offs?|walkouts?|job cuts?)\b|노조|노동조합|파업|감원|구조조정|임금피크|해고|희망퇴직/i;
const REVOKED = /\b(revok\w*|cancel\w*|withdrawn|suspend\w*|expired)\b|취소|철회|만료|정지/i;
const CLEAN_AUDIT_ADVERSE =
  /\b(material weakness\w*|qualified opinion|adverse opinion|disclaimer of opinion|going concern)\b|부적정|한정|의견거절|계속기업|취약/i;
const CLEAN_AUDIT = /\b(unqualified|effective internal control|no material weakness)\b|적정|효과적|지적사항 없음|해당사항 없음/i;
const MACRO =
  /\b(cyclical|macro\w*|recession\w*|inflation\w*|interest rates?|economic conditions?|downturn|weather|demand)\b|경기|거시경제|인플레이션|금리|고물가|침체|시황|수요/i;
const TECH = /\b(technolog\w*|obsole\w*|disrupt\w*|innovation|cyber\w*|patents?)\b|기술|특허|혁신|사이버/i;
const KEY_PERSON = /\b(key[- ]person|dependent on the services of)\b|핵심\s?인력|경영진 의존/i;
const CONTROL =
  /\b(internal control|fraud|embezzl\w*|lawsuits?|litigation|fines?|penalt\w*|sanction\w*|probe|investigation)\b|내부통제|횡령|배임|소송|과징금|제재|벌금|기소|압수수색/i;
const COMPETITION = /\b(competition|competitors?|competitive|market share|price war)\b|경쟁|점유율|저가 공세/i;
const SUBSIDY = /\b(subsid\w*|grants?|incentives?|government support)\b|보조금|정부 지원|지원사업|정책자금/i;
// A disclosure that states the company is not exposed: "no material exposure", "has not been
// affected", 해당사항 없음. Tried on the title only: a risk factor's body often says what has not
// happened yet before saying what could.
const NO_EXPOSURE = /\b(?:no|not)\b[^.;]{0,30}\b(?:material(?:ly)? )?(?:exposure|exposed|affected)\b|해당\s?사항\s?없음|영향\s?없음|노출되어 있지 않/i;
const NEGATIVE_NEWS =
  /\b(declin\w*|loss(?:es)?|cuts?|downgrad\w*|default\w*|delay\w*|recall\w*|lawsuits?|fall\w*|drops?|slump\w*)\b|감산|하락|적자|손실|부진|감소|연기|리콜|소송|부도|밀렸|내줘|역성장/i;
const POSITIVE_NEWS =
  /\b(record|growth|expan\w*|wins?|award\w*|upgrad\w*|invest(?:s|ed|ing|ments?)?|rais\w* guidance)\b|투자|성장|수주|최대|최고|호조|흑자|증가|확대|1위/i;

const RULES: Record<EvidenceCategory, Rule[]> = {
  // Lapsed or rejected rights are checked first: their records also carry a registration date.
  patent: [
    {
      when: /\b(lapsed|expired|rejected|abandoned|invalidated|revoked)\b|소멸|거절|포기|무효/i,
      wide: true,
      factor: 'technological_disruption_risk',
      polarity: 'context',
    },
    { when: /\b(granted|registered|issued)\b|등록/i, wide: true, factor: 'technological_disruption_risk', polarity: 'favorable' },
    // Cross-licences signed to settle dispute risk secure the right to use the technology.
    {
      when: /분쟁\s?리스크\s?해소|분쟁\s?해소|\bsettl\w* (?:patent )?(?:disputes?|litigation)/i,
      wide: true,
      factor: 'technological_disruption_risk',
      polarity: 'favorable',
    },
    { factor: 'technological_disruption_risk', polarity: 'context' },
  ],
  rnd_activity: [{ factor: 'technological_disruption_risk', polarity: 'favorable' }],
  certification: [
    { when: REVOKED, factor: 'certifications', polarity: 'adverse' },
    { factor: 'certifications', polarity: 'favorable' },
  ],
  management_change: [
    // An EDGAR index entry names only the item's caption ("Departure of Directors or Certain
    // Officers; Election of Directors; Appointment …; Compensatory Arrangements …"): it shows
    // no departure, so it is context until the filing itself is read.
    { when: /^Form 8-K Item 5\.02\b/i, factor: 'management_continuity', polarity: 'context' },
    { when: DEPARTURE, factor: 'management_continuity', polarity: 'adverse' },
    { when: TENURE, factor: 'management_continuity', polarity: 'favorable' },
    { factor: 'management_continuity', polarity: 'context' },
  ],
  // "부적정" contains "적정": the adverse audit terms must be tried first.
  governance_ownership: [
    { when: CLEAN_AUDIT_ADVERSE, factor: 'internal_control_risk', polarity: 'adverse' },
    { when: CLEAN_AUDIT, factor: 'internal_control_risk', polarity: 'favorable' },
    { factor: 'internal_control_risk', polarity: 'context' },
  ],
  legal_proceedings: [
    // The same outcomes the offline analyst reads as won (lib/llm/offline/reading.ts WON).
    {
      when: /\b(dismissed|verdict (?:in favou?r of|for) (?:the )?defendants?|in (?:the company's|our|its) favou?r)\b|소취하|승소|기각/i,
      factor: 'internal_control_risk',
      polarity: 'favorable',
    },
    { factor: 'internal_control_risk', polarity: 'adverse' },
  ],
  sanctions: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  distress_default: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  distress_rehabilitation: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  distress_creditor_management: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  business_suspension: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  trading_halt: [{ factor: 'internal_control_risk', polarity: 'adverse' }],
  employment: [
    { when: LABOUR_TROUBLE, factor: 'employment_stability', polarity: 'adverse' },
    // Long average tenure is the guideline's measure of a stable workforce.
    { when: /\b(average tenure|years of service)\b|근속/i, factor: 'employment_stability', polarity: 'favorable' },
    { factor: 'employment_stability', polarity: 'context' },
  ],
  government_support: [
    // Demand that depends on incentives is a risk (a 10-K risk factor says so); obligations
    // tied to support cut both ways.
    { when: /\bdependen\w*|의존/i, factor: 'government_support_programs', polarity: 'adverse' },
    { when: /\bobligat\w*|의무/i, factor: 'government_support_programs', polarity: 'context' },
    { when: /\b(exclud\w*|terminat\w*|repaid|clawback|revok\w*)\b|제외|중단|폐지|환수|축소/i, factor: 'government_support_programs', polarity: 'adverse' },
    { factor: 'government_support_programs', polarity: 'favorable' },
  ],
  // Demand and market-size statements speak to growth; everything else here to rivalry.
  industry_competition: [
    { when: /역성장|수요 (?:감소|둔화)|\b(market|demand) (?:declin\w*|contract\w*|shrink\w*)/i, factor: 'industry_growth_outlook', polarity: 'adverse' },
    { when: /성장 전망|수요 (?:증가|회복)|\b(market|demand) (?:grow\w*|expan\w*)/i, factor: 'industry_growth_outlook', polarity: 'favorable' },
    {
      when: /\b(strong|intense|intensif\w*|fierce|growing list of)\b[^.]{0,40}\bcompet|밀렸|내줘|저가 공세|경쟁 심화|점유율 하락/i,
      factor: 'industry_competition_intensity',
      polarity: 'adverse',
    },
    { when: /\b(leading|leader|largest|no\. ?1)\b|1위|최고|선도/i, factor: 'industry_competition_intensity', polarity: 'favorable' },
    // A stated share of 40% or more is a leading position; firm pricing is pricing power.
    { when: /(?:점유율|market share)[^.;]{0,20}?\b(?:[4-9]\d|100)(?:\.\d+)?\s?%/i, factor: 'industry_competition_intensity', polarity: 'favorable' },
    {
      when: /\bpricing power\b|\bstrong (?:renewal )?(?:rate|pric\w*)|가격 인상|가격 결정력/i,
      factor: 'industry_competition_intensity',
      polarity: 'favorable',
    },
    { factor: 'industry_competition_intensity', polarity: 'context' },
  ],
  // A risk factor is adverse: it says what could go wrong. Only a disclosure that states the
  // company has no exposure (no such risk, not affected) is context. Which factor it bears on
  // depends on content.
  risk_factor: [
    { when: KEY_PERSON, wide: true, factor: 'management_continuity', polarity: 'adverse' },
    { when: LABOUR_TROUBLE, factor: 'employment_stability', polarity: 'adverse' },
    { when: MACRO, wide: true, factor: 'economic_sensitivity', polarity: 'adverse' },
    { when: TECH, wide: true, factor: 'technological_disruption_risk', polarity: 'adverse' },
    // Regulation and scrutiny: told by the title only (the rule is not wide).
    { when: /\b(regulat\w*|scrutiny|compliance)\b|규제|당국/i, factor: 'internal_control_risk', polarity: 'adverse' },
    { when: COMPETITION, wide: true, factor: 'industry_competition_intensity', polarity: 'adverse' },
    { when: CONTROL, wide: true, factor: 'internal_control_risk', polarity: 'adverse' },
    { factor: 'other', polarity: 'adverse' },
  ],
  supply_contract: [
    { when: /\b(supply|purchase|order)\b|공급계약|수주/i, factor: 'other', polarity: 'favorable' },
    { factor: 'other', polarity: 'context' },
  ],
  esg: [
    { when: /\b(violat\w*|fines?|increas\w*)\b|위반|증가|벌금/i, factor: 'other', polarity: 'adverse' },
    { factor: 'other', polarity: 'context' },
  ],
  disclosure_other: [{ factor: 'other', polarity: 'context' }],
  news: [], // classified by tagNews below
};

// News: the factor comes from what the headline is about, the polarity from how it is said.
// Some topics (a lawsuit, a strike, a resignation) are bad news however they are worded.
const NEWS_TOPICS: { when: RegExp; factor: FactorId; adverse?: true }[] = [
  { when: CONTROL, factor: 'internal_control_risk', adverse: true },
  { when: LABOUR_TROUBLE, factor: 'employment_stability', adverse: true },
  { when: DEPARTURE, factor: 'management_continuity', adverse: true },
  { when: SUBSIDY, factor: 'government_support_programs' },
  { when: MACRO, factor: 'economic_sensitivity' },
  { when: COMPETITION, factor: 'industry_competition_intensity' },
  { when: TECH, factor: 'technological_disruption_risk' },
  { when: /\b(certif\w*|ISO ?\d+)\b|인증|INNOBIZ|이노비즈/i, factor: 'certifications' },
];

function tagNews(content: string): Tag {
  const topic = NEWS_TOPICS.find((t) => t.when.test(content));
  const polarity: Polarity = NEGATIVE_NEWS.test(content) || topic?.adverse ? 'adverse' : POSITIVE_NEWS.test(content) ? 'favorable' : 'context';
  return { factor: topic?.factor ?? 'other', polarity };
}

/**
 * Deterministic factor and polarity for an evidence item. Unknown categories fall back to
 * `other`/`context` rather than failing: imports may bring categories we do not model yet.
 */
export function tagByCategory(item: { category: string; title: string; text: string }): Tag {
  const content = `${item.title}\n${item.text}`;
  if (item.category === 'news') return tagNews(content);
  if (!isEvidenceCategory(item.category)) return { factor: 'other', polarity: 'context' };
  const rules = RULES[item.category];
  // A risk factor's title says what the risk is about; its body mentions technology, demand or
  // litigation in passing (a risk on regulatory scrutiny is not one of technological change).
  const titled = item.category === 'risk_factor' ? rules.find((r) => r.when?.test(item.title)) : undefined;
  const rule = titled ?? rules.find((r) => !r.when || r.when.test(r.wide ? content : item.title))!;
  // A risk factor is adverse unless its title says the company is not exposed; the factor it
  // bears on is still read from its content.
  if (item.category === 'risk_factor' && NO_EXPOSURE.test(item.title)) return { factor: rule.factor, polarity: 'context' };
  // An item no rule reads one way, whose title is written as a risk ("We may be unable to compete
  // effectively", 수요 둔화 우려), is a risk disclosure whatever its category: adverse.
  if (!rule.when && rule.polarity === 'context' && RISK_STATEMENT.test(item.title) && !NO_EXPOSURE.test(item.title))
    return { factor: rule.factor, polarity: 'adverse' };
  return { factor: rule.factor, polarity: rule.polarity };
}

// A heading written as a risk: what may or could go wrong ("We may be unable to compete
// effectively", "… could adversely affect our results"), a stated exposure or dependence. A 10-K
// uploaded whole has no "Risk Factors" in its title, and each risk factor is its own heading.
const RISK_STATEMENT =
  /\b(?:may|could|might|cannot)\b[^.]{0,160}\b(?:adverse\w*|harm\w*|negativ\w*|unable|fail\w*|suffer\w*|declin\w*|los[st]|loss(?:es)?|disrupt\w*|impair\w*|insufficient|not be (?:able|available|adequate)|delay\w*|costs?|risks?|liabilit\w*|penalt\w*|sanction\w*|limit\w*|restrict\w*|impact\w*|recalls?)\b|\b(?:exposed to|dependent on|subject to (?:risks|liabilit\w*|penalt\w*)|must manage|will need to|obligations under|no guarantee|no assurance)\b|\bvolatil\w*|\bface\b[^.]{0,40}\b(?:competition|risks?|challenges?)\b|우려|불확실|위험(?!\s?관리)|악영향|부정적\s?영향/i;

/**
 * What kind of filing section a heading or document title names, or null when it names none.
 * A governance or process description (cybersecurity, board oversight) is tried first: "Cybersecurity
 * Risk Management and Strategy" describes a process, not a risk that has materialised.
 */
export function sectionCategory(heading: string): EvidenceCategory | null {
  if (/cybersecurity|\bgovernance\b|\boversight\b|board of directors|이사회|지배구조|내부회계/i.test(heading)) return 'governance_ownership';
  if (/risk factors?|risks related to|위험\s?요인/i.test(heading)) return 'risk_factor';
  if (/legal proceedings|litigation|contingenc|소송|우발|제재/i.test(heading)) return 'legal_proceedings';
  if (/human capital|employees|workforce|직원|임직원/i.test(heading)) return 'employment';
  if (/\besg\b|environment|환경/i.test(heading)) return 'esg';
  if (/research|r&d|연구개발|특허|지적재산/i.test(heading)) return 'rnd_activity';
  if (/\bcompetition\b|market share|경쟁|점유율/i.test(heading)) return 'industry_competition';
  return null;
}

/** A document passage: the section it sits in and its tag. */
export type PassageTag = Tag & { category: EvidenceCategory | 'news' };

/**
 * The section and tag of a document passage, read off its heading and its document's title: a
 * heading written as a risk, or any passage of a document titled as risk factors, is a risk
 * factor; otherwise the heading's section, else the title's, else the passage is read like news. The factor may use the
 * passage's text; the polarity is read from the section and heading alone, so the offline analyst
 * (which sees a retrieval snippet) and the engine's reading check (which sees the whole chunk)
 * read a passage the same way.
 */
export function tagPassage(p: { documentTitle: string; heading: string | null; text: string }): PassageTag {
  const heading = p.heading?.trim() || '';
  const risk = RISK_STATEMENT.test(heading) || sectionCategory(p.documentTitle) === 'risk_factor';
  const category: EvidenceCategory | 'news' = risk
    ? 'risk_factor'
    : ((heading ? sectionCategory(heading) : null) ?? sectionCategory(p.documentTitle) ?? 'news');
  const title = heading || p.documentTitle;
  const { factor } = tagByCategory({ category, title, text: p.text });
  const { polarity } = tagByCategory({ category, title, text: '' });
  return { category, factor, polarity };
}
