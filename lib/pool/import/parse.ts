// From files to located raw records: decoding (UTF-8 or cp949/EUC-KR), JSON, JSONL, CSV and
// Markdown with front matter. Every record keeps its file and line so a rejection can name them.
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import matter from 'gray-matter';
import { LIMITS } from '@/lib/pool/import/schemas';
import type { Phrase } from '@/lib/i18n';
import { problem, type Problem } from '@/lib/pool/import/problems';

export type ImportSource = { name: string; bytes: Uint8Array };
export type Located = { file: string; row: number; value: unknown };
/** A rejected row: `message` in English (the command line, the audit log), `phrase` for the screen. */
export type Rejection = { file: string; row: number; field: string | null; message: string; phrase?: Phrase };
export type ParsedDocument = {
  file: string;
  frontMatter: Record<string, unknown>;
  frontMatterLines: Record<string, number>;
  body: string;
  /** The line of the file on which the body starts. */
  bodyLine: number;
};

export type FileKind = 'companies' | 'evidence' | 'document' | 'ignored';

/** How a file in an import is read, by its path inside the import. */
export function classify(name: string, { single }: { single: boolean }): FileKind {
  const base = path.posix.basename(name).toLowerCase();
  const ext = path.posix.extname(base);
  if (base === 'companies.json') return 'companies';
  if (ext === '.jsonl' || ext === '.csv' || ext === '.json') return 'evidence';
  // In a folder, only documents/*.md are documents (SOURCES.md and READMEs are not); a lone .md file is one.
  if (ext === '.md') return single || /(^|\/)documents\//.test(name) ? 'document' : 'ignored';
  return 'ignored';
}

/**
 * UTF-8 when the bytes are valid UTF-8 (with or without a BOM); otherwise Korean legacy
 * encoding. WHATWG's "euc-kr" decoder is Microsoft's cp949, a superset of EUC-KR.
 */
export function decode(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'cp949' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('euc-kr').decode(bytes), encoding: 'cp949' };
  }
}

function lineAt(text: string, offset: number) {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line on which each element of a top-level JSON array starts. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (expectElement && !/\s/.test(ch) && ch !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1 && ch === '[') expectElement = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

function jsonError(file: string, text: string, err: Error): Rejection {
  const position = /position (\d+)/.exec(err.message);
  return {
    file,
    row: position ? lineAt(text, Number(position[1])) : 1,
    field: null,
    ...problem('notJson', { detail: err.message }),
  };
}

/** A JSON array of records (companies.json, or evidence items). */
export function parseJsonArray(file: string, text: string): { records: Located[]; rejected: Rejection[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { records: [], rejected: [jsonError(file, text, err as Error)] };
  }
  if (!Array.isArray(data)) {
    return { records: [], rejected: [{ file, row: 1, field: null, ...problem('notJsonArray') }] };
  }
  const lines = arrayElementLines(text);
  return { records: data.map((value, i) => ({ file, row: lines[i] ?? i + 1, value })), rejected: [] };
}

export function parseJsonl(file: string, text: string): { records: Located[]; rejected: Rejection[] } {
  const records: Located[] = [];
  const rejected: Rejection[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (!line) return;
    try {
      records.push({ file, row: i + 1, value: JSON.parse(line) });
    } catch (err) {
      rejected.push({ file, row: i + 1, field: null, ...problem('lineNotJson', { detail: (err as Error).message }) });
    }
  });
  return { records, rejected };
}

/** CSV with a header row of field names; row numbers count the header as line 1. */
export function parseCsvRecords(file: string, text: string): { records: Located[]; rejected: Rejection[] } {
  try {
    const rows = parseCsv(text.replace(/^\uFEFF/, ''), {
      columns: (header: string[]) => header.map((h) => h.trim()),
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      raw: true,
      trim: false,
    }) as { record: Record<string, string>; info: { lines: number }; raw: string }[];
    return {
      records: rows.map(({ record, info, raw }) => ({
        file,
        // `lines` is where the record ends; a quoted field may span several lines.
        row:
          info.lines -
          (raw
            .replace(/^[\r\n]+/, '')
            .replace(/\r?\n$/, '')
            .split('\n').length -
            1),
        value: record,
      })),
      rejected: [],
    };
  } catch (err) {
    const e = err as Error & { lines?: number };
    return { records: [], rejected: [{ file, row: e.lines ?? 1, field: null, ...problem('csvUnreadable', { detail: e.message }) }] };
  }
}

/** Front matter is data: these marks after the opening --- would make gray-matter run it as code. */
const DATA_LANGUAGES = new Set(['', 'yaml', 'yml']);
const refuseCode = () => {
  throw new Error('front matter is data, never code');
};
/**
 * gray-matter's options for reading front matter as data only. YAML goes through js-yaml's safe
 * schema (its default here), which has no !!js/function or other code tags; the engines that
 * would eval JavaScript or CoffeeScript are replaced with ones that refuse. parseDocument also
 * refuses any mark but yaml before gray-matter sees the text, so these are a second lock.
 */
const DATA_ONLY = { language: 'yaml', engines: { javascript: refuseCode, js: refuseCode, coffee: refuseCode, coffeescript: refuseCode, cson: refuseCode } };
/** The most values (counting every use of a YAML alias) and levels one front matter may hold. */
const MAX_VALUES = 2_000;
const MAX_LEVELS = 10;

/** Whether a value stays within MAX_VALUES and MAX_LEVELS: aliases can make a few lines expand to millions of values when stored. */
function withinBounds(value: unknown): boolean {
  let values = 0;
  const visit = (v: unknown, level: number): boolean => {
    if (++values > MAX_VALUES || level > MAX_LEVELS) return false;
    if (v === null || typeof v !== 'object' || v instanceof Date) return true;
    return (Array.isArray(v) ? v : Object.values(v)).every((x) => visit(x, level + 1));
  };
  return visit(value, 0);
}

export function parseDocument(file: string, text: string, maxFrontMatter = LIMITS.document.frontMatter): { document?: ParsedDocument; rejected: Rejection[] } {
  const reject = (bad: Problem) => ({ rejected: [{ file, row: 1, field: null, ...bad }] });
  const source = text.replace(/^\uFEFF/, '');
  const firstLine = /^---([^\n]*)\n/.exec(source);
  if (!firstLine || firstLine[1].startsWith('-')) {
    return reject(problem('needsFrontMatter'));
  }
  const mark = firstLine[1].trim();
  if (!DATA_LANGUAGES.has(mark.toLowerCase())) {
    return reject(problem('codeFrontMatter', { mark: mark.slice(0, 20) }));
  }
  const close = source.indexOf('\n---', firstLine[0].length - 1);
  const frontMatterLength = (close === -1 ? source.length : close) - firstLine[0].length;
  if (frontMatterLength > maxFrontMatter) {
    return reject(problem('frontMatterTooLong', { n: frontMatterLength, max: maxFrontMatter }));
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Passing options also turns off gray-matter's cache, which would hand back a shared object.
    parsed = matter(source, DATA_ONLY);
  } catch (err) {
    return reject(problem('yamlInvalid', { detail: (err as Error).message.slice(0, 300) }));
  }
  if (!parsed.matter) {
    return reject(problem('needsFrontMatter'));
  }
  if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data) || !withinBounds(parsed.data)) {
    return reject(problem('frontMatterShape', { max: MAX_VALUES }));
  }
  const frontMatterLines: Record<string, number> = {};
  source
    .slice(0, firstLine[0].length + frontMatterLength)
    .split('\n')
    .forEach((line, i) => {
      const key = /^([A-Za-z_][\w-]*):/.exec(line)?.[1];
      if (key && !(key in frontMatterLines)) frontMatterLines[key] = i + 1;
    });
  const bodyLine = lineAt(source, source.length - parsed.content.length);
  return { document: { file, frontMatter: parsed.data, frontMatterLines, body: parsed.content, bodyLine }, rejected: [] };
}
