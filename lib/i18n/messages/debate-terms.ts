import { defineMessages, translator, type Locale } from '@/lib/i18n';

// What a step does (its act) and who speaks, as the transcript and the report show them. The
// protocols (lib/debate/protocols) name them in English ids; A1…N3 are seat codes and stay.
export const debateTermsMessages = defineMessages({
  en: {
    act_distillation: 'distillation',
    act_constructive: 'constructive',
    act_opening: 'opening',
    'act_cross-examination': 'cross-examination',
    act_challenge: 'challenge',
    act_rebuttal: 'rebuttal',
    act_judgment: 'judgment',
    'act_follow-up': 'follow-up',
    act_closing: 'closing',
    act_analysis: 'analysis',
    act_draft: 'draft',
    act_debate: 'debate',
    'act_safety-check': 'safety check',
    act_aggregation: 'aggregation',
    act_report: 'report',
    agent_aggregator: 'aggregator',
    agent_analyst: 'analyst',
    'agent_devils-advocate': 'devil’s advocate',
    'agent_factual-analyst': 'factual analyst',
    'agent_industry-analyst': 'industry analyst',
    agent_judge: 'judge',
    'agent_lead-analyst': 'lead analyst',
    agent_leader: 'leader',
    'agent_management-analyst': 'management analyst',
    'agent_performance-analyst': 'performance analyst',
    'agent_market-analyst': 'market analyst',
    'agent_collateral-analyst': 'collateral analyst',
    'agent_risk-analyst': 'risk analyst',
    'agent_safety-checker': 'safety checker',
    agent_skeptic: 'skeptic',
    'agent_stress-analyst': 'stress analyst',
    'agent_trust-agent': 'trust agent',
    agent_writer: 'writer',
  },
  ko: {
    act_distillation: '쟁점 정리',
    act_constructive: '입론',
    act_opening: '모두 발언',
    'act_cross-examination': '교차 신문',
    act_challenge: '이의 제기',
    act_rebuttal: '반론',
    act_judgment: '판정',
    'act_follow-up': '추가 질의',
    act_closing: '최종 변론',
    act_analysis: '분석',
    act_draft: '초안 작성',
    act_debate: '토론',
    'act_safety-check': '안전성 점검',
    act_aggregation: '종합',
    act_report: '보고서 작성',
    agent_aggregator: '종합 에이전트',
    agent_analyst: '분석가',
    'agent_devils-advocate': '반대 검토자',
    'agent_factual-analyst': '사실 검증 분석가',
    'agent_industry-analyst': '산업 분석가',
    agent_judge: '심판',
    'agent_lead-analyst': '책임 분석가',
    agent_leader: '리더',
    'agent_management-analyst': '경영 분석가',
    'agent_performance-analyst': '실적 분석가',
    'agent_market-analyst': '시장 분석가',
    'agent_collateral-analyst': '담보 분석가',
    'agent_risk-analyst': '위험 분석가',
    'agent_safety-checker': '안전성 점검자',
    agent_skeptic: '회의론자',
    'agent_stress-analyst': '스트레스 분석가',
    'agent_trust-agent': '신뢰성 검증 에이전트',
    agent_writer: '작성자',
  },
});

type Key = keyof typeof debateTermsMessages.en;

/** A step's act in the interface language; an act we do not know is shown as its id. */
export function actLabel(act: string, locale: Locale) {
  const key = `act_${act}`;
  return key in debateTermsMessages.en ? translator(debateTermsMessages, locale)(key as Key) : act;
}

/** A speaker in the interface language; seat codes (A1, N3) and unknown ids stay as they are. */
export function agentLabel(agent: string, locale: Locale) {
  const key = `agent_${agent}`;
  return key in debateTermsMessages.en ? translator(debateTermsMessages, locale)(key as Key) : agent;
}
