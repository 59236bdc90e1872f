// The guideline's ten non-financial factors (docs/protocols.md) with their labels and readings,
// and the evidence category vocabulary of the import format (data/README.md). Shared by the
// pool's tagger, the engine's prompts, the measures, the report and the components.

export type Factor = {
  id: string;
  label: string;
  labelKo: string;
  /** How the factor reads for credit: which direction of the factor is favorable. */
  reading: string;
  readingKo: string;
};

export const FACTORS = [
  {
    id: 'industry_growth_outlook',
    label: 'Industry growth outlook',
    labelKo: '산업 성장 전망',
    reading: 'higher → favorable',
    readingKo: '높을수록 긍정',
  },
  {
    id: 'industry_competition_intensity',
    label: 'Industry competition intensity',
    labelKo: '산업 경쟁 강도',
    reading: 'stronger → adverse',
    readingKo: '강할수록 부정',
  },
  {
    id: 'technological_disruption_risk',
    label: 'Technological disruption risk',
    labelKo: '기술 변화(대체) 위험',
    reading: 'greater → adverse',
    readingKo: '클수록 부정',
  },
  {
    id: 'economic_sensitivity',
    label: 'Economic (cyclical) sensitivity',
    labelKo: '경기 민감도',
    reading: 'more sensitive → adverse',
    readingKo: '민감할수록 부정',
  },
  {
    id: 'government_support_programs',
    label: 'Government support programs',
    labelKo: '정부 지원 제도',
    reading: 'present → favorable',
    readingKo: '있으면 긍정',
  },
  {
    id: 'internal_control_risk',
    label: 'Internal control risk',
    labelKo: '내부통제 위험',
    reading: 'higher → adverse',
    readingKo: '높을수록 부정',
  },
  {
    id: 'management_continuity',
    label: 'Management continuity',
    labelKo: '경영 연속성',
    reading: 'more stable → favorable',
    readingKo: '안정적일수록 긍정',
  },
  {
    id: 'employment_stability',
    label: 'Employment stability',
    labelKo: '고용 안정성',
    reading: 'higher → favorable',
    readingKo: '높을수록 긍정',
  },
  {
    id: 'certifications',
    label: 'Certifications (e.g. INNOBIZ)',
    labelKo: '인증 보유 (예: INNOBIZ)',
    reading: 'present → favorable',
    readingKo: '있으면 긍정',
  },
  {
    id: 'public_interest_trend',
    label: 'Search / public interest trend',
    labelKo: '검색·대중 관심 추세',
    reading: 'increasing → favorable',
    readingKo: '증가할수록 긍정',
  },
  {
    id: 'other',
    label: 'Other',
    labelKo: '기타',
    reading: 'favorable or adverse from context',
    readingKo: '맥락에 따라 판단',
  },
] as const satisfies readonly Factor[];

export type FactorId = (typeof FACTORS)[number]['id'];

/** The ten guideline factors, without `other`. */
export const GUIDELINE_FACTORS = FACTORS.filter((f) => f.id !== 'other');

export const FACTOR_IDS = FACTORS.map((f) => f.id) as readonly FactorId[];

export function isFactorId(value: string): value is FactorId {
  return (FACTOR_IDS as readonly string[]).includes(value);
}

export function getFactor(id: FactorId): Factor {
  return FACTORS.find((f) => f.id === id)!;
}

export const EVIDENCE_CATEGORIES = [
  'patent',
  'certification',
  'management_change',
  'governance_ownership',
  'legal_proceedings',
  'sanctions',
  'distress_default',
  'distress_rehabilitation',
  'distress_creditor_management',
  'business_suspension',
  'trading_halt',
  'employment',
  'news',
  'risk_factor',
  'industry_competition',
  'government_support',
  'supply_contract',
  'rnd_activity',
  'esg',
  'disclosure_other',
] as const;

export type EvidenceCategory = (typeof EVIDENCE_CATEGORIES)[number];

export function isEvidenceCategory(value: string): value is EvidenceCategory {
  return (EVIDENCE_CATEGORIES as readonly string[]).includes(value);
}
