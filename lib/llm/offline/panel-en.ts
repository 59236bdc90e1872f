// English sentences for briefings, SAS, the three-round debate and FinDebate.
import type { SpecialistFocus } from '@/lib/domain/protocol';
import { horizonCode, type Horizon } from '@/lib/domain/outputs';
import { factorLabel } from './lexicon';
import type { Item } from './material';
import type { Panel, Standing } from './panel-types';
import { capitalize, poss, stop } from './phrases';
import { PHRASES_EN as P } from './phrases-en';
import type { Side } from './select';
import { listJoin } from './text';

const HORIZON_WORDS: Record<Horizon, string> = { '12m': '12 months', '24m': '2 years', '36m': '3 years' };
/** A horizon as a reader says it: its code's words, or an older run's label as it is. */
const HORIZON_EN = (h: string) => {
  const code = horizonCode(h);
  return code ? HORIZON_WORDS[code] : h;
};

const and = (items: string[]) => listJoin(items, 'en');
const label = (f: string) => factorLabel('en', f);
const lower = (f: string) => (f === 'other' ? 'other matters' : label(f).toLowerCase());
const cite = (i: Item) => `${P.name(i)} ${P.ref(i)}`;
const s = (n: number) => (n === 1 ? '' : 's');
const reading = (side: Side, w: { favReading: string; advReading: string }) => (side === 'favorable' ? w.favReading : w.advReading);
const teamWord = (t: string) => (t === 'affirmative' ? 'affirmative' : t === 'negative' ? 'negative' : 'neutral');

const LANES: Record<SpecialistFocus, string> = {
  figures: 'Factual briefing',
  'management-behaviour': 'Management and behaviour briefing',
  'industry-narrative': 'Market and industry briefing',
  performance: 'Business performance',
  'market-outlook': 'Industry and market outlook',
  'management-sentiment': 'Management and sentiment',
  collateral: 'Collateral and valuation',
  'credit-risk': 'Credit risk',
};

const BALANCE_EN = {
  favorable: 'On balance the factor reads favorably.',
  adverse: 'On balance the factor reads adversely.',
  mixed: 'The factor cuts both ways.',
  context: 'The factor is context-dependent here; it neither supports nor undermines the view on its own.',
} as const;

const ANSWERED: Record<string, string> = {
  refute: 'refuted with counter-evidence',
  challenge: 'challenged as unproven',
  partial: 'partly conceded by the other side',
  concede: 'conceded by the other side',
};

export const PANEL_EN: Panel = {
  laneTitle: (focus) => (focus ? LANES[focus] : 'Briefing'),
  laneNote: (focus) =>
    focus === 'collateral'
      ? 'The material holds no collateral, appraisal or valuation record; the items below are the nearest support (programmes, certifications, rights).'
      : '',
  briefingHeader: (title, n, given) => `${title}: ${n} finding${s(n)} from the ${given} item${s(given)} given, newest first.`,
  figure: (i) => `${label(i.factor)}: ${cite(i)}.`,
  contextFinding: (i, w) =>
    `${label(i.factor)}: ${cite(i)} — context-dependent; it supports repayment only if ${w.favAssumption}, and weighs on it if ${w.advAssumption}.`,
  quoted: (i, words, w, side) =>
    `${label(i.factor)} — in the source's own words: ${P.quote(words)} ${P.ref(i)}. ${i.polarity === 'context' ? `Context-dependent: it supports repayment only if ${w.favAssumption}.` : `${capitalize(reading(side, w))}.`}`,
  silent: (labels) => `The material is silent on ${and(labels.map((l) => l.toLowerCase()))}.`,
  nothingGiven: (title) =>
    `${title}: no evidence or passages were given to this step, so there is nothing to brief; the case must rest on the other briefings.`,
  narrativeIntro: (company, industry, n) =>
    `${company} operates in ${industry ? industry.split(';')[0].trim() : 'an industry the pool does not name'}. ${n} dated point${s(n)} describe its market, newest first.`,
  narrativePoint: (i, w, side) => `On ${lower(i.factor)}, ${cite(i)}${i.polarity === 'context' ? ' reads either way' : ''}: ${reading(side, w)}.`,

  verdict: (step, team, convinced, why) =>
    convinced
      ? `${step} (${teamWord(team)}): convincing — every challenge is answered on dated evidence.`
      : `${step} (${teamWord(team)}): not convincing — ${
          why.unanswered.length
            ? `${and(why.unanswered)} ${why.unanswered.length === 1 ? 'is' : 'are'} left unanswered`
            : why.weak === 'stale'
              ? 'an answer rests only on evidence older than the recency window'
              : why.weak === 'reread'
                ? 'an answer reads an item against its own tag without new evidence'
                : 'it makes no claim that answers the challenges'
        }.`,
  pressUnanswered: (qid, text) => `Follow-up on ${qid}, still unanswered: ${text}`,
  pressEmpty: (step) => `${step} answered nothing with evidence: which dated item supports its case?`,
  nothingToJudge: () => 'No rebuttal is in the record, so there is nothing to judge.',
  noFollowUp: (side) => `No follow-up was put to the ${side === 'favorable' ? 'affirmative' : 'negative'}; its rebuttal stands as given.`,
  cannotAnswer: (qid) => `${qid} aims at a point with no cited evidence; it cannot be answered from the record.`,
  judgment: (winner, aff, neg) => {
    const [w, l] = winner === 'affirmative' ? [aff, neg] : [neg, aff];
    const loser = winner === 'affirmative' ? 'negative' : 'affirmative';
    const tie = aff.score === neg.score;
    return `The ${winner} case held: it rests on ${w.items} distinct dated item${s(w.items)}, ${w.fresh} within the recency window, and answered ${w.answered} challenge${s(w.answered)}, against ${l.items} (${l.fresh} fresh, ${l.answered} answered) for the ${loser}${tie ? '; with equal support the risk case is preferred, as credit practice is conservative' : ''}.`;
  },
  noCaseAssumption: () => 'The conclusion rests on no cited evidence at all.',
  noCaseCritique: () => 'Without dated evidence, any new filing or report could overturn it; the first task is to obtain evidence.',
  assumption: (factor, text) => `${label(factor)} — ${text}`,
  critique: ({ factor, item, counter, challenged, falsifier }) =>
    [
      `It rests on ${item ? cite(item) : 'uncited reasoning'}${item?.stale ? ', which is older than the recency window' : ''}`,
      counter ? `; the pool also holds ${cite(counter)}, which points the other way` : '',
      challenged ? '; this one item is its only support' : '',
      `. It breaks on ${falsifier}; confirming it needs newer evidence on ${lower(factor)}.`,
    ].join(''),
  executive: ({ company, asOf, side, lead, against, items, fresh, thin }) =>
    side === 'favorable'
      ? `As of ${asOf}, ${poss(company)} capacity to repay is supported by the non-financial evidence${lead.length ? `, chiefly ${and(lead.map((l) => l.toLowerCase()))}` : ''}${against.length ? `, while ${and(against.map((l) => l.toLowerCase()))} ${against.length === 1 ? 'remains' : 'remain'} the main concern` : ''}. The view rests on ${items} dated item${s(items)}, ${fresh} of them within the recency window${thin ? '; the evidence base is thin, so the view is provisional' : ''}.`
      : `As of ${asOf}, ${poss(company)} capacity to repay is at risk on the non-financial evidence${lead.length ? `, chiefly on ${and(lead.map((l) => l.toLowerCase()))}` : ''}${against.length ? `; ${and(against.map((l) => l.toLowerCase()))} ${against.length === 1 ? 'offers' : 'offer'} a partial offset` : ''}. The view rests on ${items} dated item${s(items)}, ${fresh} of them within the recency window${thin ? '; the evidence base is thin, so the view is provisional' : ''}.`,
  takeaway: (kind, i, side) =>
    kind === 'lead'
      ? `${label(i.factor)}: ${cite(i)} ${side === 'favorable' ? 'supports' : 'weighs on'} repayment.`
      : `${label(i.factor)}: ${cite(i)} is the strongest item pointing the other way.`,
  staleTakeaway: (stale, total, days) =>
    `${stale} of ${total} items ${stale === 1 ? 'is' : 'are'} older than the ${days}-day recency window; re-check them against current filings before relying on them.`,
  fragileTakeaway: (assumption) => `Most fragile assumption: ${assumption}`,
  thinTakeaway: (n) => `The evidence base is thin (${n} item${s(n)}); treat the view as provisional and request further records.`,
  primaryRisk: (assumption, critique) => `The primary risk is that this assumption fails: ${stop(assumption)} ${critique}`,
  mitigation: (falsifiers, silent) =>
    `${falsifiers.length ? `Monitor for ${falsifiers.map((f) => `${f.text} (${lower(f.factor)})`).join('; ')} — each would reverse the view and should trigger a review.` : 'Obtain dated evidence on the main factors before relying on this view.'}${silent.length ? ` Request evidence on ${and(silent.map((l) => l.toLowerCase()))}, on which the material is silent.` : ''}`,
  outlook: (side, newest, days) =>
    `The newest evidence is dated ${newest}. ${side === 'favorable' ? 'The view should hold while no adverse filing appears' : 'The risk view should stand until newer evidence shows the adverse signals easing'}; re-screen when new filings are published or when the newest item falls outside the ${days}-day recency window.`,
  reviewIntro: (n, from, to) =>
    n
      ? `The review covers ${n} dated item${s(n)}${from ? ` from ${from === to ? from : `${from} to ${to}`}` : ''}, factor by factor, newest first.`
      : 'No dated evidence is available for review.',
  reviewFactor: ({ factor, favorable, adverse, context, words, balance }) =>
    [
      `${label(factor)}.`,
      favorable.length ? `For repayment: ${favorable.map(cite).join('; ')} — ${words.favReading}.` : '',
      adverse.length ? `Against: ${adverse.map(cite).join('; ')} — ${words.advReading}.` : '',
      context.length ? `Context: ${context.map(cite).join('; ')}, which can be read either way.` : '',
      BALANCE_EN[balance],
      balance === 'adverse' ? `What would ease it: ${words.advFalsifier}.` : balance === 'context' ? '' : `What would change it: ${words.favFalsifier}.`,
    ]
      .filter(Boolean)
      .join(' '),

  argsHeader: (side, company, n) =>
    `${side === 'favorable' ? 'Affirmative' : 'Negative'}: ${n} argument${s(n)} that ${poss(company)} capacity to repay ${side === 'favorable' ? 'holds up' : 'is at risk'}.`,
  argClaim: (i, side) => `${label(i.factor)}: the evidence ${side === 'favorable' ? 'supports' : 'weighs on'} repayment — ${cite(i)}.`,
  argReasoning: (p, side, w) => {
    const why = p.mode === 'reread' ? (side === 'favorable' ? w.advAlternative : w.favChallenge) : reading(side, w);
    const note =
      p.mode === 'context' ? ' The item is context-dependent.' : p.mode === 'reuse' ? ' Same factor as an earlier argument, different evidence.' : '';
    return `${capitalize(why)}. It assumes that ${side === 'favorable' ? w.favAssumption : w.advAssumption}, and would fail on ${side === 'favorable' ? w.favFalsifier : w.advFalsifier}.${note}`;
  },
  responsesHeader: (step, n) => `Responses to ${step}: ${n}, one per argument.`,
  responseReasoning: (kind, { factor, theirs, counter, side, words }) => {
    switch (kind) {
      case 'refute':
        return `${counter ? cite(counter) : 'An item'} on ${lower(factor)} points the other way${theirs && counter && counter.date > theirs.date ? ' and is newer' : ''} — ${reading(side, words)}.`;
      case 'challenge':
        return theirs
          ? `The argument rests on ${cite(theirs)}, older than the recency window; it is not shown to hold today.`
          : 'The argument cites nothing that can be traced to the evidence; it is unproven.';
      case 'partial':
        return counter
          ? `${cite(counter)} qualifies the point but does not remove it.`
          : `The point stands as a disclosure, but ${side === 'favorable' ? words.advAlternative : words.favChallenge}.`;
      default:
        return theirs
          ? `The argument stands: ${cite(theirs)} is within the window and nothing in the pool on ${lower(factor)} contradicts it.`
          : 'The argument stands; nothing in the pool contradicts it.';
    }
  },
  responseFollowUp: (kind, { factor }) =>
    kind === 'refute'
      ? `What in your evidence outweighs this item on ${lower(factor)}?`
      : kind === 'challenge'
        ? 'What current evidence shows this still holds as of the assessment date?'
        : kind === 'partial'
          ? 'What would show that the qualified part still matters for repayment?'
          : `Is there newer evidence that would change the reading of ${lower(factor)}?`,
  responseLine: (r) => `${r.targetId} — ${r.kind}: ${r.reasoning} Follow-up: ${r.followUp}`,
  concession: (r, a) => `${r.targetId}${a ? ` (${lower(a.factor)})` : ''}, ${r.kind === 'concede' ? 'conceded' : 'conceded in part'}`,
  finalPosition: (side, company, { standing, refuted, conceded }) =>
    `${poss(company)} capacity to repay ${side === 'favorable' ? 'holds up' : 'remains at risk'}: ${standing} argument${s(standing)} ${standing === 1 ? 'stands' : 'stand'} unrefuted${refuted ? `, ${refuted} ${refuted === 1 ? 'was' : 'were'} refuted` : ''}${conceded ? `, and ${conceded} opposing point${s(conceded)} ${conceded === 1 ? 'is' : 'are'} conceded` : ''}.`,
  closingText: ({ side, concessions, unrebutted, refuted, finalPosition }) =>
    `${side === 'favorable' ? 'Affirmative' : 'Negative'} closing. Conceded: ${concessions.length ? concessions.join('; ') : 'nothing'}. Not rebutted: ${unrebutted.length ? and(unrebutted) : 'none'}.${refuted.length ? ` Refuted: ${and(refuted)}.` : ''} Final position: ${finalPosition}`,
  anecdotal: (i) => `Rests on a single press report ${P.ref(i)} for a factor-level conclusion.`,
  traceNote: (standing: Standing, kind, i) =>
    `${capitalize(kind ? ANSWERED[kind] : 'not answered')}${i ? `; rests on ${P.ref(i)}` : '; no traceable evidence'} (${standing.toLowerCase().replace('_', ' ')}).`,
  keyInsight: (best, t) =>
    best
      ? `The strongest argument is ${best.id} on ${lower(best.factor)} (weighted ${best.weighted}); the affirmative's arguments average ${t.affirmative}, the negative's ${t.negative}.`
      : 'No argument could be scored: neither side made one.',
  recommendation: (t, unresolved) =>
    `For the credit committee: ${t.affirmative === t.negative ? 'the two sides score equally' : `the ${t.affirmative > t.negative ? 'affirmative' : 'negative'} side is better supported on these scores (${t.affirmative} vs ${t.negative})`}${unresolved ? `, but ${unresolved} point${s(unresolved)} remain unresolved and should be checked before a decision` : ''}. The scores weigh evidence and responsiveness; they are not a credit decision.`,

  horizons: () => ['12m', '36m'],
  draftText: ({ company, stance, horizons, favorable, adverse, items, stale, note }) =>
    [
      `Stance: ${stance} outlook for ${poss(company)} repayment.`,
      `${horizons.map((h) => `${HORIZON_EN(h.horizon)}: ${h.outlook} (confidence ${h.confidence})`).join('; ')}.`,
      favorable.length ? `For: ${and(favorable.map((l) => l.toLowerCase()))}.` : 'No favorable item.',
      adverse.length ? `Against: ${and(adverse.map((l) => l.toLowerCase()))}.` : 'No adverse item.',
      `Based on ${items} item${s(items)}${stale ? `, ${stale} older than the recency window` : ''}.`,
      items < 3 ? 'The evidence is thin, so confidence is capped.' : '',
      note ?? '',
    ]
      .filter(Boolean)
      .join(' '),
  leaderNote: (moved, from, to, added) =>
    moved
      ? `The merged evidence moves the stance from ${from} to ${to}; the safety check decides which version stands.`
      : `The ${added} added point${s(added)} leave the stance at ${to}.`,
  trustHeader: (stance) => `Evidence for the ${stance} draft, stance unchanged:`,
  trustNone: (factor) => `No further passage supports ${lower(factor)}; the draft's item stands alone.`,
  trustClaim: (i, w, polarity) => `${label(i.factor)}: ${cite(i)} adds support — ${polarity === 'adverse' ? w.advReading : w.favReading}.`,
  skepticHeader: (n) =>
    n ? `Risks the draft misses (${n}), with mitigations and scenarios:` : 'No adverse item outside the draft was found in the material; scenarios below.',
  riskClaim: (i, w) => `${label(i.factor)}: ${cite(i)} — ${w.advReading}.`,
  offset: (risk, offset, w) =>
    offset
      ? `Mitigation for ${lower(risk.factor)}: ${cite(offset)} partly offsets it.`
      : `Mitigation for ${lower(risk.factor)}: none in the material; monitor for ${w.advFalsifier}.`,
  scenarios: (stance, assumptions) =>
    `Base case: the ${stance} view holds. Downside: ${assumptions.length ? assumptions.join('; ') : 'a new adverse filing appears'} — repayment would then suffer.`,
  safetyReason: ({ stanceChanged, horizonsChanged, draft, final }) =>
    stanceChanged || horizonsChanged
      ? `The leader's version ${[stanceChanged ? `moved the stance from ${draft.stance} to ${final.stance}` : '', horizonsChanged ? 'changed the horizon outlooks' : ''].filter(Boolean).join(' and ')}; the draft is kept, because one bounded debate round may strengthen or qualify a view but not overturn it.`
      : `Stance (${final.stance}) and horizons are unchanged; the leader's version, with its added evidence and risks, is kept.`,
};
