// Reading consistency: a claim that argues one way while citing an item tagged the other way
// "reads against its evidence" — a favorable claim resting on an item tagged adverse (a
// creditor-bank workout filing read as a strength), or an adverse claim resting on one tagged
// favorable. The engine never takes the model's word for it: the tag is the pool's (or, for a
// finished run, the tag its cited-evidence snapshot recorded). Context-dependent claims and
// context items never contradict anything, and a citation whose item has no tag (a web result,
// a document passage, an id that did not resolve) is not judged. Pure, so the claim cards, the
// pro/con panels and the report all flag the same claims.
import { claimsOf } from '@/lib/domain/output-parts';
import type { Team } from '@/lib/domain/protocol';
import type { Polarity } from '@/lib/domain/vocabulary';

/** The tagged reading of a cited item, by its evidence id; null or undefined when it has none. */
export type ReadingOf = (evidenceId: string) => Polarity | null | undefined;

/** One cited item whose tagged reading is the opposite of the claim's. */
export type AgainstItem = { evidenceId: string; reading: 'favorable' | 'adverse' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The items a claim cites whose tagged reading contradicts its polarity, each once, in citation
 * order. Empty when the claim is context-dependent or consistent with everything it cites.
 */
export function readsAgainst(claim: { polarity: unknown; citations?: unknown }, readingOf: ReadingOf): AgainstItem[] {
  const polarity = claim.polarity;
  if (polarity !== 'favorable' && polarity !== 'adverse') return [];
  const out: AgainstItem[] = [];
  for (const c of Array.isArray(claim.citations) ? claim.citations : []) {
    const id = isObj(c) && typeof c.evidenceId === 'string' ? c.evidenceId : '';
    if (!id || out.some((x) => x.evidenceId === id)) continue;
    const reading = readingOf(id);
    if ((reading === 'favorable' || reading === 'adverse') && reading !== polarity) out.push({ evidenceId: id, reading });
  }
  return out;
}

/** The side an argument of the three-round debate takes: its team's (it carries no polarity of its own). */
export function teamPolarity(team: Team | string): 'favorable' | 'adverse' | 'context' {
  return team === 'affirmative' ? 'favorable' : team === 'negative' ? 'adverse' : 'context';
}

/** A claim (or a three-round argument) of a run that reads against its evidence. */
export type ReadingMismatch = {
  step: string;
  /** The claim's or argument's id as the agent gave it. */
  claimId: string;
  source: 'claim' | 'argument';
  polarity: 'favorable' | 'adverse';
  text: string;
  against: AgainstItem[];
};

/**
 * Every claim of the run's finished turns that reads against its evidence, in protocol order:
 * claims of turns, briefings and drafts, and the three-round debate's arguments (whose side is
 * their team's). A safety check's kept report repeats the draft's or the leader's claims, which
 * are counted once, on the turn that made them.
 */
export function readingMismatches(turns: { step: string; team: Team | string; status: string; output: unknown }[], readingOf: ReadingOf): ReadingMismatch[] {
  const out: ReadingMismatch[] = [];
  const seen = new Set<string>();
  const add = (step: string, source: ReadingMismatch['source'], id: string, polarity: unknown, text: string, citations: unknown) => {
    const against = readsAgainst({ polarity, citations }, readingOf);
    const key = `${step}/${id}`;
    if (!against.length || seen.has(key)) return;
    seen.add(key);
    out.push({ step, claimId: id, source, polarity: polarity as 'favorable' | 'adverse', text, against });
  };
  for (const turn of turns) {
    if (turn.status !== 'done' || !isObj(turn.output)) continue;
    const output = turn.output;
    for (const c of claimsOf(output)) add(turn.step, 'claim', c.id, c.polarity, c.text, c.citations);
    if (Array.isArray(output.arguments)) {
      for (const a of output.arguments.filter(isObj)) {
        add(turn.step, 'argument', String(a.id ?? ''), teamPolarity(turn.team), String(a.claim ?? ''), a.evidence);
      }
    }
  }
  return out;
}
