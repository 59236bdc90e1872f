// Red flags: the decisive credit events in a company's pool (a default, an insolvency or workout
// proceeding, a trading halt or delisting, tax arrears, a regulatory sanction, an audit opinion
// other than clean, a going-concern doubt, a lawsuit lost), found by the rule table in
// lib/pool/red-flags-rules.ts before any debate starts. Deterministic: the same items give the
// same flags in the same order, on every provider. docs/protocols.md, "Red flags", documents the
// table and its choices.
import type { Executor } from '@/lib/db/client';
import type { RedFlag, RedFlagKind } from '@/lib/domain/red-flags';
import { RED_FLAG_KINDS } from '@/lib/domain/red-flags';
import { readEvidence } from '@/lib/pool/as-of';
import { oneFlagPerEvent } from '@/lib/pool/red-flag-events';
import { RED_FLAG_RULES, reportsEvent, type RedFlagRule } from '@/lib/pool/red-flags-rules';
import { addDays } from '@/lib/util/dates';
import { sentences as splitSentences } from '@/lib/util/sentences';

/** What the rules read of an item. */
export type RedFlagSource = {
  id: string;
  category: string;
  title: string;
  text: string;
  eventDate: string | null;
  publishedDate: string;
  /** Where it came from: items of one filing that report one event give one flag (red-flag-events.ts). */
  sourceUrl?: string;
};

/** The rules read at most this much of an item's text: a filing's point is in its opening. */
export const RED_FLAG_TEXT_LIMIT = 4_000;
const TITLE_LIMIT = 500;

/**
 * An item's title and text cut into sentences. A negation cancels a match only within its own
 * sentence, so "2022 감사의견 적정. 2023 감사의견 한정" still flags the second year. Sentences and
 * line breaks are cut by lib/util/sentences.ts: "the U.S." or "(No. 3)" does not end one, so a
 * negation before such a name still reaches the words after it.
 */
export function sentencesOf(title: string, text: string): string[] {
  return [title.slice(0, TITLE_LIMIT), ...splitSentences(text.slice(0, RED_FLAG_TEXT_LIMIT))];
}

function ruleMatches(rule: RedFlagRule, sentences: string[]): boolean {
  return sentences.some((s) => reportsEvent(rule, s));
}

const KIND_ORDER = new Map<RedFlagKind, number>(RED_FLAG_KINDS.map((k, i) => [k, i]));

/** The kinds of red flag one item reports, in the table's order. */
export function redFlagKindsOf(item: Pick<RedFlagSource, 'category' | 'title' | 'text'>): RedFlagKind[] {
  const rules = RED_FLAG_RULES.filter((r) => (r.categories as readonly string[]).includes(item.category));
  if (rules.length === 0) return [];
  const sentences = sentencesOf(item.title, item.text);
  return rules.filter((r) => ruleMatches(r, sentences)).map((r) => r.kind);
}

/** Newest first (by the event's date, else the publication date), then by kind, then by item id. */
export function compareRedFlags(a: RedFlag, b: RedFlag): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  const byKind = KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)!;
  if (byKind !== 0) return byKind;
  return a.evidenceId < b.evidenceId ? -1 : a.evidenceId > b.evidenceId ? 1 : 0;
}

/**
 * When the event happened: the item's event date, unless that lies after its publication (a
 * date the filing schedules, such as a planned delisting day), then the publication date.
 */
function flagDate(item: Pick<RedFlagSource, 'eventDate' | 'publishedDate'>): string {
  return item.eventDate && item.eventDate <= item.publishedDate ? item.eventDate : item.publishedDate;
}

/**
 * Every red flag the items report, one per event and kind — items of the same source reporting
 * the same event are one flag citing each — sorted by `compareRedFlags`.
 */
export function findRedFlags(items: readonly RedFlagSource[]): RedFlag[] {
  const flags: RedFlag[] = [];
  for (const item of items) {
    for (const kind of redFlagKindsOf(item)) {
      flags.push({ kind, evidenceId: item.id, date: flagDate(item), title: item.title });
    }
  }
  return oneFlagPerEvent(flags, items, compareRedFlags).sort(compareRedFlags);
}

/** How much of a flagged item's text travels with the flag to the steps of a run. */
export const RED_FLAG_BRIEF_CHARS = 600;

/**
 * The flags with what a step needs to read and cite them without seeing the item: its source
 * name and the start of its text. Flags whose item is not among `items` are left out.
 */
export function briefRedFlags(
  flags: readonly RedFlag[],
  items: readonly (Pick<RedFlagSource, 'id' | 'text' | 'publishedDate'> & { sourceName: string })[],
): (RedFlag & { sourceName: string; publishedDate: string; text: string })[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return flags.flatMap((f) => {
    const item = byId.get(f.evidenceId);
    if (!item) return [];
    return [
      { ...f, sourceName: item.sourceName, publishedDate: item.publishedDate, text: item.text.replace(/\s+/g, ' ').trim().slice(0, RED_FLAG_BRIEF_CHARS) },
    ];
  });
}

export type ReadRedFlagsInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  /**
   * Only flags dated on or after as-of − R days. Leave it out to get what a run sees: a run reads
   * every item published by its as-of date, and a default does not stop mattering with age.
   */
  recencyDays?: number;
};

/** The red flags in a company's pool as of a date: only items published by then are read. */
export async function readRedFlags({ db, companyId, asOf, recencyDays }: ReadRedFlagsInput): Promise<RedFlag[]> {
  const items = await readEvidence({ db, companyId, asOf, recencyDays: recencyDays ?? 0 });
  const flags = findRedFlags(items);
  if (recencyDays === undefined) return flags;
  const cutoff = addDays(asOf, -recencyDays);
  return flags.filter((f) => f.date >= cutoff);
}
