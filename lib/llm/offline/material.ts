// What the offline analyst may cite: the step's evidence, its retrieved passages and the
// citations earlier turns handed it as context — nothing else. Every item keeps the source and
// date it came with, so every claim the analyst writes resolves to something the RM can open.
import type { Citation, Claim } from '@/lib/domain/outputs';
import type { Polarity } from '@/lib/domain/vocabulary';
import type { GenerateRequest } from '@/lib/llm/types';
import { isStale, recencyCutoff } from '@/lib/pool/as-of';
import { amountScale, readMateriality, scoreMateriality, type MaterialityInput, type MaterialityReading } from '@/lib/pool/materiality';
import { isFactorId, type FactorId } from '@/lib/domain/factors';
import { tagByCategory, tagPassage } from '@/lib/pool/factors';
import { insideBrackets, sentenceEnds, sentences } from '@/lib/util/sentences';
import { CATEGORY_EN } from './lexicon-en';
import { CATEGORY_KO } from './lexicon-ko';
import { isRedFlag, readingOf, signalOf, type Signal } from './reading';

export type Origin = 'pool' | 'passage' | 'context';

export type Item = {
  /** Unique within a pool: the evidence id, `chunk:<id>` or `cite:<source>|<date>`. */
  key: string;
  /** Set when the item is a pool evidence item (or a web result): what a citation names. */
  evidenceId?: string;
  factor: FactorId;
  /** The item's reading: its tag checked against its own words (reading.ts). */
  polarity: Polarity;
  /** What kind of signal its words make it, when that needs its own reading (reading.ts). */
  signal: Signal | null;
  /** A decisive credit event (default, workout, sanction …): never read as favorable. */
  redFlag: boolean;
  category: string;
  title: string;
  text: string;
  value: string | null;
  date: string;
  source: string;
  stale: boolean;
  origin: Origin;
  /** How material the item is among the step's items (lib/pool/materiality.ts). */
  materiality: number;
  /** Fresh and reporting a red flag, an authority's action or a one-time charge (lib/pool/materiality.ts). */
  decisive: boolean;
};

export type Pool = {
  items: Item[];
  byKey: Map<string, Item>;
  asOf: string;
  recencyDays: number;
  /** Evidence items and passages the step was given (context citations not counted). */
  given: number;
};

const POLARITY_SET = new Set<string>(['favorable', 'adverse', 'context']);

const ORIGIN_ORDER: Record<Origin, number> = { pool: 0, passage: 1, context: 2 };

export function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Fresh before stale, most material first (lib/pool/materiality.ts), newest first, pool items
 * before passages, then by key: a total order.
 */
export function rank(a: Item, b: Item): number {
  return (
    cmp(Number(a.stale), Number(b.stale)) ||
    cmp(b.materiality, a.materiality) ||
    cmp(b.date, a.date) ||
    cmp(ORIGIN_ORDER[a.origin], ORIGIN_ORDER[b.origin]) ||
    cmp(a.key, b.key)
  );
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cutoffOf(asOf: string, recencyDays: number): string | null {
  try {
    return recencyCutoff(asOf, recencyDays);
  } catch {
    return null;
  }
}

/**
 * The item's factor and its reading: the stored tag (the import's rule tag or the RM's
 * override), else the rule tag, then checked against the item's own words (reading.ts).
 */
function tagOf(
  factor: string | null | undefined,
  polarity: Polarity | null | undefined,
  item: { category: string; title: string; text: string },
  rm = false,
): { factor: FactorId; polarity: Polarity; signal: Signal | null; redFlag: boolean } {
  const tag = factor && isFactorId(factor) && polarity ? { factor, polarity } : tagByCategory(item);
  const resolved = { factor: factor && isFactorId(factor) ? factor : tag.factor, polarity: polarity ?? tag.polarity };
  return { ...resolved, polarity: readingOf({ ...item, polarity: resolved.polarity, rm }), signal: signalOf(item), redFlag: isRedFlag(item) };
}

/**
 * The step's material. Context citations are resolved to pool items where the ids match; the
 * rest (steps that see no pool, like closings and the aggregator) become items of their own,
 * carrying the factor and polarity of the claim that cited them.
 */
export function buildPool(request: PoolRequest, contextClaims: Claim[]): Pool {
  const building = poolInSlices(request, contextClaims);
  for (;;) {
    const next = building.next();
    if (next.done) return next.value;
  }
}

/**
 * The same pool, built a slice at a time with `pause()` between slices: on a pool of thousands
 * of items the whole build takes a few hundred milliseconds, which must not hold up the server
 * the run executes in (its health checks, its pages, its other runs' streams).
 */
export async function buildPoolYielding(request: PoolRequest, contextClaims: Claim[], pause: () => Promise<void>): Promise<Pool> {
  const building = poolInSlices(request, contextClaims);
  for (;;) {
    const next = building.next();
    if (next.done) return next.value;
    await pause();
  }
}

type PoolRequest = Pick<GenerateRequest, 'evidence' | 'passages' | 'context' | 'params'>;

/** Items cleaned and tagged between two pauses: a few milliseconds' work. */
const ITEMS_PER_SLICE = 250;

/** buildPool's work, yielding after every ITEMS_PER_SLICE items so a caller can pause there. */
function* poolInSlices(request: PoolRequest, contextClaims: Claim[]): Generator<void, Pool> {
  const { asOf, recencyDays } = request.params;
  const cutoff = cutoffOf(asOf, recencyDays);
  const byKey = new Map<string, Item>();
  // Each item's own words are read for materiality as it is added, a slice at a time; its amount
  // is weighed against the others' once all are in (lib/pool/materiality.ts).
  const read = new Map<string, MaterialityReading>();
  const add = (item: Omit<Item, 'materiality' | 'decisive'>, source: MaterialityInput = item) => {
    if (byKey.has(item.key)) return;
    byKey.set(item.key, { ...item, materiality: 0, decisive: false });
    read.set(item.key, readMateriality(source));
  };

  let sliced = 0;
  for (const e of request.evidence) {
    if (++sliced % ITEMS_PER_SLICE === 0) yield;
    add(
      {
        key: e.id,
        evidenceId: e.id,
        ...tagOf(e.factor, e.polarity, e, e.factorSource === 'rm'),
        category: e.category,
        title: clean(e.title),
        text: clean(e.text),
        value: e.value,
        date: e.publishedDate,
        source: e.sourceName,
        stale: e.stale,
        origin: 'pool',
      },
      e,
    );
  }
  for (const p of request.passages) {
    if (++sliced % ITEMS_PER_SLICE === 0) yield;
    // A retrieved pool item keeps its own category and tag; a document passage is read off its
    // section (lib/pool/factors.ts tagPassage), as the engine's reading check reads it.
    const snippet = clean(p.snippet);
    const section = p.kind === 'evidence' ? null : tagPassage({ documentTitle: p.title, heading: p.heading ?? null, text: snippet });
    const category = section?.category ?? p.category ?? 'news';
    // A passage is named by its own first sentence: every chunk of a document shares its title.
    const title = p.kind === 'evidence' ? clean(p.title) : (firstSentence(snippet) ?? clean(p.heading ?? p.title));
    const stored = p.kind === 'evidence' && p.polarity && POLARITY_SET.has(p.polarity) ? (p.polarity as Polarity) : null;
    const tag = section
      ? {
          factor: section.factor,
          polarity: section.polarity,
          signal: signalOf({ category, title: p.heading ?? p.title, text: snippet }),
          redFlag: isRedFlag({ category, title, text: snippet }),
        }
      : tagOf(p.factor, stored, { category, title: p.title, text: snippet }, p.factorSource === 'rm');
    add({
      // A document passage is cited by its chunk id: the engine resolves it against the
      // passages the step was given, as it resolves evidence ids against the evidence.
      key: p.kind === 'evidence' ? p.id : `chunk:${p.id}`,
      evidenceId: p.id,
      ...tag,
      category,
      title,
      text: snippet,
      value: null,
      date: p.publishedDate,
      source: p.sourceName,
      stale: p.stale,
      origin: 'passage',
    });
  }
  const given = byKey.size;
  for (const claim of contextClaims) {
    for (const c of claim.citations) {
      if (itemForCitation(byKey, c)) continue;
      const factor = isFactorId(claim.factor) ? claim.factor : 'other';
      add({
        key: citationKey(c),
        evidenceId: c.evidenceId,
        factor,
        polarity: claim.polarity,
        signal: null,
        redFlag: false,
        category: inferCategory(claim.text),
        title: clean(quotedTitle(claim.text, c.date) ?? firstClause(claim.text)),
        text: clean(claim.text),
        value: c.value ?? null,
        date: c.date,
        source: c.source,
        stale: isStale(c.date, cutoff),
        origin: 'context',
      });
    }
  }
  yield;
  // Amounts are weighed against the largest among the step's items.
  const scale = amountScale(read.values());
  for (const item of byKey.values()) {
    const parts = scoreMateriality(read.get(item.key)!, scale);
    item.materiality = parts.total;
    item.decisive = parts.decisive;
  }
  const items = [...byKey.values()].sort(rank);
  return { items, byKey, asOf, recencyDays, given };
}

/**
 * A cited item's category, recovered from the claim that cited it when that claim uses a
 * category's own wording (the offline analyst's lexicon): closings and reports that see no pool
 * then still read a creditor-management procedure as one. Otherwise `cited`.
 */
function inferCategory(text: string): string {
  for (const table of [CATEGORY_EN, CATEGORY_KO]) {
    for (const [category, phrases] of Object.entries(table)) {
      if (Object.values(phrases).some((p) => p && text.includes(p))) return category;
    }
  }
  return 'cited';
}

export function citationKey(c: Citation): string {
  return c.evidenceId ?? `cite:${c.source}|${c.date}`;
}

function itemForCitation(byKey: Map<string, Item>, c: Citation): Item | undefined {
  return byKey.get(citationKey(c)) ?? (c.evidenceId ? byKey.get(`chunk:${c.evidenceId}`) : undefined);
}

export function resolve(pool: Pool, c: Citation): Item | undefined {
  return itemForCitation(pool.byKey, c);
}

/** The items a claim cites, in citation order, skipping any that cannot be resolved. */
export function itemsOf(pool: Pool, claim: Pick<Claim, 'citations'>): Item[] {
  return claim.citations.map((c) => resolve(pool, c)).filter((i): i is Item => i !== undefined);
}

export function citationOf(item: Item): Citation {
  const c: Citation = { source: item.source, date: item.date };
  if (item.evidenceId) c.evidenceId = item.evidenceId;
  if (item.value) c.value = item.value;
  return c;
}

/** A citation copied as it was given (closings and the aggregator must not alter them). */
export function sameCitation(a: Citation, b: Citation): boolean {
  return a.evidenceId === b.evidenceId && a.source === b.source && a.date === b.date && a.value === b.value;
}

export function uniqueCitations(list: Citation[]): Citation[] {
  const out: Citation[] = [];
  for (const c of list) if (!out.some((o) => sameCitation(o, c))) out.push(c);
  return out;
}

/** The first real sentence of a passage (not a list marker or a table row), shortened at a clause to about 90 characters. */
export function firstSentence(text: string, max = 90): string | undefined {
  const sentence = sentences(text).find((x) => !/\|.*\|/.test(x) && x.replace(/^[\s\d가-하A-Za-z]?[.)]\s*/, '').trim().length > 20);
  if (!sentence) return undefined;
  return shorten(sentence, max);
}

/** The “quoted title” a claim gives its citation: the quotation followed by that citation's date. */
/** The quoted title whose own source reference carries the date: "“X” (source, date)". */
function quotedTitle(text: string, date: string): string | undefined {
  for (const m of text.matchAll(/“([^”]+)”/g)) {
    const end = m.index! + m[0].length;
    // Up to the next quote only: "Against D1's “A”: “B” (source, date)" dates B, not A.
    const next = text.indexOf('“', end);
    if (text.slice(end, Math.min(end + 120, next === -1 ? Infinity : next)).includes(date)) return m[1];
  }
  return undefined;
}

function firstClause(text: string): string {
  const t = clean(text);
  const stop = t.search(/[.。!?](\s|$)/);
  return stop > 0 ? t.slice(0, stop) : t;
}

/** Where the matches of `pattern` in `text` end: places a text can stop. */
function ends(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((m) => m.index! + m[0].length);
}

// Besides a sentence end (lib/util/sentences.ts: not "U.S." or "Inc."), a colon or semicolon, a
// dash, a closing bracket, or just before an opening one; none of them inside brackets.
const STRONG_END = /[:;](?=\s)|(?=\s[—–-]\s)|[)\]](?=\s)|(?=\s\()/g;
const COMMA_END = /[,·](?=\s)/g;

/**
 * About `max` characters, shortened at the end of a sentence or a clause and never cut off
 * mid-phrase with an ellipsis: the last boundary in reach, else the first a little past it, else
 * the whole text when it is not much longer, else the last comma.
 */
export function shorten(text: string, max: number): string {
  const t = clean(text);
  if (t.length <= max) return t;
  const at = (end: number) =>
    t
      .slice(0, end)
      .replace(/[\s,;:·—–-]+$/, '')
      .trim();
  const inside = insideBrackets(t);
  const outside = (e: number) => !inside(e - 1);
  const strong = [...new Set([...sentenceEnds(t), ...ends(t, STRONG_END).filter(outside)])].sort((a, b) => a - b).filter((e) => e > 0 && e < t.length);
  const within = strong.filter((e) => e <= max);
  if (within.length && within[within.length - 1] >= max * 0.6) return at(within[within.length - 1]);
  const past = strong.find((e) => e > max && e <= max * 1.5);
  if (past) return at(past);
  if (t.length <= max * 2) return t;
  if (within.length && within[within.length - 1] >= max * 0.3) return at(within[within.length - 1]);
  const commas = ends(t, COMMA_END).filter((e) => e <= max && e >= max * 0.3 && outside(e));
  return commas.length ? at(commas[commas.length - 1]) : t;
}

/** The title as a speaker would read it out: short, without a trailing parenthesis or bracket tag. */
export function shortTitle(item: Item, max: number): string {
  return shorten(item.title.replace(/\s*\((?:event|Q\d)[^)]*\)?$/i, ''), max);
}

/**
 * The source as a speaker names it: "DART 반기보고서(2022.06)", "SEC EDGAR Form 10-K". Citations
 * keep the full source name; this is only for prose.
 */
export function shortSource(source: string): string {
  const [head, ...rest] = source.split(' — ');
  const tail = rest.join(' — ');
  let name = head.replace(/\s*\([A-Za-z]+\)$/, '').trim();
  const kind = /Form [0-9A-Z-]+|[가-힣]*보고서(?:\([^)]{1,10}\))?|earnings call/i.exec(tail)?.[0];
  if (kind && !name.includes(kind)) name = `${name} ${kind}`;
  return shorten(name, 40);
}

/** Hangul in a text: a Korean source quoted in English prose is marked as such. */
export function hasHangul(text: string): boolean {
  return /[\uac00-\ud7a3]/.test(text);
}

/** Latin words and no Hangul: an English source quoted in Korean prose is marked as such. */
export function isEnglishText(text: string): boolean {
  return !hasHangul(text) && /[A-Za-z]{3,}/.test(text);
}

export type SourceKind = 'filing' | 'news' | 'transcript' | 'registry' | 'other';

export function sourceKind(item: Pick<Item, 'source' | 'category'>): SourceKind {
  if (/earnings call|transcript|컨퍼런스콜/i.test(item.source)) return 'transcript';
  if (item.category === 'news' || /뉴스|news|일보|신문|Reuters|Bloomberg/i.test(item.source)) return 'news';
  if (/KIPRIS|특허청|registry/i.test(item.source)) return 'registry';
  if (/DART|EDGAR|SEC|Form \d|보고서|공시|10-K|8-K/i.test(item.source)) return 'filing';
  return 'other';
}

/** Items on a factor, best first. */
export function onFactor(pool: Pool, factor: string): Item[] {
  return pool.items.filter((i) => i.factor === factor);
}

/** Two items are different evidence for the same factor when date, value or event differ. */
export function differentEvidence(a: Item, b: Item): boolean {
  return a.key !== b.key && (a.date !== b.date || a.value !== b.value || a.title !== b.title);
}

/** A value worth saying aloud: not already in the title, not a list of form item numbers. */
export function showValue(i: Item): string | null {
  if (!i.value || i.value.length > 32 || (/^[\d.,\s]+$/.test(i.value) && /\d\.\d{2}/.test(i.value))) return null;
  return i.title.includes(i.value) ? null : i.value;
}
