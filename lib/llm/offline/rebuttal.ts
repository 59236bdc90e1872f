// Rebuttals (KPD-MADS D5 and D7, SAS R-A and R-N): for each claim of the other side, dated
// counter-evidence on the same factor when the pool has it, else a context item that qualifies
// it; with neither, the claim is left standing — its own evidence is never read against its
// words. Challenges put to this side are answered first (in KPD-MADS, those that bring
// counter-evidence).
import type { Claim, Question, Turn as TurnOutput } from '@/lib/domain/outputs';
import type { Turn } from './context';
import { quoteOf, sideOf, type Env } from './env';
import { citationOf, itemsOf, resolve, uniqueCitations } from './material';
import { capitalize, rereading, type RebuttalData } from './phrases';
import { counterFor, decisiveCounter, type Side } from './select';
import { fit, type Segment } from './text';

const MAX_TARGETS = 3;

/**
 * KPD-MADS: whether answering a question extends its branch — only when there is counter-evidence to answer:
 * the question sets a dated item against the claim, or the claim is itself a rebuttal standing on
 * counter-evidence. A question with none leaves the claim standing as argued; the branch stops.
 */
export function worthAnswering(env: Env, question: Question, target: Claim | undefined): boolean {
  if (!target) return false;
  // Other protocols oblige a side to answer every challenge put to it (SAS's devil's advocate).
  if (env.request.protocol.id !== 'kpd-mads') return true;
  return !!target.respondsTo || env.P.raisesCounter(question.text);
}

/** Questions from the other side (or a neutral examiner) aimed at this team's claims or turns. */
export function questionsFor(env: Env, team: Turn['team']): { question: Question; target: Claim | undefined }[] {
  const { debate } = env;
  const ownTurns = debate.turns.filter((t) => t.team === team);
  const ownClaims = new Map(ownTurns.flatMap((t) => t.claims.map((c) => [c.id, c] as const)));
  const ownSteps = new Set(ownTurns.map((t) => t.stepId));
  return debate
    .questions((t) => t.team !== team)
    .filter((q) => ownClaims.has(q.targetClaimId) || ownSteps.has(q.targetClaimId))
    .map((question) => ({ question, target: ownClaims.get(question.targetClaimId) }));
}

/** A claim answering a question, standing on the evidence of the claim the question targets. */
export function answerClaim(env: Env, id: string, question: Question, target: Claim | undefined, side: Side, index: number): Claim | null {
  const item = target ? itemsOf(env.pool, target)[0] : undefined;
  const factor = target?.factor ?? item?.factor ?? 'other';
  const answer = env.P.answer({
    kind: question.kind ?? 'challenge',
    assumption: target?.assumptions?.[0],
    question: question.text,
    factor,
    words: env.words(factor, item),
    item,
    side,
    recencyDays: env.pool.recencyDays,
  });
  if (!target || !target.citations.length) return null;
  return {
    id,
    text: env.P.answerLine(index, question.id, answer),
    factor: target.factor,
    polarity: target.polarity,
    citations: uniqueCitations(target.citations),
    respondsTo: question.id,
    assumptions: target.assumptions,
  };
}

export function rebuttal(env: Env): TurnOutput {
  const { step, P, pool, debate } = env;
  const side: Side = sideOf(step) ?? 'favorable';
  const claims: Claim[] = [];
  const segments: Segment[] = [];
  const nextId = () => `${step.id}-c${claims.length + 1}`;

  const challenges = questionsFor(env, step.team).filter(({ question, target }) => worthAnswering(env, question, target));
  challenges.forEach(({ question, target }, i) => {
    const claim = answerClaim(env, nextId(), question, target, side, i);
    if (claim) {
      claims.push(claim);
      segments.push({ text: claim.text, priority: 9, join: 'line' });
    }
  });

  const opposing = debate.turns.filter((t) => t.team !== step.team && t.team !== 'neutral' && t.claims.length > 0);
  const avoid = new Set<string>();
  const blocks: { step: string; rebutted: RebuttalData[] }[] = [];
  for (const turn of opposing) {
    const targets = turn.claims.slice(0, challenges.length ? 2 : MAX_TARGETS);
    const rebutted: RebuttalData[] = [];
    for (const target of targets) {
      const first = counterFor(pool, target, side, avoid);
      if (!first) continue;
      avoid.add(first.item.key);
      const second = first.mode === 'counter' ? decisiveCounter(pool, target, side, avoid) : undefined;
      if (second) avoid.add(second.key);
      for (const counter of second ? [first, { item: second, mode: 'counter' as const }] : [first]) {
        const data: RebuttalData = {
          step: turn.stepId,
          quote: quoteOf(env, target),
          factor: target.factor,
          side,
          mode: counter.mode,
          tagged: counter.mode === 'reinterpret' && counter.item.polarity === side,
          item: counter.item,
          words: env.words(target.factor, counter.mode === 'reinterpret' ? counter.item : (itemsOf(pool, target)[0] ?? counter.item)),
        };
        claims.push({
          id: nextId(),
          text: P.rebuttal(data),
          factor: target.factor,
          // Counter-evidence reads the side's way; a context item only qualifies the claim.
          polarity: counter.mode === 'counter' ? side : 'context',
          citations: [citationOf(counter.item)],
          respondsTo: target.id,
        });
        rebutted.push(data);
      }
    }
    if (rebutted.length) blocks.push({ step: turn.stepId, rebutted });
  }
  // Full sentences when they fit the limit, shortened reinterpretations when they do not.
  const render = (short: boolean) => {
    const out: Segment[] = [];
    for (const block of blocks) {
      out.push({ text: P.rebuttalHeader(block.step), priority: 10, join: 'line' });
      block.rebutted.forEach((d, i) => {
        out.push({ text: P.rebuttalLine(i, d, short), priority: 8, join: 'line' });
        if (d.mode !== 'reinterpret') out.push({ text: readingOf(d), priority: 1 });
      });
    }
    return out;
  };
  const full = render(false);
  const fitted = fit([...segments, ...full], step.maxChars);
  const fitsFull = full.every((seg) => seg.priority < 8 || fitted.includes(seg.text));
  segments.push(...(fitsFull ? full : render(true)));
  if (!claims.length) {
    const about = opposing.map((t) => t.stepId).join(', ') || step.context.join(', ');
    segments.push({ text: P.nothingToRebut(about), priority: 10 });
  }
  const stale = claims.filter((c) => c.citations.some((ci) => resolve(pool, ci)?.stale)).length;
  if (stale) segments.push({ text: P.staleNote(stale, pool.recencyDays), priority: 5, join: 'line' });
  return { text: fit(segments, step.maxChars), claims, questions: [] };
}

/** Why the rebuttal matters, as one sentence: the counter's reading or the reinterpretation. */
function readingOf(d: RebuttalData): string {
  const text = d.mode === 'counter' ? (d.side === 'favorable' ? d.words.favReading : d.words.advReading) : rereading(d);
  return `${capitalize(text)}.`;
}
