// Reads the text out of a filing or clipping: HTML (a 10-K, an 8-K, a news page), a DART original
// document (XML, alone or in the zip OpenDART serves) or a PDF. The result is one plain body in
// the pool's document form (paragraphs separated by blank lines, headings as `## ` lines, so
// lib/pool/chunk.ts cuts it as it cuts imported documents), and for a PDF the character range of
// every page, so a passage can say its page.
//
// A document file is data, never code. HTML and XML go through htmlparser2, a tokenizer: nothing
// in the file is run, <script> and <style> are dropped unread, and in XML a DOCTYPE's entity
// declarations are never expanded (only the five XML entities and numeric references are), so
// neither an external entity nor a "billion laughs" can reach anything. A zip is inflated a slice
// at a time with its unpacked size counted as it grows; a PDF is read with pdf.js's eval turned
// off and its pages counted first. Every limit is in limits.ts; every refusal names the file.
// This module runs in a worker thread (run-extraction.ts), off the web server's event loop.
import { Unzip, UnzipInflate } from 'fflate';
import { formatMb } from '@/lib/pool/import/limits';
import { decode } from '@/lib/pool/import/parse';
import { DOCUMENT_LIMITS, pdfDecodedBytes, ZIP_SLICE_BYTES } from '@/lib/pool/documents/limits';
import { checkPdfStreams } from '@/lib/pool/documents/pdf-streams';
import { DocumentProblem } from '@/lib/pool/documents/problems';
import { walkMarkup } from '@/lib/pool/documents/markup-events';

export type DocumentFormat = 'html' | 'dart' | 'pdf';
/** A page's characters in the body: `body.slice(start, end)`. */
export type PageRange = { page: number; start: number; end: number };
export type Extracted = { format: DocumentFormat; text: string; pages: PageRange[]; title: string | null };
export type ExtractSource = { name: string; bytes: Uint8Array };
/** Bounds a caller may set: what a PDF's streams may unpack to, in bytes (default DOCUMENT_MAX_DECODED_MB). */
export type ExtractOptions = { pdfDecodedBytes?: number };

// Invisible characters that carry no meaning in a filing's prose and can disguise it: C0 controls
// but tab and line feed, DEL, bidirectional embeddings, overrides and isolates. A NUL is one of them.
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/g;
// Half of a UTF-16 surrogate pair: PostgreSQL cannot store one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text a reader sees and the database stores: invisible controls gone, broken characters as U+FFFD. */
export const neutralise = (text: string) => text.replace(INVISIBLE, '').replace(LONE_SURROGATE, '\uFFFD');
/** One paragraph's text on one line. */
const oneLine = (text: string) => neutralise(text).replace(/\s+/g, ' ').trim();

type Vocabulary = {
  /** Elements whose content is never text: dropped unread. */
  skip: ReadonlySet<string>;
  /** Elements that start and end a paragraph. */
  blocks: ReadonlySet<string>;
  /** Table cells: kept on their row's line, separated by a bar. */
  cells: ReadonlySet<string>;
  /** Elements that are headings. */
  headings: ReadonlySet<string>;
  /** The element that holds the document's title, if any. */
  title: ReadonlySet<string>;
};

const HTML: Vocabulary = {
  // ix:header is an inline-XBRL filing's hidden block of facts, not its prose.
  skip: new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'object', 'iframe', 'head', 'ix:header']),
  blocks: new Set([
    'p',
    'div',
    'br',
    'li',
    'ul',
    'ol',
    'table',
    'tr',
    'section',
    'article',
    'header',
    'footer',
    'blockquote',
    'pre',
    'hr',
    'dd',
    'dt',
    'dl',
    'body',
    'main',
    'center',
  ]),
  cells: new Set(['td', 'th']),
  headings: new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']),
  title: new Set(['title']),
};

// The DART original document's elements (dart4.xsd): sections with titles, paragraphs, tables.
const DART: Vocabulary = {
  skip: new Set(['image', 'img', 'formula-version']),
  blocks: new Set([
    'p',
    'table',
    'tr',
    'tbody',
    'thead',
    'section-1',
    'section-2',
    'section-3',
    'body',
    'cover',
    'library',
    'pgbrk',
    'company-name',
    'summary',
  ]),
  cells: new Set(['td', 'th', 'te', 'tu']),
  headings: new Set(['title', 'cover-title']),
  title: new Set(['document-name']),
};

/** Text is cleaned this many characters at a time: a paragraph of 60 MB is never one string. */
const PIECE_CHARS = 64 * 1024;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * One paragraph's line as its text comes: cleaned a piece at a time (invisible controls dropped,
 * every run of white space one space, none at the start) and counted, but kept only while the
 * paragraph can still fit in the document, so a one-paragraph file of 60 MB is refused by its
 * length without a string of its size. The bars and spaces at its end (empty cells, ` | `) wait in
 * `run`: they are dropped when the line ends there, kept when more text follows. A loop, not a
 * regular expression such as /(\s*\|\s*)+$/, which tries every way of splitting a run of bars
 * and took a row of thirty empty cells past the reading's time limit.
 */
class Line {
  /** The line's characters so far, without `run`; null once it cannot fit. */
  private kept: string | null = '';
  /** Characters of the line, without `run`. */
  length = 0;
  private run: string | null = '';
  private runLength = 0;
  private space = false;
  /** A high surrogate at the end of a piece, waiting for its pair in the next. */
  private carry = '';
  constructor(private readonly room: number) {}

  add(text: string) {
    for (let at = 0; at < text.length;) {
      let end = Math.min(at + PIECE_CHARS, text.length);
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      this.piece(text.slice(at, end));
      at = end;
    }
  }

  private piece(raw: string, last = false) {
    let text = this.carry + raw;
    this.carry = '';
    if (!last && text && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    const clean = neutralise(text).replace(/\s+/g, ' ');
    if (!clean) return;
    const leading = clean.startsWith(' ');
    const trailing = clean.endsWith(' ');
    const words = clean.slice(leading ? 1 : 0, trailing ? -1 : undefined);
    if (words) {
      const spaced = (this.space || leading) && this.length + this.runLength > 0 ? ` ${words}` : words;
      // The text's last character that is neither a bar nor a space ends what is surely kept.
      let end = spaced.length - 1;
      while (end >= 0 && (spaced[end] === '|' || spaced[end] === ' ')) end--;
      if (end >= 0) {
        const settled = spaced.slice(0, end + 1);
        this.keep(this.run, this.runLength);
        this.keep(settled, settled.length);
        this.run = '';
        this.runLength = 0;
        this.space = false;
        this.toRun(spaced.slice(end + 1));
      } else this.toRun(spaced);
    }
    this.space = (this.space && !words) || trailing;
  }

  private toRun(text: string) {
    if (!text) return;
    this.runLength += text.length;
    this.run = this.run !== null && this.runLength <= this.room ? this.run + text : null;
  }

  private keep(text: string | null, length: number) {
    if (!length) return;
    this.length += length;
    this.kept = this.kept !== null && text !== null && this.length <= this.room ? this.kept + text : null;
  }

  /** Whether the line has text yet (a table's first cell adds no bar before it). */
  get filled() {
    return this.length + this.runLength > 0;
  }

  /** The line as kept, its trailing bars and spaces dropped; null when it was too long to keep. */
  end(): string | null {
    // A high surrogate still waiting has no pair: neutralise makes it U+FFFD.
    if (this.carry) this.piece('', true);
    return this.kept;
  }
}

/** Collects paragraphs as they close, counting the characters past the limit without keeping them. */
class Body {
  private parts: string[] = [];
  length = 0;
  private line = this.newLine();
  private heading = false;
  private newLine() {
    // The room a paragraph has: what is left of the document's, less its separator and a heading's mark.
    return new Line(DOCUMENT_LIMITS.textChars - this.length - (this.length ? 2 : 0) - (this.heading ? 3 : 0));
  }
  add(text: string) {
    this.line.add(text);
  }
  cell() {
    if (this.line.filled) this.line.add(' | ');
  }
  startHeading() {
    this.close();
    this.heading = true;
    this.line = this.newLine();
  }
  close() {
    const line = this.line;
    const kept = line.end();
    const heading = this.heading;
    this.heading = false;
    if (line.length) {
      const added = (this.length ? 2 : 0) + (heading ? 3 : 0) + line.length;
      if (kept !== null && this.length + added <= DOCUMENT_LIMITS.textChars) this.parts.push(heading ? `## ${kept}` : kept);
      this.length += added;
    }
    this.line = this.newLine();
  }
  text() {
    this.close();
    return this.parts.join('\n\n');
  }
}

const TITLE_RAW_CHARS = 10_000;

/** The text of HTML or XML markup, by its vocabulary. */
export function markupText(markup: string, vocabulary: Vocabulary, xmlMode: boolean): { text: string; length: number; title: string | null } {
  const body = new Body();
  let skipping = 0;
  let skipped = '';
  let inTitle = 0;
  let title = '';
  walkMarkup(
    markup,
    { xmlMode },
    {
      onopentag(name) {
        // A title inside a skipped <head> is still the document's title.
        if (skipping && vocabulary.title.has(name)) inTitle++;
        if (skipping) {
          // Only the skipped element's own name nests it; void and unclosed elements inside do not count.
          if (name === skipped) skipping++;
          return;
        }
        if (vocabulary.skip.has(name)) {
          skipped = name;
          skipping = 1;
          return;
        }
        if (vocabulary.title.has(name)) inTitle++;
        if (vocabulary.headings.has(name)) body.startHeading();
        else if (vocabulary.blocks.has(name)) body.close();
        else if (vocabulary.cells.has(name)) body.cell();
      },
      ontext(text) {
        // A title is shown in 500 characters: a few more are kept to clean, never a megabyte.
        if (inTitle) title += title.length < TITLE_RAW_CHARS ? text.slice(0, TITLE_RAW_CHARS - title.length) : '';
        else if (!skipping) body.add(text);
      },
      onclosetag(name) {
        if (vocabulary.title.has(name)) {
          inTitle = Math.max(0, inTitle - 1);
          return;
        }
        if (skipping) {
          if (name === skipped) skipping--;
          return;
        }
        if (vocabulary.headings.has(name) || vocabulary.blocks.has(name)) body.close();
      },
    },
  );
  const text = body.text();
  const cleanTitle = oneLine(title).slice(0, 500) || null;
  return { text, length: body.length, title: cleanTitle };
}

/** The XML files of a DART zip, inflated a slice at a time under the entry and size limits. */
export function unzipXml(source: ExtractSource): Uint8Array[] {
  const files: { name: string; chunks: Uint8Array[] }[] = [];
  let entries = 0;
  let unpacked = 0;
  let refused: DocumentProblem | null = null;
  const unzip = new Unzip((file) => {
    if (refused) return;
    entries++;
    if (entries > DOCUMENT_LIMITS.zipEntries) {
      refused = new DocumentProblem('zipTooManyEntries', { file: source.name, max: DOCUMENT_LIMITS.zipEntries });
      return;
    }
    // Only the XML is read; images and other attachments are never inflated.
    if (!/\.xml$/i.test(file.name)) return;
    const entry = { name: file.name, chunks: [] as Uint8Array[] };
    files.push(entry);
    file.ondata = (err, chunk) => {
      if (refused) return;
      if (err) {
        refused = new DocumentProblem('zipUnreadable', { file: source.name, detail: err.message.slice(0, 200) });
        return;
      }
      unpacked += chunk.byteLength;
      if (unpacked > DOCUMENT_LIMITS.unzippedBytes) {
        refused = new DocumentProblem('zipTooLarge', { file: source.name, limit: formatMb(DOCUMENT_LIMITS.unzippedBytes) });
        file.terminate();
        return;
      }
      entry.chunks.push(chunk);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < source.bytes.byteLength && !refused; at += ZIP_SLICE_BYTES) {
      const end = Math.min(at + ZIP_SLICE_BYTES, source.bytes.byteLength);
      unzip.push(source.bytes.subarray(at, end), end === source.bytes.byteLength);
    }
  } catch (err) {
    refused ??= new DocumentProblem('zipUnreadable', { file: source.name, detail: (err as Error).message.slice(0, 200) });
  }
  if (refused) throw refused;
  if (files.length === 0) throw new DocumentProblem('zipNoXml', { file: source.name });
  // The original document first (its name is the receipt number alone), then its attachments.
  files.sort((a, b) => a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
  return files.map(({ chunks }) => {
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  });
}

function checkLength(name: string, length: number) {
  if (length > DOCUMENT_LIMITS.textChars) throw new DocumentProblem('textTooLong', { file: name, n: length, max: DOCUMENT_LIMITS.textChars });
  if (length === 0) throw new DocumentProblem('emptyDocument', { file: name });
}

/**
 * XML without its DOCTYPE: the tokenizer would end the declaration at the first `>` inside an
 * internal subset and read the rest of the subset as text. Its entities are never expanded either way.
 */
export function withoutDoctype(xml: string): string {
  const at = xml.search(/<!DOCTYPE/i);
  if (at === -1) return xml;
  const close = xml.indexOf('>', at);
  const subset = xml.indexOf('[', at);
  const end = subset !== -1 && (close === -1 || subset < close) ? xml.indexOf(']>', subset) : close;
  return end === -1 ? xml.slice(0, at) : xml.slice(0, at) + xml.slice(end + (xml[end] === ']' ? 2 : 1));
}

function readMarkup(source: ExtractSource, texts: string[], format: 'html' | 'dart'): Extracted {
  const parts = texts.map((t) => {
    const markup = t.replace(/^\uFEFF/, '');
    return format === 'html' ? markupText(markup, HTML, false) : markupText(withoutDoctype(markup), DART, true);
  });
  const length = parts.reduce((n, p) => n + p.length, 0) + 2 * Math.max(0, parts.filter((p) => p.length).length - 1);
  checkLength(source.name, length);
  return {
    format,
    text: parts
      .map((p) => p.text)
      .filter(Boolean)
      .join('\n\n'),
    pages: [],
    title: parts[0]?.title ?? null,
  };
}

type PdfJs = typeof import('unpdf');

async function readPdf(source: ExtractSource, maxDecodedBytes: number): Promise<Extracted> {
  // Every stream counted first: pdf.js would hold a bomb's output in one buffer (pdf-streams.ts).
  await checkPdfStreams(source.name, source.bytes, maxDecodedBytes);
  const { getDocumentProxy }: PdfJs = await import('unpdf');
  let pdf: Awaited<ReturnType<PdfJs['getDocumentProxy']>>;
  try {
    // No eval (fonts are never compiled to functions), no system fonts, no font faces: text only.
    pdf = await getDocumentProxy(source.bytes.slice(), { isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  } catch (err) {
    if ((err as Error).name === 'PasswordException') throw new DocumentProblem('pdfEncrypted', { file: source.name });
    throw new DocumentProblem('pdfUnreadable', { file: source.name, detail: String((err as Error).message).slice(0, 200) });
  }
  try {
    if (pdf.numPages > DOCUMENT_LIMITS.pdfPages)
      throw new DocumentProblem('pdfTooManyPages', { file: source.name, n: pdf.numPages, max: DOCUMENT_LIMITS.pdfPages });
    const pages: PageRange[] = [];
    const texts: string[] = [];
    let length = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let raw = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        raw += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      // Lines kept (a page's layout is its only structure), spaces within a line collapsed.
      const text = neutralise(raw)
        .split('\n')
        .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
        .filter(Boolean)
        .join('\n');
      if (!text) continue;
      const start = length + (length ? 2 : 0);
      length = start + text.length;
      if (length <= DOCUMENT_LIMITS.textChars) {
        texts.push(text);
        pages.push({ page: n, start, end: length });
      }
    }
    checkLength(source.name, length);
    return { format: 'pdf', text: texts.join('\n\n'), pages, title: null };
  } catch (err) {
    if (err instanceof DocumentProblem) throw err;
    throw new DocumentProblem('pdfUnreadable', { file: source.name, detail: String((err as Error).message).slice(0, 200) });
  } finally {
    await pdf.destroy();
  }
}

const PDF_MAGIC = '%PDF-';
const startsWithZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** What kind of document the bytes are, by their content first and their name second. */
export function sniff({ name, bytes }: ExtractSource): 'pdf' | 'zip' | 'xml' | 'html' | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const text = head.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  const ext = name.toLowerCase().split('.').pop();
  // A PDF opens with its header (ISO 32000 puts it at the first byte; readers forgive a byte-order
  // mark or blank space before it). pdf.js and Acrobat also look further, anywhere in the first
  // kilobyte, which a web page that mentions "%PDF-1.7" near its top passes too: a header further in
  // counts only for a file named .pdf whose content does not open as markup.
  if (text.startsWith(PDF_MAGIC)) return 'pdf';
  if (startsWithZip(bytes)) return 'zip';
  if (ext === 'pdf' && head.includes(PDF_MAGIC) && !text.startsWith('<')) return 'pdf';
  if (/^<\?xml/i.test(text) && !/<(!doctype\s+)?html/i.test(text)) return 'xml';
  if (ext === 'xml') return 'xml';
  if (/<(!doctype\s+html|html|body|head|div|p|table)[\s>]/i.test(text) || ext === 'html' || ext === 'htm') return 'html';
  return null;
}

/** The text of one document file, or a DocumentProblem naming it. */
export async function extractDocument(source: ExtractSource, options: ExtractOptions = {}): Promise<Extracted> {
  switch (sniff(source)) {
    case 'pdf':
      return readPdf(source, options.pdfDecodedBytes ?? pdfDecodedBytes());
    case 'zip':
      return readMarkup(
        source,
        unzipXml(source).map((b) => decode(b).text),
        'dart',
      );
    case 'xml':
      return readMarkup(source, [decode(source.bytes).text], 'dart');
    case 'html':
      return readMarkup(source, [decode(source.bytes).text], 'html');
    default:
      throw new DocumentProblem('unsupportedFormat', { file: source.name });
  }
}
