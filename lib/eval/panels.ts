// The factor-tagged pro/con panels: every argument of a run filed under its guideline factor
// (lib/domain/factors.ts) and its side, with the citations behind it. Pure, so the run page can rebuild
// it on every streamed turn and the compare page can count coverage from the same grouping.
import type { Team } from '@/lib/domain/protocol';
import type { Polarity } from '@/lib/domain/vocabulary';
import { normaliseFactor } from '@/lib/eval/tree';
import { readsAgainst, teamPolarity, type AgainstItem, type ReadingOf } from '@/lib/eval/reading-consistency';
import { FACTORS, isFactorId, type FactorId } from '@/lib/domain/factors';

/** The fields of a run-view turn the panels read; a partial run simply has fewer done turns. */
export type PanelTurn = { step: string; team: Team; act: string; status: string; output: unknown };

export type PanelCitation = { source: string; date: string; value?: string; evidenceId?: string; verified: boolean };

/**
 * `favorable` and `adverse` are the two sides of the debate. A claim tagged `context`
 * (context-dependent) argues for whichever team made it; only a neutral agent's context claim
 * stays a side of its own, because no team owns it.
 */
export type PanelSide = Polarity;

export type PanelArgument = {
  /** `<stepId>/<id>`, unique in a run. */
  key: string;
  stepId: string;
  /** The claim id the agent gave (`D5-c1`), or null for report entries. */
  claimId: string | null;
  team: Team;
  act: string;
  side: PanelSide;
  /** True when the agent tagged it context-dependent rather than plainly favorable or adverse. */
  contextual: boolean;
  /** The claim it answers, when it is a rebuttal or a reply. */
  respondsTo: string | null;
  text: string;
  citations: PanelCitation[];
  source: 'claim' | 'argument' | 'report';
  /**
   * The cited items whose tagged reading contradicts the argument's polarity: it "reads against
   * its evidence" (lib/eval/reading-consistency.ts). Empty when consistent, when it is
   * context-dependent, for report entries, and when the panels were built without the readings.
   */
  readsAgainst: AgainstItem[];
};

export type FactorPanel = { factor: FactorId; favorable: PanelArgument[]; adverse: PanelArgument[]; context: PanelArgument[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function citationsFrom(value: unknown): PanelCitation[] {
  return list(value).map((c) => ({
    source: str(c.source),
    date: str(c.date),
    ...(str(c.value) ? { value: str(c.value) } : {}),
    ...(str(c.evidenceId) ? { evidenceId: str(c.evidenceId) } : {}),
    verified: c.verified === true,
  }));
}

/** Labels and ids the agents wrote, mapped onto the eleven panels; anything else is `other`. */
export function panelFactor(value: string): FactorId {
  const f = normaliseFactor(value);
  return isFactorId(f) ? f : 'other';
}

function sideOf(polarity: string, team: Team): PanelSide {
  if (polarity === 'favorable' || polarity === 'adverse') return polarity;
  if (team === 'affirmative') return 'favorable';
  if (team === 'negative') return 'adverse';
  return 'context';
}

type Placed = PanelArgument & { factor: FactorId };

const NO_READINGS: ReadingOf = () => undefined;

function fromDebate(turn: PanelTurn, readingOf: ReadingOf): Placed[] {
  const out = isObj(turn.output) ? turn.output : {};
  const base = { stepId: turn.step, team: turn.team, act: turn.act };
  const claims = list(out.claims).map((c): Placed => {
    const polarity = str(c.polarity);
    return {
      ...base,
      key: `${turn.step}/${str(c.id)}`,
      claimId: str(c.id) || null,
      side: sideOf(polarity, turn.team),
      contextual: polarity === 'context',
      respondsTo: str(c.respondsTo) || null,
      text: str(c.text),
      citations: citationsFrom(c.citations),
      source: 'claim',
      readsAgainst: readsAgainst({ polarity, citations: c.citations }, readingOf),
      factor: panelFactor(str(c.factor)),
    };
  });
  // The three-round debate numbers arguments instead of claims; the team gives the side.
  const args = list(out.arguments).map((a): Placed => ({
    ...base,
    key: `${turn.step}/${str(a.id)}`,
    claimId: str(a.id) || null,
    side: sideOf('', turn.team),
    contextual: false,
    respondsTo: null,
    text: [str(a.claim), str(a.reasoning)].filter(Boolean).join(' — '),
    citations: citationsFrom(a.evidence),
    source: 'argument',
    readsAgainst: readsAgainst({ polarity: teamPolarity(turn.team), citations: a.evidence }, readingOf),
    factor: panelFactor(str(a.factor)),
  }));
  return [...claims, ...args];
}

/** A report-only run (NAS): its topics carry both readings per factor; summaries fill in when there are none. */
function fromReport(turn: PanelTurn): Placed[] {
  const out = isObj(turn.output) ? turn.output : {};
  const base = {
    stepId: turn.step,
    team: turn.team,
    act: turn.act,
    claimId: null,
    contextual: false,
    respondsTo: null,
    source: 'report' as const,
    readsAgainst: [],
  };
  const topics = list(out.topics);
  if (topics.length) {
    return topics.flatMap((t, i) => {
      const factor = panelFactor(str(t.factor) || str(t.topic));
      const citations = citationsFrom(t.citations);
      const sides = [
        ['favorable', str(t.affirmative)],
        ['adverse', str(t.adverse)],
      ] as const;
      return sides
        .filter(([, text]) => text.trim())
        .map(([side, text]): Placed => ({ ...base, key: `${turn.step}/t${i + 1}-${side}`, side, text, citations, factor }));
    });
  }
  // Summary lines read "<factor label> (<date>): …"; the label before the bracket or colon files them.
  const summary = (side: 'favorable' | 'adverse', lines: unknown) =>
    (Array.isArray(lines) ? lines : [])
      .map(str)
      .filter(Boolean)
      .map((text, i): Placed => ({
        ...base,
        key: `${turn.step}/${side}-${i + 1}`,
        side,
        text,
        citations: [],
        factor: panelFactor(text.split(/\s*[(:]/)[0]),
      }));
  return [...summary('favorable', out.favorableSummary), ...summary('adverse', out.adverseSummary)];
}

/**
 * One panel per factor, in the guideline's order with `other` last, each side in protocol order.
 * Debate claims (constructive, rebuttal, closing) are the arguments; a run whose done turns
 * hold none — a single-agent report — is read from its report instead. `readingOf` gives the
 * tagged reading of a cited item, to mark the arguments that read against their evidence.
 */
export function buildFactorPanels(turns: PanelTurn[], readingOf: ReadingOf = NO_READINGS): FactorPanel[] {
  const done = turns.filter((t) => t.status === 'done');
  let placed = done.flatMap((t) => fromDebate(t, readingOf));
  if (!placed.length) placed = done.flatMap(fromReport);
  return FACTORS.map(({ id }) => {
    const here = placed.filter((p) => p.factor === id).map(({ factor: _factor, ...arg }) => arg);
    return {
      factor: id,
      favorable: here.filter((a) => a.side === 'favorable'),
      adverse: here.filter((a) => a.side === 'adverse'),
      context: here.filter((a) => a.side === 'context'),
    };
  });
}

export type PanelFilter = { factor: FactorId | 'all'; side: PanelSide | 'all'; citedOnly: boolean; verifiedOnly?: boolean };

export const NO_FILTER: PanelFilter = { factor: 'all', side: 'all', citedOnly: false };

/** The panels with only the arguments a filter keeps; every factor stays, so gaps remain visible. */
export function filterPanels(panels: FactorPanel[], filter: PanelFilter): FactorPanel[] {
  const keep = (a: PanelArgument) =>
    (filter.side === 'all' || a.side === filter.side) &&
    (!filter.citedOnly || a.citations.length > 0) &&
    (!filter.verifiedOnly || (a.citations.length > 0 && a.citations.every((c) => c.verified)));
  return panels
    .filter((p) => filter.factor === 'all' || p.factor === filter.factor)
    .map((p) => ({ ...p, favorable: p.favorable.filter(keep), adverse: p.adverse.filter(keep), context: p.context.filter(keep) }));
}

export type PanelCounts = { favorable: number; adverse: number; context: number; citations: number; unverified: number };

export function panelCounts(panel: FactorPanel): PanelCounts {
  const all = [...panel.favorable, ...panel.adverse, ...panel.context];
  const cites = all.flatMap((a) => a.citations);
  return {
    favorable: panel.favorable.length,
    adverse: panel.adverse.length,
    context: panel.context.length,
    citations: cites.length,
    unverified: cites.filter((c) => !c.verified).length,
  };
}

export function isCovered(panel: FactorPanel): boolean {
  return panel.favorable.length + panel.adverse.length + panel.context.length > 0;
}
