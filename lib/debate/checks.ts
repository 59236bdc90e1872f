// After each step: every citation resolved against what the step was shown (the rest flagged
// unverified, and any dated after the as-of date flagged and kept out of support); after a run,
// the final checks the report carries (docs/protocols.md, "Taking answers in").
import { citationsOf, claimsOf } from '@/lib/domain/output-parts';
import type { Citation, Claim } from '@/lib/domain/outputs';
import type { Language } from '@/lib/domain/protocol';
import type { RedFlag } from '@/lib/domain/red-flags';
import type { StepRepairKind } from '@/lib/domain/stored';
import { onRedFlag } from '@/lib/debate/rules';
import { namesInProse, sourceKeys, type SourceKeys } from '@/lib/domain/source-keys';
import { urlKey } from '@/lib/pool/search/apply-rules';
import { isIsoDay } from '@/lib/util/dates';

/** `factor`: the guideline factor a pool item is tagged with (null untagged); absent for passages and web results. */
export type KnownEvidence = {
  id: string;
  sourceName: string;
  publishedDate: string;
  eventDate?: string | null;
  sourceUrl?: string;
  stale?: boolean;
  factor?: string | null;
};

/**
 * A citation after resolution. `verified`: it names an item the step was shown, dated on or
 * before the as-of date. `afterAsOf`: the item or the citation is dated after the as-of date, so
 * it never counts as support. `url`: the link the model gave, when it gave one.
 */
export type ResolvedCitation = Citation & { verified: boolean; afterAsOf?: boolean; url?: string };

/** A citation counts as support: verified, and not dated after the as-of date. */
export function supports(c: Citation): boolean {
  const r = c as Partial<ResolvedCitation>;
  return r.verified === true && r.afterAsOf !== true;
}

export type CitationScope = {
  /**
   * What the step was shown, by id: the pool items in its prompt, its passages, the items the
   * turns it received cite, and this run's web results.
   */
  shown: Map<string, KnownEvidence>;
  /** Everything the run knows (pool as of the date, passages, web results): to say why a citation did not match. */
  known: Map<string, KnownEvidence>;
  asOf: string;
  /**
   * The run's source table (lib/domain/source-keys.ts): the prompt gives a source by its key
   * (S1, S2, …), so a citation may carry the key in `source`; it is stored as the name.
   */
  sources?: readonly string[];
};

export type CitationRepair = { kind: Extract<StepRepairKind, `citation-${string}`>; detail: string };

const words = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const squash = (s: string) => {
  const w = words(s);
  // "The Korea Herald" and "Korea Herald" are one source.
  return (w[0] === 'the' && w.length > 1 ? w.slice(1) : w).join('');
};
const HANGUL_SYLLABLE = /[\uac00-\ud7af]/;

/**
 * Two source names for one source: alike but for case, spacing and punctuation, or one a
 * shortened form of the other — its start ("Yonhap" for "Yonhap News Agency") or its
 * initials ("FSS" for "Financial Supervisory Service", "BOK" for "Bank of Korea").
 */
export function sameSource(a: string, b: string): boolean {
  const x = squash(a);
  const y = squash(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long, longName] = x.length <= y.length ? [x, y, b] : [y, x, a];
  // Hangul packs a word into two or three syllables: a shorter start still names a source.
  if (short.length >= (HANGUL_SYLLABLE.test(short) ? 2 : 3) && long.startsWith(short)) return true;
  const initials = words(longName)
    .filter((w, i) => !(i === 0 && w === 'the'))
    .map((w) => w[0])
    .join('');
  return short.length >= 2 && initials.length >= 2 && initials === short;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return urlKey(new URL(a.trim())) === urlKey(new URL(b.trim()));
  } catch {
    return false;
  }
}

const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v.trim());

/** The one item of `items` that `pick` accepts, or undefined when none or several do. */
function only<T>(items: T[], pick: (item: T) => boolean): T | undefined {
  const found = items.filter(pick);
  return found.length === 1 ? found[0] : undefined;
}

function citationLabel(c: Citation): string {
  return c.evidenceId && !isHttpUrl(c.evidenceId) ? c.evidenceId : `${c.source || '(no source)'}, ${c.date || '(no date)'}`;
}

/**
 * Resolves each citation of an output, in place, against what the step was shown. A source given
 * by its key in the run's source table becomes the name first, in a citation and where the prose
 * cites by key, so what is stored, shown and exported names the source whatever the model wrote
 * (a reader of the report never sees the table). Then the item: by id, then
 * by link, then by source and date (the source compared leniently, the date exactly; one item
 * must match). A citation matched by link or source and date gets that item's id. One that
 * matches nothing the step was shown stays, marked unverified — also when the run knows an item
 * with its id, which the step was not shown. One dated after the as-of date (the item's date or
 * its own) is marked `afterAsOf` and unverified: kept visible, never support. Returns the counts
 * and what it changed or flagged, for the step's repairs.
 */
export function resolveCitations(output: unknown, { shown, known, asOf, sources }: CitationScope) {
  let resolved = 0;
  let total = 0;
  const repairs: CitationRepair[] = [];
  const items = [...shown.values()];
  const keys = sourceKeys(sources);
  nameKeysInProse(output, keys);
  for (const c of citationsOf(output) as ResolvedCitation[]) {
    total++;
    const named = typeof c.source === 'string' ? keys.nameOf(c.source) : undefined;
    if (named) c.source = named;
    const label = citationLabel(c);
    let item = c.evidenceId ? shown.get(c.evidenceId) : undefined;
    // An id the run knows names that item: if the step was not shown it, no other item stands in.
    const namesUnshown = !item && c.evidenceId !== undefined && known.has(c.evidenceId);
    if (!item && !namesUnshown) {
      const url = c.url ?? [c.evidenceId, c.source].find(isHttpUrl);
      let how = '';
      if (url) {
        item = only(items, (k) => Boolean(k.sourceUrl) && sameUrl(k.sourceUrl!, url));
        how = 'by its link';
      }
      if (!item && c.source && isIsoDay(c.date)) {
        const dated = items.filter((k) => k.publishedDate === c.date || k.eventDate === c.date);
        item = only(dated, (k) => squash(k.sourceName) === squash(c.source)) ?? only(dated, (k) => sameSource(k.sourceName, c.source));
        how = 'by source and date';
      }
      if (item) {
        c.evidenceId = item.id;
        if (!c.source.trim() || isHttpUrl(c.source)) c.source = item.sourceName;
        repairs.push({ kind: 'citation-matched', detail: `${label} → ${item.id} (${how})` });
      }
    }
    if (!item) {
      const why = namesUnshown ? 'is in the pool but was not shown to this step' : 'matches nothing this step was shown';
      repairs.push({ kind: 'citation-unverified', detail: `${label} ${why}` });
    }
    const lateDate = item && item.publishedDate > asOf ? item.publishedDate : isIsoDay(c.date) && c.date > asOf ? c.date : null;
    if (lateDate) {
      c.afterAsOf = true;
      repairs.push({ kind: 'citation-after-as-of', detail: `${label} is dated ${lateDate}, after the as-of date ${asOf}: not counted as support` });
    } else {
      delete c.afterAsOf;
    }
    c.verified = Boolean(item) && !lateDate;
    if (c.verified) resolved++;
  }
  return { resolved, total, repairs };
}

export type FinalCheck = { id: string; ok: boolean; message: string; items: string[] };

const HANGUL = /[\uac00-\ud7af]/g;
const LETTER = /[\p{L}]/gu;

/**
 * A title or name quoted as written (“…”, "…", 「…」) is the source's language, not the run's: an
 * English report may quote a Korean filing's title, and the prompt says so (lib/debate/prompts.ts).
 */
const QUOTED = /“[^”\n]{0,400}”|"[^"\n]{0,400}"|「[^」\n]{0,400}」/g;

function hangulShare(text: string) {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters ? (text.match(HANGUL)?.length ?? 0) / letters : 0;
}

const CITATION_KEYS = new Set(['citations', 'evidence']);
/** Fields that hold ids and tags rather than words a reader reads. */
const NOT_PROSE = new Set([
  'id',
  'factor',
  'polarity',
  'respondsTo',
  'targetClaimId',
  'targetId',
  'argumentId',
  'kind',
  'standing',
  'stance',
  'kept',
  'winner',
]);
/** Shapes whose entries carry citations, even when a given output has none yet. */
const CITING_KEYS = new Set(['claims', 'topics', 'arguments', 'report']);

/** The output's prose, in place, with the source keys it cites by given as names (`namesInProse`). */
function nameKeysInProse(output: unknown, keys: SourceKeys) {
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach((v, i) => (typeof v === 'string' ? (value[i] = namesInProse(v, keys)) : walk(v)));
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      for (const [k, v] of Object.entries(o)) {
        if (NOT_PROSE.has(k) || (CITATION_KEYS.has(k) && Array.isArray(v))) continue;
        if (typeof v === 'string') o[k] = namesInProse(v, keys);
        else walk(v);
      }
    }
  };
  if (keys.table.length) walk(output);
}

/** What a final output says in words: every string in it but ids, tags and the fields of its citations. */
function proseStrings(output: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === 'string') {
      if (!key || !NOT_PROSE.has(key)) out.push(value);
    } else if (Array.isArray(value)) {
      if (key && CITATION_KEYS.has(key)) return;
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(output);
  return out;
}

/**
 * Evidence ids an output cites in an adverse reading: an adverse claim's citations (turns,
 * briefings, FinDebate's drafts and the report the safety check keeps), or a report topic's whose
 * adverse reading is written.
 */
function adverseCitations(output: unknown): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const adverse = o.polarity === 'adverse' || (typeof o.adverse === 'string' && o.adverse.trim() !== '');
      if (adverse && Array.isArray(o.citations)) for (const c of o.citations as Citation[]) if (c?.evidenceId) ids.add(c.evidenceId);
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(output);
  return ids;
}

const squashSpace = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether the output has a place for citations at all (SAS's lead report and the rubric judge do not). */
function hasCitationSlots(output: unknown): boolean {
  let found = false;
  const walk = (value: unknown, key?: string) => {
    if (found) return;
    // `evidence` is also a rubric score (a number): only arrays and objects are places to cite.
    if (key && (CITATION_KEYS.has(key) || CITING_KEYS.has(key)) && value !== null && typeof value === 'object') found = true;
    else if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(output);
  return found;
}

/**
 * The red flags a final output leaves unaddressed. A flag is addressed when an adverse reading
 * cites its evidence id, or when the prose names it (by its evidence id or its whole title) and
 * a citation of the output names its id — in outputs without citations (SAS's lead report, the
 * three-round judge) naming it in the prose is all they can do.
 */
export function unaddressedRedFlags(output: unknown, flags: readonly RedFlag[]): RedFlag[] {
  if (!flags.length) return [];
  const adverse = adverseCitations(output);
  const cited = new Set(citationsOf(output).flatMap((c) => (c.evidenceId ? [c.evidenceId] : [])));
  const citable = hasCitationSlots(output);
  const prose = squashSpace(proseStrings(output).join('\n'));
  // A flag that more items report (one event that reached the pool twice) is addressed through any of them.
  const idsOf = (f: RedFlag) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])];
  const named = (f: RedFlag) => idsOf(f).some((id) => prose.includes(id)) || (squashSpace(f.title).length >= 8 && prose.includes(squashSpace(f.title)));
  return flags.filter((f) => !idsOf(f).some((id) => adverse.has(id)) && !(named(f) && (!citable || idsOf(f).some((id) => cited.has(id)))));
}

/**
 * Stale citations that Rule 5 (lib/debate/prompts.ts) does not allow: an item older than the
 * recency window cited although the pool holds a newer item on its factor. A red flag must be cited
 * whatever its age; an item is counted once, at the first step that cites it (a report copies the
 * debate's citations, as it must, and adds no reliance of its own).
 */
function staleFindings(all: { step: string; c: ResolvedCitation }[], known: Map<string, KnownEvidence>, flagged: ReadonlySet<string>): string[] {
  const fresh = new Set([...known.values()].filter((k) => !k.stale && k.factor !== undefined).map((k) => k.factor ?? 'other'));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { step, c } of all) {
    const id = c.evidenceId;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const item = known.get(id);
    if (!item?.stale || flagged.has(id)) continue;
    // A passage or web result has no factor: the pool cannot be said to hold newer evidence on it.
    if (item.factor === undefined || !fresh.has(item.factor ?? 'other')) continue;
    out.push(`${step}: ${id}`);
  }
  return out;
}

/**
 * Rule 4 (lib/debate/prompts.ts): two claims of one turn may share a factor when they rest on
 * different evidence or answer different claims or questions. A reuse is a pair that does
 * neither: the same factor, the same target (or none), and a cited item in common (or nothing
 * cited). `other` holds every untagged item and a reading of a red flag is required once per
 * flag, so neither counts.
 */
function reusedFactors(stepId: string, claims: readonly Claim[], flagged: ReadonlySet<string>): string[] {
  const ids = (claim: Claim) => new Set(claim.citations.map((c) => c.evidenceId ?? `${c.source}|${c.date}`));
  const byFactor = new Map<string, Claim[]>();
  for (const claim of claims) {
    if (claim.factor === 'other' || onRedFlag(claim, flagged)) continue;
    byFactor.set(claim.factor, [...(byFactor.get(claim.factor) ?? []), claim]);
  }
  const out: string[] = [];
  for (const [factor, group] of byFactor) {
    const clashing = new Set<string>();
    for (const [i, a] of group.entries()) {
      for (const b of group.slice(i + 1)) {
        if ((a.respondsTo ?? '') !== (b.respondsTo ?? '')) continue;
        const shared = !a.citations.length || !b.citations.length || [...ids(a)].some((id) => ids(b).has(id));
        if (shared) clashing.add(a.id).add(b.id);
      }
    }
    if (clashing.size) out.push(`${stepId}: ${factor} ×${clashing.size} (${[...clashing].join(', ')})`);
  }
  return out;
}

export function finalChecks({
  steps,
  known,
  language,
  redFlags = [],
  reportStep,
}: {
  steps: { stepId: string; text: string; output: unknown }[];
  known: Map<string, KnownEvidence>;
  language: Language;
  /** The run's red flags (lib/pool/red-flags.ts), which the report's step must address. */
  redFlags?: readonly RedFlag[];
  /** The step whose output is the report (the protocol's `reportStep`); the last step when absent. */
  reportStep?: string;
}): FinalCheck[] {
  const all = steps.flatMap((s) => (citationsOf(s.output) as ResolvedCitation[]).map((c) => ({ step: s.stepId, c })));
  // A date that is not a day (kept as the model wrote it: "Q3 2024") dates nothing.
  const undated = all
    .filter(({ c }) => !isIsoDay(c.date) || !c.source?.trim())
    .map(({ step, c }) => `${step}: ${c.source || '(no source)'} ${c.date || '(no date)'}`);
  const late = all.filter(({ c }) => c.afterAsOf).map(({ step, c }) => `${step}: ${c.evidenceId ?? c.source} ${c.date}`);
  const unverified = all.filter(({ c }) => !c.verified && !c.afterAsOf).map(({ step, c }) => `${step}: ${c.evidenceId ?? c.source}`);
  const flagged = new Set(redFlags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]));
  const stale = staleFindings(all, known, flagged);
  const reused = steps.flatMap((s) => reusedFactors(s.stepId, claimsOf(s.output), flagged));
  // A source or title quoted as written (a Korean filing's name in an English report) is the
  // source's language, not the run's: the prompt lets a citation keep it, so the check does too.
  const names = [...new Set(all.map(({ c }) => c.source).filter((n): n is string => typeof n === 'string' && n.trim().length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  const text = names.reduce((t, name) => t.split(name).join(' '), steps.map((s) => s.text).join(' '));
  const share = hangulShare(text.replace(QUOTED, ' '));
  const languageOk = language === 'ko' ? share >= 0.3 : share <= 0.1;
  const report = steps.find((s) => s.stepId === reportStep) ?? steps.at(-1);
  const unaddressed = report ? unaddressedRedFlags(report.output, redFlags) : [...redFlags];
  return [
    {
      id: 'red-flags-addressed',
      ok: unaddressed.length === 0,
      message: 'Every red flag found before the debate is addressed in the report: cited by its evidence id in an adverse reading.',
      items: unaddressed.map((f) => `${f.title} [${f.evidenceId}]`),
    },
    { id: 'undated-or-unsourced', ok: undated.length === 0, message: 'Every citation has a date and a source.', items: undated },
    {
      id: 'unverified-citations',
      ok: unverified.length === 0,
      message: 'Every citation resolves to an item its step was shown or a web result of this run.',
      items: unverified,
    },
    { id: 'after-as-of', ok: late.length === 0, message: 'No citation is dated after the as-of date.', items: late },
    {
      id: 'stale-evidence',
      ok: stale.length === 0,
      message: 'No evidence older than the recency window is cited where the pool holds newer evidence on its factor (red flags excepted).',
      items: stale,
    },
    {
      id: 'reused-factors',
      ok: reused.length === 0,
      message: 'No turn makes two claims on one factor from the same evidence (a reviewer check, not a stop).',
      items: reused,
    },
    {
      id: 'output-language',
      ok: languageOk,
      message: language === 'ko' ? 'The output is in Korean.' : 'The output is in English.',
      items: languageOk ? [] : [`Hangul share of letters: ${Math.round(share * 100)}%`],
    },
  ];
}
