// What a PDF's streams unpack to, counted before pdf.js reads the file. pdf.js decodes a stream
// whole, into one buffer that doubles as it grows, and an ArrayBuffer is outside the worker
// thread's heap limit: a 1.5 MB file whose content stream inflates to 1.5 GB of spaces took the
// server past 3 GB. Here every stream in the file is decoded a few kilobytes of input at a time,
// its output counted and thrown away, and the file is refused by name once the count passes the
// bound, before pdf.js has seen it.
//
// Every stream counts: page contents, fonts, object streams and cross-reference streams (found
// by their `obj` headers anywhere in the file, even inside another stream's data, since pdf.js
// finds objects by their offsets). An image is counted on its own against the same bound (text
// extraction never decodes one, so a document's pictures do not use up its text's allowance),
// and its image codec (JPEG, JPEG 2000, JBIG2, CCITT) is not run; such a codec on a stream that
// is not an image is refused, its output cannot be bounded cheaply. Filters are undone in order
// (Flate and its predictors, LZW, run length, ASCII hex and base-85), each stage's output
// counted. Encrypted streams are decrypted first with the empty password, as pdf.js opens them.
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { formatMb } from '@/lib/pool/import/limits';
import { DocumentProblem } from '@/lib/pool/documents/problems';

/** A stream's compressed input goes to its decoders this many bytes at a time. */
const SLICE = 4096;
/** The most bytes Flate can make of one byte of input (a run of 258 from 2 bits, per the format). */
const FLATE_WORST_RATIO = 1032;
/** The lexer may look at each byte of the file this many times, over all its objects, before the file is refused. */
const WORK_PER_BYTE = 16;
/** Nesting of arrays and dictionaries in one object; deeper is refused. */
const MAX_DEPTH = 64;

class Name {
  constructor(readonly name: string) {}
}
class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class Keyword {
  constructor(readonly word: string) {}
}
type Value = number | boolean | null | Uint8Array | Name | Ref | Keyword | Value[] | Dict;
type Dict = Map<string, Value>;

/** Why the file is refused: past the bound, a filter whose output cannot be counted, objects too tangled to read. */
class Refused extends Error {
  constructor(
    readonly problem: 'tooLarge' | 'unchecked' | 'tangled',
    readonly what = '',
  ) {
    super(problem);
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

/** Reads PDF objects (COS syntax) from the raw bytes, counting the bytes it looks at. */
class Lexer {
  pos = 0;
  constructor(
    private readonly b: Uint8Array,
    private readonly work: { left: number },
  ) {}

  private step(n = 1) {
    this.pos += n;
    this.work.left -= n;
    if (this.work.left < 0) throw new Refused('tangled');
  }

  skipSpace() {
    const b = this.b;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (isSpace(c)) this.step();
      else if (c === 0x25) {
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.step();
      } else break;
    }
  }

  /** The next object, or undefined where the syntax is broken. */
  value(depth = 0): Value | undefined {
    if (depth > MAX_DEPTH) return undefined;
    this.skipSpace();
    const b = this.b;
    if (this.pos >= b.length) return undefined;
    const c = b[this.pos];
    if (c === 0x3c && b[this.pos + 1] === 0x3c) {
      this.step(2);
      const dict: Dict = new Map();
      for (;;) {
        this.skipSpace();
        if (this.pos >= b.length) return undefined;
        if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
          this.step(2);
          return dict;
        }
        const key = this.value(depth + 1);
        if (!(key instanceof Name)) return undefined;
        const value = this.value(depth + 1);
        if (value === undefined || value instanceof Keyword) return undefined;
        dict.set(key.name, value);
      }
    }
    if (c === 0x5b) {
      this.step();
      const array: Value[] = [];
      for (;;) {
        this.skipSpace();
        if (this.pos >= b.length) return undefined;
        if (b[this.pos] === 0x5d) {
          this.step();
          return array;
        }
        const value = this.value(depth + 1);
        if (value === undefined || value instanceof Keyword) return undefined;
        array.push(value);
      }
    }
    if (c === 0x3c) return this.hexString();
    if (c === 0x28) return this.literalString();
    if (c === 0x2f) return new Name(this.word(1));
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) {
      const n = Number(this.word(0));
      if (!Number.isFinite(n)) return 0;
      // `num gen R` is a reference.
      if (Number.isInteger(n) && n >= 0) {
        const mark = this.pos;
        this.skipSpace();
        if (isDigit(b[this.pos] ?? 0)) {
          const gen = Number(this.word(0));
          this.skipSpace();
          if (Number.isInteger(gen) && b[this.pos] === 0x52 && (this.pos + 1 >= b.length || isSpace(b[this.pos + 1]) || isDelimiter(b[this.pos + 1]))) {
            this.step();
            return new Ref(n, gen);
          }
        }
        this.pos = mark;
      }
      return n;
    }
    if (isDelimiter(c)) return undefined;
    const word = this.word(0);
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    return new Keyword(word);
  }

  /** A regular token from `pos + skip`, with a name's `#xx` escapes undone. */
  private word(skip: number) {
    const b = this.b;
    this.step(skip);
    let out = '';
    while (this.pos < b.length && !isSpace(b[this.pos]) && !isDelimiter(b[this.pos])) {
      const c = b[this.pos];
      if (c === 0x23 && hexValue(b[this.pos + 1] ?? 0) >= 0 && hexValue(b[this.pos + 2] ?? 0) >= 0) {
        out += String.fromCharCode(hexValue(b[this.pos + 1]) * 16 + hexValue(b[this.pos + 2]));
        this.step(3);
      } else {
        out += String.fromCharCode(c);
        this.step();
      }
    }
    return out;
  }

  private hexString(): Uint8Array {
    const b = this.b;
    this.step();
    const out: number[] = [];
    let high = -1;
    while (this.pos < b.length && b[this.pos] !== 0x3e) {
      const v = hexValue(b[this.pos]);
      this.step();
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out.push(high * 16 + v);
        high = -1;
      }
    }
    if (high >= 0) out.push(high * 16);
    this.step();
    return Uint8Array.from(out);
  }

  private literalString(): Uint8Array {
    const b = this.b;
    this.step();
    const out: number[] = [];
    let depth = 1;
    while (this.pos < b.length) {
      const c = b[this.pos];
      this.step();
      if (c === 0x5c) {
        const e = b[this.pos];
        this.step();
        if (e >= 0x30 && e <= 0x37) {
          let v = e - 0x30;
          for (let i = 0; i < 2 && b[this.pos] >= 0x30 && b[this.pos] <= 0x37; i++) {
            v = v * 8 + b[this.pos] - 0x30;
            this.step();
          }
          out.push(v & 0xff);
        } else if (e === 0x0d) {
          if (b[this.pos] === 0x0a) this.step();
        } else if (e !== 0x0a) {
          out.push({ 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c }[e] ?? e);
        }
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29 && --depth === 0) break;
      out.push(c);
    }
    return Uint8Array.from(out);
  }
}

/** A stream of the file: its object's number, dictionary and data; an orphan's object is unknown. */
type RawStream = { num: number; gen: number; dict: Dict; start: number; end: number; orphan?: boolean };

const ENDSTREAM = Buffer.from('endstream', 'latin1');
const OBJ = Buffer.from('obj', 'latin1');
const STREAM = Buffer.from('stream', 'latin1');

/** Where the data after a `stream` keyword starts: past its end-of-line. */
function dataStart(b: Uint8Array, afterKeyword: number) {
  if (b[afterKeyword] === 0x0d) return b[afterKeyword + 1] === 0x0a ? afterKeyword + 2 : afterKeyword + 1;
  return b[afterKeyword] === 0x0a ? afterKeyword + 1 : afterKeyword;
}

const startsAt = (b: Uint8Array, at: number, word: Uint8Array) => at + word.length <= b.length && word.every((c, k) => b[at + k] === c);

/** Every `endstream` of the file, in order: found once, so that no stream's search runs to the end again. */
function endstreamsOf(b: Uint8Array) {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const out: number[] = [];
  for (let at = buf.indexOf(ENDSTREAM); at !== -1; at = buf.indexOf(ENDSTREAM, at + ENDSTREAM.length)) out.push(at);
  return out;
}

/** Where a stream's data ends: its direct /Length when `endstream` follows it, else the next `endstream`. */
function dataEnd(b: Uint8Array, endstreams: number[], start: number, length: Value | undefined) {
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && start + length <= b.length) {
    let at = start + length;
    while (at < b.length && at < start + length + 4 && isSpace(b[at])) at++;
    if (startsAt(b, at, ENDSTREAM)) return start + length;
  }
  let lo = 0;
  let hi = endstreams.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (endstreams[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < endstreams.length ? endstreams[lo] : b.length;
}

/** Every `num gen obj` of the file: its streams, and the dictionaries of its other objects. */
function objectsOf(b: Uint8Array, endstreams: number[], work: { left: number }) {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const streams: RawStream[] = [];
  const dicts = new Map<number, Dict>();
  const numbers = new Map<number, number>();
  const keywords = new Set<number>();
  for (let at = buf.indexOf(OBJ); at !== -1; at = buf.indexOf(OBJ, at + 3)) {
    const after = b[at + 3];
    if (after !== undefined && !isSpace(after) && !isDelimiter(after)) continue;
    // Backwards over `num gen `: a few digits each, so the look back is bounded.
    let i = at - 1;
    if (i < 0 || !isSpace(b[i])) continue;
    while (i >= 0 && isSpace(b[i]) && at - i < 64) i--;
    const genEnd = i + 1;
    while (i >= 0 && isDigit(b[i]) && genEnd - i <= 10) i--;
    const genStart = i + 1;
    if (genStart === genEnd || i < 0 || !isSpace(b[i])) continue;
    while (i >= 0 && isSpace(b[i]) && genStart - i < 64) i--;
    const numEnd = i + 1;
    while (i >= 0 && isDigit(b[i]) && numEnd - i <= 10) i--;
    const numStart = i + 1;
    if (numStart === numEnd || (i >= 0 && !isSpace(b[i]) && !isDelimiter(b[i]))) continue;
    const num = Number(buf.toString('latin1', numStart, numEnd));
    const gen = Number(buf.toString('latin1', genStart, genEnd));
    const lexer = new Lexer(b, work);
    lexer.pos = at + 3;
    const value = lexer.value();
    // A number alone may be a stream's /Length, given by reference.
    if (typeof value === 'number') numbers.set(num, value);
    if (!(value instanceof Map)) continue;
    lexer.skipSpace();
    const keyword = lexer.pos;
    const isStream = startsAt(b, keyword, STREAM) && (b[keyword + 6] === 0x0a || b[keyword + 6] === 0x0d);
    if (!isStream) {
      dicts.set(num, value);
      continue;
    }
    const start = dataStart(b, keyword + 6);
    keywords.add(keyword);
    streams.push({ num, gen, dict: value, start, end: 0 });
  }
  // A /Length by reference is what pdf.js follows too: data holding the bytes of `endstream` must not end early here.
  for (const stream of streams) {
    const length = stream.dict.get('Length');
    stream.end = dataEnd(b, endstreams, stream.start, length instanceof Ref ? numbers.get(length.num) : length);
  }
  return { streams, dicts, keywords };
}

/**
 * `stream` keywords no parsed object owns: an object whose header or dictionary this reader could
 * not parse, though pdf.js might (anywhere, even inside another stream's data, where pdf.js may
 * find it by its offset). Their data is read as Flate, the filter a bomb needs; bytes that are not
 * a zlib stream give nothing, and a break in them is not charged (they may be anything).
 */
function orphans(b: Uint8Array, endstreams: number[], keywords: Set<number>): RawStream[] {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const out: RawStream[] = [];
  for (let at = buf.indexOf(STREAM); at !== -1; at = buf.indexOf(STREAM, at + 6)) {
    const next = b[at + 6];
    if (next !== 0x0a && next !== 0x0d) continue;
    if (at > 0 && !isSpace(b[at - 1]) && !isDelimiter(b[at - 1])) continue;
    if (keywords.has(at)) continue;
    const start = dataStart(b, at + 6);
    out.push({
      num: 0,
      gen: 0,
      dict: new Map<string, Value>([['Filter', new Name('FlateDecode')]]),
      start,
      end: dataEnd(b, endstreams, start, undefined),
      orphan: true,
    });
  }
  return out;
}

// ── Decoders: each takes its input in pieces and hands its output on in pieces ────────────────

type Sink = (chunk: Uint8Array) => void;
/** A decoder: input pushed in pieces, output handed on in pieces; `end` resolves once all of it is out. */
type Stage = { push(chunk: Uint8Array): void; end(): void | Promise<void> };
/** The count of one stream's output; `over` once it passes its bound, and every stage then stops. */
type Tally = { over: boolean; count(n: number): void };

/** Whether the two bytes open a zlib stream pdf.js inflates (it refuses any other header, unread). */
const zlibHeader = (cmf: number, flg: number) => (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 && !(flg & 0x20);

/**
 * Flate, by Node's zlib, its output taken as it comes in chunks of 64 KB. A stream zlib finds
 * broken is charged what is left of its input at Flate's worst ratio: pdf.js's inflater forgives
 * more (a distance before the start reads zeros), so that input may still unpack.
 */
function flate(out: Sink, tally: Tally, chargeBreaks: boolean): Stage {
  let header: number[] | null = [];
  let fed = 0;
  let inflater: zlib.Inflate | null = null;
  let done: Promise<void> = Promise.resolve();
  const start = () => {
    // Truncated data is inflated as far as it goes, as pdf.js does, rather than refused.
    const z = zlib.createInflate({ chunkSize: 64 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    done = new Promise<void>((resolve) => {
      z.on('data', (chunk: Buffer) => {
        if (tally.over) {
          z.destroy();
          resolve();
          return;
        }
        out(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      z.on('error', () => {
        if (chargeBreaks) tally.count(Math.max(0, fed - z.bytesWritten) * FLATE_WORST_RATIO);
        resolve();
      });
      z.on('end', () => resolve());
      z.on('close', () => resolve());
    });
    return z;
  };
  return {
    push(chunk) {
      if (tally.over || fed < 0) return;
      if (header) {
        const before = header.length;
        header.push(...chunk.subarray(0, 2 - before));
        if (header.length < 2) return;
        if (!zlibHeader(header[0], header[1])) {
          fed = -1;
          return;
        }
        inflater = start();
        // The header's bytes from an earlier piece, when it came split.
        const early = Uint8Array.from(header.slice(0, before));
        header = null;
        if (early.byteLength) {
          fed += early.byteLength;
          inflater.write(early);
        }
      }
      fed += chunk.byteLength;
      inflater!.write(chunk);
    },
    end() {
      if (inflater && fed >= 0) inflater.end();
      return done;
    },
  };
}

/** LZW (EarlyChange 1 unless told), decoded: the table holds each code's prefix and last byte. */
function lzw(out: Sink, earlyChange: number): Stage {
  const prefix = new Int32Array(4096);
  const last = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    last[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let bitCount = 0;
  let done = false;
  const scratch = new Uint8Array(4096);
  const emit = (code: number) => {
    let n = length[code];
    for (let c = code; c >= 0; c = prefix[c]) scratch[--n] = last[c];
    out(scratch.slice(0, length[code]));
  };
  const firstByte = (code: number) => {
    let c = code;
    while (prefix[c] >= 0) c = prefix[c];
    return last[c];
  };
  return {
    push(chunk) {
      for (let k = 0; k < chunk.byteLength && !done; k++) {
        bits = ((bits << 8) | chunk[k]) & 0xffffff;
        bitCount += 8;
        while (bitCount >= width && !done) {
          const code = (bits >> (bitCount - width)) & ((1 << width) - 1);
          bitCount -= width;
          if (code === 256) {
            next = 258;
            width = 9;
            previous = -1;
            continue;
          }
          if (code === 257) {
            done = true;
            break;
          }
          if (previous < 0) {
            if (code > 255) {
              done = true;
              break;
            }
            emit(code);
            previous = code;
            continue;
          }
          let entry = code;
          if (code >= next) {
            if (code > next) {
              done = true;
              break;
            }
            entry = -1;
          }
          if (next < 4096) {
            prefix[next] = previous;
            last[next] = firstByte(entry === -1 ? previous : code);
            length[next] = length[previous] + 1;
            next++;
          }
          emit(code);
          previous = code;
          if (next + earlyChange >= 1 << width && width < 12) width++;
        }
      }
    },
    end() {},
  };
}

/** RunLengthDecode, decoded. */
function runLength(out: Sink): Stage {
  let count = -1; // bytes to copy, or -(257 - n) repeats of the next byte
  let repeat = 0;
  let done = false;
  return {
    push(chunk) {
      let k = 0;
      while (k < chunk.byteLength && !done) {
        if (count === -1 && repeat === 0) {
          const n = chunk[k++];
          if (n === 128) done = true;
          else if (n < 128) count = n + 1;
          else repeat = 257 - n;
          continue;
        }
        if (repeat) {
          out(new Uint8Array(repeat).fill(chunk[k++]));
          repeat = 0;
          continue;
        }
        const take = Math.min(count, chunk.byteLength - k);
        out(chunk.subarray(k, k + take));
        k += take;
        count -= take;
        if (count === 0) count = -1;
      }
    },
    end() {},
  };
}

/** ASCIIHexDecode. */
function asciiHex(out: Sink): Stage {
  let high = -1;
  let done = false;
  return {
    push(chunk) {
      const bytes: number[] = [];
      for (let k = 0; k < chunk.byteLength && !done; k++) {
        if (chunk[k] === 0x3e) done = true;
        const v = hexValue(chunk[k]);
        if (v < 0) continue;
        if (high < 0) high = v;
        else {
          bytes.push(high * 16 + v);
          high = -1;
        }
      }
      if (bytes.length) out(Uint8Array.from(bytes));
    },
    end() {
      if (high >= 0) out(Uint8Array.of(high * 16));
    },
  };
}

/** ASCII85Decode. */
function ascii85(out: Sink): Stage {
  let group: number[] = [];
  let done = false;
  const flush = (bytes: number[]) => {
    if (group.length < 2) return;
    const n = group.length;
    while (group.length < 5) group.push(84);
    let v = 0;
    for (const d of group) v = v * 85 + d;
    const word = [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
    bytes.push(...word.slice(0, n - 1));
    group = [];
  };
  return {
    push(chunk) {
      const bytes: number[] = [];
      for (let k = 0; k < chunk.byteLength && !done; k++) {
        const c = chunk[k];
        if (c === 0x7e) {
          done = true;
          break;
        }
        if (c === 0x7a && group.length === 0) {
          bytes.push(0, 0, 0, 0);
          continue;
        }
        if (c < 0x21 || c > 0x75) continue;
        group.push(c - 0x21);
        if (group.length === 5) flush(bytes);
      }
      if (bytes.length) out(Uint8Array.from(bytes));
    },
    end() {
      const bytes: number[] = [];
      flush(bytes);
      group = [];
      if (bytes.length) out(Uint8Array.from(bytes));
    },
  };
}

const FILTER_NAMES: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  DCT: 'DCTDecode',
  CCF: 'CCITTFaxDecode',
};
/** Image codecs: pdf.js runs them only to paint an image, which reading text never does. */
const IMAGE_CODECS = new Set(['DCTDecode', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode']);

const asArray = (v: Value | undefined): Value[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** A stream that paints an image (an image XObject, a soft mask, a thumbnail). */
function isImage(dict: Dict) {
  const subtype = dict.get('Subtype');
  return (
    (subtype instanceof Name && subtype.name === 'Image') ||
    (dict.has('Width') && dict.has('Height') && (dict.has('BitsPerComponent') || dict.has('ImageMask') || dict.has('BPC')))
  );
}

/**
 * Decodes one stream's data through its filters, handing every stage's output to the tally.
 * `decrypt` is the encryption's first stage, when the file has one.
 */
async function decodeStream(b: Uint8Array, stream: RawStream, tally: Tally, decrypt: ((out: Sink) => Stage) | null) {
  const filters = asArray(stream.dict.get('Filter') ?? stream.dict.get('F')).map((f) => (f instanceof Name ? (FILTER_NAMES[f.name] ?? f.name) : ''));
  const params = asArray(stream.dict.get('DecodeParms') ?? stream.dict.get('DP'));
  const image = isImage(stream.dict);
  // Built from the last stage back: each stage hands its output to the next, counted on the way.
  let sink: Sink = () => {};
  const stages: Stage[] = [];
  for (let k = filters.length - 1; k >= 0; k--) {
    const filter = filters[k];
    const param = params[k] instanceof Map ? (params[k] as Dict) : undefined;
    if (IMAGE_CODECS.has(filter)) {
      if (image) {
        // Never decoded while text is read: the stages before it are what costs.
        stages.length = 0;
        sink = () => {};
        continue;
      }
      throw new Refused('unchecked', filter);
    }
    const next = sink;
    // A predictor's output is about its input's size, in a buffer of its own: counted twice.
    const predictor = param?.get('Predictor');
    const times = typeof predictor === 'number' && predictor > 1 ? 2 : 1;
    const counted: Sink = (chunk) => {
      tally.count(chunk.byteLength * times);
      if (!tally.over) next(chunk);
    };
    let stage: Stage | null = null;
    if (filter === 'FlateDecode') stage = flate(counted, tally, !stream.orphan);
    else if (filter === 'LZWDecode') {
      const early = param?.get('EarlyChange');
      stage = lzw(counted, typeof early === 'number' ? early : 1);
    } else if (filter === 'RunLengthDecode') stage = runLength(counted);
    else if (filter === 'ASCIIHexDecode') stage = asciiHex(counted);
    else if (filter === 'ASCII85Decode') stage = ascii85(counted);
    // Crypt is the encryption (decrypted below); pdf.js passes any other name through undecoded.
    if (!stage) continue;
    stages.unshift(stage);
    const s = stage;
    sink = (chunk) => s.push(chunk);
  }
  if (!stages.length) return;
  const first = decrypt ? decrypt(sink) : null;
  for (let at = stream.start; at < stream.end && !tally.over; at += SLICE) {
    const slice = b.subarray(at, Math.min(at + SLICE, stream.end));
    if (first) first.push(slice);
    else sink(slice);
  }
  await first?.end();
  // In order: a stage's last output reaches the next before that one is told the input is over.
  for (const stage of stages) await stage.end();
}

// ── Encryption: the standard security handler, with the empty password ──────────────────────────

const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c,
  0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

const md5 = (...parts: Uint8Array[]) => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

/** RC4, in JavaScript (OpenSSL 3 keeps it in its legacy provider). */
function rc4(key: Uint8Array) {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  let i = 0;
  let j = 0;
  return (data: Uint8Array) => {
    const out = new Uint8Array(data.byteLength);
    for (let k = 0; k < data.byteLength; k++) {
      i = (i + 1) & 0xff;
      j = (j + s[i]) & 0xff;
      [s[i], s[j]] = [s[j], s[i]];
      out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
    }
    return out;
  };
}

/** AES-CBC whose first 16 bytes are the IV, decrypted as it comes; the padding is left (it only adds a few bytes). */
function aes(key: Uint8Array, out: Sink): Stage {
  let iv: Uint8Array = new Uint8Array(0);
  let decipher: ReturnType<typeof createDecipheriv> | null = null;
  return {
    push(chunk) {
      if (!decipher) {
        const take = Math.min(16 - iv.byteLength, chunk.byteLength);
        iv = Uint8Array.from([...iv, ...chunk.subarray(0, take)]);
        chunk = chunk.subarray(take);
        if (iv.byteLength < 16) return;
        decipher = createDecipheriv(key.byteLength === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv).setAutoPadding(false);
      }
      if (chunk.byteLength) {
        const plain = decipher.update(chunk);
        if (plain.byteLength) out(new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength));
      }
    },
    end() {},
  };
}

const bytesOf = (v: Value | undefined) => (v instanceof Uint8Array ? v : new Uint8Array(0));

/** Algorithm 2.B of ISO 32000-2 (revision 6): the hash of a password with its salt. */
function hash6(password: Uint8Array, salt: Uint8Array, user: Uint8Array) {
  let k = new Uint8Array(createHash('sha256').update(password).update(salt).update(user).digest());
  for (let round = 0; ; round++) {
    const k1 = new Uint8Array(64 * (password.length + k.length + user.length));
    const unit = Uint8Array.from([...password, ...k, ...user]);
    for (let r = 0; r < 64; r++) k1.set(unit, r * unit.length);
    const e = aesEncrypt(k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    const algorithm = ['sha256', 'sha384', 'sha512'][sum % 3];
    k = new Uint8Array(createHash(algorithm).update(e).digest());
    // Round 64 at least, then until the last byte of E is at most the rounds done less 32.
    if (round >= 63 && e[e.length - 1] <= round + 1 - 32) return k.subarray(0, 32);
  }
}

function aesEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array) {
  const c = createCipheriv('aes-128-cbc', key, iv).setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

type Encryption = { forObject(num: number, gen: number): ((out: Sink) => Stage) | null };

/** The file's key from the empty password; null when the file needs a password (pdf.js then refuses it unread). */
function encryptionOf(encrypt: Dict, id: Uint8Array): Encryption | null | 'password' {
  const filter = encrypt.get('Filter');
  if (!(filter instanceof Name) || filter.name !== 'Standard') return 'password';
  const v = Number(encrypt.get('V') ?? 0);
  const r = Number(encrypt.get('R') ?? 0);
  const o = bytesOf(encrypt.get('O'));
  const u = bytesOf(encrypt.get('U'));
  const p = Number(encrypt.get('P') ?? 0);
  const encryptMetadata = encrypt.get('EncryptMetadata') !== false;
  // Which method streams use: RC4 (V 1, 2), or the crypt filter named by /StmF (V 4, 5).
  let method: 'rc4' | 'aes' | 'none' = 'rc4';
  if (v >= 4) {
    const stmf = encrypt.get('StmF');
    const name = stmf instanceof Name ? stmf.name : 'Identity';
    const cf = encrypt.get('CF');
    const entry = cf instanceof Map ? cf.get(name) : undefined;
    const cfm = entry instanceof Map ? entry.get('CFM') : undefined;
    const cfmName = cfm instanceof Name ? cfm.name : 'None';
    method = name === 'Identity' || cfmName === 'None' ? 'none' : cfmName === 'V2' ? 'rc4' : 'aes';
  }
  let key: Uint8Array;
  if (r >= 5) {
    const check = (pwd: Uint8Array, hashed: Uint8Array, extra: Uint8Array) =>
      r === 5
        ? new Uint8Array(createHash('sha256').update(pwd).update(hashed.subarray(32, 40)).update(extra).digest())
        : hash6(pwd, hashed.subarray(32, 40), extra);
    const empty = new Uint8Array(0);
    const ue = bytesOf(encrypt.get('UE'));
    const oe = bytesOf(encrypt.get('OE'));
    const unwrap = (pwd: Uint8Array, hashed: Uint8Array, extra: Uint8Array, wrapped: Uint8Array) => {
      const k =
        r === 5
          ? new Uint8Array(createHash('sha256').update(pwd).update(hashed.subarray(40, 48)).update(extra).digest())
          : hash6(pwd, hashed.subarray(40, 48), extra);
      const d = createDecipheriv('aes-256-cbc', k, new Uint8Array(16)).setAutoPadding(false);
      return new Uint8Array(Buffer.concat([d.update(wrapped), d.final()]));
    };
    if (Buffer.from(check(empty, u, empty)).equals(Buffer.from(u.subarray(0, 32)))) key = unwrap(empty, u, empty, ue);
    else if (Buffer.from(check(empty, o, u.subarray(0, 48))).equals(Buffer.from(o.subarray(0, 32)))) key = unwrap(empty, o, u.subarray(0, 48), oe);
    else return 'password';
  } else {
    const n = r === 2 ? 5 : Math.min(16, Math.max(5, Number(encrypt.get('Length') ?? 40) / 8));
    const fileKey = (userPassword: Uint8Array) => {
      const padded = Uint8Array.from([...userPassword, ...PAD].slice(0, 32));
      const pBytes = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff);
      let k = md5(padded, o, pBytes, id, r >= 4 && !encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : new Uint8Array(0)).subarray(0, n);
      if (r >= 3) for (let i = 0; i < 50; i++) k = md5(k.subarray(0, n)).subarray(0, n);
      return k;
    };
    const userOk = (k: Uint8Array) => {
      if (r === 2) return Buffer.from(rc4(k)(PAD)).equals(Buffer.from(u.subarray(0, 32)));
      let x = rc4(k)(md5(PAD, id));
      for (let i = 1; i <= 19; i++) x = rc4(k.map((byte) => byte ^ i))(x);
      return Buffer.from(x.subarray(0, 16)).equals(Buffer.from(u.subarray(0, 16)));
    };
    key = fileKey(new Uint8Array(0));
    if (!userOk(key)) {
      // The empty owner password, as pdf.js also tries: it unlocks the user password from /O.
      let ok = md5(PAD);
      if (r >= 3) for (let i = 0; i < 50; i++) ok = md5(ok);
      const ownerKey = ok.subarray(0, n);
      let userPassword = o.subarray(0, 32);
      if (r === 2) userPassword = rc4(ownerKey)(userPassword);
      else for (let i = 19; i >= 0; i--) userPassword = rc4(ownerKey.map((byte) => byte ^ i))(userPassword);
      key = fileKey(userPassword);
      if (!userOk(key)) return 'password';
    }
  }
  if (method === 'none') return null;
  return {
    forObject(num, gen) {
      if (r >= 5) return (out) => aes(key, out);
      const salt = method === 'aes' ? Uint8Array.of(0x73, 0x41, 0x6c, 0x54) : new Uint8Array(0);
      const objectKey = md5(key, Uint8Array.of(num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff), salt).subarray(
        0,
        Math.min(key.length + 5, 16),
      );
      if (method === 'aes') return (out) => aes(objectKey, out);
      return (out) => {
        const cipher = rc4(objectKey);
        return { push: (chunk) => out(cipher(chunk)), end() {} };
      };
    },
  };
}

/** The trailer's /Encrypt and /ID: from a `trailer` dictionary or a cross-reference stream's. */
function trailerOf(b: Uint8Array, streams: RawStream[], dicts: Map<number, Dict>, work: { left: number }) {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const candidates: Dict[] = streams.filter((s) => s.dict.get('Type') instanceof Name && (s.dict.get('Type') as Name).name === 'XRef').map((s) => s.dict);
  const word = Buffer.from('trailer', 'latin1');
  for (let at = buf.indexOf(word); at !== -1; at = buf.indexOf(word, at + 7)) {
    const lexer = new Lexer(b, work);
    lexer.pos = at + 7;
    const value = lexer.value();
    if (value instanceof Map) candidates.push(value);
  }
  for (const dict of candidates.reverse()) {
    let encrypt = dict.get('Encrypt');
    if (encrypt === undefined) continue;
    if (encrypt instanceof Ref) encrypt = dicts.get(encrypt.num);
    if (!(encrypt instanceof Map)) return { encrypt: 'broken' as const, id: new Uint8Array(0) };
    const ids = dict.get('ID');
    return { encrypt, id: Array.isArray(ids) ? bytesOf(ids[0]) : new Uint8Array(0) };
  }
  return null;
}

/** Images together may unpack to this many times the bound: decoding them costs time, not memory. */
const IMAGES_PER_BOUND = 10;

const typeOf = (dict: Dict) => {
  const type = dict.get('Type');
  return type instanceof Name ? type.name : null;
};

/**
 * Decodes every stream of the PDF, counting what it unpacks to, and throws a DocumentProblem
 * naming the file past `maxBytes` (the document's streams together, or one image alone), or when
 * a stream cannot be counted. Returns the bytes the document's streams other than images unpack to.
 */
export async function checkPdfStreams(name: string, bytes: Uint8Array, maxBytes: number): Promise<number> {
  const work = { left: bytes.byteLength * WORK_PER_BYTE + 1_000_000 };
  try {
    const endstreams = endstreamsOf(bytes);
    const { streams, dicts, keywords } = objectsOf(bytes, endstreams, work);
    const trailer = trailerOf(bytes, streams, dicts, work);
    const found = !trailer ? null : trailer.encrypt === 'broken' ? 'password' : encryptionOf(trailer.encrypt, trailer.id);
    let used = 0;
    let images = 0;
    for (const stream of [...streams, ...orphans(bytes, endstreams, keywords)]) {
      // A cross-reference stream is never encrypted; an orphan's object is unknown, so it is read as it is.
      const plain = typeOf(stream.dict) === 'XRef' || !!stream.orphan;
      // Without the password pdf.js refuses the file having read only its cross-reference streams.
      if (found === 'password' && !plain) continue;
      const image = isImage(stream.dict);
      let own = 0;
      const tally: Tally = {
        over: false,
        count(n) {
          own += n;
          if (image ? own > maxBytes || images + own > maxBytes * IMAGES_PER_BOUND : used + own > maxBytes) this.over = true;
        },
      };
      await decodeStream(bytes, stream, tally, plain || !found || found === 'password' ? null : found.forObject(stream.num, stream.gen));
      if (tally.over) throw new Refused('tooLarge');
      if (image) images += own;
      else used += own;
    }
    return used;
  } catch (err) {
    if (err instanceof Refused && err.problem === 'tooLarge') throw new DocumentProblem('pdfTooLarge', { file: name, limit: formatMb(maxBytes) });
    if (err instanceof Refused && err.problem === 'unchecked') throw new DocumentProblem('pdfUnchecked', { file: name, what: err.what });
    // Objects past the lexer's allowance, or anything this reader trips on: not read, rather than read unchecked.
    const detail = err instanceof Refused ? 'its objects are too tangled to check' : String((err as Error).message).slice(0, 200);
    throw new DocumentProblem('pdfUnreadable', { file: name, detail });
  }
}
