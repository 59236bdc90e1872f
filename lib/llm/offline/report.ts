// Reports that keep both sides and pick no winner: the KPD-MADS aggregator (AG), built from the
// debate's claims and questions, and the single-agent NAS report, built from the pool as
// claim → evidence → implication chains per factor.
import type { Citation, Claim, Question, Report } from '@/lib/domain/outputs';
import { isWrittenIn } from '@/lib/i18n/content-language';
import type { Turn } from './context';
import type { Env } from './env';
import { citationKey, citationOf, resolve, shorten, uniqueCitations, type Item } from './material';
import type { QuestionKind } from './phrases';
import { factorGroups, type Side } from './select';

type Topic = { factor: string; date: string; affirmative: string[]; adverse: string[]; citations: Citation[] };

const MAX_READING = 1200;

function sideOfTurn(turn: Turn, polarity: Claim['polarity']): 'affirmative' | 'adverse' {
  if (turn.team === 'affirmative') return 'affirmative';
  if (turn.team === 'negative') return 'adverse';
  return polarity === 'favorable' ? 'affirmative' : 'adverse';
}

function joinReading(parts: string[]): string {
  const text = [...new Set(parts)].join(' ');
  if (text.length <= MAX_READING) return text;
  // Whole readings only: drop the last ones rather than cut one off mid-sentence.
  const kept: string[] = [];
  for (const part of [...new Set(parts)]) {
    if ([...kept, part].join(' ').length > MAX_READING) break;
    kept.push(part);
  }
  return kept.length ? kept.join(' ') : shorten(parts[0], MAX_READING);
}

export function aggregate(env: Env): Report {
  const { debate, P, request } = env;
  const claims = new Map<string, { claim: Claim; turn: Turn }>();
  const questions = new Map<string, { question: Question; turn: Turn }>();
  for (const turn of debate.turns) {
    for (const claim of turn.claims) claims.set(claim.id, { claim, turn });
    for (const question of turn.questions) questions.set(question.id, { question, turn });
  }

  // Who cited an item first: a later claim that answers nothing but stands on the same item (a
  // closing restating a rebuttal) belongs to that earlier claim's thread.
  const firstCiting = new Map<string, string>();
  for (const turn of debate.turns)
    for (const claim of turn.claims) for (const c of claim.citations) if (!firstCiting.has(citationKey(c))) firstCiting.set(citationKey(c), claim.id);

  // A thread starts at a claim that answers nothing; rebuttals, questions and replies join the
  // thread of what they answer, so a topic carries both sides of one argument.
  const rootOf = (id: string, seen = new Set<string>()): string | undefined => {
    if (seen.has(id)) return undefined;
    seen.add(id);
    const c = claims.get(id);
    if (c) {
      if (c.claim.respondsTo) return rootOf(c.claim.respondsTo, seen) || id;
      const earlier = c.claim.citations[0] && firstCiting.get(citationKey(c.claim.citations[0]));
      return (earlier && earlier !== id && rootOf(earlier, seen)) || id;
    }
    const q = questions.get(id);
    return q ? rootOf(q.question.targetClaimId, seen) : undefined;
  };

  const topics = new Map<string, Topic>();
  const topicOf = (rootId: string): Topic => {
    const root = claims.get(rootId)!.claim;
    const key = `${root.factor}|${root.citations[0]?.date ?? ''}`;
    let topic = topics.get(key);
    if (!topic) {
      topic = { factor: root.factor, date: root.citations[0]?.date ?? '', affirmative: [], adverse: [], citations: [] };
      topics.set(key, topic);
    }
    return topic;
  };

  for (const turn of debate.turns) {
    for (const claim of turn.claims) {
      const topic = topicOf(rootOf(claim.id) ?? claim.id);
      // A closing that restates what its side argued, on the same items, is said to keep it: the
      // reading already stands in the topic once.
      const restates =
        turn.act === 'closing' &&
        !claim.respondsTo &&
        claim.citations.length > 0 &&
        claim.citations.every((c) => topic.citations.some((t) => citationKey(t) === citationKey(c)));
      topic[sideOfTurn(turn, claim.polarity)].push(restates ? P.kept(turn.stepId) : `${turn.stepId}: ${claim.text}`);
      topic.citations.push(...claim.citations);
    }
    for (const question of turn.questions) {
      const root = rootOf(question.id);
      if (!root) continue;
      const side = turn.team === 'neutral' ? 'adverse' : sideOfTurn(turn, 'context');
      // The report names what was probed; the question itself stays in the transcript.
      topicOf(root)[side].push(P.questioned(turn.stepId, question.kind as QuestionKind | undefined));
    }
  }

  const list = [...topics.values()];
  const perFactor = (f: string) => list.filter((t) => t.factor === f).length;
  const summary = (side: 'affirmative' | 'negative') =>
    debate.turns
      .filter((t) => t.team === side && (t.act === 'constructive' || t.act === 'opening' || t.act === 'rebuttal'))
      .flatMap((t) => t.claims)
      .map((c) => P.summaryLine(c.factor, stripLabel(P.label(c.factor), c.text), c.citations[0]?.date ?? ''));

  const cited = uniqueCitations(list.flatMap((t) => t.citations));
  return {
    objective: P.objective(env.company, request.params.asOf),
    overview: overviewOf(env, cited),
    favorableSummary: summary('affirmative'),
    adverseSummary: summary('negative'),
    topics: list.map((t) => ({
      topic: P.topicName(t.factor, t.date, perFactor(t.factor) > 1),
      factor: t.factor,
      affirmative: joinReading(t.affirmative),
      adverse: joinReading(t.adverse),
      citations: uniqueCitations(t.citations),
    })),
  };
}

function stripLabel(label: string, text: string): string {
  return text.startsWith(`${label}:`) ? text.slice(label.length + 1).trim() : text;
}

function overviewOf(env: Env, cited: Citation[]): string {
  const dates = cited
    .map((c) => c.date)
    .filter(Boolean)
    .sort();
  // The borrower's identity fields only (its free-text profile may state facts after the as-of
  // date: docs/protocols.md, "What a prompt may say"), and its industry only when written in the
  // run's language: a Korean report does not paste an English line (lib/i18n/content-language.ts).
  const { company } = env.request;
  const inLanguage = (text: string | null | undefined) => (text && isWrittenIn(text, env.lang) ? text : null);
  return env.P.overview({
    company: { ...company, industry: inLanguage(company.industry) },
    items: cited.length,
    sources: new Set(cited.map((c) => c.source)).size,
    from: dates[0] ?? '',
    to: dates[dates.length - 1] ?? '',
    stale: cited.filter((c) => resolve(env.pool, c)?.stale).length,
    poolOnly: !cited.some((c) => c.evidenceId?.startsWith('web-')),
    thin: cited.length < 3 || new Set(cited.map((c) => resolve(env.pool, c)?.factor ?? c.source)).size < 3,
    readings: readingsOf(env),
  });
}

/** Which way the debate's claims read each factor they argued, in the order it was first argued. */
function readingsOf(env: Env): { favorable: string[]; adverse: string[]; contested: string[] } {
  const ways = new Map<string, Set<string>>();
  for (const turn of env.debate.turns) {
    for (const claim of turn.claims) {
      if (claim.polarity !== 'favorable' && claim.polarity !== 'adverse') continue;
      const set = ways.get(claim.factor) ?? new Set<string>();
      set.add(claim.polarity);
      ways.set(claim.factor, set);
    }
  }
  const all = [...ways];
  return {
    favorable: all.filter(([, w]) => w.size === 1 && w.has('favorable')).map(([f]) => f),
    adverse: all.filter(([, w]) => w.size === 1 && w.has('adverse')).map(([f]) => f),
    contested: all.filter(([, w]) => w.size === 2).map(([f]) => f),
  };
}

const MORE = 2;

/** NAS: for every factor the pool speaks to, each side's chain from its newest items. */
export function poolReport(env: Env): Report {
  const { P, pool, request } = env;
  const topics: Report['topics'] = [];
  const favorableSummary: string[] = [];
  const adverseSummary: string[] = [];
  for (const group of factorGroups(pool.items)) {
    const factor = group[0].factor;
    const by = (p: Item['polarity']) => group.filter((i) => i.polarity === p);
    const [fav, adv, ctx] = [by('favorable'), by('adverse'), by('context')];
    const used: Item[] = [];
    const chain = (items: Item[], side: Side, context: boolean) => {
      if (!items.length) return '';
      const picked = items.slice(0, MORE + 1);
      used.push(...picked);
      return P.chain({ item: picked[0], side, words: env.words(factor, picked[0]), more: picked.slice(1), context });
    };
    const affirmative = fav.length ? chain(fav, 'favorable', false) : chain(ctx, 'favorable', true);
    const adverse = adv.length ? chain(adv, 'adverse', false) : chain(ctx, 'adverse', true);
    if (fav[0]) favorableSummary.push(P.summaryLine(factor, P.name(fav[0]), fav[0].date));
    if (adv[0]) adverseSummary.push(P.summaryLine(factor, P.name(adv[0]), adv[0].date));
    topics.push({ topic: P.topicName(factor, '', false), factor, affirmative, adverse, citations: uniqueCitations(used.map(citationOf)) });
  }
  const cited = uniqueCitations(topics.flatMap((t) => t.citations));
  return {
    objective: P.objective(env.company, request.params.asOf),
    overview: overviewOf(env, cited),
    favorableSummary,
    adverseSummary,
    topics,
  };
}
