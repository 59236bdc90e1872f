// The offline analyst addresses the run's red flags (lib/pool/red-flags.ts) in every final step:
// one adverse reading per flag, read from the flagged item itself (its kind, date and title) and
// citing its evidence id (in a report, the topic that cites it is headed by its title, so its
// reading says only what happened, when, and why it decides), placed first in the report's claims and prose — so a default or a
// workout heads the report instead of being one signal among others, and the report passes its
// `red-flags-addressed` check (lib/debate/checks.ts). Applied by index.ts to the protocol's report
// step and to FinDebate's drafts, whichever version the safety check keeps.
import type { Citation, Claim, StepOutput } from '@/lib/domain/outputs';
import type { RedFlagKind } from '@/lib/domain/red-flags';
import type { StepRedFlag } from '@/lib/llm/types';
import type { Env } from './env';
import type { FactorId } from '@/lib/domain/factors';

const EVENT_EN: Record<RedFlagKind, string> = {
  payment_default: 'the borrower defaulted on a payment or had a note dishonoured',
  court_rehabilitation: 'the borrower applied for, or entered, court rehabilitation',
  bankruptcy: 'bankruptcy proceedings concern the borrower',
  creditor_workout: 'the borrower entered a creditor-bank management procedure (a workout)',
  trading_suspension: "trading in the borrower's shares was suspended",
  delisting: "the borrower's shares face delisting",
  tax_arrears: 'the borrower is in arrears on taxes',
  regulatory_sanction: 'a regulator or a court sanctioned the borrower or its officers',
  audit_opinion: 'the auditor gave an opinion other than clean',
  going_concern: "the borrower's ability to continue as a going concern is in doubt",
  lawsuit_lost: 'a court ruled against the borrower',
};

const EVENT_KO: Record<RedFlagKind, string> = {
  payment_default: '차주에 지급 불이행 또는 어음 부도가 발생했습니다',
  court_rehabilitation: '차주가 회생절차 개시를 신청했거나 회생절차에 들어갔습니다',
  bankruptcy: '차주에 대한 파산 절차가 있습니다',
  creditor_workout: '차주가 채권은행 등의 관리절차(워크아웃)에 들어갔습니다',
  trading_suspension: '차주 주식의 매매거래가 정지되었습니다',
  delisting: '차주 주식이 상장폐지 대상이 되었습니다',
  tax_arrears: '차주에 조세 체납이 있습니다',
  regulatory_sanction: '규제기관이나 법원이 차주 또는 그 임원에게 제재를 가했습니다',
  audit_opinion: '감사인이 적정이 아닌 감사의견을 냈습니다',
  going_concern: '차주의 계속기업 존속 능력에 의문이 제기되었습니다',
  lawsuit_lost: '법원이 차주에게 불리한 판결을 내렸습니다',
};

const HANGUL = /[\uac00-\ud7af]/;

/** The flagged item's title as a quotation; in English prose a Korean title is marked as Korean source text. */
function quoted(env: Env, title: string): string {
  const flat = title.replace(/[“”"]/g, '').replace(/\s+/g, ' ').trim();
  if (env.lang === 'ko') return `“${flat}”`;
  return HANGUL.test(flat) ? `“${flat}” (Korean source text)` : `“${flat}”`;
}

/** One full sentence on one red flag, in the run's language, naming the item it comes from. */
export function redFlagSentence(env: Env, flag: StepRedFlag): string {
  if (env.lang === 'ko') {
    return `위험 신호 — ${flag.date}에 ${EVENT_KO[flag.kind]}: ${quoted(env, flag.title)}(${flag.sourceName}, ${flag.publishedDate}) [${flag.evidenceId}]. 다른 증거와 관계없이 상환 능력에 불리하게 작용하는 결정적 신용 사건이며, 긍정 요인으로 상쇄되었다고 볼 수 없습니다.`;
  }
  return `Red flag — on ${flag.date} ${EVENT_EN[flag.kind]}: ${quoted(env, flag.title)} (${flag.sourceName}, ${flag.publishedDate}) [${flag.evidenceId}]. It is a decisive credit event that weighs against repayment capacity whatever the rest of the evidence shows, and no favorable signal offsets it.`;
}

/**
 * The adverse reading of a red flag's own topic in a report, which cites the item and is headed by
 * its title: what happened and when, and why it decides — no title, source or id again.
 */
export function redFlagReading(env: Env, flag: StepRedFlag): string {
  if (env.lang === 'ko') {
    return `${flag.date}에 ${EVENT_KO[flag.kind]}(공시일 ${flag.publishedDate}). 다른 증거와 관계없이 상환 능력에 불리하게 작용하는 결정적 신용 사건이며, 긍정 요인으로 상쇄되었다고 볼 수 없습니다.`;
  }
  const event = EVENT_EN[flag.kind];
  return `On ${flag.date} ${event} (published ${flag.publishedDate}). A decisive credit event: it weighs against repayment capacity whatever the rest of the evidence shows, and no favorable signal offsets it.`;
}

/** A report summary's line on a red flag: its date, its title and that it decides. */
function redFlagSummary(env: Env, flag: StepRedFlag): string {
  if (env.lang === 'ko') return `위험 신호(${flag.date}): ${quoted(env, flag.title)} — 상환 능력에 불리한 결정적 신용 사건.`;
  return `Red flag (${flag.date}): ${quoted(env, flag.title)} — a decisive credit event against repayment.`;
}

function headline(env: Env, flags: readonly StepRedFlag[]): string {
  if (env.lang === 'ko') return `결정적 신용 사건(위험 신호) ${flags.length}건이 이 분석의 첫머리에 놓입니다.`;
  return `${flags.length} decisive credit event${flags.length === 1 ? '' : 's'} (red flag${flags.length === 1 ? '' : 's'}) head${flags.length === 1 ? 's' : ''} this analysis.`;
}

export function redFlagCitation(flag: StepRedFlag): Citation {
  return { evidenceId: flag.evidenceId, source: flag.sourceName, date: flag.publishedDate };
}

/** The flagged item's factor as the step's material tags it, else internal control (where distress is read). */
function factorOf(env: Env, flag: StepRedFlag): FactorId {
  return env.pool.items.find((i) => i.evidenceId === flag.evidenceId)?.factor ?? 'internal_control_risk';
}

function flagsOf(env: Env): StepRedFlag[] {
  return env.request.redFlags ?? [];
}

const prefix = (lead: string, text: string) => (text ? `${lead} ${text}` : lead);

const citesAdversely = (c: Claim, id: string) => c.polarity === 'adverse' && c.citations.some((x) => x.evidenceId === id);

/**
 * The claims with one adverse claim per flag first, in the flags' order: a claim that already
 * reads the flagged item adversely (the draft's, kept by the leader) moves up; a flag no claim
 * reads adversely gets a new one. Every other claim follows in its own order.
 */
export function claimsWithRedFlags(env: Env, claims: readonly Claim[]): Claim[] {
  const first: Claim[] = [];
  let n = 0;
  for (const f of flagsOf(env)) {
    const existing = claims.find((c) => citesAdversely(c, f.evidenceId) && !first.includes(c));
    if (existing) {
      first.push(existing);
      continue;
    }
    let id: string;
    do id = `${env.step.id}-rf${++n}`;
    while (claims.some((c) => c.id === id));
    first.push({ id, text: redFlagSentence(env, f), factor: factorOf(env, f), polarity: 'adverse', citations: [redFlagCitation(f)] });
  }
  return [...first, ...claims.filter((c) => !first.includes(c))];
}

/** The prose with a sentence on each flag it does not yet carry, first. */
function proseWithRedFlags(env: Env, text: string): string {
  const missing = flagsOf(env)
    .map((f) => redFlagSentence(env, f))
    .filter((s) => !text.includes(s));
  return missing.length ? prefix(missing.join(' '), text) : text;
}

/**
 * The output with the run's red flags addressed first. Outputs of other kinds, and runs without
 * red flags, come back unchanged.
 */
export function addressRedFlags(env: Env, output: StepOutput): StepOutput {
  const flags = flagsOf(env);
  if (!flags.length) return output;
  const sentences = flags.map((f) => redFlagSentence(env, f));
  switch (env.step.output) {
    case 'report': {
      const r = output as StepOutput<'report'>;
      const topics = flags.map((f) => ({
        topic: env.lang === 'ko' ? `위험 신호: ${f.title}` : `Red flag: ${f.title}`,
        factor: factorOf(env, f),
        affirmative: '',
        adverse: redFlagReading(env, f),
        citations: [redFlagCitation(f)],
      }));
      const summaries = flags.map((f) => redFlagSummary(env, f));
      return {
        ...r,
        overview: prefix(headline(env, flags), r.overview),
        adverseSummary: [...summaries, ...r.adverseSummary],
        topics: [...topics, ...r.topics],
      };
    }
    case 'stanceDraft': {
      const d = output as StepOutput<'stanceDraft'>;
      return { ...d, text: proseWithRedFlags(env, d.text), claims: claimsWithRedFlags(env, d.claims) };
    }
    // The safety check answers with its decision only: the version it keeps is the draft's or
    // the leader's, which addressed the flags already (stanceDraft, above).
    case 'sasReport': {
      const r = output as StepOutput<'sasReport'>;
      return {
        ...r,
        executiveSummary: prefix(`${headline(env, flags)} ${sentences.join(' ')}`, r.executiveSummary),
        keyTakeaways: [...sentences, ...r.keyTakeaways],
        primaryRisk: prefix(sentences[0], r.primaryRisk),
      };
    }
    case 'rubricJudgment': {
      const j = output as StepOutput<'rubricJudgment'>;
      return {
        ...j,
        overall: {
          ...j.overall,
          keyInsight: prefix(headline(env, flags), j.overall.keyInsight),
          recommendation: prefix(sentences.join(' '), j.overall.recommendation),
        },
      };
    }
    default:
      return output;
  }
}

/** Whether the analyst addresses red flags in this step: the report's step and FinDebate's drafts. */
export function addressesRedFlags(env: Env): boolean {
  return env.step.id === env.request.protocol.reportStep || env.step.output === 'stanceDraft';
}
