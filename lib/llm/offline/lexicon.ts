// The factor vocabulary the offline analyst argues with, per language. Labels come from the
// guideline table in lib/domain/factors.ts; the readings from lexicon-en.ts and lexicon-ko.ts.
import type { Language } from '@/lib/domain/protocol';
import { FACTORS, isFactorId, type FactorId } from '@/lib/domain/factors';
import type { FactorWords } from './factor-words';
import { CATEGORY_EN, LEXICON_EN, NEUTRAL_EN, SIGNAL_EN } from './lexicon-en';
import { CATEGORY_KO, LEXICON_KO, NEUTRAL_KO, SIGNAL_KO } from './lexicon-ko';
import type { Signal } from './reading';

export type { FactorWords };

/**
 * The words an item must contain before a factor's stock reading may be said of it, per side: the
 * favorable competition reading speaks of a leading position and pricing power, so it is said only
 * of an item that names a lead, a share or pricing power; "clean audit" only of an item that states
 * a clean opinion. Korean terms match as substrings, English ones at word starts.
 */
export const FACT_TERMS: Record<FactorId, { favorable: RegExp; adverse: RegExp }> = {
  industry_growth_outlook: {
    favorable: /\b(grow|expan|recover|increas|rising)|성장|증가|확대|회복/i,
    adverse: /\b(declin|contract|shrink|fall|slow)|역성장|감소|둔화|위축|축소/i,
  },
  industry_competition_intensity: {
    favorable: /\b(leading|leader|largest|no\. ?1|market share|pricing power)\b|1위|점유율|선도|최고|가격 결정력|시장 지위/i,
    adverse: /\b(compet|rival|price war)|경쟁|저가|밀렸|내줘/i,
  },
  technological_disruption_risk: { favorable: /\b(patent|r&d|research)|특허|연구개발/i, adverse: /\b(technolog|obsole|disrupt|innovat)|기술|진부|대체/i },
  economic_sensitivity: {
    favorable: /\b(resilien|held up|despite|steady)|견조|방어/i,
    adverse: /\b(cycl|macro|recession|inflation|interest rate|economic|downturn|weather|demand|catastroph)|경기|거시|인플레이션|금리|침체|시황|수요/i,
  },
  government_support_programs: {
    favorable: /\b(subsid|grant|incentive|support|tax credit|land-use)|보조금|지원|세액공제|정책자금/i,
    adverse: /\b(exclu|obligat|terminat|repaid|clawback|revok|depend|cut)|제외|의무|중단|폐지|환수|축소|의존/i,
  },
  internal_control_risk: {
    favorable: /\b(unqualified|effective internal control|no material weakness|clean opinion)|(?<!부)적정|효과적|지적사항\s?없음/i,
    adverse:
      /\b(lawsuit|litigation|suit|claim|proceeding|investigat|regulat|sanction|fine|penalt|default|complaint|court|probe)|소송|제재|조사|과징금|벌금|부도|관리절차|회생|징역|고발|우발/i,
  },
  management_continuity: {
    favorable: /\b(tenure|promoted internally|reappoint|bench)|재직|연임|근속|유임/i,
    adverse: /\b(depart|resign|dismiss|step(?:s|ped)? down|dependent|key[- ]person|turnover)|사임|해임|퇴임|교체|사퇴|의존|변동/i,
  },
  employment_stability: {
    favorable: /\b(tenure|years of service)|근속/i,
    adverse: /\b(union|strike|layoff|lay-off|walkout|job cut|labou?r dispute)|노조|노동조합|파업|감원|구조조정|임금피크|해고|희망퇴직/i,
  },
  certifications: { favorable: /\b(certif|iso|accredit)|인증|지정/i, adverse: /\b(revok|cancel|withdrawn|suspend|expired|lapsed)|취소|철회|만료|정지|상실/i },
  public_interest_trend: { favorable: /\b(interest|search|attention)|관심|검색/i, adverse: /\b(interest|search|attention)|관심|검색/i },
  other: {
    favorable: /\b(contract|agreement|order|invest|supply|licen|revenue|sales|award)|계약|수주|투자|공급|라이선스|매출/i,
    adverse: /\b(cost|obligat|liabilit|expens|fine|emission|debt)|비용|의무|부채|배출|증가|채무/i,
  },
};

/** Does the item's own text carry what the factor's stock reading for `side` asserts? */
export function itemSupports(factor: string, side: 'favorable' | 'adverse', item: { title: string; text: string }): boolean {
  const id: FactorId = isFactorId(factor) ? factor : 'other';
  return FACT_TERMS[id][side].test(`${item.title}\n${item.text}`);
}

/**
 * What the analyst says about an item: its factor's words, made specific by its category and by
 * the kind of signal its own words make it (reading.ts), so a suit won, a workout and a clean
 * audit — all internal control — are each read for what they are. Given the item, a factor's
 * stock reading that the item's words do not carry (a "leading market position" for a risk factor
 * about competing) gives way to a reading framed on the item itself (lexicon-en/ko NEUTRAL_*).
 */
export function words(
  lang: Language,
  factor: string,
  category?: string,
  signal?: Signal | null,
  item?: { title: string; text: string; polarity?: string },
): FactorWords {
  const id: FactorId = isFactorId(factor) ? factor : 'other';
  const base = (lang === 'ko' ? LEXICON_KO : LEXICON_EN)[id];
  const byCategory = category ? (lang === 'ko' ? CATEGORY_KO : CATEGORY_EN)[category] : undefined;
  const bySignal = signal ? (lang === 'ko' ? SIGNAL_KO : SIGNAL_EN)[signal] : undefined;
  const own: Partial<FactorWords> = {};
  if (item) {
    const neutral = (lang === 'ko' ? NEUTRAL_KO : NEUTRAL_EN)[item.polarity === 'context' ? 'context' : 'stated'];
    if (!itemSupports(id, 'favorable', item)) Object.assign(own, { favReading: neutral.favReading, favAssumption: neutral.favAssumption });
    if (!itemSupports(id, 'adverse', item)) Object.assign(own, { advReading: neutral.advReading, advAssumption: neutral.advAssumption });
  }
  return { ...base, ...own, ...byCategory, ...bySignal };
}

/** The factor's label without its parenthetical example: "Certifications", "인증 보유". */
export function factorLabel(lang: Language, factor: string): string {
  const f = FACTORS.find((x) => x.id === factor) ?? FACTORS.find((x) => x.id === 'other')!;
  return (lang === 'ko' ? f.labelKo : f.label).replace(/\s*\([^)]*\)/g, '').trim();
}

/** True for the ten guideline factors, false for `other` and anything unknown. */
export function isGuideline(factor: string): boolean {
  return isFactorId(factor) && factor !== 'other';
}
