// FinDebate after the specialists: the writer's draft with a stance, the trust agent, then the
// skeptic on the strengthened draft, the leader's merge and the safety check. The stance is the
// balance of favorable against adverse items (fresh ones count double), so the debate can move it
// only by adding evidence — and the safety check then keeps the draft, as the protocol asks
// (docs/protocols.md); so it does when the debate recommended nothing. The engine makes the same
// comparison itself (lib/debate/enforce.ts), so these answers are never corrected.
import {
  horizonCode,
  storedStanceDraft as draftSchema,
  type Claim,
  type StepOutput,
  type StoredStanceDraft,
  type Turn as TurnOutput,
} from '@/lib/domain/outputs';
import { isFactorId, type FactorId } from '@/lib/domain/factors';
import { isStale, recencyCutoff } from '@/lib/pool/as-of';
import { translator } from '@/lib/i18n';
import { enforcementMessages } from '@/lib/i18n/messages/enforcement';
import type { Env } from './env';
import { citationKey, citationOf, differentEvidence, itemsOf, resolve, type Item } from './material';
import { claimsWithRedFlags } from './red-flags';
import { panelFor } from './panel';
import { factorGroups } from './select';
import { fit, type Segment } from './text';

// What the analyst writes is a stance draft; what it reads from the context may be an older run's
// (free-text horizon labels), so drafts are read as stored.
type Written = StepOutput<'stanceDraft'>;
type Draft = StoredStanceDraft;
type Stance = Draft['stance'];

const STRUCTURAL: FactorId[] = [
  'industry_growth_outlook',
  'industry_competition_intensity',
  'technological_disruption_risk',
  'economic_sensitivity',
  'government_support_programs',
];

/** What the stance weighs of an item: its reading, its factor and whether it is stale. */
type Weighed = Pick<Item, 'factor' | 'polarity' | 'stale'>;

export function balance(items: Weighed[]): { stance: Stance; confidence: number; value: number } {
  let fav = 0;
  let adv = 0;
  for (const i of items) {
    const w = i.stale ? 0.5 : 1;
    if (i.polarity === 'favorable') fav += w;
    if (i.polarity === 'adverse') adv += w;
  }
  const total = fav + adv;
  const value = total ? (fav - adv) / total : 0;
  const stance: Stance = value > 0.2 ? 'favorable' : value < -0.2 ? 'adverse' : 'neutral';
  const factors = new Set(items.map((i) => i.factor)).size;
  const directional = items.filter((i) => i.polarity !== 'context').length;
  // Confidence grows with how one-sided the evidence is, how much of it there is and how many factors it spans.
  let confidence = 0.3 + 0.4 * Math.abs(value) * Math.min(1, directional / 6) + 0.05 * Math.min(4, factors);
  if (directional < 3) confidence = Math.min(confidence, 0.4);
  if (!total) confidence = 0.2;
  return { stance, confidence: Math.round(Math.min(0.85, confidence) * 100) / 100, value };
}

/**
 * What the claims cite, once per item (by evidence id, else by source and date), each weighed as
 * the first claim citing it reads it, on that claim's factor. Read off the claims themselves, not
 * the step's pool (rebuilt from whatever claims each step receives), so the draft and the leader
 * weigh the draft's items alike and only what the debate added can move the stance.
 */
function uniqueItems(env: Env, claims: Claim[]): Weighed[] {
  const cutoff = recencyCutoff(env.pool.asOf, env.pool.recencyDays);
  const seen = new Map<string, Weighed>();
  for (const claim of claims) {
    for (const c of claim.citations) {
      const key = c.evidenceId ?? citationKey(c);
      if (seen.has(key)) continue;
      const item = resolve(env.pool, c);
      const factor = isFactorId(claim.factor) ? claim.factor : (item?.factor ?? 'other');
      seen.set(key, { factor, polarity: claim.polarity, stale: item?.stale ?? isStale(c.date, cutoff) });
    }
  }
  return [...seen.values()];
}

function horizonsOf(env: Env, items: Weighed[]): Written['horizons'] {
  const K = panelFor(env.lang);
  const near = balance(items.filter((i) => !i.stale).length ? items.filter((i) => !i.stale) : items);
  const structural = items.filter((i) => STRUCTURAL.includes(i.factor));
  const far = balance(structural.length ? structural : items);
  const [short, long] = K.horizons();
  return [
    { horizon: short, outlook: near.stance, confidence: near.confidence },
    { horizon: long, outlook: far.stance, confidence: Math.round(Math.max(0.2, far.confidence - 0.1) * 100) / 100 },
  ];
}

const MAX_CARRIERS = 12;
const MAX_TRUST = 4;

/**
 * The claims that carry the stance: every specialist finding, once per cited item, directional
 * ones first. The leader recomputes the stance on these plus what the debate added, so the two
 * are comparable and only new evidence can move it.
 */
function carriers(claims: Claim[]): Claim[] {
  const seen = new Set<string>();
  const unique = claims.filter((c) => {
    const key = c.citations.map(citationKey).join('|');
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const order = (c: Claim) => (c.polarity === 'context' ? 1 : 0);
  return unique.sort((a, b) => order(a) - order(b)).slice(0, MAX_CARRIERS);
}

function compose(env: Env, claims: Claim[], idPrefix: string, note?: string): Written {
  const K = panelFor(env.lang);
  const items = uniqueItems(env, claims);
  const { stance } = balance(items);
  const horizons = horizonsOf(env, items);
  const kept = claims.map((c, i) => ({ ...c, id: `${idPrefix}-c${i + 1}` }));
  const labels = (pol: Weighed['polarity']) => [...new Set(items.filter((i) => i.polarity === pol).map((i) => env.P.label(i.factor)))];
  const text = K.draftText({
    company: env.company,
    stance,
    horizons,
    favorable: labels('favorable'),
    adverse: labels('adverse'),
    items: items.length,
    stale: items.filter((i) => i.stale).length,
    note,
  });
  return { text: fit([{ text, priority: 10 }], env.step.maxChars), stance, horizons, claims: kept };
}

/**
 * The stance draft in the step's context: the `draft-writer`'s, else the first that parses (a
 * context from a protocol that does not declare the role).
 */
function contextDraft(env: Env): Draft | undefined {
  return (env.debate.first(draftSchema, (t) => t.role === 'draft-writer') ?? env.debate.first(draftSchema))?.output;
}

/**
 * The writer's draft from the specialists' briefings, the run's red flags among the claims that
 * carry it (red-flags.ts), so that the stance weighs them from the start and the leader, which
 * receives the same claims, weighs them alike.
 */
export function writeDraft(env: Env): Written {
  const specialists = env.debate.claims((t) => t.act !== 'debate');
  return compose(env, claimsWithRedFlags(env, carriers(specialists)), env.step.id);
}

/** A stance draft from a step of no declared part: the leader's merge when a draft is in context, else a draft. */
export function stanceDraft(env: Env): Written {
  return contextDraft(env) ? leaderDraft(env) : writeDraft(env);
}

/** The leader's merge of the debate into the draft; without a draft in context, a draft of its own. */
export function leaderDraft(env: Env): Written {
  const draft = contextDraft(env);
  if (!draft) return writeDraft(env);
  const K = panelFor(env.lang);
  const added = env.debate.claims((t) => t.act === 'debate');
  const merged = [...draft.claims, ...added];
  const result = compose(env, merged, env.step.id);
  const moved = result.stance !== draft.stance;
  return {
    ...result,
    text: fit([{ text: `${result.text} ${K.leaderNote(moved, draft.stance, result.stance, added.length)}`, priority: 10 }], env.step.maxChars),
  };
}

export function trust(env: Env): TurnOutput {
  const K = panelFor(env.lang);
  const draft = contextDraft(env);
  const claims: Claim[] = [];
  const segments: Segment[] = [{ text: K.trustHeader(draft?.stance ?? 'neutral'), priority: 10 }];
  const backing = (draft?.claims ?? []).filter((c) => draft?.stance === 'neutral' || c.polarity === draft?.stance);
  const used = new Set<string>();
  // Up to MAX_TRUST supports, from any of the claims it backs: a claim with nothing more to show
  // (its step is not shown the items the draft cites) does not end the search, and a factor left
  // without support is said once.
  const unsupported = new Set<string>();
  for (const c of backing) {
    if (claims.length === MAX_TRUST) break;
    const cited = itemsOf(env.pool, c);
    const better = env.pool.items.find(
      (i) => i.factor === c.factor && i.polarity === c.polarity && !used.has(i.key) && cited.every((x) => differentEvidence(x, i)) && i.origin !== 'context',
    );
    if (!better) {
      if (!unsupported.has(c.factor)) segments.push({ text: K.trustNone(c.factor), priority: 5, join: 'line' });
      unsupported.add(c.factor);
      continue;
    }
    used.add(better.key);
    const claim: Claim = {
      id: `${env.step.id}-c${claims.length + 1}`,
      text: K.trustClaim(better, env.words(better.factor, better), c.polarity),
      factor: c.factor,
      polarity: c.polarity,
      citations: [citationOf(better)],
      respondsTo: c.id,
    };
    claims.push(claim);
    segments.push({ text: `${claims.length}. ${claim.text}`, priority: 8, join: 'line' });
  }
  return { text: fit(segments, env.step.maxChars), claims, questions: [] };
}

/**
 * The skeptic reviews the draft as the trust agent strengthened it (it runs after the trust
 * agent): risks neither of them cites, those on the factors the trust agent shored up first, each
 * answering the trust agent's claim on its factor where there is one, else the draft's.
 */
export function skeptic(env: Env): TurnOutput {
  const K = panelFor(env.lang);
  const draft = contextDraft(env);
  const supports = env.debate.claims((t) => t.role === 'trust');
  const reviewed = new Set([...(draft?.claims ?? []), ...supports].flatMap((c) => itemsOf(env.pool, c).map((i) => i.key)));
  const candidates = factorGroups(env.pool.items.filter((i) => i.polarity === 'adverse' && !reviewed.has(i.key) && i.origin !== 'context')).map((g) => g[0]);
  const strengthened = new Set(supports.map((c) => c.factor));
  const risks = [...candidates.filter((i) => strengthened.has(i.factor)), ...candidates.filter((i) => !strengthened.has(i.factor))].slice(0, 3);
  const claims: Claim[] = risks.map((item, n) => ({
    id: `${env.step.id}-c${n + 1}`,
    text: K.riskClaim(item, env.words(item.factor, item)),
    factor: item.factor,
    polarity: 'adverse',
    citations: [citationOf(item)],
    respondsTo: supports.find((c) => c.factor === item.factor)?.id ?? draft?.claims.find((c) => c.factor === item.factor)?.id,
  }));
  for (const c of claims) if (!c.respondsTo) delete c.respondsTo;
  const segments: Segment[] = [{ text: K.skepticHeader(risks.length), priority: 10 }];
  claims.forEach((c, i) => segments.push({ text: `${i + 1}. ${c.text}`, priority: 8, join: 'line' }));
  for (const risk of risks) {
    const offset = env.pool.items.find((i) => i.factor === risk.factor && i.polarity === 'favorable');
    segments.push({ text: K.offset(risk, offset, env.words(risk.factor, risk)), priority: 6, join: 'line' });
  }
  segments.push({
    text: K.scenarios(
      draft?.stance ?? 'neutral',
      risks.map((r) => env.words(r.factor, r).advAssumption),
    ),
    priority: 7,
    join: 'line',
  });
  return { text: fit(segments, env.step.maxChars), claims, questions: [] };
}

/**
 * The safety checker's decision, and no edits: the engine assembles the kept version from the
 * draft's or the leader's output (lib/debate/enforce.ts), which already address the red flags.
 */
export function safetyCheck(env: Env): StepOutput<'safetyCheck'> {
  const K = panelFor(env.lang);
  const drafts = env.debate.turns
    .map((t) => ({ t, parsed: draftSchema.safeParse(t.output) }))
    .filter((x) => x.parsed.success)
    .map((x) => ({ role: x.t.role, draft: x.parsed.data! }));
  // By role; without roles, the first draft is the writer's and the last the leader's.
  const draft: Draft = drafts.find((d) => d.role === 'draft-writer')?.draft ?? drafts[0]?.draft ?? writeDraft(env);
  const final = drafts.find((d) => d.role === 'leader')?.draft ?? drafts[drafts.length - 1]?.draft ?? draft;
  const stanceChanged = draft.stance !== final.stance;
  const key = (d: Draft) => d.horizons.map((h) => `${horizonCode(h.horizon) ?? h.horizon}:${h.outlook}`).join('|');
  const horizonsChanged = key(draft) !== key(final);
  // No recommendations from the debate (the trust agent and the skeptic made no point) → the draft stands.
  const debate = env.debate.turns.filter((t) => t.act === 'debate');
  const nothingRecommended = debate.length > 0 && debate.every((t) => t.claims.length === 0);
  const kept = stanceChanged || horizonsChanged || nothingRecommended ? 'draft' : 'final';
  const nothing = translator(enforcementMessages, env.lang)('nothingRecommended');
  return {
    reason:
      stanceChanged || horizonsChanged || !nothingRecommended
        ? K.safetyReason({ stanceChanged, horizonsChanged, draft, final })
        : nothing.charAt(0).toUpperCase() + nothing.slice(1),
    stanceChanged,
    horizonsChanged,
    kept,
    edits: [],
  };
}
