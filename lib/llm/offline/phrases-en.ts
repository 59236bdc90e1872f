// English sentences of the debate and its reports. Impersonal, in the register of a credit
// memo: the offline analyst speaks as a role (affirmative, negative), never as a person.
import { factorLabel } from './lexicon';
import { hasHangul, shorten, shortSource, shortTitle, showValue, sourceKind, type Item } from './material';
import { byDate, capitalize, displayName, poss, rereading, stop, type Phrases, type QuestionData, type QuestionKind } from './phrases';
import type { Pick, Side } from './select';
import { listJoin } from './text';

const STALE = 'older than the recency window';
const and = (items: string[]) => listJoin(items, 'en');
const label = (f: string) => factorLabel('en', f);
/** "(source, date)", with the stale mark when the item is older than the recency window. */
const ref = (i: Item) => `(${shortSource(i.source)}, ${i.date}${i.stale ? `, ${STALE}` : ''})`;

/** A quotation; Korean words quoted in English prose are marked as Korean source text. */
const kq = (t: string) => `“${t}”${hasHangul(t) ? ' (Korean source)' : ''}`;

const name = (i: Item, max = 64, withValue = true) => {
  const v = withValue ? showValue(i) : null;
  return `${kq(shortTitle(i, max))}${v ? ` (${v})` : ''}`;
};

/** Which way the debate read each factor it argued, in one sentence. */
function readingsLine(readings?: { favorable: string[]; adverse: string[]; contested: string[] }): string {
  if (!readings) return '';
  const word = (f: string) => (f === 'other' ? 'evidence outside the guideline factors' : label(f).charAt(0).toLowerCase() + label(f).slice(1));
  // Evidence outside the ten factors last: it is not a factor of the guideline.
  const names = (factors: string[]) => and([...factors.filter((f) => f !== 'other'), ...factors.filter((f) => f === 'other')].map(word));
  const n = readings.favorable.length + readings.adverse.length + readings.contested.length;
  const parts = [
    readings.favorable.length ? `for repayment on ${names(readings.favorable)}` : '',
    readings.adverse.length ? `against it on ${names(readings.adverse)}` : '',
    readings.contested.length ? `both ways on ${names(readings.contested)}` : '',
  ].filter(Boolean);
  return n ? `The debate argued ${n} factor${n === 1 ? '' : 's'}: ${parts.join('; ')}.` : '';
}

const lowerFirst = (t: string) => (/^[A-Z][a-z]/.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t);
const sideNoun = (s: Side) => (s === 'favorable' ? 'affirmative' : 'negative');
const reading = (s: Side, w: { favReading: string; advReading: string }) => (s === 'favorable' ? w.favReading : w.advReading);

function reliability(d: QuestionData): string {
  const q = kq(d.quote);
  if (!d.item) return `What is the source and date behind ${q}? It cannot be traced to the evidence this step holds.`;
  if (d.item.stale)
    return `${q} rests on ${ref(d.item)}, which is older than the ${d.recencyDays}-day recency window. What shows it still holds as of ${d.asOf}?`;
  switch (d.sourceKind) {
    case 'news':
      return `${q} rests on a single press report ${ref(d.item)}. Is it confirmed by a filing or another independent source?`;
    case 'transcript':
      return `${q} rests on management's own words on a call ${ref(d.item)}. What independent record confirms them?`;
    case 'registry':
      return `${q} is a registry record ${ref(d.item)}. Does the right it records sit in products that earn revenue?`;
    default:
      return `${q} is the company's own disclosure ${ref(d.item)}. Has anyone independent — an auditor, a regulator, a counterparty — confirmed it?`;
  }
}

function question(d: QuestionData): string {
  const q = kq(d.quote);
  const l = label(d.factor);
  const falsifier = d.against === 'favorable' ? d.words.favFalsifier : d.words.advFalsifier;
  switch (d.kind) {
    case 'interpretation':
      if (d.itemAgainst) {
        return `${d.step} reads ${q} as ${d.against === 'favorable' ? 'favorable' : 'a risk'}, but the item itself is tagged the other way: ${d.against === 'favorable' ? d.words.advReading : d.words.favReading}. Why should the committee read it as ${d.step} does?`;
      }
      return d.against === 'favorable'
        ? `${d.step} reads ${q} as a favorable signal on ${l}. But ${d.words.favChallenge}. What shows this item bears on repayment the way ${d.step} says?`
        : `${d.step} reads ${q} as a risk on ${l}. But ${d.words.advAlternative}. What makes it a risk to repayment rather than noise?`;
    case 'reliability':
      return reliability(d);
    case 'counterexample':
      return d.counter
        ? `Against ${q}, the pool holds ${name(d.counter, 56, false)} ${ref(d.counter)}, which points the other way on ${l}. How does the claim survive it?`
        : `No contrary item on ${l} is in the pool — but what would make ${d.step} withdraw ${q}? Would ${falsifier} do it?`;
    case 'alternative':
      return d.against === 'adverse'
        ? `Could ${q} not have a harmless cause — ${d.words.advAlternative}? What rules that out?`
        : `Could ${q} not have a less favorable explanation — ${d.words.favChallenge}?`;
    case 'boundary':
      return `Under which conditions — business line, size, period — would ${q} actually hurt repayment?${d.item ? ` The item is dated ${d.item.date}; what shows those conditions still hold as of ${d.asOf}?` : ''}`;
    case 'measurement':
      return d.item && showValue(d.item)
        ? `${q} gives ${showValue(d.item)}. What exactly does that figure measure — a risk to repayment, or only activity?`
        : `${q} gives no figure. How large is the effect on cash flow, and how would it be measured?`;
    case 'consistency':
      return `${d.step} answers with ${d.item ? `${name(d.item, 56, false)} ${ref(d.item)}` : q}. Does it concern the same period, business and measure as the claim it rebuts?${d.itemAgainst ? ' The item itself is tagged the other way; can it carry this reading?' : ''}`;
    case 'credibility':
      if (!d.item) return `Who stands behind ${q}? It cites nothing this step can trace.`;
      return `Who published ${name(d.item, 56, false)} ${ref(d.item)}, and how independent is it of the company?${d.sourceKind === 'news' ? ' A single press report: is it confirmed by a filing?' : d.sourceKind === 'transcript' ? ' These are management’s own words: what confirms them?' : d.sourceKind === 'filing' ? ' It is the company’s own filing: has an auditor or regulator confirmed it?' : ''}`;
    case 'testability':
      return `What evidence would make ${d.step} accept that ${q} is wrong? Would ${falsifier} be enough?`;
    case 'gap':
      return `${q}${d.item ? ` ${ref(d.item)}` : ''}: how does this lead to a lower capacity to repay? The step from the item to cash flow is missing.`;
    case 'omitted':
      return d.counter
        ? `${q} leaves out ${name(d.counter, 56, false)} ${ref(d.counter)} on the same factor. Why does it not change the reading?`
        : `Which other variable — size, timing, offsetting strengths — did ${d.step} weigh before reading ${q} as it does?`;
    case 'contradiction':
      return d.counter && d.item
        ? `${q} rests on an item dated ${d.item.date}, yet ${name(d.counter, 56, false)} ${ref(d.counter)} on the same factor points the other way. Which one holds, and why?`
        : `Does ${q} claim more than its evidence records? Where the item and the conclusion part ways, which one should the committee believe?`;
    default:
      return `What is the weakest link in ${q}, and what evidence would break it?`;
  }
}

export const PHRASES_EN: Phrases = {
  lang: 'en',
  label,
  company: (c) => displayName(c.nameEn ?? c.name),
  ref,
  quote: kq,
  name: (i) => name(i),
  side: sideNoun,

  core: (co, side) =>
    side === 'favorable' ? `Core claim: ${poss(co)} capacity to repay will hold up and improve.` : `Core claim: ${poss(co)} capacity to repay is at risk.`,
  claim: (p: Pick, side, w) => {
    const l = label(p.item.factor);
    const it = `${name(p.item)} ${ref(p.item)}`;
    switch (p.mode) {
      case 'context':
        return `${l}: ${it} is context-dependent; read for the ${sideNoun(side)}, ${reading(side, w)}, provided that ${side === 'favorable' ? w.favAssumption : w.advAssumption}.`;
      case 'reuse':
        return `${l}, again with different evidence: ${it} — ${reading(side, w)}.`;
      case 'crossed':
        return `${l} (already argued by the other side; no fresh factor is left in the pool): ${it} — ${reading(side, w)}.`;
      case 'reread':
        return `${l}: ${it} is tagged ${side === 'favorable' ? 'adverse' : 'favorable'}, but it reads differently: ${side === 'favorable' ? w.advAlternative : w.favChallenge}.`;
      default:
        return `${l}: ${it} — ${reading(side, w)}.`;
    }
  },
  line: (i, p, repeat, bare) =>
    `(${i + 1}) ${repeat ? '' : `${label(p.item.factor)}${p.mode === 'context' ? ' (context-dependent)' : ''}: `}${name(p.item, 44, false)} ${bare ? `(${p.item.date}${p.item.stale ? ', stale' : ''})` : ref(p.item)}.`,
  sourceNote: (source) => (hasHangul(source) ? `All from “${source}” (Korean source).` : `All from ${source}.`),
  reading: (p, side, w) =>
    p.mode === 'reread' ? capitalize(`${side === 'favorable' ? w.advAlternative : w.favChallenge}.`) : capitalize(`${reading(side, w)}.`),
  assumption: (p, side, w) => {
    if (p.mode === 'reread') return `This reading holds only if it is not the case that ${side === 'favorable' ? w.advAssumption : w.favAssumption}.`;
    const a = capitalize(`${side === 'favorable' ? w.favAssumption : w.advAssumption}.`);
    return p.mode === 'context' ? `${a} The item itself can be read either way.` : a;
  },
  falsifiability: (list) =>
    `Refuted by newer evidence of ${list.map((x) => (list.length > 1 ? `${x.falsifier} (${label(x.factor).toLowerCase()})` : x.falsifier)).join('; or ')}.`,
  assumptionsLine: (list) => `Assumptions: ${list.join(' ')}`,
  staleNote: (n, days) =>
    `${n === 1 ? 'One cited item is' : `${n} cited items are`} older than the ${days}-day recency window and ${n === 1 ? 'weighs' : 'weigh'} less.`,
  reuseNote: (labels, times) =>
    `${and(labels)} ${labels.length === 1 ? 'is' : 'are'} used ${times === 2 ? 'twice' : `${times} times`}, each time with different evidence.`,
  freshNote: (step, labels) => `Factors already argued in ${step} (${and(labels)}) are left aside.`,
  crossedNote: (labels, thin) =>
    `${thin ? 'Evidence is thin: no' : 'No'} fresh factor is left, so ${and(labels.map((l) => l.toLowerCase()))} ${labels.length === 1 ? 'is' : 'are'} argued again.`,
  thinNote: ({ given, found, wanted, factors, side, reread }) => {
    if (given === 0) return `Evidence is thin: this step was given no evidence, so no ${side} signal can be cited.`;
    if (reread)
      return `Evidence is thin: the pool holds ${given} item${given === 1 ? '' : 's'} and none reads ${side}; the only ${side} case is a different reading of ${given === 1 ? 'that record' : 'those records'}.`;
    if (found < wanted)
      return `Evidence is thin: the pool (${given} item${given === 1 ? '' : 's'}) supports only ${found} of the ${wanted} ${side} signals a full case needs.`;
    return `Evidence is thin: the ${side} items cover ${factors === 1 ? 'one factor only' : `only ${factors} factors`}, reused here with different evidence.`;
  },
  crossHeader: (step, labels, count) => `Cross-examination of ${step}: ${count} question${count === 1 ? '' : 's'} on ${and(labels)}.`,
  question,
  raisesCounter: (text) => /which points the other way on|leaves out “|on the same factor points the other way/.test(text),
  noClaimQuestion: (step) => `${step} made no claim with cited evidence. What evidence does its position rest on, and what would refute it?`,

  rebuttalHeader: (step) => `Rebuttal of ${step}:`,
  rebuttal: (d) => {
    const it = `${name(d.item)} ${ref(d.item)}`;
    if (d.mode === 'counter') return `Against ${d.step}'s ${kq(d.quote)}: ${it} points the other way on ${label(d.factor)} — ${reading(d.side, d.words)}.`;
    const alt = rereading(d);
    if (d.mode === 'context') return `Against ${d.step}'s ${kq(d.quote)}: ${it} puts ${label(d.factor)} in context — ${alt}.`;
    if (d.tagged) return `${d.step}'s own evidence, ${it}, is itself tagged ${d.side}: ${alt}.`;
    return `${d.step}'s own evidence, ${it}, reads differently: ${alt}.`;
  },
  rebuttalLine: (i, d, short) =>
    d.mode === 'reinterpret'
      ? `(${i + 1}) ${label(d.factor)} — read differently (${d.item.date}): ${stop(short ? shorten(rereading(d), 60) : rereading(d))}`
      : `(${i + 1}) ${label(d.factor)} — ${d.mode === 'counter' ? 'counter-evidence' : 'context'}: ${name(d.item, 36, false)} ${ref(d.item)}.`,
  nothingToRebut: (step) => `${step} cites no evidence this step can see, so there is nothing to set against it.`,

  closingHeader: (co, side) =>
    side === 'favorable' ? `Affirmative closing: ${poss(co)} capacity to repay holds up.` : `Negative closing: ${poss(co)} capacity to repay remains at risk.`,
  closingBasis: (list) =>
    `The case rests on ${and(byDate(list).map(([date, stale, factors]) => `${and(factors.map((f) => label(f).toLowerCase()))} (${date}${stale ? ', stale' : ''})`))}.`,
  answer: (d) => {
    const falsifier = d.side === 'favorable' ? d.words.favFalsifier : d.words.advFalsifier;
    const it = d.item ? `${name(d.item, 48)} ${ref(d.item)}` : 'the cited item';
    switch (d.kind) {
      case 'interpretation':
        return `the reading rests on its stated assumption (${lowerFirst((d.assumption ?? (d.side === 'favorable' ? d.words.favAssumption : d.words.advAssumption)).replace(/\.$/, '').replace(/\.\s+/g, '; '))}) and stands unless the record shows ${falsifier}.`;
      case 'reliability':
      case 'credibility':
        return d.item
          ? `the item is ${KIND_EN[sourceKind(d.item)]} dated ${d.item.date}${d.item.stale ? ', older than the window, so it is weighed as background rather than as a current signal' : ', used only for what it records'}.`
          : 'the point is used only as far as its cited source goes.';
      case 'counterexample':
      case 'contradiction':
      case 'omitted':
        return `a contrary item narrows the claim but does not reverse it; only ${falsifier} would.`;
      case 'alternative':
        return `another explanation is possible, but it has to account for ${d.item ? `the ${d.item.date} item` : 'the cited item'}; until the record shows ${falsifier}, the reading stands.`;
      case 'boundary':
        return `the claim covers what ${d.item ? `the ${d.item.date} item (${shortSource(d.item.source)})` : 'its evidence'} records, not more.`;
      case 'measurement':
        return `the measure is the one ${d.item ? `the ${d.item.date} item (${shortSource(d.item.source)})` : 'the source'} reports${d.item && showValue(d.item) ? ` (${showValue(d.item)})` : ''}; no other measure is claimed.`;
      case 'gap':
        return `the link to repayment is the guideline's reading of ${label(d.factor)}: ${d.side === 'favorable' ? d.words.favReading : d.words.advReading}.`;
      case 'testability':
        return `${falsifier} would refute it.`;
      case 'consistency':
        return 'the rebuttal and the claim it answers concern the same factor, and both dates are given so the difference in period is visible.';
      default:
        return `the point stands on ${it}.`;
    }
  },
  answerLine: (_i, qid, answer) => `To ${qid}: ${answer}`,
  // The item was quoted when it was argued; a closing that keeps the reading names its date only.
  standing: (factor, item, w, side) => `${label(factor)} stands${item ? ` on the item of ${item.date}` : ' as argued'} — ${reading(side, w)}.`,
  pressed: (step, count, labels) =>
    `${step} pressed the other side${labels.length ? ` on ${and(labels)}` : ''}; ${count === 1 ? 'that question is' : `those ${count} questions are`} still open in this record.`,
  uncertain: ({ stale, challenged, thin }) => {
    const parts = [
      stale ? `${stale} cited item${stale === 1 ? ' is' : 's are'} older than the recency window` : '',
      challenged ? `${challenged} signal${challenged === 1 ? ' was' : 's were'} questioned` : '',
      thin ? 'the evidence base is thin' : '',
    ].filter(Boolean);
    return parts.length ? `Still uncertain: ${and(parts)}.` : 'Nothing in this record refutes the signals, but they are not yet tested against newer evidence.';
  },
  noMaterial: (side) => `The context holds no cited ${sideNoun(side)} claim, so this closing can only restate the position; nothing new may be added.`,

  objective: (co, asOf) => `Assess ${poss(co)} capacity to repay its loans from non-financial evidence, as of ${asOf}.`,
  overview: ({ company, items, sources, from, to, stale, poolOnly, thin, readings }) =>
    [
      `${displayName(company.nameEn ?? company.name)}${company.industry ? ` — ${company.industry}` : ''}.`,
      readingsLine(readings),
      items
        ? `The analysis cites ${items} evidence item${items === 1 ? '' : 's'} from ${sources} source${sources === 1 ? '' : 's'}, dated ${from === to ? from : `${from} to ${to}`}${stale ? `; ${stale} ${stale === 1 ? 'is' : 'are'} older than the recency window` : ''}.`
        : 'No evidence was cited: the pool holds nothing on this borrower as of the date.',
      thin ? 'Evidence is thin, so the report should be read as provisional.' : '',
      poolOnly ? 'No web results were used: the report rests on the knowledge pool alone.' : '',
    ]
      .filter(Boolean)
      .join(' '),
  topicName: (factor, date, split) => (split && date ? `${label(factor)} (${date})` : label(factor)),
  summaryLine: (factor, text, date) => `${label(factor)} (${date || 'undated'}): ${text}`,
  asked: (step, text) => `Questioned in ${step}: ${text}`,
  kept: (step) => `${step} kept it.`,
  questioned: (step, kind) => `${step} questioned ${QUESTION_FOCUS_EN[kind ?? 'challenge'] ?? QUESTION_FOCUS_EN.challenge}.`,
  chain: ({ item, side, words, more, context }) => {
    const falsifier = side === 'favorable' ? words.favFalsifier : words.advFalsifier;
    const also = more.length ? `; also ${more.map((m) => `${name(m, 48)} ${ref(m)}`).join('; ')}` : '';
    return `Claim: ${context ? 'context-dependent — ' : ''}${reading(side, words)}. Evidence: ${name(item)} ${ref(item)}${also}. Implication: ${side === 'favorable' ? 'supports' : 'weighs on'} repayment; the reading would change on ${falsifier}.`;
  },
};

const KIND_EN = {
  filing: 'a company filing',
  news: 'a press report',
  transcript: 'an earnings-call statement',
  registry: 'a registry record',
  other: 'a record',
} as const;

const QUESTION_FOCUS_EN: Record<QuestionKind, string> = {
  interpretation: 'whether the evidence says what the claim reads into it',
  reliability: 'how reliable and independent the source is',
  counterexample: 'it with dated evidence pointing the other way',
  alternative: 'whether the signal has a harmless explanation',
  boundary: 'under which conditions the risk would reach repayment',
  measurement: 'whether the indicator measures what the claim says',
  consistency: 'whether the answer matches the period and measure of the claim',
  credibility: 'the credibility of the source',
  testability: 'what evidence would make the side give the point up',
  gap: 'the missing step from the item to cash flow',
  omitted: 'evidence the reading leaves out',
  contradiction: 'a contradiction with other dated evidence',
  challenge: 'the claim',
};
