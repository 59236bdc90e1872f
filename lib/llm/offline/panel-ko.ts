// 브리핑, SAS, 3라운드 토론, FinDebate의 한국어 문장.
import type { SpecialistFocus } from '@/lib/domain/protocol';
import { horizonCode, type Horizon } from '@/lib/domain/outputs';
import { factorLabel } from './lexicon';
import type { Item } from './material';
import type { Panel, Stance } from './panel-types';
import { stop } from './phrases';
import { PHRASES_KO as P } from './phrases-ko';
import type { Side } from './select';
import { josa } from './text';

const label = (f: string) => factorLabel('ko', f);
/** '-다' 문장을 조건절로: 유지된다 → 유지된다면, 규모이다 → 규모라면. */
const cond = (t: string) => `${t.replace(/이다$/, '이라').replace(/다$/, '다')}면`;
const cite = (i: Item) => `${P.name(i)}${P.ref(i)}`;
const reading = (side: Side, w: { favReading: string; advReading: string }) => (side === 'favorable' ? w.favReading : w.advReading);
const sideKo = (side: Side) => (side === 'favorable' ? '찬성 측' : '반대 측');
const teamKo = (t: string) => (t === 'affirmative' ? '찬성 측' : t === 'negative' ? '반대 측' : '중립');
const HORIZON_WORDS: Record<Horizon, string> = { '12m': '12개월', '24m': '2년', '36m': '3년' };
/** A horizon as a reader says it: its code's words, or an older run's label as it is. */
const HORIZON_KO = (h: string) => {
  const code = horizonCode(h);
  return code ? HORIZON_WORDS[code] : h;
};
const STANCE: Record<Stance, string> = { favorable: '긍정적', neutral: '중립적', adverse: '부정적' };

const LANES: Record<SpecialistFocus, string> = {
  figures: '사실 브리핑',
  'management-behaviour': '경영진·행태 브리핑',
  'industry-narrative': '시장·산업 브리핑',
  performance: '사업 성과',
  'market-outlook': '산업·시장 전망',
  'management-sentiment': '경영진·시장 심리',
  collateral: '담보·가치평가',
  'credit-risk': '신용 위험',
};

const BALANCE_KO = {
  favorable: '종합하면 이 요인은 긍정적으로 읽힌다.',
  adverse: '종합하면 이 요인은 부정적으로 읽힌다.',
  mixed: '이 요인은 양방향으로 작용한다.',
  context: '이 요인은 여기서 맥락에 따라 달리 읽히며, 그 자체로 판단을 뒷받침하거나 뒤집지 않는다.',
} as const;

const ANSWERED: Record<string, string> = {
  refute: '상대가 반대 증거로 반박',
  challenge: '상대가 입증을 요구',
  partial: '상대가 부분 인정',
  concede: '상대가 인정',
};

const KIND: Record<string, string> = { refute: '반박', challenge: '입증 요구', partial: '부분 인정', concede: '인정' };

export const PANEL_KO: Panel = {
  laneTitle: (focus) => (focus ? LANES[focus] : '브리핑'),
  laneNote: (focus) => (focus === 'collateral' ? '자료에는 담보·감정·가치평가 기록이 없다. 아래는 그나마 가까운 뒷받침(지원 제도, 인증, 권리)이다.' : ''),
  briefingHeader: (title, n, given) => `${title}: 주어진 자료 ${given}건에서 찾은 사항 ${n}개(최신순).`,
  figure: (i) => `${label(i.factor)}: ${cite(i)}.`,
  contextFinding: (i, w) =>
    `${label(i.factor)}: ${cite(i)} — 해석이 갈리는 자료다. ${cond(w.favAssumption)} 상환에 긍정적이고, ${cond(w.advAssumption)} 부정적이다.`,
  quoted: (i, words, w, side) =>
    `${label(i.factor)} — 자료 원문: ${P.quote(words)}${P.ref(i)}. ${i.polarity === 'context' ? `해석이 갈리는 자료로, ${cond(w.favAssumption)} 상환에 긍정적이다.` : `${reading(side, w)}.`}`,
  silent: (labels) => `자료는 ${labels.join('·')}에 관해서는 아무것도 말하지 않는다.`,
  nothingGiven: (title) => `${title}: 이 단계에 주어진 자료나 문서 발췌가 없어 브리핑할 내용이 없다. 판단은 다른 브리핑에 기대야 한다.`,
  narrativeIntro: (company, industry, n) =>
    `${company}(업종: ${industry ? industry.split(';')[0].trim() : '기재 없음'})의 시장 환경을 날짜가 있는 자료 ${n}건으로, 최신 자료부터 정리한다.`,
  narrativePoint: (i, w, side) => `${label(i.factor)}: ${cite(i)} — ${i.polarity === 'context' ? '양쪽으로 읽힐 수 있는 자료지만, ' : ''}${reading(side, w)}.`,

  verdict: (step, team, convinced, why) =>
    convinced
      ? `${step}(${teamKo(team)}): 설득력 있음 — 모든 질문에 날짜가 있는 자료로 답했다.`
      : `${step}(${teamKo(team)}): 설득력 부족 — ${
          why.unanswered.length
            ? `${why.unanswered.join(', ')} 질문에 답하지 않았다`
            : why.weak === 'stale'
              ? '답변이 최근성 기간 밖의 자료에만 기대고 있다'
              : why.weak === 'reread'
                ? '새 자료 없이 자료를 그 분류와 반대로 읽었다'
                : '질문에 답하는 주장이 없다'
        }.`,
  pressUnanswered: (qid, text) => `아직 답하지 않은 ${qid}에 대한 후속 질문: ${text}`,
  pressEmpty: (step) => `${josa(step, '은')} 자료로 답한 것이 없습니다. 어떤 날짜의 어떤 자료가 그 입장을 뒷받침합니까?`,
  nothingToJudge: () => '기록에 반박이 없어 판정할 대상이 없다.',
  noFollowUp: (side) => `${sideKo(side)}에는 후속 질문이 없었다. 반박은 제시된 그대로 유지된다.`,
  cannotAnswer: (qid) => `${josa(qid, '은')} 인용 자료가 없는 논점을 겨냥하고 있어 기록만으로는 답할 수 없다.`,
  judgment: (winner, aff, neg) => {
    const [w, l] = winner === 'affirmative' ? [aff, neg] : [neg, aff];
    const win = winner === 'affirmative' ? '찬성 측' : '반대 측';
    const lose = winner === 'affirmative' ? '반대 측' : '찬성 측';
    const tie = aff.score === neg.score;
    return `${win}의 논거가 버텼다: 서로 다른 날짜 있는 자료 ${w.items}건(최근성 기간 안 ${w.fresh}건)에 기대고 질문 ${w.answered}개에 답했으며, ${josa(lose, '은')} 자료 ${l.items}건(최근 ${l.fresh}건, 답변 ${l.answered}개)에 그쳤다${tie ? ' — 근거가 같으면 보수적인 여신 관행에 따라 위험 쪽 논거를 택한다' : ''}.`;
  },
  noCaseAssumption: () => '결론이 인용 자료 없이 서 있다.',
  noCaseCritique: () => '날짜 있는 자료가 없어 새 공시나 보도 하나로도 뒤집힐 수 있다. 먼저 자료를 확보해야 한다.',
  assumption: (factor, text) => `${label(factor)} — ${text}`,
  critique: ({ factor, item, counter, challenged, falsifier }) =>
    [
      `${item ? cite(item) : '인용 없는 추론'}에 기대고 있다${item?.stale ? '(최근성 기간 밖의 자료)' : ''}.`,
      counter ? ` 풀에는 반대 방향을 가리키는 ${cite(counter)}도 있다.` : '',
      challenged ? ' 이 자료 한 건이 유일한 받침이다.' : '',
      ` ${josa(falsifier, '이')} 확인되면 무너지며, 이를 확인하려면 ${label(factor)}에 관한 더 최근 자료가 필요하다.`,
    ].join(''),
  executive: ({ company, asOf, side, lead, against, items, fresh, thin }) =>
    [
      `${asOf} 기준 비재무 근거로 볼 때 ${company}의 상환 능력은 ${side === 'favorable' ? '유지된다고' : '위험에 놓여 있다고'} 판단한다.`,
      lead.length ? `주된 근거는 ${lead.join('·')} 요인이다.` : '',
      against.length ? (side === 'favorable' ? `다만 ${against.join('·')} 요인은 주요 우려로 남는다.` : `${against.join('·')} 요인은 일부 상쇄 요인이다.`) : '',
      `판단은 날짜가 있는 자료 ${items}건에 기대며, 이 중 ${fresh}건이 최근성 기간 안에 있다.`,
      thin ? '근거가 빈약하므로 잠정적 판단이다.' : '',
    ]
      .filter(Boolean)
      .join(' '),
  takeaway: (kind, i, side) =>
    kind === 'lead'
      ? `${label(i.factor)}: ${cite(i)} — ${side === 'favorable' ? '상환 능력을 뒷받침하는' : '상환 능력에 부담이 되는'} 자료다.`
      : `${label(i.factor)}: ${cite(i)} — 반대 방향을 가리키는 가장 강한 자료다.`,
  staleTakeaway: (stale, total, days) => `자료 ${total}건 중 ${stale}건은 최근성 기간(${days}일)을 벗어났다. 이에 기대기 전에 최신 공시로 다시 확인해야 한다.`,
  fragileTakeaway: (assumption) => `가장 취약한 전제: ${assumption}`,
  thinTakeaway: (n) => `근거가 빈약하다(자료 ${n}건). 판단은 잠정적이며 추가 자료를 요청해야 한다.`,
  primaryRisk: (assumption, critique) => `주요 위험은 다음 전제가 깨지는 것이다. ${stop(assumption)} ${critique}`,
  mitigation: (falsifiers, silent) =>
    `${falsifiers.length ? `다음 사항을 모니터링해야 한다: ${falsifiers.map((f) => `${f.text}(${label(f.factor)})`).join(', ')}. 어느 하나라도 나타나면 판단이 뒤집히므로 재심사 사유로 삼는다.` : '이 판단에 기대기 전에 주요 요인에 관한 날짜 있는 자료를 확보해야 한다.'}${silent.length ? ` 또한 자료가 다루지 않는 ${silent.join('·')}에 관한 자료를 요청한다.` : ''}`,
  outlook: (side, newest, days) =>
    `가장 최근 자료의 날짜는 ${newest}이다. ${side === 'favorable' ? '새로운 부정적 공시가 나오지 않는 한 이 판단은 유지될 것이다' : '부정적 신호가 완화되었다는 더 최근 자료가 나오기 전까지 위험 판단은 유지된다'}. 새 공시가 나오거나 가장 최근 자료가 최근성 기간(${days}일)을 벗어나면 다시 심사한다.`,
  reviewIntro: (n, from, to) =>
    n ? `날짜가 있는 자료 ${n}건(${from === to ? from : `${from}~${to}`})을 요인별로, 최신 자료부터 검토한다.` : '검토할 날짜 있는 자료가 없다.',
  reviewFactor: ({ factor, favorable, adverse, context, words, balance }) =>
    [
      `${label(factor)}.`,
      favorable.length ? `상환에 긍정적인 자료: ${favorable.map(cite).join('; ')} — ${words.favReading}.` : '',
      adverse.length ? `부정적인 자료: ${adverse.map(cite).join('; ')} — ${words.advReading}.` : '',
      context.length ? `맥락 자료: ${context.map(cite).join('; ')} — 양쪽으로 읽힐 수 있다.` : '',
      BALANCE_KO[balance],
      balance === 'adverse' ? `위험이 줄어드는 신호: ${words.advFalsifier}.` : balance === 'context' ? '' : `판단을 바꿀 신호: ${words.favFalsifier}.`,
    ]
      .filter(Boolean)
      .join(' '),

  argsHeader: (side, company, n) => `${sideKo(side)} 논거 ${n}개: ${company}의 상환 능력은 ${side === 'favorable' ? '유지된다' : '위험에 놓여 있다'}.`,
  argClaim: (i, side) => `${label(i.factor)}: ${cite(i)} — 상환 능력에 ${side === 'favorable' ? '긍정적' : '부정적'}이다.`,
  argReasoning: (p, side, w) => {
    const why = p.mode === 'reread' ? (side === 'favorable' ? w.advAlternative : w.favChallenge) : reading(side, w);
    const note = p.mode === 'context' ? ' 해석이 갈리는 자료다.' : p.mode === 'reuse' ? ' 앞선 논거와 같은 요인이지만 다른 자료다.' : '';
    return `${why}. 전제: ${side === 'favorable' ? w.favAssumption : w.advAssumption}. ${josa(side === 'favorable' ? w.favFalsifier : w.advFalsifier, '이')} 확인되면 이 논거는 무너진다.${note}`;
  },
  responsesHeader: (step, n) => `${step}에 대한 응답: 논거마다 하나씩, 모두 ${n}개.`,
  responseReasoning: (kind, { factor, theirs, counter, side, words }) => {
    switch (kind) {
      case 'refute':
        return `같은 요인(${label(factor)})에서 반대 방향을 가리키는 ${theirs && counter && counter.date > theirs.date ? '더 최근 ' : ''}자료가 있다: ${counter ? cite(counter) : '자료'}. ${reading(side, words)}.`;
      case 'challenge':
        return theirs
          ? `논거는 ${cite(theirs)}에 기대는데, 최근성 기간을 벗어난 자료라 지금도 유효한지 입증되지 않았다.`
          : '논거가 인용한 자료를 확인할 수 없어 입증되지 않았다.';
      case 'partial':
        return counter
          ? `${cite(counter)}의 기록이 논거를 일부 제한하지만, 논점 자체를 없애지는 못한다.`
          : `공시된 사실로서는 인정하지만, ${side === 'favorable' ? words.advAlternative : words.favChallenge}.`;
      default:
        return theirs
          ? `논거를 인정한다. 근거 자료가 최근성 기간 안에 있고, 풀에 ${label(factor)}에 관한 반대 자료가 없다.`
          : '논거를 인정한다. 풀에 이를 반박하는 자료가 없다.';
    }
  },
  responseFollowUp: (kind, { factor }) =>
    kind === 'refute'
      ? `${label(factor)}에 관한 이 자료보다 그쪽 자료를 더 무겁게 볼 이유는 무엇입니까?`
      : kind === 'challenge'
        ? '평가 기준일 현재에도 유효하다는 최근 자료가 있습니까?'
        : kind === 'partial'
          ? '제한된 부분이 상환 능력에 여전히 중요하다는 것을 무엇으로 보이겠습니까?'
          : `${label(factor)}에 대한 해석을 바꿀 더 최근 자료가 있습니까?`,
  responseLine: (r) => `${r.targetId} — ${KIND[r.kind]}: ${r.reasoning} 후속 질문: ${r.followUp}`,
  concession: (r, a) => `${r.targetId}${a ? `(${label(a.factor)})` : ''} ${r.kind === 'concede' ? '인정' : '부분 인정'}`,
  finalPosition: (side, company, { standing, refuted, conceded }) =>
    [
      `${company}의 상환 능력은 ${side === 'favorable' ? '유지된다' : '여전히 위험하다'}.`,
      `논거 ${standing}개는 반박되지 않았다.`,
      refuted ? `${refuted}개는 반박되었다.` : '',
      conceded ? `상대 논거 ${conceded}개는 인정했다.` : '',
    ]
      .filter(Boolean)
      .join(' '),
  closingText: ({ side, concessions, unrebutted, refuted, finalPosition }) =>
    `${sideKo(side)} 최종 변론. 인정한 점: ${concessions.length ? concessions.join(', ') : '없음'}. 반박되지 않은 논거: ${unrebutted.length ? unrebutted.join(', ') : '없음'}.${refuted.length ? ` 반박된 논거: ${refuted.join(', ')}.` : ''} 최종 입장: ${finalPosition}`,
  anecdotal: (i) => `요인 수준의 결론을 언론 보도 한 건${P.ref(i)}에 기대고 있다.`,
  traceNote: (standing, kind, i) => `${kind ? ANSWERED[kind] : '상대가 답하지 않음'}${i ? `; 근거 ${P.ref(i)}` : '; 추적 가능한 근거 없음'} (${standing}).`,
  keyInsight: (best, t) =>
    best
      ? `가장 강한 논거: ${best.id}(${label(best.factor)}, 가중 점수 ${best.weighted}). 논거 평균 점수는 찬성 측 ${t.affirmative}, 반대 측 ${t.negative}.`
      : '점수를 매길 논거가 없다: 어느 쪽도 논거를 내지 않았다.',
  recommendation: (t, unresolved) =>
    `심사위원회 참고: ${t.affirmative === t.negative ? '이 점수로는 양측이 같다' : `이 점수로는 ${t.affirmative > t.negative ? '찬성 측' : '반대 측'}의 근거가 더 탄탄하다(${t.affirmative} 대 ${t.negative})`}.${unresolved ? ` 다만 미해결 쟁점 ${unresolved}개는 결정 전에 확인해야 한다.` : ''} 점수는 근거와 응답성을 잰 것이며 여신 결정 자체는 아니다.`,

  horizons: () => ['12m', '36m'],
  draftText: ({ company, stance, horizons, favorable, adverse, items, stale, note }) =>
    [
      `입장: ${company}의 상환 전망은 ${STANCE[stance]}이다.`,
      `${horizons.map((h) => `${HORIZON_KO(h.horizon)}: ${STANCE[h.outlook]}(확신도 ${h.confidence})`).join(', ')}.`,
      favorable.length ? `긍정 요인: ${favorable.join('·')}.` : '긍정적 자료 없음.',
      adverse.length ? `부정 요인: ${adverse.join('·')}.` : '부정적 자료 없음.',
      `자료 ${items}건 기준${stale ? `(이 중 ${stale}건은 최근성 기간 밖)` : ''}.`,
      items < 3 ? '근거가 빈약해 확신도를 낮게 제한했다.' : '',
      note ?? '',
    ]
      .filter(Boolean)
      .join(' '),
  leaderNote: (moved, from, to, added) =>
    moved
      ? `통합한 근거로 입장이 ${STANCE[from]}에서 ${josa(STANCE[to], '으로')} 바뀌었다. 어느 판을 유지할지는 안전 점검이 정한다.`
      : `추가된 논점 ${added}개를 반영해도 입장은 ${josa(STANCE[to], '으로')} 유지된다.`,
  trustHeader: (stance) => `${STANCE[stance]} 초안을 뒷받침하는 근거(입장은 그대로):`,
  trustNone: (factor) => `${josa(label(factor), '을')} 더 뒷받침하는 발췌는 없다. 초안의 자료 한 건이 유일한 근거다.`,
  trustClaim: (i, w, polarity) => `${label(i.factor)}: 추가 근거 ${cite(i)}. ${polarity === 'adverse' ? w.advReading : w.favReading}.`,
  skepticHeader: (n) => (n ? `초안이 놓친 위험 ${n}개와 완화 요인, 시나리오:` : '자료에서 초안 밖의 부정적 자료는 찾지 못했다. 시나리오는 아래와 같다.'),
  riskClaim: (i, w) => `${label(i.factor)}: ${cite(i)}. ${w.advReading}.`,
  offset: (risk, offset, w) =>
    offset
      ? `${label(risk.factor)} 완화 요인: ${cite(offset)} — 위험을 일부 상쇄한다.`
      : `${label(risk.factor)} 완화 요인: 자료에 없다. ${josa(w.advFalsifier, '이')} 나오는지 지켜봐야 한다.`,
  scenarios: (stance, assumptions) =>
    `기본 시나리오: ${STANCE[stance]} 판단이 유지된다. 하방 시나리오: ${assumptions.length ? assumptions.join(' / ') : '새로운 부정적 공시가 나온다'} — 이 경우 상환에 차질이 생긴다.`,
  safetyReason: ({ stanceChanged, horizonsChanged, draft, final }) =>
    stanceChanged || horizonsChanged
      ? `리더 안이 ${[stanceChanged ? `입장(${STANCE[draft.stance]}→${STANCE[final.stance]})` : '', horizonsChanged ? '기간별 전망' : ''].filter(Boolean).join('과 ')}을 바꾸었으므로 초안을 유지한다. 한 차례의 제한된 토론은 판단을 보강하거나 단서를 달 수는 있어도 뒤집어서는 안 된다.`
      : `입장(${STANCE[final.stance]})과 기간별 전망이 그대로이므로, 근거와 위험을 보강한 리더 안을 유지한다.`,
};
