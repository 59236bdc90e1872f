// Reads a structured answer while the model writes it: fed the raw chunks in any split, it gives
// back the new characters of the answer's prose (the field PROSE names, decoded: never a quote, a
// brace or an escape of the JSON around it) and each claim, question or citation the moment it is
// written out in full. Models do not always answer as asked, so it follows the keys wherever the
// model puts them (claims before the text included) and skips anything before the answer's first
// `{` (a ```json fence, a sentence) and after its last `}`.
//
// Cost: re-parsing the whole answer on every chunk would be quadratic in its length (a 20 KB
// answer in 4-character chunks is 5,000 parses). Instead one pass looks at each character once,
// keeping only where strings, objects and arrays start and end; a value is decoded once, when it
// is complete (a part, a key) or as far as it has come (the prose, from where the last chunk
// stopped). partial-json reads the unfinished answer once at the end, so an answer cut off
// mid-way still gives all the prose it holds.
//
// A part's readable field (a claim's text, DRAFT_FIELDS) is decoded the same way as it comes,
// and reported as the part's draft: a model that writes its claims before its prose is read
// from its first claim on, not from the end of the first claim.
import { Allow, parse as parsePartial } from 'partial-json';
import { DRAFT_FIELDS, MAX_DRAFT_CHARS, MAX_LIVE_PARTS, PART_KEYS, type PartDraft, type PartKind, type StepPart } from '@/lib/domain/output-parts';
import { PROSE, proseOf, type OutputKind } from '@/lib/domain/outputs';

/**
 * What a chunk adds: prose, the parts it completes, and, when it wrote some of the readable field
 * of a part still open at its end, that part's draft as it now stands (`done`: the field is
 * complete, though the part is not yet). A draft always comes after the chunk's parts.
 */
export type AnswerUpdate = { prose: string; parts: StepPart[]; draft?: PartDraft & { done: boolean } };

// Long strings and lists of a part are shortened: live events stay small (the step's output,
// sent once at its end, is complete).
const MAX_PART_STRING = MAX_DRAFT_CHARS;
const MAX_PART_ITEMS = 12;

// An object that is a part gathers its own raw text as it comes (`raw`, and `from`: where it
// began in the chunk being read), so that closing it costs its length and nothing more.
type ObjectFrame = { type: 'object'; key: string | null; state: 'key' | 'colon' | 'value' | 'comma'; part?: PartKind; raw: string; from: number; draft?: Draft };

/**
 * A part's readable field as decoded so far (`index`: the part's place among those of its kind).
 * `full`: it reached MAX_DRAFT_CHARS and is decoded no further.
 */
type Draft = { index: number; text: string; done: boolean; full: boolean };
type ArrayFrame = { type: 'array'; index: number; state: 'value' | 'comma'; key: string | null };
type Frame = ObjectFrame | ArrayFrame;

/**
 * An open string: a key, one of the prose fields (by its index in PROSE), a part's readable field
 * (`draft`, the part's frame: `part`) or any other value. Keys, prose and drafts gather their
 * content in `raw` (from `from` in the chunk being read); prose and drafts hand it to the decoder
 * after every chunk, short of an escape cut in half.
 */
type OpenString = { role: 'key' | 'prose' | 'draft' | 'other'; prose: number; escape: boolean; hex: number; raw: string; from: number; part?: ObjectFrame };

type ProsePart = { state: 'absent' | 'open' | 'done'; pending: string };

const WHITESPACE = new Set([' ', '\n', '\r', '\t']);

/** JSON string content (without its quotes) decoded; a sloppy model's raw control characters or bad escapes are read as meant. */
function decodeString(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    const lenient = raw
      .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1))
      .replace(/\\u(?![0-9a-fA-F]{4})/g, 'u')
      .replace(/\\([^"\\/bfnrtu])/g, '$1');
    try {
      return JSON.parse(`"${lenient}"`) as string;
    } catch {
      return raw.replace(/\\/g, '');
    }
  }
}

function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_PART_STRING ? `${value.slice(0, MAX_PART_STRING)}…` : value;
  if (Array.isArray(value)) return depth > 3 ? [] : value.slice(0, MAX_PART_ITEMS).map((v) => bounded(v, depth + 1));
  if (value && typeof value === 'object') {
    if (depth > 3) return {};
    return Object.fromEntries(Object.entries(value).slice(0, 24).map(([k, v]) => [k, bounded(v, depth + 1)]));
  }
  return value;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export class AnswerStream {
  // The whole answer, kept for one reading at its end. The scan reads each chunk on its own and
  // never indexes this: indexing a string built by appending makes the engine copy it whole.
  private buf = '';
  private phase: 'before' | 'inside' | 'after' = 'before';
  private rootStart = -1;
  private stack: Frame[] = [];
  private str: OpenString | null = null;
  private primitive = false;
  private readonly prosePaths: readonly (readonly string[])[];
  private readonly join: string;
  private readonly prose: ProsePart[];
  /** The prose part streaming now: earlier ones are done and sent. */
  private current = 0;
  private sent = '';
  /** A high surrogate held back until its pair arrives, so no event ends in half a character. */
  private held = '';
  private partsSent = 0;
  /** Parts of each kind opened so far: the next one's index. */
  private opened: Partial<Record<PartKind, number>> = {};
  /** The part whose draft this chunk changed, while it is open. */
  private drafted: ObjectFrame | null = null;
  private out: AnswerUpdate = { prose: '', parts: [] };
  /** Characters handed to a decoder, for the cost test: stays about the answer's length. */
  decodedChars = 0;

  constructor(private readonly kind: OutputKind) {
    const { parts, join } = PROSE[kind] as { parts: readonly (readonly string[])[]; join: string };
    this.prosePaths = parts;
    this.join = join;
    this.prose = parts.map(() => ({ state: 'absent', pending: '' }));
  }

  /** The next raw chunk of the answer: the prose it adds and the parts it completes. */
  push(chunk: string): AnswerUpdate {
    this.out = { prose: '', parts: [] };
    this.drafted = null;
    if (!chunk || this.phase === 'after') return this.out;
    const base = this.buf.length;
    this.buf += chunk;
    this.scan(chunk, base);
    // What is still open gathers the rest of this chunk.
    for (const frame of this.stack) {
      if (frame.type === 'object' && frame.part) {
        frame.raw += chunk.slice(frame.from);
        frame.from = 0;
      }
    }
    const s = this.str;
    if (s && s.role !== 'other') {
      s.raw += chunk.slice(s.from);
      s.from = 0;
      if (s.role === 'prose' || s.role === 'draft') {
        // Decode what has come, short of an escape cut in half (it starts at the last backslash).
        const cut = s.escape ? s.raw.lastIndexOf('\\') : s.raw.length;
        if (s.role === 'prose') this.decodeProse(s, s.raw.slice(0, cut));
        else this.decodeDraft(s, s.raw.slice(0, cut));
        s.raw = s.raw.slice(cut);
      }
    }
    this.flushProse();
    // (The scan may have set it: TypeScript cannot see that.)
    const frame = this.drafted as ObjectFrame | null;
    const drafted = frame?.draft;
    if (frame?.part && drafted) {
      // Never half a character: a high surrogate waits for its pair (the part's next update, or the part itself).
      let text = drafted.text;
      if (isHighSurrogate(text.charCodeAt(text.length - 1))) text = text.slice(0, -1);
      if (drafted.full) text = `${text}…`;
      if (text) this.out.draft = { kind: frame.part, index: drafted.index, text, done: drafted.done };
    }
    return this.out;
  }

  /**
   * The answer has ended (or stopped): whatever prose is left. When the scan lost its way in a
   * malformed answer, partial-json's reading of it gives the rest, if it extends what was sent.
   */
  finish(): AnswerUpdate {
    this.out = { prose: '', parts: [] };
    this.flushProse();
    let rest = this.held;
    if (this.rootStart >= 0) {
      let value: unknown;
      try {
        value = parsePartial(this.buf.slice(this.rootStart), Allow.ALL);
      } catch {
        value = undefined;
      }
      this.decodedChars += this.buf.length - this.rootStart;
      const whole = value && typeof value === 'object' ? proseOf(this.kind, value) : '';
      const produced = this.sent + this.held;
      if (whole.length > produced.length && whole.startsWith(produced)) rest = whole.slice(this.sent.length);
    }
    this.held = '';
    this.out.prose += rest;
    this.sent += rest;
    return this.out;
  }

  private scan(chunk: string, base: number) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.phase === 'after') return;
      if (this.str) {
        this.stringChar(c, chunk, i);
        continue;
      }
      if (this.phase === 'before') {
        if (c === '{') this.openRoot(base + i, i);
        continue;
      }
      if (this.primitive) {
        if (c !== ',' && c !== '}' && c !== ']' && !WHITESPACE.has(c)) continue;
        this.primitive = false;
        this.valueEnded();
      }
      if (WHITESPACE.has(c)) continue;
      const top = this.stack[this.stack.length - 1];
      // `{` followed by anything but a key or `}` was a brace in prose before the answer: look on.
      if (this.stack.length === 1 && top.type === 'object' && top.key === null && top.state === 'key' && c !== '"' && c !== '}') {
        this.stack = [];
        this.phase = 'before';
        this.rootStart = -1;
        if (c === '{') this.openRoot(base + i, i);
        continue;
      }
      switch (c) {
        case '"':
          if (top.type === 'object' && top.state === 'key') this.str = { role: 'key', prose: -1, escape: false, hex: 0, raw: '', from: i + 1 };
          else this.openString(i);
          break;
        case '{':
        case '[':
          this.openContainer(c, top, i);
          break;
        case '}':
        case ']':
          this.closeContainer(chunk, i);
          break;
        case ':':
          if (top.type === 'object') top.state = 'value';
          break;
        case ',':
          if (top.type === 'object') top.state = 'key';
          else {
            top.index++;
            top.state = 'value';
          }
          break;
        default:
          this.primitive = true;
      }
    }
  }

  private openRoot(at: number, i: number) {
    this.phase = 'inside';
    this.rootStart = at;
    this.stack = [{ type: 'object', key: null, state: 'key', raw: '', from: i }];
  }

  /** Which prose field a value starting now is, or -1: its path from the root, keys only. */
  private proseIndexHere(): number {
    const top = this.stack[this.stack.length - 1];
    if (top.type !== 'object') return -1;
    const depth = this.stack.length;
    for (let i = 0; i < this.prosePaths.length; i++) {
      const path = this.prosePaths[i];
      if (path.length !== depth) continue;
      let same = true;
      for (let d = 0; d < depth && same; d++) {
        const frame = this.stack[d];
        same = frame.type === 'object' && frame.key === path[d];
      }
      if (same) return i;
    }
    return -1;
  }

  private openString(i: number) {
    const prose = this.proseIndexHere();
    // A prose field written twice keeps its first value: what streamed cannot be taken back.
    if (prose >= 0 && this.prose[prose].state === 'absent') {
      this.str = { role: 'prose', prose, escape: false, hex: 0, raw: '', from: i + 1 };
      this.prose[prose].state = 'open';
      return;
    }
    // A part's readable field, the first time it is written, while parts are still sent live.
    const top = this.stack[this.stack.length - 1];
    if (top.type === 'object' && top.part && top.draft && !top.draft.done && top.draft.text === '' && top.key === DRAFT_FIELDS[top.part] && this.partsSent < MAX_LIVE_PARTS) {
      this.str = { role: 'draft', prose: -1, escape: false, hex: 0, raw: '', from: i + 1, part: top };
      return;
    }
    this.str = { role: 'other', prose, escape: false, hex: 0, raw: '', from: i + 1 };
  }

  private stringChar(c: string, chunk: string, i: number) {
    const s = this.str!;
    if (s.escape) {
      if (s.hex > 0) {
        if (--s.hex === 0) s.escape = false;
      } else if (c === 'u') s.hex = 4;
      else s.escape = false;
      return;
    }
    if (c === '\\') {
      s.escape = true;
      return;
    }
    if (c !== '"') return;
    this.str = null;
    if (s.role === 'other') {
      this.valueEnded();
      return;
    }
    const raw = s.raw + chunk.slice(s.from, i);
    if (s.role === 'key') {
      const top = this.stack[this.stack.length - 1] as ObjectFrame;
      this.decodedChars += raw.length;
      top.key = decodeString(raw);
      top.state = 'colon';
      return;
    }
    if (s.role === 'draft') {
      this.decodeDraft(s, raw);
      s.part!.draft!.done = true;
      this.drafted = s.part!;
      this.valueEnded();
      return;
    }
    this.decodeProse(s, raw);
    this.prose[s.prose].state = 'done';
    this.valueEnded();
  }

  private decodeProse(s: OpenString, raw: string) {
    if (!raw) return;
    this.decodedChars += raw.length;
    this.prose[s.prose].pending += decodeString(raw);
  }

  /** Decodes more of a draft (the whole field was `raw` so far), up to MAX_DRAFT_CHARS. */
  private decodeDraft(s: OpenString, raw: string) {
    const draft = s.part!.draft!;
    if (!raw || draft.full) return;
    this.decodedChars += raw.length;
    draft.text += decodeString(raw);
    if (draft.text.length > MAX_DRAFT_CHARS) {
      draft.text = draft.text.slice(0, MAX_DRAFT_CHARS);
      draft.full = true;
    }
    this.drafted = s.part!;
  }

  private openContainer(c: '{' | '[', top: Frame, i: number) {
    const key = top.type === 'object' ? top.key : null;
    if (c === '[') {
      this.stack.push({ type: 'array', index: 0, state: 'value', key });
      return;
    }
    const part = top.type === 'array' && top.key !== null && Object.hasOwn(PART_KEYS, top.key) ? PART_KEYS[top.key] : undefined;
    if (!part) {
      this.stack.push({ type: 'object', key: null, state: 'key', raw: '', from: i });
      return;
    }
    const index = this.opened[part] ?? 0;
    this.opened[part] = index + 1;
    const draft = DRAFT_FIELDS[part] ? { draft: { index, text: '', done: false, full: false } } : {};
    this.stack.push({ type: 'object', key: null, state: 'key', raw: '', from: i, part, ...draft });
  }

  private closeContainer(chunk: string, i: number) {
    const frame = this.stack.pop()!;
    // The part is written in full: it replaces its draft, which therefore goes no further.
    if (frame === this.drafted) this.drafted = null;
    if (frame.type === 'object' && frame.part && this.partsSent < MAX_LIVE_PARTS) {
      const text = frame.raw + chunk.slice(frame.from, i + 1);
      this.decodedChars += text.length;
      try {
        const value: unknown = JSON.parse(text);
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          this.out.parts.push({ kind: frame.part, value: bounded(value) as Record<string, unknown> });
          this.partsSent++;
        }
      } catch {
        // Not valid JSON after all: the finished step will say what was wrong with it.
      }
    }
    if (this.stack.length === 0) this.phase = 'after';
    else this.valueEnded();
  }

  private valueEnded() {
    const top = this.stack[this.stack.length - 1];
    if (top) top.state = 'comma';
  }

  /** Sends the prose that is ready in order: each field once the ones before it are complete. */
  private flushProse() {
    let text = '';
    while (this.current < this.prose.length) {
      const part = this.prose[this.current];
      if (part.state === 'absent') break;
      text += part.pending;
      part.pending = '';
      if (part.state !== 'done') break;
      this.current++;
      if (this.current < this.prose.length) text += this.join;
    }
    if (!text) return;
    text = this.held + text;
    this.held = '';
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.held = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.out.prose += text;
    this.sent += text;
  }
}
