// How material an evidence item is to a credit decision, read from what the item itself says:
// the one measure that orders the evidence in a prompt (lib/debate/prompts.ts sortEvidence) and
// the items the offline analyst argues with (lib/llm/offline/material.ts rank, select.ts). A 10-K
// brings two dozen items on one day; "newest first" then leaves their order to chance, and a
// pending government antitrust suit or a multi-billion one-time charge can sit below a headcount
// or a certification. The score is a sum of fixed parts, each read by a plain pattern:
//
//   red flag         4  a decisive credit event the red-flag rules find (lib/pool/red-flags.ts)
//   authority action 3  a public authority (DOJ, FTC, SEC, EEOC, attorneys general, 공정거래위원회,
//                       금융감독원, 검찰 …) filing, suing, fining, ordering or deciding, in a
//                       sentence that reports it
//   charge           3  a one-time charge, an impairment, a write-down or write-off (손상차손, 일회성)
//   decision/event   2  something decided or done: a suit filed (not a report), sued, ruled,
//                       verdict, settled, rescinded, approved, downgraded, defaulted,
//                       acquired … (소송, 판결, 과징금, 승인, 결정, 하향, 부도 …)
//   amount         0–2  the item's largest stated amount of money, against the largest amount in
//                       the same currency among the items ranked together (the same company's
//                       pool or a step's slice of it): 2 for the largest, 0 at a thousandth of it
//                       or less, on a log scale
//   fresh            2  published within the recency window (not stale)
//
// A sentence that speaks of a possibility (may, could, if, 수 있다, 가능성, 우려 …) reports no
// decision, action or charge: a risk factor saying a fine could be imposed is not a fine. The score
// depends on the items alone, never on the order they come in: the same input gives the same order.
// Every pattern is linear (no repeated group that itself repeats: lib/nested-quantifiers.test.ts),
// and at most TEXT_LIMIT characters of an item's text are read.
import { redFlagKindsOf } from '@/lib/pool/red-flags';
import { sentences } from '@/lib/util/sentences';

export type MaterialityInput = {
  category: string;
  title: string;
  text: string;
  value: string | null;
  stale: boolean;
};

export type MaterialityParts = {
  redFlag: number;
  authority: number;
  charge: number;
  decision: number;
  amount: number;
  fresh: number;
  total: number;
  /**
   * Fresh and reporting a red flag, an authority's action or a one-time charge: an item a side
   * argues even beyond its usual number of claims (lib/llm/offline/select.ts).
   */
  decisive: boolean;
};

export const MATERIALITY_WEIGHTS = { redFlag: 4, authority: 3, charge: 3, decision: 2, amount: 2, fresh: 2 } as const;

/** The rules read the title and this much of the text: a filing's point is in its opening. */
const TEXT_LIMIT = 4_000;

// Distress categories are decisive whatever their words (as the offline analyst reads them).
const DISTRESS = new Set(['distress_default', 'distress_rehabilitation', 'distress_creditor_management', 'business_suspension', 'trading_halt']);

/** A possibility, not an event. "May" before a number is the month. */
const HYPOTHETICAL =
  /\b(?:[Mm]ay|[Mm]ight|[Cc]ould|[Ww]ould|[Ss]hould|[Cc]an)\b(?!\s+\d)|\b(?:[Ii]f|[Uu]nless|[Pp]otential(?:ly)?|[Pp]ossibl[ey])\b|수\s?(?:도\s?)?있|가능성|우려|(?:할|될|받을|있을|않을|없을)\s?경우/;

const DECISION =
  /\b(?:filed(?! (?:a |an |its )?(?:current |annual |quarterly |periodic )?(?:report|form))|sued|ruled|rulings?|verdicts?|judgments?|ordered|fined|penali[sz]ed|sanctioned|settled|settlements?|rescind(?:ed|s)|rescission|revoked|terminated|approved|rejected|denied|granted|dismissed|affirmed|reversed|overturned|awarded|convicted|indicted|charged|downgraded|upgraded|defaulted|acquired|divested|recalled|restated|decided|decisions?)\b/i;
const DECISION_KO = /소송|소\s?제기|판결|선고|과징금|제재|고발|기소|승인|결정|하향|부도|회생|파산|인수|합병|취소|해지|리콜|처분|명령|체결/;

// Acronyms are matched with their case (SEC, not "sec."); names in any case.
const AUTHORITY_ACRONYM = /\b(?:DOJ|FTC|SEC|EEOC|IRS|CFPB|NHTSA|FDA|EPA|OCC|FDIC|CMA|KFTC|FSS|FSC)\b/;
const AUTHORITY_NAME =
  /\b(?:Department of Justice|Justice Department|Federal Trade Commission|Securities and Exchange Commission|Equal Employment Opportunity Commission|attorneys? general|European Commission|Civil Rights Department|Internal Revenue Service|Consumer Financial Protection Bureau|Competition and Markets Authority|competition authorit(?:y|ies)|regulators?|prosecutors?|government)\b/i;
const AUTHORITY_KO = /공정거래위원회|공정위|금융위원회|금융감독원|금감원|검찰|국세청|관세청|법무부|정부|당국|고용노동부|환경부|식품의약품안전처/;

const CHARGE =
  /\b(?:one-time|one-off|non-?recurring)\b|\bimpair(?:ment|ments|ed)\b|\bwrite-?(?:downs?|offs?)\b|\bwritten (?:down|off)\b|\brestructuring charges?\b|\bcharges? (?:of|totall?ing|amounting to|related to)\b/i;
const CHARGE_KO = /손상차손|손상\s?인식|일회성|대손상각|평가손실/;

const SCALE: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  천: 1e3,
  만: 1e4,
  백만: 1e6,
  천만: 1e7,
  억: 1e8,
  조: 1e12,
};

const CURRENCY: Record<string, string> = {
  us$: 'USD',
  $: 'USD',
  usd: 'USD',
  rmb: 'CNY',
  cny: 'CNY',
  eur: 'EUR',
  '€': 'EUR',
  '£': 'GBP',
  gbp: 'GBP',
  '¥': 'JPY',
  jpy: 'JPY',
  '₩': 'KRW',
  krw: 'KRW',
};

// "$10.2 billion", "US$ 345 million", "RMB 14.08 billion", "€1.5bn", "KRW 500 million".
const PREFIXED = /(US\$|\$|USD|RMB|CNY|EUR|€|£|GBP|¥|JPY|₩|KRW)\s?(\d[\d,]*(?:\.\d+)?)(?:\s?(thousand|million|billion|trillion|bn|mn|m|b)\b)?/gi;
// "12조 1,779억원", "1,012억 17백만원", "450조": 조 and 억 are amounts of won on their own.
const WON_LARGE = /(\d[\d,]*(?:\.\d+)?)\s?(조|억)/g;
// "386.3백만원", "500만 원", "827,000원".
const WON = /(\d[\d,]*(?:\.\d+)?)\s?(천만|백만|만|천)?\s?원/g;

export type Amount = { currency: string; amount: number };

function numberOf(digits: string): number {
  return Number(digits.replace(/,/g, ''));
}

/** The largest amount of money the item states (value, title, then text), or null. */
export function statedAmount(item: Pick<MaterialityInput, 'title' | 'text' | 'value'>): Amount | null {
  const text = [item.value ?? '', item.title, item.text.slice(0, TEXT_LIMIT)].join('\n');
  let best: Amount | null = null;
  const consider = (currency: string, amount: number) => {
    if (Number.isFinite(amount) && amount > 0 && (!best || amount > best.amount)) best = { currency, amount };
  };
  for (const m of text.matchAll(PREFIXED)) {
    const currency = CURRENCY[m[1].toLowerCase()];
    consider(currency, numberOf(m[2]) * (m[3] ? SCALE[m[3].toLowerCase()] : 1));
  }
  for (const m of text.matchAll(WON_LARGE)) consider('KRW', numberOf(m[1]) * SCALE[m[2]]);
  for (const m of text.matchAll(WON)) consider('KRW', numberOf(m[1]) * (m[2] ? SCALE[m[2]] : 1));
  return best;
}

/** What an item says, read once: everything of its score but the amount's weight. */
export type MaterialityReading = {
  redFlag: number;
  authority: number;
  charge: number;
  decision: number;
  fresh: number;
  stated: Amount | null;
};

// Readings by item object: the engine hands every step the same pool items, so a run reads each
// item once however many steps' prompts sort it (items are not changed once read from the pool).
const readings = new WeakMap<object, MaterialityReading>();

/** Everything the score takes from the item's own words (the table at the top of this file). */
export function readMateriality(item: MaterialityInput): MaterialityReading {
  const cached = readings.get(item);
  if (cached) return cached;
  const W = MATERIALITY_WEIGHTS;
  const said = [item.title, ...sentences(item.text.slice(0, TEXT_LIMIT))].filter((s) => !HYPOTHETICAL.test(s));
  const decided = (s: string) => DECISION.test(s) || DECISION_KO.test(s);
  const authority = (s: string) => AUTHORITY_ACRONYM.test(s) || AUTHORITY_NAME.test(s) || AUTHORITY_KO.test(s);
  const reading: MaterialityReading = {
    redFlag: DISTRESS.has(item.category) || redFlagKindsOf(item).length > 0 ? W.redFlag : 0,
    authority: said.some((s) => authority(s) && decided(s)) ? W.authority : 0,
    charge: said.some((s) => CHARGE.test(s) || CHARGE_KO.test(s)) ? W.charge : 0,
    decision: said.some(decided) ? W.decision : 0,
    fresh: item.stale ? 0 : W.fresh,
    stated: statedAmount(item),
  };
  readings.set(item, reading);
  return reading;
}

/** The largest stated amount per currency among the readings: what "large" means for this company. */
export function amountScale(list: Iterable<MaterialityReading>): Map<string, number> {
  const scale = new Map<string, number>();
  for (const { stated } of list) {
    if (stated && stated.amount > (scale.get(stated.currency) ?? 0)) scale.set(stated.currency, stated.amount);
  }
  return scale;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The score and its parts, the stated amount weighed against the largest of its currency in `scale`. */
export function scoreMateriality(reading: MaterialityReading, scale: Map<string, number>): MaterialityParts {
  const { stated, ...parts } = reading;
  const largest = stated ? Math.max(scale.get(stated.currency) ?? 0, stated.amount) : 0;
  // Three orders of magnitude below the company's largest amount counts for nothing.
  const relative = stated ? Math.min(1, Math.max(0, 1 + Math.log10(stated.amount / largest) / 3)) : 0;
  const amount = round(MATERIALITY_WEIGHTS.amount * relative);
  return {
    ...parts,
    amount,
    total: round(parts.redFlag + parts.authority + parts.charge + parts.decision + amount + parts.fresh),
    decisive: parts.fresh > 0 && parts.redFlag + parts.authority + parts.charge > 0,
  };
}

/** One item's score and its parts against the amounts in `scale`. */
export function materialityOf(item: MaterialityInput, scale: Map<string, number>): MaterialityParts {
  return scoreMateriality(readMateriality(item), scale);
}

/** Does the item report (not merely contemplate) a one-time charge, an impairment or a write-down? */
export function reportsCharge(item: Pick<MaterialityInput, 'title' | 'text'>): boolean {
  return [item.title, ...sentences(item.text.slice(0, TEXT_LIMIT))].some((s) => !HYPOTHETICAL.test(s) && (CHARGE.test(s) || CHARGE_KO.test(s)));
}

/** Each item's score and its parts, amounts weighed against the other items of the same list. */
export function materialityParts<T extends MaterialityInput>(items: readonly T[]): Map<T, MaterialityParts> {
  const read = items.map((i) => readMateriality(i));
  const scale = amountScale(read);
  return new Map(items.map((i, n) => [i, scoreMateriality(read[n], scale)]));
}

/** Each item's score, amounts weighed against the other items of the same list. */
export function materialityScores<T extends MaterialityInput>(items: readonly T[]): Map<T, number> {
  return new Map([...materialityParts(items)].map(([i, p]) => [i, p.total]));
}
