// Briefings: SAS's three specialists (figures, management and tone, the industry narrative) and
// FinDebate's five (performance … credit risk). Each works the lane its step declares (`focus`)
// in the material the step was given, newest first, one claim per finding, and says where the
// material is silent.
import type { Claim } from '@/lib/domain/outputs';
import type { SpecialistFocus } from '@/lib/domain/protocol';
import type { FactorId } from '@/lib/domain/factors';
import { claimFromPick, type Env } from './env';
import { differentEvidence, firstSentence, showValue, type Item } from './material';
import { panelFor } from './panel';
import { factorGroups, type Pick, type Side } from './select';
import { fit, wordCount, type Segment } from './text';

export type Lane = {
  factors?: FactorId[];
  polarity?: Item['polarity'][];
  /** Figures only: items that state a value. */
  figures?: boolean;
  /** Claims quote the item's own words. */
  quotes?: boolean;
  /** One narrative in `text`, within the step's limit in characters (SAS B-I: 2,000). */
  narrative?: boolean;
  max: number;
};

const INDUSTRY: FactorId[] = [
  'industry_growth_outlook',
  'industry_competition_intensity',
  'technological_disruption_risk',
  'economic_sensitivity',
  'government_support_programs',
  'public_interest_trend',
];
const MANAGEMENT: FactorId[] = ['management_continuity', 'internal_control_risk', 'employment_stability'];

export const LANES: Record<SpecialistFocus, Lane> = {
  figures: { figures: true, max: 8 },
  'management-behaviour': { factors: MANAGEMENT, quotes: true, max: 6 },
  'industry-narrative': { factors: INDUSTRY, narrative: true, max: 6 },
  performance: { factors: ['other', 'industry_competition_intensity', 'technological_disruption_risk', 'employment_stability'], max: 5 },
  'market-outlook': {
    factors: ['industry_growth_outlook', 'industry_competition_intensity', 'technological_disruption_risk', 'economic_sensitivity', 'public_interest_trend'],
    max: 5,
  },
  'management-sentiment': { factors: MANAGEMENT, quotes: true, max: 5 },
  collateral: { factors: ['government_support_programs', 'certifications', 'technological_disruption_risk'], max: 5 },
  'credit-risk': { polarity: ['adverse'], max: 5 },
};

const DEFAULT_LANE: Lane = { max: 6 };

/** A stated quantity: a number with a unit, a share or an amount. */
const FIGURE = /\d[\d,.]*\s*(%|건|명|원|억|조|개월|년|개|billion|million|employees|stores|locations|years|months)/i;

function inLane(lane: Lane, item: Item): boolean {
  if (lane.factors && !lane.factors.includes(item.factor)) return false;
  if (lane.polarity && !lane.polarity.includes(item.polarity)) return false;
  if (lane.figures && !(showValue(item) || FIGURE.test(item.title))) return false;
  return true;
}

/** One item per factor first (newest first), then further items with different evidence. */
export function laneItems(env: Env, lane: Lane): Item[] {
  const candidates = env.pool.items.filter((i) => i.origin !== 'context' && inLane(lane, i));
  const chosen: Item[] = [];
  for (const group of factorGroups(candidates)) if (chosen.length < lane.max) chosen.push(group[0]);
  for (const item of candidates) {
    if (chosen.length >= lane.max) break;
    if (!chosen.includes(item) && chosen.filter((c) => c.factor === item.factor).every((c) => differentEvidence(c, item))) chosen.push(item);
  }
  return chosen;
}

export function pickOf(item: Item): { pick: Pick; side: Side } {
  const side: Side = item.polarity === 'adverse' ? 'adverse' : 'favorable';
  return { pick: { item, mode: item.polarity === 'context' ? 'context' : 'direct' }, side };
}

/** The item's own words: its first real sentence, short enough to quote; its title when it has none. */
export function ownWords(item: Item, max = 160): string {
  return firstSentence(item.text, max) ?? item.title;
}

/**
 * A lane the material does not cover gives the explicit "nothing" (`nothingInMaterial`), the one
 * answer the step's rules take without a finding (lib/debate/rules.ts); otherwise its findings.
 */
export function briefing(env: Env): { text: string; nothingInMaterial?: true; claims: Claim[] } {
  const { step, pool } = env;
  const K = panelFor(env.lang);
  const lane = step.focus ? LANES[step.focus] : DEFAULT_LANE;
  const items = laneItems(env, lane);
  const claims: Claim[] = items.map((item, i) => {
    const id = `${step.id}-c${i + 1}`;
    const { pick, side } = pickOf(item);
    const base = claimFromPick(env, id, pick, side);
    if (item.polarity === 'context') base.polarity = 'context';
    if (lane.figures) return { ...base, text: K.figure(item), assumptions: undefined };
    if (lane.quotes) return { ...base, text: K.quoted(item, ownWords(item), env.words(item.factor, item), side) };
    // A briefing takes no side: a context-dependent item is stated with the condition it needs.
    if (item.polarity === 'context') return { ...base, text: K.contextFinding(item, env.words(item.factor, item)) };
    return base;
  });

  const title = K.laneTitle(step.focus);
  const silent = (lane.factors ?? []).filter((f) => !items.some((i) => i.factor === f)).map((f) => env.P.label(f));
  if (!pool.given) return { text: K.nothingGiven(title), nothingInMaterial: true, claims: [] };
  if (!items.length)
    return { text: `${K.briefingHeader(title, 0, pool.given)} ${K.silent(silent.length ? silent : [title])}`, nothingInMaterial: true, claims: [] };

  if (lane.narrative) {
    const paragraphs = [K.narrativeIntro(env.company, env.request.company.industry, items.length)];
    // Whole sentences up to the limit the task names and the engine checks, the note on what the
    // material is silent on included; and no more than about 280 words, the published narrative's
    // length, so that a Korean narrative (fewer characters a word) is no longer than it was.
    const closing = silent.length ? [K.silent(silent)] : [];
    const limit = step.maxChars ?? Infinity;
    for (const item of items) {
      const { side } = pickOf(item);
      const sentence = K.narrativePoint(item, env.words(item.factor, item), side);
      const next = [...paragraphs, sentence, ...closing].join(' ');
      if (next.length > limit || wordCount(next) > 280) break;
      paragraphs.push(sentence);
    }
    paragraphs.push(...closing);
    return {
      text: fit(
        paragraphs.map((text) => ({ text, priority: 5 })),
        step.maxChars,
      ),
      claims,
    };
  }

  const segments: Segment[] = [{ text: K.briefingHeader(title, claims.length, pool.given), priority: 10 }];
  if (K.laneNote(step.focus)) segments.push({ text: K.laneNote(step.focus), priority: 9 });
  claims.forEach((c, i) => segments.push({ text: `${i + 1}. ${c.text}`, priority: 8 - i * 0.1, join: 'line' }));
  if (silent.length) segments.push({ text: K.silent(silent), priority: 6, join: 'line' });
  const stale = items.filter((i) => i.stale).length;
  if (stale) segments.push({ text: env.P.staleNote(stale, pool.recencyDays), priority: 6, join: 'line' });
  return { text: fit(segments, step.maxChars), claims };
}
