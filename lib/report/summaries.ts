// The favorable and adverse summaries as an index of each side's points, not a second copy of the
// topics. KPD-MADS's and NAS's reports carry `favorableSummary` and `adverseSummary` beside their
// topics, and a summary line can restate a topic's reading word for word (the offline analyst
// writes each KPD-MADS summary line as the reading of the turn it comes from, and both systems'
// red-flag lines as the red-flag topic's reading). A committee member then reads each argument
// twice before reaching the topics, where it stands next to the other side's reading and its
// citations. So a summary sentence that a topic's reading restates is taken out: a line left with
// nothing of its own becomes the item it rests on, with its date, and a link to its topic; a line
// that keeps sentences of its own keeps them after that item, with the link. A line that restates
// nothing (NAS's "factor (date): “item” (value)") is left as it is. The summaries then say what
// the topics do not: which items each side rests on, side by side, in the tree's order.
// Pure; applied to the page and the exports alike, not to a study's blinded report (the system's
// own text, lib/report/model.ts).
import type { Block, CitationRef, Section, Segment } from '@/lib/report/doc';

/**
 * How many letters of its own a sentence must have, outside its quotes and brackets, to count as
 * saying something: fewer, and it only names an item and its source ("Management continuity
 * (2025-01-30): “Management bench: 68% …” (45% > 5 years)"), which is an index entry, not a
 * restatement, even where a reading quotes the same item.
 */
const MIN_OWN_LETTERS = 15;

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A text's sentences: split after a full stop, question or exclamation mark followed by a space. */
function sentencesOf(text: string): string[] {
  return normalize(text)
    .split(/(?<=[.!?。])\s+/)
    .filter(Boolean);
}

/** The letters a text has outside its quotes (“…”) and its brackets, innermost first. */
function ownLetters(text: string): number {
  let t = text.replace(/“[^”]*”/g, ' ');
  for (let before = ''; before !== t;) {
    before = t;
    t = t.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ');
  }
  return (t.match(/\p{L}/gu) ?? []).length;
}

/**
 * A sentence without its leading label ("Internal control risk (2024-03-12): …", "내부통제 위험:
 * …") and its closing full stop: what it says, to find in a reading whatever the label.
 */
function coreOf(sentence: string): string {
  const labelled = /^[^“”"「」:：]{1,80}?[:：]\s*(.+)$/.exec(sentence);
  return (labelled ? labelled[1] : sentence).replace(/[.。]$/, '').trim();
}

type Topic = { anchor: string; readings: string[]; citations: CitationRef[] };

function topicsOf(section: Section | undefined): Topic[] {
  return (section?.blocks ?? []).flatMap((b) =>
    b.kind === 'group' && b.anchor
      ? [
          {
            anchor: b.anchor,
            readings: b.blocks.flatMap((x) => (x.kind === 'fields' ? x.items.map((f) => normalize(f.value)) : [])),
            citations: b.blocks.flatMap((x) => (x.kind === 'citations' ? x.items : [])),
          },
        ]
      : [],
  );
}

/**
 * The topic whose reading restates this sentence: one that holds what the sentence says, with or
 * without its label, when the sentence says something of its own (not only an item's name).
 */
function restatedIn(sentence: string, topics: Topic[]): Topic | undefined {
  const core = coreOf(sentence);
  const whole = sentence.replace(/[.。]$/, '');
  const candidates = [ownLetters(core) >= MIN_OWN_LETTERS ? core : null, ownLetters(whole) >= MIN_OWN_LETTERS ? whole : null].filter(
    (x): x is string => x !== null,
  );
  if (!candidates.length) return undefined;
  return topics.find((t) => t.readings.some((r) => candidates.some((c) => r.includes(c))));
}

/**
 * The item a line rests on, in words: the title and date of the topic's cited item that the line
 * quotes last (the side's own item, after any item it answers), or its last quote as written.
 */
function itemOf(line: string, topic: Topic): string | undefined {
  const quotes = [...line.matchAll(/“([^”]+)”/g)].map((m) => m[1].trim()).reverse();
  for (const q of quotes) {
    const cited = topic.citations.find((c) => c.title && (c.title.includes(q) || q.includes(c.title)));
    if (cited?.title) return cited.date ? `${cited.title} · ${cited.date}` : cited.title;
  }
  return quotes[0] ? `“${quotes[0]}”` : undefined;
}

/**
 * What a summary line says that no topic does, with a link to the topic it draws on: the item
 * the line rests on (title and date), then its sentences of its own, if any. A line that
 * restates nothing is left as it is.
 */
function indexLine(line: string, topics: Topic[], pointer: string): { text: string; parts: Segment[] | null } {
  const sentences = sentencesOf(line);
  const found = sentences.map((s) => restatedIn(s, topics));
  const topic = found.find(Boolean);
  if (!topic) return { text: line, parts: null };
  // What is left of its own: sentences no reading restates that say more than an item's name
  // (a sentence that only names the item, "내부통제 위험(2024-03-12): “…”(…).", is the item below).
  const own = sentences.filter((s, i) => !found[i] && ownLetters(coreOf(s)) >= MIN_OWN_LETTERS).join(' ');
  const item = itemOf(line, topic);
  const label = /^([^“”"「」:：]{1,80}?)[:：]/.exec(line)?.[1].trim();
  const lead = (own && item ? `${item}: ${own}` : own || item || label || '').replace(/[.。]$/, '');
  const parts: Segment[] = [lead ? `${lead} — ` : '', { text: pointer, to: 'topic', anchor: topic.anchor }];
  return { text: `${lead ? `${lead} — ` : ''}${pointer}`, parts: parts.filter((p) => p !== '') };
}

/**
 * Anchors the topics (`topic-1`, … in the order shown) and rewrites the summary sections' lines
 * that restate a topic's reading. `pointer` is the words of the link to the topic, in the run's
 * language ("see Topics by factor", "요인별 쟁점 참조"): the exports, where links cannot work, show
 * them as text, naming the section where the line's item is cited in its topic.
 */
export function summariesBeyondTopics(sections: Section[], pointer: string): Section[] {
  const anchored = sections.map((s) =>
    s.id === 'topics' ? { ...s, blocks: s.blocks.map((b, i): Block => (b.kind === 'group' ? { ...b, anchor: `topic-${i + 1}` } : b)) } : s,
  );
  const topics = topicsOf(anchored.find((s) => s.id === 'topics'));
  if (!topics.length) return anchored;
  const rewrite = (b: Block): Block => {
    if (b.kind === 'group') return { ...b, blocks: b.blocks.map(rewrite) };
    if (b.kind !== 'list') return b;
    const lines = b.items.map((item) => indexLine(item, topics, pointer));
    return { ...b, items: lines.map((l) => l.text), ...(lines.some((l) => l.parts) ? { parts: lines.map((l) => l.parts) } : {}) };
  };
  return anchored.map((s) => (s.id === 'favorable' || s.id === 'adverse' ? { ...s, blocks: s.blocks.map(rewrite) } : s));
}
