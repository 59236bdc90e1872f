// Candidate evidence items from a document's text, by rules: a sentence that reports a decisive
// credit event (the red-flag table, lib/pool/red-flags-rules.ts), or a dated sentence that speaks
// of something the guideline factors weigh (a management change, a lawsuit, a certification, a
// strike, a subsidy …, in Korean and English). Each candidate keeps the sentence's place in the
// body (and its PDF page), so the RM reviews it beside its passage; none enters the pool unless
// the RM accepts it (review.ts). The same text gives the same candidates on every run.
//
// Every pattern is a plain word list or a bounded gap, tried on one sentence of bounded length:
// the cost stays linear in the document whatever it holds.
import type { EvidenceCategory } from '@/lib/domain/factors';
import type { CandidateStatement } from '@/lib/domain/passage';
import type { PageRange } from '@/lib/pool/documents/extract';
import { tagByCategory } from '@/lib/pool/factors';
import { RED_FLAG_RULES, reportsEvent } from '@/lib/pool/red-flags-rules';
import { isIsoDay } from '@/lib/util/dates';
import { sentenceSpans } from '@/lib/util/sentences';

export type Candidate = CandidateStatement & { category: EvidenceCategory; factor: string };

/** Candidates one document may propose: an RM reviews each, so a long filing gives its most telling ones. */
export const MAX_CANDIDATES = 200;
/** A sentence longer than this is a table or a run-on list, not a statement to review. */
export const MAX_SENTENCE = 1500;
const TITLE_CHARS = 120;

// What a sentence must speak of to be proposed (with a date). First match wins.
const CUES: readonly { id: string; category: EvidenceCategory; when: RegExp }[] = [
  {
    id: 'management',
    category: 'management_change',
    when: /\b(resign\w*|appoint\w*|step(?:s|ped)? down|named (?:as )?(?:chief|president)|chief executive officer|chief financial officer)\b|대표이사|사임|선임|해임|취임|퇴임/i,
  },
  {
    id: 'litigation',
    category: 'legal_proceedings',
    when: /\b(lawsuits?|litigation|class action|complaint was filed|filed a complaint|court|verdict|settlement)\b|소송|판결|제소|소장|항소/i,
  },
  { id: 'sanction', category: 'sanctions', when: /\b(fined|penalt(?:y|ies)|sanction\w*|consent order|civil penalty)\b|과징금|제재|벌금|시정명령/i },
  {
    id: 'audit',
    category: 'governance_ownership',
    when: /\b(material weakness\w*|internal control over financial reporting|audit opinion|going concern)\b|감사의견|내부회계관리|계속기업|최대주주 변경/i,
  },
  { id: 'certification', category: 'certification', when: /\b(certif\w*|ISO ?\d{4,5}|accredit\w*)\b|인증|이노비즈|벤처기업 확인/i },
  { id: 'patent', category: 'patent', when: /\bpatents?\b|특허/i },
  {
    id: 'employment',
    category: 'employment',
    when: /\b(strikes?|labou?r unions?|layoffs?|employees|workforce|headcount)\b|파업|노조|노동조합|임직원|직원 수|구조조정/i,
  },
  {
    id: 'government',
    category: 'government_support',
    when: /\b(subsid(?:y|ies)|grants?|tax credits?|government support|incentives?)\b|보조금|정부 지원|세액공제|정책자금/i,
  },
  { id: 'contract', category: 'supply_contract', when: /\b(supply agreement|purchase order|supply contract)\b|공급계약|단일판매|수주/i },
  { id: 'research', category: 'rnd_activity', when: /\b(research and development|R&D)\b|연구개발/i },
  { id: 'competition', category: 'industry_competition', when: /\b(competition|competitors?|market share)\b|경쟁|점유율/i },
];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
// Each gives year, month and day groups by name; the forms Korean and US filings write.
const DATES: readonly RegExp[] = [
  /\b(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})\b/g,
  /\b(?<y>\d{4})\. ?(?<m>\d{1,2})\. ?(?<d>\d{1,2})\b/g,
  /(?<y>\d{4}) ?년 ?(?<m>\d{1,2}) ?월 ?(?<d>\d{1,2}) ?일/g,
  new RegExp(`\\b(?<mon>${MONTH}) (?<d>\\d{1,2}), ?(?<y>\\d{4})\\b`, 'gi'),
  new RegExp(`\\b(?<d>\\d{1,2}) (?<mon>${MONTH}),? (?<y>\\d{4})\\b`, 'gi'),
];

const pad = (n: string | number) => String(n).padStart(2, '0');
function monthNumber(name: string) {
  const key = name.toLowerCase().replace('.', '').slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(key)) + 1;
}

// Every date form above has a four-digit year: a sentence without one states no date, and is not
// tried against each form (a body of a million one-word sentences is read in a blink, not seconds).
const YEAR = /\d{4}/;

/** The calendar dates a sentence states, in the order written. */
export function datesIn(sentence: string): string[] {
  const found: { at: number; date: string }[] = [];
  if (!YEAR.test(sentence)) return [];
  for (const pattern of DATES) {
    for (const m of sentence.matchAll(pattern)) {
      const g = m.groups!;
      const month = g.mon ? monthNumber(g.mon) : Number(g.m);
      const date = `${g.y}-${pad(month)}-${pad(g.d)}`;
      if (isIsoDay(date)) found.push({ at: m.index, date });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.date);
}

/**
 * Sentences of the body's paragraphs, with offsets; headings are not statements. Cut by
 * lib/util/sentences.ts, so a quotation never stops at "the U.S." or inside "(Dec. 2023)".
 */
export function sentencesOf(body: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const { start: base, end: last } of paragraphsOf(body)) {
    const p = body.slice(base, last);
    if (p.startsWith('## ')) continue;
    for (const s of sentenceSpans(p, { lineBreaks: false })) push(out, body, base + s.start, base + s.end);
  }
  return out;
}

/** The body's paragraphs (runs of text between blank lines), found by index: one pass over the body. */
function paragraphsOf(body: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = 0;
  for (;;) {
    while (body[at] === '\n') at++;
    if (at >= body.length) return out;
    const blank = body.indexOf('\n\n', at);
    const end = blank === -1 ? body.length : blank;
    out.push({ start: at, end });
    at = end;
  }
}

function push(out: { start: number; end: number }[], body: string, start: number, end: number) {
  while (start < end && /\s/.test(body[start])) start++;
  while (end > start && /\s/.test(body[end - 1])) end--;
  if (end > start) out.push({ start, end });
}

/**
 * The sentences of `text` that the characters [start, end) touch, as one span: what a quotation
 * from the text stands for. Null when it touches none (blank space, a heading).
 */
export function sentenceSpan(text: string, start: number, end: number): { start: number; end: number } | null {
  const touched = sentencesOf(text).filter((s) => s.start < end && s.end > start);
  return touched.length ? { start: touched[0].start, end: touched[touched.length - 1].end } : null;
}

/** The day a sentence says its event happened: the first date it states up to publication, else none. */
export const eventDateOf = (sentence: string, publishedDate: string) => datesIn(sentence).find((d) => d <= publishedDate) ?? null;

const pageAt = (pages: readonly PageRange[], at: number) => pages.find((p) => at >= p.start && at < p.end)?.page ?? null;

// Whether any red-flag rule could match: the rules' patterns as one alternation per set of flags
// (each pattern keeps its own), tried before the rules are tried one by one. Most sentences report
// no red flag, and one test instead of a hundred keeps a body of short sentences quick to read.
const ANY_RED_FLAG: readonly RegExp[] = [...new Set(RED_FLAG_RULES.flatMap((r) => r.patterns.map((p) => p.flags)))].map((flags) => {
  const sources = RED_FLAG_RULES.flatMap((r) => r.patterns.filter((p) => p.flags === flags).map((p) => `(?:${p.source})`));
  return new RegExp(sources.join('|'), flags.replace(/[gy]/g, ''));
});

function redFlagCue(sentence: string): { id: string; category: EvidenceCategory } | null {
  if (!ANY_RED_FLAG.some((any) => any.test(sentence))) return null;
  for (const rule of RED_FLAG_RULES) {
    // The table's own test: a hypothetical ("may impose fines if …") or a proceeding only opened
    // is not proposed as a red flag, whatever event it names.
    if (reportsEvent(rule, sentence)) {
      return { id: `red-flag:${rule.kind}`, category: rule.categories[0] };
    }
  }
  return null;
}

/** A title from the sentence: its first words, cut at a word boundary. */
export function titleOf(sentence: string): string {
  const line = sentence.replace(/\s+/g, ' ');
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.lastIndexOf(' ', TITLE_CHARS);
  return `${line.slice(0, cut > TITLE_CHARS / 2 ? cut : TITLE_CHARS)}…`;
}

/**
 * The candidates of a document published on `publishedDate`. A stated date after publication
 * (a note due in 2030) is not the event's date; a red-flag sentence without one is still proposed,
 * dated by the document.
 */
export function proposeCandidates({ body, pages = [], publishedDate }: { body: string; pages?: readonly PageRange[]; publishedDate: string }): Candidate[] {
  const flagged: Candidate[] = [];
  const dated: Candidate[] = [];
  for (const { start, end } of sentencesOf(body)) {
    if (end - start > MAX_SENTENCE) continue;
    const text = body.slice(start, end);
    const flag = redFlagCue(text);
    const eventDate = eventDateOf(text, publishedDate);
    // A table's header row names sanctions without reporting one: a row must carry its date.
    if (!eventDate && text.includes(' | ')) continue;
    const cue = flag ?? (eventDate ? CUES.find((c) => c.when.test(text)) : undefined);
    if (!cue) continue;
    const title = titleOf(text);
    const candidate: Candidate = {
      category: cue.category,
      factor: tagByCategory({ category: cue.category, title, text }).factor,
      reason: cue.id,
      title,
      text,
      eventDate,
      publishedDate,
      page: pageAt(pages, start),
      charStart: start,
      charEnd: end,
    };
    (flag ? flagged : dated).push(candidate);
  }
  // Red flags first when a long filing has more than an RM can review; then in reading order.
  return [...flagged, ...dated].slice(0, MAX_CANDIDATES).sort((a, b) => a.charStart - b.charStart);
}
