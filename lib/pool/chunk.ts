// Splits a document body into retrieval chunks. Chunks follow the text's own structure —
// paragraphs first, sentences (or table rows) when a paragraph is too long, a hard cut only
// when a single sentence is — so a retrieved chunk reads as a whole passage. Each chunk keeps
// its offsets into the body, so a citation can point back to the exact place in the source.

export type Chunk = {
  ordinal: number;
  /** The nearest Markdown heading above the chunk, without its `#` marks; null before any heading. */
  heading: string | null;
  /** Exactly `body.slice(charStart, charEnd)`. */
  text: string;
  /** Offsets in UTF-16 code units (JavaScript string indices) into the body. */
  charStart: number;
  charEnd: number;
};

export const MAX_CHUNK_CHARS = 1200;

type Span = { start: number; end: number };
type Block = { heading: string | null; paragraphs: Span[] };

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/** Paragraphs grouped under the heading they follow. Heading lines themselves are not chunk text. */
function blocks(body: string): Block[] {
  const result: Block[] = [{ heading: null, paragraphs: [] }];
  let paragraph: Span | null = null;
  let inFence = false;
  const close = () => {
    if (paragraph) result[result.length - 1].paragraphs.push(paragraph);
    paragraph = null;
  };
  let lineStart = 0;
  while (lineStart <= body.length) {
    const newline = body.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? body.length : newline;
    const line = body.slice(lineStart, lineEnd);
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (heading) {
      close();
      result.push({ heading: heading[2] || null, paragraphs: [] });
    } else if (line.trim() === '' && !inFence) {
      close();
    } else {
      const end = lineStart + line.trimEnd().length;
      if (paragraph) paragraph.end = end;
      else paragraph = { start: lineStart + (line.length - line.trimStart().length), end };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  close();
  return result.filter((b) => b.paragraphs.length > 0);
}

/** Shrinks a span to exclude whitespace at either end; null if nothing is left. */
function trim(body: string, start: number, end: number): Span | null {
  while (start < end && /\s/.test(body[start])) start++;
  while (end > start && /\s/.test(body[end - 1])) end--;
  return start < end ? { start, end } : null;
}

// A sentence ends after . ! ? (or their full-width forms, plus closing quotes/brackets)
// followed by whitespace; a line break also ends one, which keeps Markdown table rows whole.
const SENTENCE_END = /[.!?。！？]["'”’)\]]*\s+|\n/g;

function sentences(body: string, span: Span): Span[] {
  const text = body.slice(span.start, span.end);
  const result: Span[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const to = match.index + match[0].length;
    const s = trim(body, span.start + from, span.start + to);
    if (s) result.push(s);
    from = to;
  }
  const last = trim(body, span.start + from, span.end);
  if (last) result.push(last);
  return result;
}

/** Cuts an over-long sentence, at a space in the second half of the window when there is one. */
function hardSplit(body: string, span: Span, max: number): Span[] {
  const result: Span[] = [];
  let start = span.start;
  while (span.end - start > max) {
    let cut = body.lastIndexOf(' ', start + max);
    if (cut <= start + max / 2) cut = start + max;
    // Never separate the two halves of a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(body[cut - 1])) cut--;
    const piece = trim(body, start, cut);
    if (piece) result.push(piece);
    start = cut;
  }
  const rest = trim(body, start, span.end);
  if (rest) result.push(rest);
  return result;
}

function pieces(body: string, paragraph: Span, max: number): Span[] {
  if (paragraph.end - paragraph.start <= max) return [paragraph];
  return sentences(body, paragraph).flatMap((s) => (s.end - s.start <= max ? [s] : hardSplit(body, s, max)));
}

export type ChunkOptions = { size?: number; overlap?: number };

/**
 * `size` bounds a chunk's own text; `overlap` repeats up to that many characters of the
 * previous chunk under the same heading at the start of the next, cut at a word boundary,
 * so a passage split across two chunks is still found whole in one of them.
 */
export function chunkDocument(body: string, options: number | ChunkOptions = {}): Chunk[] {
  const { size: maxChars = MAX_CHUNK_CHARS, overlap = 0 } = typeof options === 'number' ? { size: options } : options;
  const chunks: Chunk[] = [];
  for (const block of blocks(body)) {
    // A new heading always starts a new chunk, so a chunk's heading is true for all of its text.
    const spans: Span[] = [];
    let current: Span | null = null;
    for (const piece of block.paragraphs.flatMap((p) => pieces(body, p, maxChars))) {
      if (current && piece.end - current.start > maxChars) {
        spans.push(current);
        current = null;
      }
      current = current ? { start: current.start, end: piece.end } : { ...piece };
    }
    if (current) spans.push(current);
    spans.forEach(({ start, end }, i) => {
      const from = i > 0 && overlap > 0 ? overlapStart(body, spans[i - 1].start, start, overlap) : start;
      chunks.push({ ordinal: chunks.length, heading: block.heading, text: body.slice(from, end), charStart: from, charEnd: end });
    });
  }
  return chunks;
}

/** Where an overlapping chunk begins: `overlap` characters back, moved forward to a word start. */
function overlapStart(body: string, previousStart: number, start: number, overlap: number) {
  let from = Math.max(previousStart, start - overlap);
  while (from < start && from > previousStart && !/\s/.test(body[from - 1])) from++;
  while (from < start && /\s/.test(body[from])) from++;
  return from;
}
