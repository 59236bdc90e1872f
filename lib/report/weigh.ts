// "What the committee must weigh": the section every finished report ends with, on every system
// (docs/protocols.md, "The report's bottom line"). The analysis picks no winner, so this is not a
// verdict: it puts side by side the few most material points each side made, the decisive events
// and whether the report answers them, and the evidence that is missing or weak (factors no side
// argued, citations that are stale, dated after the as-of date or unresolved). Built from what the
// run stored, by rule, so it reads the same on the page and in the exports. Pure.
import { GUIDELINE_FACTORS } from '@/lib/domain/factors';
import { claimsOf } from '@/lib/domain/output-parts';
import { translator, type Locale } from '@/lib/i18n';
import { weighMessages } from '@/lib/i18n/messages/weigh';
import { teamPolarity } from '@/lib/eval/reading-consistency';
import type { Block, CheckRow, CitationRef, RedFlagRow, Section, Sources } from '@/lib/report/doc';

type Turn = { step: string; agent: string; team: string; status: string; output: unknown };

/** A point a side made: a claim, a three-round argument (whose side is its team's), or one reading of a report's topic. */
type Point = { text: string; factor: string; polarity: 'favorable' | 'adverse'; speaker: string; citations: unknown[]; score: number };

export type WeighInput = {
  turns: readonly Turn[];
  sources: Sources;
  flags: RedFlagRow[];
  checks: CheckRow[];
  locale: Locale;
  factorLabel: (factor: string) => string;
  /** Who made a point: the turn's step id, which the report writes as the turn's name and links (lib/report/turn-names.ts), or the agent. */
  speakerLabel: (agent: string, step: string) => string;
  cite: (citations: unknown) => CitationRef[];
};

/** How many points per side the section shows. */
export const POINTS_PER_SIDE = 3;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const AMOUNT = /\d[\d,.]*\s?(%|percent|억|조|만|원|달러|\$|KRW|USD|million|billion|bn)|[$₩]\s?\d/i;

/**
 * What makes a point material, by rule: it rests on a decisive event; it rests on more verified
 * evidence; it states an amount; its newest verified evidence is recent. Ties keep the order the
 * debate made them in.
 */
function materiality(text: string, citations: unknown[], sources: Sources, flagged: Set<string>): number {
  const verified = citations.filter((c): c is Obj => isObj(c) && c.verified === true && typeof c.evidenceId === 'string');
  const onFlag = verified.some((c) => flagged.has(c.evidenceId as string));
  const newest =
    verified
      .map((c) => sources[c.evidenceId as string]?.publishedDate ?? String(c.date ?? ''))
      .sort()
      .at(-1) ?? '';
  const year = Number(newest.slice(0, 4)) || 0;
  return (onFlag ? 100 : 0) + Math.min(verified.length, 3) * 3 + (AMOUNT.test(text) ? 2 : 0) + Math.max(0, year - 2000) / 100;
}

function pointsOf(input: WeighInput): Point[] {
  const flagged = new Set(input.flags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]));
  const out: Point[] = [];
  const seen = new Set<string>();
  const add = (turn: Turn, text: unknown, factor: unknown, polarity: unknown, citations: unknown) => {
    const t = String(text ?? '').trim();
    const key = t.toLowerCase();
    if (!t || seen.has(key) || (polarity !== 'favorable' && polarity !== 'adverse')) return;
    seen.add(key);
    const cites = Array.isArray(citations) ? citations : [];
    out.push({
      text: t,
      factor: typeof factor === 'string' ? factor : 'other',
      polarity,
      speaker: input.speakerLabel(turn.agent, turn.step),
      citations: cites,
      score: materiality(t, cites, input.sources, flagged),
    });
  };
  for (const turn of input.turns) {
    if (turn.status !== 'done' || !isObj(turn.output)) continue;
    for (const c of claimsOf(turn.output)) add(turn, c.text, c.factor, c.polarity, c.citations);
    if (Array.isArray(turn.output.arguments))
      for (const a of turn.output.arguments.filter(isObj)) add(turn, a.claim, a.factor, teamPolarity(turn.team), a.evidence);
  }
  // A report's topics read each factor both ways: the points of a run whose turns made no claim
  // (a single agent's report). Elsewhere they restate the debaters' claims, turn after turn.
  if (out.length) return out;
  for (const turn of input.turns) {
    if (turn.status !== 'done' || !isObj(turn.output)) continue;
    if (Array.isArray(turn.output.topics)) {
      for (const topic of turn.output.topics.filter(isObj)) {
        add(turn, topic.affirmative, topic.factor, 'favorable', topic.citations);
        add(turn, topic.adverse, topic.factor, 'adverse', topic.citations);
      }
    }
  }
  return out;
}

/** The most material points of one side, on distinct factors first. */
function strongest(points: Point[], polarity: Point['polarity']): Point[] {
  const side = points.filter((p) => p.polarity === polarity).sort((a, b) => b.score - a.score);
  const picked: Point[] = [];
  const factors = new Set<string>();
  for (const p of side) {
    if (picked.length === POINTS_PER_SIDE) break;
    if (p.factor !== 'other' && factors.has(p.factor)) continue;
    picked.push(p);
    factors.add(p.factor);
  }
  for (const p of side) if (picked.length < POINTS_PER_SIDE && !picked.includes(p)) picked.push(p);
  return picked;
}

export function weighSection(input: WeighInput): Section {
  const t = translator(weighMessages, input.locale);
  const points = pointsOf(input);
  const side = (polarity: Point['polarity'], title: string): Block => {
    const chosen = strongest(points, polarity);
    const factor = (p: Point) => (p.factor === 'other' ? null : input.factorLabel(p.factor));
    const lines = chosen.map((p) =>
      factor(p) ? t('point', { text: p.text, speaker: p.speaker, factor: factor(p)! }) : t('pointNoFactor', { text: p.text, speaker: p.speaker }),
    );
    const cited = input.cite(chosen.flatMap((p) => p.citations)).filter((c, i, all) => c.verified && all.findIndex((x) => x.evidenceId === c.evidenceId) === i);
    return {
      kind: 'group',
      title,
      blocks: lines.length
        ? [{ kind: 'list', items: lines }, ...(cited.length ? [{ kind: 'citations' as const, items: cited }] : [])]
        : [{ kind: 'paragraph', text: t('none') }],
    };
  };

  const unanswered = new Set(input.checks.find((c) => c.id === 'red-flags-addressed')?.items ?? []);
  const events: Block = {
    kind: 'group',
    title: t('eventsTitle'),
    blocks: input.flags.length
      ? [
          {
            kind: 'list',
            items: input.flags.map((f) => {
              const answered = ![...unanswered].some((line) => line.includes(`[${f.evidenceId}]`));
              return `${t('event', { kind: f.label, date: f.date, title: f.title })} (${answered ? t('eventAddressed') : t('eventNotAddressed')})`;
            }),
          },
        ]
      : [{ kind: 'paragraph', text: t('noEvents') }],
  };

  const argued = new Set(points.map((p) => p.factor));
  const unargued = GUIDELINE_FACTORS.filter((f) => !argued.has(f.id)).map((f) => input.factorLabel(f.id));
  const count = (id: string) => input.checks.find((c) => c.id === id)?.items.length ?? 0;
  const counted = (n: number, one: 'staleOne' | 'afterAsOfOne' | 'unverifiedOne', many: 'stale' | 'afterAsOf' | 'unverified') =>
    n === 0 ? [] : [n === 1 ? t(one) : t(many, { n })];
  const gaps = [
    ...(unargued.length ? [t('unargued', { factors: unargued.join(input.locale === 'ko' ? ', ' : '; ') })] : []),
    ...counted(count('stale-evidence'), 'staleOne', 'stale'),
    ...counted(count('after-as-of'), 'afterAsOfOne', 'afterAsOf'),
    ...counted(count('unverified-citations'), 'unverifiedOne', 'unverified'),
  ];

  return {
    id: 'weigh',
    title: t('title'),
    blocks: [
      { kind: 'paragraph', text: t('intro') },
      side('favorable', t('forTitle')),
      side('adverse', t('againstTitle')),
      events,
      { kind: 'group', title: t('gapsTitle'), blocks: [gaps.length ? { kind: 'list', items: gaps } : { kind: 'paragraph', text: t('noGaps') }] },
    ],
  };
}
