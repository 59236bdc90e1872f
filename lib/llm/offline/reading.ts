// How the offline analyst reads one item: its polarity and what kind of signal it is, taken from
// the item itself — its tag (the import's rule tag or the RM's override) checked against its own
// words — never from a stock sentence per factor. Red flags (a default, a rehabilitation or
// workout, a sanction, a qualified opinion, a lawsuit lost … lib/pool/red-flags.ts) are never read
// as favorable; where the words plainly contradict a rule tag (a suit won tagged as litigation, a
// demand contraction tagged as growth) the words win. Deterministic: rules only.
import type { Polarity } from '@/lib/domain/vocabulary';
import { reportsCharge } from '@/lib/pool/materiality';
import { redFlagKindsOf } from '@/lib/pool/red-flags';

/** What kind of signal an item is, where its kind needs its own reading rather than its factor's. */
export type Signal =
  | 'distress'
  | 'suit_won'
  | 'suit_withdrawn'
  | 'suit_pending'
  | 'sanction'
  | 'audit_clean'
  | 'audit_qualified'
  | 'buyback'
  | 'patent_lapsed'
  | 'patent_pending'
  | 'filing_index'
  | 'support_dependence'
  | 'support_obligation'
  | 'contraction'
  | 'growth';

type Readable = { category: string; title: string; text: string; polarity: Polarity; rm?: boolean };

const DISTRESS_CATEGORIES = new Set(['distress_default', 'distress_rehabilitation', 'distress_creditor_management', 'business_suspension', 'trading_halt']);

// Outcomes in the company's favour: a dismissal, a verdict for the defendants, a suit withdrawn.
const WON =
  /\b(dismiss(?:ed|al)|verdict (?:in favou?r of|for) (?:the )?defendants?|in (?:the company's|our|its) favou?r|ruled for (?:the company|tesla|us))\b|승소|기각\s?(?:판결|결정)|청구\s?기각/i;
const WITHDRAWN =
  /소취하|소송\s?취하|\b(withdr[ae]wn?|settled)\b[^.]{0,40}\b(suits?|lawsuits?|claims?|litigation)\b|\b(suits?|lawsuits?|claims?|litigation)\b[^.]{0,40}\b(withdr[ae]wn|settled)\b/i;
const LOST = /패소|\b(lost|losing) (?:the |a |its )?(?:suit|case|lawsuit|appeal)|verdict (?:against|for the plaintiffs?)|\bjudgment against\b/i;
const CONTRACTION =
  /역성장|수요\s?(?:감소|둔화|위축)|감소\s?전망|\b(contract(?:ion|ing)|shrink\w*|declin(?:e|ing) (?:in )?demand|demand (?:declin\w*|contract\w*|shrink\w*|fall\w*))\b/i;
const GROWTH = /성장\s?전망|수요\s?(?:증가|회복)|\b(market|demand) (?:grow\w*|expan\w*|recover\w*)\b/i;
const CLEAN =
  /\b(unqualified|effective internal control|no material weakness\w*)\b|감사의견\s?[:'‘“]?\s?적정|의견\s?적정|효과적|지적사항\s?(?:해당사항\s?)?없음/i;
const QUALIFIED =
  /\b(qualified opinion|adverse opinion|disclaimer of opinion|material weakness(?:es)?|going concern)\b|부적정|한정\s?의견|의견\s?거절|계속기업/i;
const NO_QUALIFIED = /\bno material weakness|지적사항\s?(?:해당사항\s?)?없음/i;
const FILING_INDEX = /^Form 8-K Item \d\.\d\d:/;

/** Is the item a red flag: a decisive credit event that no side may read as favorable? */
export function isRedFlag(item: Pick<Readable, 'category' | 'title' | 'text'>): boolean {
  if (DISTRESS_CATEGORIES.has(item.category)) return true;
  return redFlagKindsOf(item).length > 0;
}

/** The kind of signal the item's own words make it, or null when its factor's reading fits. */
export function signalOf(item: Pick<Readable, 'category' | 'title' | 'text'>): Signal | null {
  const { category, title } = item;
  const head = `${title}\n${item.text.slice(0, 600)}`;
  if (DISTRESS_CATEGORIES.has(category)) return 'distress';
  if (FILING_INDEX.test(title)) return 'filing_index';
  if (category === 'sanctions') return 'sanction';
  if (category === 'legal_proceedings') {
    if (LOST.test(title)) return 'suit_pending';
    if (WON.test(title)) return 'suit_won';
    if (WITHDRAWN.test(title)) return 'suit_withdrawn';
    return 'suit_pending';
  }
  if (category === 'governance_ownership') {
    if (QUALIFIED.test(title) && !NO_QUALIFIED.test(title)) return 'audit_qualified';
    if (CLEAN.test(title)) return 'audit_clean';
    if (/자기주식\s?취득|자사주\s?매입|\b(buy-?back|share repurchase)\b/i.test(title)) return 'buyback';
    return null;
  }
  if (category === 'patent') {
    if (/^\[소멸\]|\b(lapsed|expired|abandoned)\b/i.test(title)) return 'patent_lapsed';
    if (/^\[공개\]|\b(pending|published application)\b/i.test(title)) return 'patent_pending';
    return null;
  }
  if (category === 'government_support') {
    if (/\bdependen\w*|의존/i.test(title)) return 'support_dependence';
    if (/\bobligat\w*|의무/i.test(head)) return 'support_obligation';
    return null;
  }
  if (CONTRACTION.test(title)) return 'contraction';
  if (GROWTH.test(title)) return 'growth';
  return null;
}

/**
 * The item's polarity as the analyst reads it. An RM's tag stands (a red flag still never reads
 * favorable); a rule tag gives way where the item's own words say otherwise.
 */
export function readingOf(item: Readable): Polarity {
  if (isRedFlag(item)) return 'adverse';
  if (item.rm) return item.polarity;
  // A one-time charge or an impairment the item reports is a loss, whatever section it came from.
  if (item.polarity === 'context' && reportsCharge(item)) return 'adverse';
  switch (signalOf(item)) {
    case 'suit_won':
    case 'suit_withdrawn':
    case 'audit_clean':
    case 'growth':
      return item.polarity === 'adverse' ? 'favorable' : item.polarity;
    case 'sanction':
    case 'audit_qualified':
    case 'contraction':
      return 'adverse';
    case 'filing_index':
      return 'context';
    default:
      return item.polarity;
  }
}
