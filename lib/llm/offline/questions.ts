// Cross-examinations (KPD-MADS D2, D4, D6, D8) and the devil's advocate's challenges (SAS C):
// questions aimed at the other side's claims, each quoting what it challenges. The kind of
// question follows what is being examined, as the KPD-MADS tasks name them
// (lib/debate/protocols/kpd-mads.ts): a constructive is asked about its interpretation, sources
// and counterexamples, a rebuttal about its consistency and so on.
import type { Claim, Question, Turn as TurnOutput } from '@/lib/domain/outputs';
import type { Turn } from './context';
import { quoteOf, type Env } from './env';
import { itemsOf, showValue, sourceKind } from './material';
import type { QuestionKind } from './phrases';
import { counterexample, type Side } from './select';
import { fit, marker, type Segment } from './text';

const KINDS: Record<string, QuestionKind[]> = {
  'constructive:affirmative': ['interpretation', 'reliability', 'counterexample'],
  'constructive:negative': ['alternative', 'boundary', 'measurement'],
  'rebuttal:affirmative': ['consistency', 'credibility', 'testability'],
  'rebuttal:negative': ['gap', 'omitted', 'contradiction'],
};

// Kinds that need something specific in the pool choose their target first.
const SELECTIVE: QuestionKind[] = ['counterexample', 'contradiction', 'omitted', 'reliability', 'credibility', 'consistency', 'measurement'];

export function kindsFor(turn: Pick<Turn, 'act' | 'team'>): QuestionKind[] {
  const act = turn.act === 'rebuttal' || turn.act === 'follow-up' ? 'rebuttal' : 'constructive';
  const team = turn.team === 'negative' ? 'negative' : 'affirmative';
  return KINDS[`${act}:${team}`];
}

function score(env: Env, kind: QuestionKind, claim: Claim): number {
  const item = itemsOf(env.pool, claim)[0];
  switch (kind) {
    case 'counterexample':
    case 'contradiction':
    case 'omitted':
      return counterexample(env.pool, claim) ? 3 : 0;
    case 'reliability':
    case 'credibility': {
      if (!item) return 2;
      if (item.stale) return 3;
      const k = sourceKind(item);
      return k === 'news' ? 2.5 : k === 'transcript' ? 2 : 1;
    }
    case 'measurement':
      return item && showValue(item) ? 2 : 1;
    case 'consistency':
      return item && item.polarity !== 'context' && item.polarity !== claim.polarity ? 3 : 1;
    case 'gap':
      return item?.polarity === 'context' ? 2 : 1;
    default:
      return 1;
  }
}

/** Kind → claim, spreading questions over claims and factors first, then by fit. */
function assign(env: Env, kinds: QuestionKind[], claims: Claim[]): { kind: QuestionKind; claim: Claim }[] {
  const order = [...kinds].sort((a, b) => Number(!SELECTIVE.includes(a)) - Number(!SELECTIVE.includes(b)));
  const chosen = new Map<QuestionKind, Claim>();
  const used: Claim[] = [];
  for (const kind of order) {
    let best = claims[0];
    let bestScore = -Infinity;
    claims.forEach((c, i) => {
      const s = score(env, kind, c) + (used.includes(c) ? 0 : 10) + (used.some((u) => u.factor === c.factor) ? 0 : 5) - i * 0.01;
      if (s > bestScore) [best, bestScore] = [c, s];
    });
    chosen.set(kind, best);
    used.push(best);
  }
  return kinds.map((kind) => ({ kind, claim: chosen.get(kind)! }));
}

function turnSide(turn: Turn): Side {
  return turn.team === 'negative' ? 'adverse' : 'favorable';
}

/** A stand-in for a turn without claims: the questions then aim at the turn's core claim. */
function coreClaim(turn: Turn): Claim {
  return { id: turn.stepId, text: turn.text.split('\n')[0] ?? '', factor: 'other', polarity: turnSide(turn), citations: [] };
}

function questionText(env: Env, turn: Turn, kind: QuestionKind, claim: Claim): string {
  const items = itemsOf(env.pool, claim);
  const item = items[0];
  if (!claim.citations.length && claim.id === turn.stepId && !claim.text) return env.P.noClaimQuestion(turn.stepId, kind);
  return env.P.question({
    kind,
    step: turn.stepId,
    quote: quoteOf(env, claim),
    factor: claim.factor,
    words: env.words(claim.factor, item),
    item,
    sourceKind: item ? sourceKind(item) : undefined,
    counter: claim.citations.length ? counterexample(env.pool, claim) : undefined,
    against: claim.polarity === 'favorable' ? 'favorable' : 'adverse',
    itemAgainst: !!item && item.polarity !== 'context' && claim.polarity !== 'context' && item.polarity !== claim.polarity,
    asOf: env.pool.asOf,
    recencyDays: env.pool.recencyDays,
  });
}

/** The turns a step examines: the other team's, or for a neutral examiner both teams'. */
export function examinedTurns(env: Env): Turn[] {
  const { step, debate } = env;
  const asking = (t: Turn) => t.act === 'cross-examination' || t.act === 'challenge' || t.act === 'judgment';
  return debate.turns.filter((t) => !asking(t) && (step.team === 'neutral' ? t.team !== 'neutral' : t.team !== step.team && t.team !== 'neutral'));
}

export function crossExamination(env: Env): TurnOutput {
  const { step, P } = env;
  const targets = examinedTurns(env);
  const perTarget =
    targets.length <= 1
      ? (step.rules?.exactQuestions ?? 3)
      : Math.min(3, Math.max(1, Math.floor((step.rules?.exactQuestions ?? 2 * targets.length) / targets.length)));
  const questions: Question[] = [];
  const segments: Segment[] = [];
  for (const turn of targets) {
    const claims = turn.claims.length ? turn.claims : [coreClaim(turn)];
    const base = kindsFor(turn);
    const kinds = Array.from({ length: perTarget }, (_, i) => base[i % base.length]);
    const plan = assign(env, kinds, claims);
    const labels = [...new Set(plan.map((p) => p.claim.factor).filter((f) => turn.claims.length > 0 || f !== 'other'))].map((f) => P.label(f));
    segments.push({ text: P.crossHeader(turn.stepId, labels.length ? labels : [turn.stepId], plan.length), priority: 10, join: 'line' });
    plan.forEach(({ kind, claim }, i) => {
      const text = questionText(env, turn, kind, claim);
      questions.push({ id: `${step.id}-q${questions.length + 1}`, targetClaimId: claim.id, text, kind });
      segments.push({ text: `${marker(i, env.lang)} ${text}`, priority: 9, join: 'line' });
    });
  }
  if (!targets.length) segments.push({ text: P.noClaimQuestion(step.context.join(', ') || step.id, 'challenge'), priority: 10 });
  return { text: fit(segments, step.maxChars), claims: [], questions };
}
