// 토론과 보고서의 한국어 문장. 여신 심사 메모의 문체로, 주장은 '-다', 질문은 '-습니까'로
// 쓴다. 분석기는 역할(찬성 측·반대 측)로만 말하며 사람이나 모델인 척하지 않는다.
// 조사는 괄호 앞의 낱말에 맞춰 고정 명사 뒤에 두거나 josa()로 고른다.
import { factorLabel } from './lexicon';
import { shorten, shortSource, shortTitle, showValue, sourceKind, type Item, isEnglishText } from './material';
import { byDate, displayName, rereading, stop, type Phrases, type QuestionData, type QuestionKind } from './phrases';
import type { Pick, Side } from './select';
import { josa, marker, polite } from './text';

const label = (f: string) => factorLabel('ko', f);
/** 가이드라인 밖의 자료(기타)는 요인 목록의 끝에. */
const lastOther = (factors: string[]) => [...factors.filter((f) => f !== 'other'), ...factors.filter((f) => f === 'other')];
const ref = (i: Item) => `(${shortSource(i.source)}, ${i.date}${i.stale ? ', 최근성 기간 밖' : ''})`;
const name = (i: Item, max = 36, withValue = true) => {
  const v = withValue ? showValue(i) : null;
  // Latin script needs more characters than Hangul to say the same thing.
  const limit = /[가-힣]/.test(i.title) ? max : Math.round(max * 1.6);
  return `${q(shortTitle(i, limit))}${v ? `(${v})` : ''}`;
};
/** 인용: 한국어 문장 속 영문 원문은 영문 자료임을 밝힌다. */
const q = (t: string) => `“${t}”${isEnglishText(t) ? '(영문 자료)' : ''}`;
const sideNoun = (s: Side) => (s === 'favorable' ? '찬성 측' : '반대 측');
const sideAdj = (s: Side) => (s === 'favorable' ? '긍정적' : '부정적');
const reading = (s: Side, w: { favReading: string; advReading: string }) => (s === 'favorable' ? w.favReading : w.advReading);

const KIND_KO = { filing: '회사 공시', news: '언론 보도', transcript: '컨퍼런스콜 발언', registry: '등록 기록', other: '자료' } as const;

function reliability(d: QuestionData): string {
  const quote = q(d.quote);
  if (!d.item) return `${quote}의 출처와 날짜는 무엇입니까? 이 단계가 가진 자료로는 확인되지 않습니다.`;
  if (d.item.stale)
    return `${quote}의 근거 자료${ref(d.item)}는 최근성 기간(${d.recencyDays}일)을 벗어났습니다. 기준일(${d.asOf}) 현재에도 유효하다는 근거가 있습니까?`;
  switch (d.sourceKind) {
    case 'news':
      return `${josa(quote, '은')} 언론 보도 한 건${ref(d.item)}에 기대고 있습니다. 공시나 다른 독립적인 자료로 확인됩니까?`;
    case 'transcript':
      return `${josa(quote, '은')} 컨퍼런스콜에서 경영진이 한 말${ref(d.item)}에 근거합니다. 이를 뒷받침하는 독립적인 기록이 있습니까?`;
    case 'registry':
      return `${josa(quote, '은')} 등록 기록${ref(d.item)}일 뿐입니다. 그 권리가 매출을 내는 제품에 실제로 쓰이고 있습니까?`;
    default:
      return `${josa(quote, '은')} 회사가 스스로 작성한 공시${ref(d.item)}입니다. 감사인·규제기관·거래 상대방처럼 외부에서 확인한 자료가 있습니까?`;
  }
}

function question(d: QuestionData): string {
  const quote = q(d.quote);
  const l = label(d.factor);
  const falsifier = d.against === 'favorable' ? d.words.favFalsifier : d.words.advFalsifier;
  switch (d.kind) {
    case 'interpretation':
      if (d.itemAgainst) {
        return `${josa(d.step, '은')} ${josa(quote, '을')} ${d.against === 'favorable' ? '긍정 신호' : '위험 신호'}로 읽었지만, 자료 자체는 반대 방향으로 분류되어 있습니다. ${polite(d.against === 'favorable' ? d.words.advReading : d.words.favReading)}. 왜 ${d.step}처럼 읽어야 합니까?`;
      }
      return d.against === 'favorable'
        ? `${josa(d.step, '은')} ${josa(quote, '을')} ${l}의 긍정 신호로 읽었습니다. 그러나 ${polite(d.words.favChallenge)}. 이 자료가 ${d.step}의 말대로 상환 능력과 이어진다는 근거는 무엇입니까?`
        : `${josa(d.step, '은')} ${josa(quote, '을')} ${l}의 위험 신호로 읽었습니다. 그러나 ${polite(d.words.advAlternative)}. 이것이 일시적 잡음이 아니라 상환 위험이라는 근거는 무엇입니까?`;
    case 'reliability':
      return reliability(d);
    case 'counterexample':
      return d.counter
        ? `${josa(quote, '과')} 달리, 같은 요인(${l})에서 반대 방향을 가리키는 자료가 풀에 있습니다: ${name(d.counter, 36, false)}${ref(d.counter)}. 이 자료를 감안해도 주장이 유지됩니까?`
        : `${l}에서 반대 사례가 풀에 없다는 것만으로 충분합니까? ${josa(falsifier, '이')} 나온다면 ${josa(quote, '을')} 철회하겠습니까?`;
    case 'alternative':
      return d.against === 'adverse'
        ? `${josa(quote, '은')} 다른 원인으로도 설명되지 않습니까? 예컨대 ${polite(d.words.advAlternative)}. 이 설명을 배제할 근거는 무엇입니까?`
        : `${josa(quote, '은')} 덜 긍정적인 이유로도 설명되지 않습니까? ${polite(d.words.favChallenge)}.`;
    case 'boundary':
      return `${josa(quote, '은')} 어떤 조건에서 실제로 상환을 해칩니까? 어느 사업, 어느 규모, 어느 기간입니까?${d.item ? ` 자료는 ${d.item.date} 시점의 것인데, 그 조건이 기준일(${d.asOf})에도 유지된다는 근거가 있습니까?` : ''}`;
    case 'measurement':
      return d.item && showValue(d.item)
        ? `${quote}에 나온 수치(${showValue(d.item)})는 정확히 무엇을 잰 값입니까? 상환 위험의 크기입니까, 아니면 활동량일 뿐입니까?`
        : `${josa(quote, '은')} 수치 없이 방향만 제시합니다. 현금흐름에 미치는 영향은 얼마나 크며, 어떻게 측정하겠습니까?`;
    case 'consistency':
      return `${d.step}의 반박 근거는 ${d.item ? `${name(d.item, 36, false)}${ref(d.item)}` : quote}입니다. 반박 대상과 같은 기간·같은 사업·같은 기준의 자료입니까?${d.itemAgainst ? ' 더구나 이 자료는 반대 방향으로 분류되어 있는데, 이렇게 읽을 수 있습니까?' : ''}`;
    case 'credibility':
      if (!d.item) return `${quote}의 근거는 누가 발표한 것입니까? 이 단계가 확인할 수 있는 인용이 없습니다.`;
      return `${name(d.item, 36, false)}${ref(d.item)}의 발표 주체는 누구이며, 회사로부터 얼마나 독립적입니까?${d.sourceKind === 'news' ? ' 언론 보도 한 건이라면 공시로 확인되었습니까?' : d.sourceKind === 'transcript' ? ' 경영진의 발언이라면 외부 검증이 있습니까?' : d.sourceKind === 'filing' ? ' 회사 자체 공시라면 감사인이나 규제기관이 확인했습니까?' : ''}`;
    case 'testability':
      return `어떤 자료가 나오면 ${josa(quote, '이')} 틀렸다고 인정하겠습니까? ${josa(falsifier, '이')} 확인되면 충분합니까?`;
    case 'gap':
      return `${quote}${d.item ? ref(d.item) : ''}에서 상환 능력 저하까지 이어지는 연결 고리는 무엇입니까? 자료에서 현금흐름으로 넘어가는 단계가 빠져 있습니다.`;
    case 'omitted':
      return d.counter
        ? `${josa(quote, '은')} 같은 요인(${l})의 다른 자료를 고려하지 않았습니다: ${name(d.counter, 36, false)}${ref(d.counter)}. 이 자료가 해석을 바꾸지 않는 이유는 무엇입니까?`
        : `${josa(quote, '을')} 그렇게 읽기 전에 규모·시기·상쇄 요인 같은 다른 변수를 고려했습니까?`;
    case 'contradiction':
      return d.counter && d.item
        ? `${josa(quote, '은')} ${d.item.date} 자료에 기대지만, 같은 요인에서 반대 방향을 가리키는 자료가 있습니다: ${name(d.counter, 36, false)}${ref(d.counter)}. 둘 중 어느 쪽이 맞으며, 그 이유는 무엇입니까?`
        : `${josa(quote, '은')} 인용한 자료가 기록한 것 이상을 주장하고 있지 않습니까? 자료와 결론이 어긋나는 지점에서 심사위원회는 어느 쪽을 믿어야 합니까?`;
    default:
      return `${quote}에서 가장 약한 고리는 무엇이며, 어떤 자료가 나오면 무너집니까?`;
  }
}

export const PHRASES_KO: Phrases = {
  lang: 'ko',
  label,
  company: (c) => displayName(c.name),
  ref,
  quote: q,
  name: (i) => name(i),
  side: sideNoun,

  core: (co, side) =>
    side === 'favorable'
      ? `핵심 주장: 비재무 근거로 볼 때 ${co}의 상환 능력은 유지되고 개선될 것이다.`
      : `핵심 주장: 비재무 근거로 볼 때 ${co}의 상환 능력에는 위험이 있다.`,
  claim: (p: Pick, side, w) => {
    const l = label(p.item.factor);
    const it = `${name(p.item)}${ref(p.item)}`;
    switch (p.mode) {
      case 'context':
        return `${l}: 해석이 갈리는 자료 ${it} — ${sideNoun(side)}에서 보면 ${reading(side, w)}. 단, ${side === 'favorable' ? w.favAssumption : w.advAssumption}는 전제가 필요하다.`;
      case 'reuse':
        return `${l}(다른 자료로 한 번 더): ${it}. ${reading(side, w)}.`;
      case 'crossed':
        return `${l}(상대편이 이미 다룬 요인이지만 남은 새 요인이 없어 다시 다룬다): ${it}. ${reading(side, w)}.`;
      case 'reread':
        return `${l}: ${it} — ${sideAdj(side === 'favorable' ? 'adverse' : 'favorable')} 자료로 분류되지만 달리 읽을 수 있다. ${side === 'favorable' ? w.advAlternative : w.favChallenge}.`;
      default:
        return `${l}: ${it}. ${reading(side, w)}.`;
    }
  },
  line: (i, p, repeat, bare) =>
    `${marker(i, 'ko')} ${repeat ? '' : `${label(p.item.factor)}${p.mode === 'context' ? '(해석이 갈리는 자료)' : ''}: `}${name(p.item, 30, false)}${bare ? `(${p.item.date}${p.item.stale ? ', 최근성 기간 밖' : ''})` : ref(p.item)}.`,
  sourceNote: (source) => `출처는 모두 ${source}이다.`,
  reading: (p, side, w) => `${p.mode === 'reread' ? (side === 'favorable' ? w.advAlternative : w.favChallenge) : reading(side, w)}.`,
  assumption: (p, side, w) => {
    if (p.mode === 'reread') return `${side === 'favorable' ? w.advAssumption : w.favAssumption}는 전제가 성립하지 않아야 이 해석이 유지된다.`;
    const a = `${side === 'favorable' ? w.favAssumption : w.advAssumption}.`;
    return p.mode === 'context' ? `${a} 자료 자체는 양쪽으로 읽힐 수 있다.` : a;
  },
  falsifiability: (list) =>
    list.length > 1
      ? `반증 조건: ${list.map((x) => `${x.falsifier}(${label(x.factor)})`).join(', ')} 가운데 하나라도 더 최근 자료로 확인되면 핵심 주장은 무너진다.`
      : `반증 조건: ${josa(list[0]?.falsifier ?? '반대 자료', '이')} 더 최근 자료로 확인되면 핵심 주장은 무너진다.`,
  assumptionsLine: (list) => `전제: ${list.join(' ')}`,
  staleNote: (n, days) => `인용 자료 중 ${n}건은 최근성 기간(${days}일)을 벗어난 오래된 자료이므로 비중을 낮춰 읽어야 한다.`,
  reuseNote: (labels, times) => `${labels.join('·')} 요인은 서로 다른 자료로 ${times}번 사용했다.`,
  freshNote: (step, labels) => `${step}에서 이미 다룬 요인(${labels.join('·')})은 쓰지 않았다.`,
  crossedNote: (labels, thin) =>
    `${thin ? '근거가 빈약하다: ' : ''}이미 다룬 요인 밖의 자료가 풀에 없어, ${labels.join('·')} 요인을 다른 자료나 다른 해석으로 다시 다룬다.`,
  thinNote: ({ given, found, wanted, factors, side, reread }) => {
    if (given === 0) return `근거가 빈약하다: 이 단계에 주어진 자료가 없어 인용할 ${sideAdj(side)} 신호가 없다.`;
    if (reread) return `근거가 빈약하다: 풀의 자료는 ${given}건뿐이고 ${sideAdj(side)}으로 읽히는 자료는 없어, 그 자료를 달리 읽는 것이 유일한 근거다.`;
    if (found < wanted) return `근거가 빈약하다: 풀의 자료 ${given}건으로는 온전한 논증에 필요한 ${sideAdj(side)} 신호 ${wanted}개 중 ${found}개만 확인된다.`;
    return `근거가 빈약하다: ${sideAdj(side)} 자료가 ${factors}개 요인에만 걸쳐 있어, 같은 요인을 서로 다른 자료로 다시 썼다.`;
  },
  crossHeader: (step, labels, count) => `${step} 반대신문 — ${labels.join('·')}에 관한 질문 ${count}개.`,
  question,
  raisesCounter: (text) => /반대 방향을 가리키는 자료가|다른 자료를 고려하지 않았습니다/.test(text),
  noClaimQuestion: (step) => `${josa(step, '은')} 근거를 인용한 주장을 내놓지 않았습니다. 그 입장은 어떤 자료에 기대며, 무엇이 나오면 반증됩니까?`,

  rebuttalHeader: (step) => `${step}에 대한 반박:`,
  rebuttal: (d) => {
    const it = `${name(d.item)}${ref(d.item)}`;
    if (d.mode === 'counter')
      return `${d.step}의 ${q(d.quote)}에 대해: 같은 요인(${label(d.factor)})에서 반대 방향의 자료가 있다. ${it}. ${reading(d.side, d.words)}.`;
    const alt = rereading(d);
    if (d.mode === 'context') return `${d.step}의 ${q(d.quote)}에 대해: ${it} — 이 자료는 ${josa(label(d.factor), '을')} 다른 맥락에 놓는다. ${alt}.`;
    if (d.tagged) return `${d.step}의 근거 ${it} 자체가 ${sideAdj(d.side)} 자료로 분류되어 있다. ${alt}.`;
    return `${d.step}의 근거 ${it} 자체도 달리 읽을 수 있다. ${alt}.`;
  },
  rebuttalLine: (i, d, short) =>
    d.mode === 'reinterpret'
      ? `${marker(i, 'ko')} ${label(d.factor)} — 재해석(${d.item.date}): ${stop(short ? shorten(rereading(d), 48) : rereading(d))}`
      : `${marker(i, 'ko')} ${label(d.factor)} — ${d.mode === 'counter' ? '반대 증거' : '맥락'}: ${name(d.item, 26, false)}${ref(d.item)}.`,
  nothingToRebut: (step) => `${josa(step, '은')} 이 단계가 볼 수 있는 근거를 인용하지 않아 반박할 대상이 없다.`,

  closingHeader: (co, side) =>
    side === 'favorable' ? `찬성 측 최종 변론: ${co}의 상환 능력은 유지된다.` : `반대 측 최종 변론: ${co}의 상환 능력에는 여전히 위험이 있다.`,
  closingBasis: (list) =>
    `논거는 ${byDate(list)
      .map(([date, stale, factors]) => `${factors.map(label).join('·')}(${date}${stale ? ', 오래된 자료' : ''})`)
      .join(', ')}에 기반한다.`,
  answer: (d) => {
    const falsifier = d.side === 'favorable' ? d.words.favFalsifier : d.words.advFalsifier;
    const it = d.item ? `${name(d.item, 30)}${ref(d.item)}` : '인용 자료';
    switch (d.kind) {
      case 'interpretation':
        return `전제는 이미 밝혔다. ${stop(d.assumption ?? (d.side === 'favorable' ? d.words.favAssumption : d.words.advAssumption))} ${josa(falsifier, '이')} 확인되지 않는 한 이 해석은 유지된다.`;
      case 'reliability':
      case 'credibility':
        return d.item
          ? `근거는 ${d.item.date}의 ${KIND_KO[sourceKind(d.item)]} 자료${d.item.stale ? '로서 최근성 기간 밖이므로, 현재 신호가 아니라 배경 자료로 무게를 낮춰 읽는다' : '이며, 자료가 기록한 범위 안에서만 사용했다'}.`
          : '인용한 출처가 말하는 범위 안에서만 사용했다.';
      case 'counterexample':
      case 'contradiction':
      case 'omitted':
        return `반대 자료는 주장의 범위를 좁힐 뿐 뒤집지는 않는다. ${josa(falsifier, '이')} 확인될 때에만 주장이 무너진다.`;
      case 'alternative':
        return `다른 설명도 가능하지만, 그 설명은 ${d.item ? `${d.item.date} 자료` : '인용 자료'}의 기록까지 설명해야 한다. ${josa(falsifier, '이')} 나오기 전까지 이 해석은 유지된다.`;
      case 'boundary':
        return `주장은 ${d.item ? `${d.item.date} 자료(${shortSource(d.item.source)})` : '인용 자료'}가 기록한 범위로 한정되며, 그 이상으로 넓히지 않는다.`;
      case 'measurement':
        return `측정 기준은 ${d.item ? `${d.item.date} 자료(${shortSource(d.item.source)})에` : '출처에'} 보고된 그대로다${d.item && showValue(d.item) ? `(${showValue(d.item)})` : ''}. 다른 측정치는 주장하지 않는다.`;
      case 'gap':
        return `상환과의 연결은 지침의 ${label(d.factor)} 해석에 따른다. ${d.side === 'favorable' ? d.words.favReading : d.words.advReading}.`;
      case 'testability':
        return `${josa(falsifier, '이')} 확인되면 이 주장은 반증된다.`;
      case 'consistency':
        return '반박과 그 대상은 같은 요인을 다루며, 두 자료의 날짜를 밝혀 기간의 차이가 드러나게 했다.';
      default:
        return `이 논점은 ${it}에 근거한다.`;
    }
  },
  answerLine: (_i, qid, answer) => `${qid}에 대한 답: ${answer}`,
  // 항목은 처음 논증할 때 인용되었으므로, 판단을 유지하는 최종 변론은 날짜만 밝힌다.
  standing: (factor, item, w, side) =>
    `${label(factor)}: ${item ? `${item.date} 자료의 신호는 유지된다` : '앞서 제시한 신호는 유지된다'}. ${reading(side, w)}.`,
  pressed: (step, count, labels) =>
    `${step}에서 ${labels.length ? `${labels.join('·')}에 대해` : '상대편에게'} 던진 질문 ${count}개는 이 기록 안에서 아직 답을 얻지 못했다.`,
  uncertain: ({ stale, challenged, thin }) => {
    const parts = [
      stale ? `최근성 기간 밖의 인용 자료 ${stale}건` : '',
      challenged ? `질문을 받은 신호 ${challenged}개` : '',
      thin ? '빈약한 근거' : '',
    ].filter(Boolean);
    return parts.length ? `아직 불확실한 점: ${parts.join(', ')}.` : '이 기록 안에서 신호를 반박한 자료는 없지만, 더 최근 자료로 검증된 것은 아니다.';
  },
  noMaterial: (side) => `맥락에 인용된 ${sideNoun(side)} 주장이 없어 입장만 다시 밝힌다. 새 자료는 더하지 않는다.`,

  objective: (co, asOf) => `${asOf} 기준 비재무 근거로 ${co}의 대출 상환 능력을 평가한다.`,
  overview: ({ company, items, sources, from, to, stale, poolOnly, thin, readings }) =>
    [
      `${displayName(company.name)}${company.industry ? ` — ${company.industry}` : ''}.`,
      readings && readings.favorable.length + readings.adverse.length + readings.contested.length
        ? `토론에서 다룬 요인 ${readings.favorable.length + readings.adverse.length + readings.contested.length}개 — ${[
            readings.favorable.length ? `상환에 유리: ${lastOther(readings.favorable).map(label).join('·')}` : '',
            readings.adverse.length ? `불리: ${lastOther(readings.adverse).map(label).join('·')}` : '',
            readings.contested.length ? `양측이 맞섬: ${lastOther(readings.contested).map(label).join('·')}` : '',
          ]
            .filter(Boolean)
            .join('; ')}.`
        : '',
      items
        ? `인용된 근거는 ${sources}개 출처의 자료 ${items}건(${from === to ? from : `${from}~${to}`})${stale ? `이며, 이 중 ${stale}건은 최근성 기간 밖이다` : '이다'}.`
        : '인용된 근거가 없다: 기준일 현재 풀에 이 차주의 자료가 없다.',
      thin ? '근거가 빈약하므로 이 보고서는 잠정적으로 읽어야 한다.' : '',
      poolOnly ? '웹 검색 결과 없이 지식 풀의 자료만으로 작성했다.' : '',
    ]
      .filter(Boolean)
      .join(' '),
  topicName: (factor, date, split) => (split && date ? `${label(factor)} (${date})` : label(factor)),
  summaryLine: (factor, text, date) => `${label(factor)}(${date || '날짜 없음'}): ${text}`,
  asked: (step, text) => `${step} 질문: ${text}`,
  kept: (step) => `${step}에서 이 판단을 유지했다.`,
  questioned: (step, kind) => `${step} 질의: ${QUESTION_FOCUS_KO[kind ?? 'challenge'] ?? QUESTION_FOCUS_KO.challenge}.`,
  chain: ({ item, side, words, more, context }) => {
    const falsifier = side === 'favorable' ? words.favFalsifier : words.advFalsifier;
    const also = more.length ? `; 함께 볼 자료: ${more.map((m) => `${name(m, 30)}${ref(m)}`).join('; ')}` : '';
    return `주장: ${context ? '해석이 갈리는 자료이나, ' : ''}${reading(side, words)}. 근거: ${name(item)}${ref(item)}${also}. 시사점: 상환 능력에 ${sideAdj(side)}이며, ${josa(falsifier, '이')} 확인되면 해석이 바뀐다.`;
  },
};

const QUESTION_FOCUS_KO: Record<QuestionKind, string> = {
  interpretation: '증거 해석의 타당성',
  reliability: '출처의 신뢰성과 독립성',
  counterexample: '반대 방향의 날짜 있는 반례',
  alternative: '신호의 다른 설명 가능성',
  boundary: '위험이 상환에 미치는 조건',
  measurement: '지표가 주장하는 바를 측정하는지',
  consistency: '답변과 주장의 기간·지표 일치 여부',
  credibility: '출처의 신빙성',
  testability: '주장을 철회하게 할 증거',
  gap: '해당 항목에서 현금흐름까지의 연결 고리',
  omitted: '해석에서 빠진 증거',
  contradiction: '다른 날짜 증거와의 모순',
  challenge: '주장의 근거',
};
