// SAS's final report (LEAD): the upheld view and the fragile assumption, written for the credit
// committee in about 700–800 words, as an analyst's memo — the report never mentions how it was
// produced. The evidence review walks the factors until the length is reached or the material
// runs out (a thin pool gives a short report that says so).
import { sasStress as stressSchema, type StepOutput } from '@/lib/domain/outputs';
import type { Env } from './env';
import type { Item } from './material';
import { panelFor } from './panel';
import { sasStress, winnerOf } from './sas';
import { factorGroups, otherSide, type Side } from './select';
import { wordCount } from './text';

const TARGET_WORDS = 720;
const MAX_WORDS = 800;

export function sasLead(env: Env): StepOutput<'sasReport'> {
  const K = panelFor(env.lang);
  const winner = winnerOf(env);
  const side: Side = winner === 'affirmative' ? 'favorable' : 'adverse';
  const stress = env.debate.first(stressSchema)?.output ?? sasStress(env);
  const items = env.pool.items;
  const groups = factorGroups(items);
  const labelsFor = (s: Side, n: number) =>
    [...new Set(groups.filter((g) => g.some((i) => i.polarity === s)).map((g) => env.P.label(g[0].factor)))].slice(0, n);
  const fresh = items.filter((i) => !i.stale).length;
  const dates = items.map((i) => i.date).sort();
  const thin = new Set(items.map((i) => i.factor)).size < 3 || items.length < 3;

  const executiveSummary = K.executive({
    company: env.company,
    asOf: env.pool.asOf,
    side,
    lead: labelsFor(side, 3),
    against: labelsFor(otherSide(side), 4)
      .filter((l) => !labelsFor(side, 3).includes(l))
      .slice(0, 2),
    items: items.length,
    fresh,
    thin,
  });
  // The two strongest items for the view (on different factors) and the strongest against it.
  const strongest = (s: Side, n: number) =>
    factorGroups(items.filter((i) => i.polarity === s))
      .slice(0, n)
      .map((g) => g[0]);
  const keyTakeaways = [
    ...strongest(side, 2).map((i) => K.takeaway('lead', i, side)),
    ...strongest(otherSide(side), 1).map((i) => K.takeaway('against', i, otherSide(side))),
    items.length - fresh > 0 ? K.staleTakeaway(items.length - fresh, items.length, env.pool.recencyDays) : '',
    K.fragileTakeaway(stress.assumption),
    thin ? K.thinTakeaway(items.length) : '',
  ].filter((x): x is string => !!x);
  const falsifiers = groups
    .filter((g) => g.some((i) => i.polarity === side))
    .slice(0, 3)
    .map((g) => {
      const w = env.words(g[0].factor, g[0]);
      return { factor: g[0].factor, text: side === 'favorable' ? w.favFalsifier : w.advFalsifier };
    });
  const primaryRisk = K.primaryRisk(stress.assumption, stress.critique);
  const mitigation = K.mitigation(falsifiers, silentFactors(env, items));
  const outlook = K.outlook(side, dates[dates.length - 1] ?? env.pool.asOf, env.pool.recencyDays);

  const fixed = wordCount([executiveSummary, ...keyTakeaways, primaryRisk, mitigation, outlook].join(' '));
  // Factor by factor until the target length; a pool with few factors gets more items per factor.
  let review: string[] = [];
  for (const perSide of [2, 3, 4]) {
    const attempt = [K.reviewIntro(items.length, dates[0] ?? '', dates[dates.length - 1] ?? '')];
    for (const g of groups) {
      const paragraph = reviewParagraph(env, g, perSide);
      const total = fixed + wordCount(`${attempt.join(' ')} ${paragraph}`);
      if (total > MAX_WORDS) break;
      attempt.push(paragraph);
      if (total >= TARGET_WORDS) break;
    }
    if (fixed + wordCount(attempt.join(' ')) >= fixed + wordCount(review.join(' '))) review = attempt;
    if (fixed + wordCount(review.join(' ')) >= TARGET_WORDS) break;
  }
  return { executiveSummary, evidenceReview: review.join('\n\n'), keyTakeaways, primaryRisk, mitigation, outlook };
}

function reviewParagraph(env: Env, group: Item[], perSide: number): string {
  const K = panelFor(env.lang);
  const by = (p: Item['polarity'], n: number) => group.filter((i) => i.polarity === p).slice(0, n);
  const fav = group.filter((i) => i.polarity === 'favorable').length;
  const adv = group.filter((i) => i.polarity === 'adverse').length;
  const balance = fav && adv ? 'mixed' : fav ? 'favorable' : adv ? 'adverse' : 'context';
  return K.reviewFactor({
    factor: group[0].factor,
    favorable: by('favorable', perSide),
    adverse: by('adverse', perSide),
    context: by('context', perSide - 1),
    words: env.words(group[0].factor, group[0]),
    balance,
  });
}

function silentFactors(env: Env, items: Item[]): string[] {
  const present = new Set(items.map((i) => i.factor));
  return ['management_continuity', 'internal_control_risk', 'industry_growth_outlook', 'economic_sensitivity', 'employment_stability']
    .filter((f) => !present.has(f as Item['factor']))
    .map((f) => env.P.label(f));
}
