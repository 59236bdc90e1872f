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
// from its first claim on, not from the end of the first claim. So is every other readable field
// outside the parts (LIVE_FIELDS: a report's objective and summaries, a closing's concessions),
// reported by name as it grows, so an answer that writes those before its prose is read from its
// first words too; ids, dates and enum codes never are.
import { Allow, parse as parsePartial } from 'partial-json';
import { DRAFT_FIELDS, LIVE_FIELDS, MAX_DRAFT_CHARS, MAX_LIVE_FIELDS, MAX_LIVE_PARTS, PART_KEYS, type FieldName, type LiveField, type PartDraft, type PartKind, type StepPart } from '@/lib/domain/output-parts';
import { PROSE, proseOf, type OutputKind } from '@/lib/domain/outputs';

/**
 * What a chunk adds: prose, the parts it completes, and, when it wrote some of the readable field
 * of a part still open at its end, that part's draft as it now stands (`done`: the field is
 * complete, though the part is not yet). A draft always comes after the chunk's parts. `fields`:
 * each readable field the chunk wrote some of, as it now stands (`done`: complete), then any the
 * prose has now taken in, with empty text.
 */
export type AnswerUpdate = { prose: string; parts: StepPart[]; draft?: PartDraft & { done: boolean }; fields: (LiveField & { done: boolean })[] };

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
/** A readable field outside the parts as decoded so far; `shown`: an update has carried it. */
type Field = { name: FieldName; index: number; text: string; done: boolean; full: boolean; shown: boolean };
type ArrayFrame = { type: 'array'; index: number; state: 'value' | 'comma'; key: string | null };
type Frame = ObjectFrame | ArrayFrame;

/**
 * An open string: a key, one of the prose fields (by its index in PROSE), a part's readable field
 * (`draft`, the part's frame: `part`), a readable field outside the parts (`field`) or any other
 * value. All but the last gather their content in `raw` (from `from` in the chunk being read);
 * prose, drafts and fields hand it to the decoder after every chunk, short of an escape cut in half.
 */
type OpenString = { role: 'key' | 'prose' | 'draft' | 'field' | 'other'; prose: number; escape: boolean; hex: number; raw: string; from: number; part?: ObjectFrame; field?: Field };

/** `field`: the prose field came before its turn in the prose and is shown as a field until then. */
type ProsePart = { state: 'absent' | 'open' | 'done'; pending: string; field?: Field };

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

/** A draft's or a field's text as shown: never half a character (a high surrogate waits for its pair), an ellipsis when cut. */
function visible(text: string, full: boolean): string {
  const whole = isHighSurrogate(text.charCodeAt(text.length - 1)) ? text.slice(0, -1) : text;
  return full ? `${whole}…` : whole;
}

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
  private readonly fieldPaths: readonly (readonly string[])[];
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
  /** Readable fields opened so far, of each name (the next one's index) and in all. */
  private fieldsOpened: Partial<Record<FieldName, number>> = {};
  private fieldCount = 0;
  /** The fields this chunk wrote some of, in the order it did. */
  private touched: Field[] = [];
  private out: AnswerUpdate = { prose: '', parts: [], fields: [] };
  /** Characters handed to a decoder, for the cost test: stays about the answer's length. */
  decodedChars = 0;

  constructor(private readonly kind: OutputKind) {
    const { parts, join } = PROSE[kind] as { parts: readonly (readonly string[])[]; join: string };
    this.prosePaths = parts;
    this.fieldPaths = LIVE_FIELDS[kind];
    this.join = join;
    this.prose = parts.map(() => ({ state: 'absent', pending: '' }));
  }

  /** The next raw chunk of the answer: the prose it adds and the parts it completes. */
  push(chunk: string): AnswerUpdate {
    this.out = { prose: '', parts: [], fields: [] };
    this.drafted = null;
    this.touched = [];
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
      if (s.role !== 'key') {
        // Decode what has come, short of an escape cut in half (it starts at the last backslash).
        const cut = s.escape ? s.raw.lastIndexOf('\\') : s.raw.length;
        if (s.role === 'prose') this.decodeProse(s, s.raw.slice(0, cut));
        else if (s.role === 'draft') this.decodeDraft(s, s.raw.slice(0, cut));
        else this.decodeField(s.field!, s.raw.slice(0, cut));
        s.raw = s.raw.slice(cut);
      }
    }
    for (const field of this.touched) {
      const text = visible(field.text, field.full);
      // A heading over nothing is not worth showing: a field goes out from its first non-space.
      if (!field.shown && !/\S/.test(text)) continue;
      field.shown = true;
      this.out.fields.push({ name: field.name, index: field.index, text, done: field.done });
    }
    this.flushProse();
    // (The scan may have set it: TypeScript cannot see that.)
    const frame = this.drafted as ObjectFrame | null;
    const drafted = frame?.draft;
    if (frame?.part && drafted) {
      const text = visible(drafted.text, drafted.full);
      if (text) this.out.draft = { kind: frame.part, index: drafted.index, text, done: drafted.done };
    }
    return this.out;
  }

  /**
   * The answer has ended (or stopped): whatever prose is left. When the scan lost its way in a
   * malformed answer, partial-json's reading of it gives the rest, if it extends what was sent.
   */
  finish(): AnswerUpdate {
    this.out = { prose: '', parts: [], fields: [] };
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
    const top = this.stack[this.stack.length - 1];
    // A prose field written twice keeps its first value: what streamed cannot be taken back.
    if (prose >= 0 && this.prose[prose].state === 'absent') {
      this.str = { role: 'prose', prose, escape: false, hex: 0, raw: '', from: i + 1 };
      const part = this.prose[prose];
      part.state = 'open';
      // Written before the prose fields ahead of it are complete: shown as a field meanwhile.
      const early = this.prose.slice(this.current, prose).some((p) => p.state !== 'done');
      const name = early ? this.fieldHere() : null;
      if (name) part.field = this.openField(name);
      return;
    }
    // A part's readable field, the first time it is written, while parts are still sent live.
    if (top.type === 'object' && top.part && top.draft && !top.draft.done && top.draft.text === '' && top.key === DRAFT_FIELDS[top.part] && this.partsSent < MAX_LIVE_PARTS) {
      this.str = { role: 'draft', prose: -1, escape: false, hex: 0, raw: '', from: i + 1, part: top };
      return;
    }
    // A readable field: a string at its path, or one of a list there.
    const name = prose < 0 && (top.type === 'array' || top.state === 'value') && this.fieldCount < MAX_LIVE_FIELDS ? this.fieldHere() : null;
    if (name) {
      this.str = { role: 'field', prose: -1, escape: false, hex: 0, raw: '', from: i + 1, field: this.openField(name) };
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
    if (s.role === 'field') {
      this.decodeField(s.field!, raw);
      s.field!.done = true;
      this.touch(s.field!);
      this.valueEnded();
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
    const part = this.prose[s.prose];
    part.state = 'done';
    if (part.field) {
      part.field.done = true;
      this.touch(part.field);
    }
    this.valueEnded();
  }

  private decodeProse(s: OpenString, raw: string) {
    if (!raw) return;
    this.decodedChars += raw.length;
    const text = decodeString(raw);
    const part = this.prose[s.prose];
    part.pending += text;
    if (part.field) this.growField(part.field, text);
  }

  private openField(name: FieldName): Field {
    const index = this.fieldsOpened[name] ?? 0;
    this.fieldsOpened[name] = index + 1;
    this.fieldCount++;
    return { name, index, text: '', done: false, full: false, shown: false };
  }

  private decodeField(field: Field, raw: string) {
    if (!raw || field.full) return;
    this.decodedChars += raw.length;
    this.growField(field, decodeString(raw));
  }

  /** More text of a field, up to MAX_DRAFT_CHARS. */
  private growField(field: Field, text: string) {
    if (field.full || !text) return;
    field.text += text;
    if (field.text.length > MAX_DRAFT_CHARS) {
      field.text = field.text.slice(0, MAX_DRAFT_CHARS);
      field.full = true;
    }
    this.touch(field);
  }

  private touch(field: Field) {
    if (!this.touched.includes(field)) this.touched.push(field);
  }

  /** Which readable field a string starting now is (LIVE_FIELDS), or null: its path from the root, lists left out. */
  private fieldHere(): FieldName | null {
    next: for (const path of this.fieldPaths) {
      let d = 0;
      for (const frame of this.stack) {
        if (frame.type === 'array') continue;
        if (frame.key !== path[d]) continue next;
        d++;
      }
      if (d === path.length) return path[d - 1] as FieldName;
    }
    return null;
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
      // The prose reaches a field shown on its own until now: it is taken back.
      if (part.field?.shown) this.out.fields.push({ name: part.field.name, index: part.field.index, text: '', done: true });
      part.field = undefined;
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
