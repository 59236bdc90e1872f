// A PDF's streams are counted as they unpack, before pdf.js reads the file: a decompression bomb
// (a small file whose content stream inflates to gigabytes of spaces) is refused by name at the
// bound, wherever its stream hides, under whatever filters and encryption pdf.js would undo. The
// bombs here are small (a few megabytes of spaces) against a bound of one or two megabytes; the
// test counts bytes, never time.
import { createCipheriv, createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extractDocument, type ExtractSource } from '@/lib/pool/documents/extract';
import { checkPdfStreams } from '@/lib/pool/documents/pdf-streams';
import { DocumentProblem } from '@/lib/pool/documents/problems';
import { extractOffThread, ReadingGate } from '@/lib/pool/documents/run-extraction';

const MB = 1024 * 1024;
const latin1 = (s: string) => Buffer.from(s, 'latin1');
const spaces = (n: number) => zlib.deflateSync(Buffer.alloc(n, 0x20), { level: 9 });

type Obj = { dict: string; data?: Uint8Array };

/**
 * A one-page PDF: catalog 1, pages 2, page 3 whose contents are object 4 (with a Helvetica font
 * F1), then `extra` as objects 5, 6, …; `trailer` adds to the trailer dictionary.
 */
function pdf(contents: Obj, extra: Obj[] = [], { trailer = '', encrypt }: { trailer?: string; encrypt?: (num: number, data: Uint8Array) => Uint8Array } = {}) {
  const objects: Obj[] = [
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    },
    contents,
    ...extra,
  ];
  const parts: Buffer[] = [latin1('%PDF-1.7\n')];
  let at = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, k) => {
    const num = k + 1;
    offsets.push(at);
    const data = o.data && encrypt && !o.dict.includes('/XRef') && !o.dict.includes('/Standard') ? encrypt(num, o.data) : o.data;
    const dict = data && !o.dict.includes('/Length') ? `${o.dict.slice(0, -2)}/Length ${data.byteLength} >>` : o.dict;
    const piece = data
      ? Buffer.concat([latin1(`${num} 0 obj\n${dict}\nstream\n`), data, latin1('\nendstream\nendobj\n')])
      : latin1(`${num} 0 obj\n${dict}\nendobj\n`);
    parts.push(piece);
    at += piece.length;
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    latin1(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** ASCII base-85 of the bytes, ended by `~>`. */
function ascii85(bytes: Uint8Array) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const group = [0, 1, 2, 3].map((k) => bytes[i + k] ?? 0);
    let v = ((group[0] << 24) | (group[1] << 16) | (group[2] << 8) | group[3]) >>> 0;
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (v % 85)));
      v = Math.floor(v / 85);
    }
    out += digits.slice(0, Math.min(5, bytes.length - i + 1)).join('');
  }
  return latin1(`${out}~>`);
}

/** The problem's key and message, or a failure if the file was read. */
async function refusal(source: ExtractSource, pdfDecodedBytes: number) {
  try {
    await extractDocument(source, { pdfDecodedBytes });
  } catch (err) {
    if (err instanceof DocumentProblem) return { key: err.phrase.key, message: err.message };
    throw err;
  }
  throw new Error(`${source.name} was read`);
}

const text = (s: string) => latin1(`BT /F1 12 Tf 72 712 Td (${s}) Tj ET`);
const bombMessage = (file: string, mb: number) =>
  `${file}: the PDF’s compressed contents unpack to more than ${mb} MB; it is refused as a possible decompression bomb.`;

describe('a PDF decompression bomb', () => {
  it('is refused by name at the bound, its content stream counted as it inflates', async () => {
    const bomb = pdf({ dict: '<< /Filter /FlateDecode >>', data: spaces(4 * MB) });
    expect(bomb.byteLength).toBeLessThan(10_000);
    expect(await refusal({ name: 'bomb.pdf', bytes: bomb }, MB)).toEqual({ key: 'pdfTooLarge', message: bombMessage('bomb.pdf', 1) });
    // Under a bound it fits, the count is what the stream unpacks to, to the byte.
    expect(await checkPdfStreams('bomb.pdf', bomb, 8 * MB)).toBe(4 * MB);
  });

  it('is refused across the worker thread, which is given the bound', async () => {
    const bomb = pdf({ dict: '<< /Filter /FlateDecode >>', data: spaces(4 * MB) });
    await expect(extractOffThread({ name: 'bomb.pdf', bytes: bomb }, { options: { pdfDecodedBytes: MB } })).rejects.toMatchObject({
      phrase: { key: 'pdfTooLarge', values: { file: 'bomb.pdf', limit: '1 MB' } },
    });
  });

  it('is found in an object stream, a cross-reference stream, under a chain of filters and behind a header it cannot parse', async () => {
    const page = { dict: '<< /Filter /FlateDecode >>', data: zlib.deflateSync(text('Hello')) };
    const hidden = [
      pdf(page, [{ dict: '<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', data: spaces(3 * MB) }]),
      pdf(page, [{ dict: '<< /Type /XRef /Size 6 /W [1 2 1] /Filter /FlateDecode >>', data: spaces(3 * MB) }]),
      pdf({ dict: '<< /Filter [/ASCII85Decode /FlateDecode] >>', data: ascii85(spaces(3 * MB)) }),
      pdf({ dict: '<< /Filter /Fl#61teDecode /DecodeParms << /Predictor 12 /Columns 100 >> >>', data: spaces(3 * MB) }),
    ];
    for (const bytes of hidden)
      expect(await refusal({ name: 'hidden.pdf', bytes }, 2 * MB)).toEqual({ key: 'pdfTooLarge', message: bombMessage('hidden.pdf', 2) });
    // An object header broken by a comment: its `stream` keyword is still read as Flate.
    const broken = Buffer.from(pdf({ dict: '<< /Filter /FlateDecode >>', data: spaces(3 * MB) }));
    const header = broken.indexOf('4 0 obj');
    const orphan = Buffer.concat([broken.subarray(0, header), latin1('4 %x\n0 obj'), broken.subarray(header + 7)]);
    expect((await refusal({ name: 'orphan.pdf', bytes: orphan }, 2 * MB)).key).toBe('pdfTooLarge');
    // The honest page alone: its 36 bytes of content, and the page read.
    expect(text('Hello').byteLength).toBe(36);
    expect(await checkPdfStreams('page.pdf', pdf(page), 2 * MB)).toBe(36);
    expect((await extractDocument({ name: 'page.pdf', bytes: pdf(page) }, { pdfDecodedBytes: 2 * MB })).text).toBe('Hello');
  });

  it('follows a /Length given by reference past an `endstream` inside the data, and finds an object hidden in another stream', async () => {
    // A stored deflate block holding the bytes of `endstream`, then the bomb: pdf.js takes the referenced length.
    const early = Buffer.concat([Uint8Array.of(0x78, 0x01, 0x00, 11, 0, 0xf4, 0xff), latin1('\nendstream\n'), zlib.deflateRawSync(Buffer.alloc(3 * MB, 0x20))]);
    const byReference = pdf({ dict: '<< /Filter /FlateDecode /Length 5 0 R >>', data: early }, [{ dict: String(early.byteLength) }]);
    expect((await refusal({ name: 'length.pdf', bytes: byReference }, 2 * MB)).key).toBe('pdfTooLarge');
    // Object 4 written inside object 5's data, its header broken by a comment: its `stream` keyword is found all the same.
    const inner = Buffer.concat([latin1('4 %x\n0 obj\n<< /Filter /FlateDecode >>\nstream\n'), spaces(3 * MB), latin1('\nendstream\nendobj\n')]);
    const nested = pdf({ dict: '<< >>', data: text('Hello') }, [{ dict: '<< >>', data: inner }]);
    expect((await refusal({ name: 'nested.pdf', bytes: nested }, 2 * MB)).key).toBe('pdfTooLarge');
  });

  it('refuses objects that would cost its reader more than a few passes over the file', async () => {
    // Every header opens a string that never closes: each would be read to the end of the file.
    const tangled = latin1(`%PDF-1.7\n${'1 0 obj <<(\n'.repeat(20_000)}`);
    expect(await refusal({ name: 'tangled.pdf', bytes: tangled }, MB)).toEqual({
      key: 'pdfUnreadable',
      message: 'tangled.pdf: the PDF cannot be read (its objects are too tangled to check).',
    });
  });

  it('counts LZW, run-length and hex streams by what they decode to', async () => {
    // ISO 32000's LZW example: "-----A---B" in nine bytes.
    const lzw = { dict: '<< /Filter /LZWDecode >>', data: Uint8Array.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]) };
    const runs = { dict: '<< /Filter /RunLengthDecode >>', data: Uint8Array.from([2, 0x61, 0x62, 0x63, 254, 0x78, 128]) };
    const hex = { dict: '<< /Filter /AHx >>', data: latin1('48 69>') };
    expect(await checkPdfStreams('small.pdf', pdf(lzw, [runs, hex]), MB)).toBe(10 + 6 + 2);
  });

  it('counts an image by itself and never runs its codec, but refuses an image codec on a stream that is not an image', async () => {
    const image = {
      dict: '<< /Type /XObject /Subtype /Image /Width 1024 /Height 1024 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode >>',
      data: spaces(1.5 * MB),
    };
    const photo = { dict: '<< /Subtype /Image /Width 10 /Height 10 /BitsPerComponent 8 /Filter [/FlateDecode /DCTDecode] >>', data: spaces(MB) };
    const content = { dict: '<< /Filter /FlateDecode >>', data: spaces(MB) };
    // 1.5 MB of image and 1 MB of content, each under the 2 MB bound: only the content counts for the text.
    expect(await checkPdfStreams('images.pdf', pdf(content, [image, photo]), 2 * MB)).toBe(MB);
    // An image past the bound on its own is refused all the same.
    expect((await refusal({ name: 'huge-image.pdf', bytes: pdf(content, [{ ...image, data: spaces(3 * MB) }]) }, 2 * MB)).key).toBe('pdfTooLarge');
    expect(await refusal({ name: 'jpeg.pdf', bytes: pdf({ dict: '<< /Filter [/FlateDecode /DCTDecode] >>', data: spaces(1000) }) }, 2 * MB)).toEqual({
      key: 'pdfUnchecked',
      message: 'jpeg.pdf: the PDF uses DCTDecode where its unpacked size cannot be checked; it is refused.',
    });
  });
});

// ── Encrypted with the empty user password, as a "restricted" filing often is ──────────────────

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('md5')).digest();
const rc4 = (key: Uint8Array, data: Uint8Array) => {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
};
const rc4Rounds = (key: Uint8Array, data: Uint8Array) => {
  let x = rc4(key, data);
  for (let i = 1; i <= 19; i++)
    x = rc4(
      key.map((b) => b ^ i),
      x,
    );
  return x;
};

/** The standard security handler, revision 3 (RC4) or 4 (AES-128), user password empty unless given, owner password "owner". */
function encryption(revision: 3 | 4, user = '') {
  const padded = Buffer.concat([latin1(user), PAD]).subarray(0, 32);
  const id = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const p = -4;
  let ownerKey = md5(Buffer.concat([latin1('owner'), PAD]).subarray(0, 32));
  for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
  const o = rc4Rounds(ownerKey.subarray(0, 16), padded);
  let key = md5(padded, o, Buffer.from(Int32Array.of(p).buffer), id);
  for (let i = 0; i < 50; i++) key = md5(key.subarray(0, 16));
  key = key.subarray(0, 16);
  const u = Buffer.concat([rc4Rounds(key, md5(PAD, id)), Buffer.alloc(16)]);
  const hex = (b: Uint8Array) => `<${Buffer.from(b).toString('hex')}>`;
  const crypt = revision === 4 ? ' /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF' : '';
  const dict = `<< /Filter /Standard /V ${revision === 4 ? 4 : 2} /R ${revision} /Length 128 /O ${hex(o)} /U ${hex(u)} /P ${p}${crypt} >>`;
  const encrypt = (num: number, data: Uint8Array) => {
    const salt = revision === 4 ? latin1('sAlT') : Buffer.alloc(0);
    const objectKey = md5(key, Uint8Array.of(num & 0xff, (num >> 8) & 0xff, num >> 16, 0, 0), salt).subarray(0, 16);
    if (revision === 3) return rc4(objectKey, data);
    const iv = Buffer.alloc(16, 7);
    const cipher = createCipheriv('aes-128-cbc', objectKey, iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  };
  return { dict, trailer: `/Encrypt 5 0 R /ID [${hex(id)} ${hex(id)}] `, encrypt };
}

/** ISO 32000-2's hash for revision 6 (algorithm 2.B). */
function hash6(password: Uint8Array, salt: Uint8Array, user: Uint8Array) {
  let k: Buffer = createHash('sha256').update(password).update(salt).update(user).digest();
  let e = Buffer.alloc(0);
  for (let round = 0; round < 64 || e[e.length - 1] > round - 32; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, user])));
    const c = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    e = Buffer.concat([c.update(k1), c.final()]);
    const sum = e.subarray(0, 16).reduce((n, x) => n + x, 0);
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3])
      .update(e)
      .digest();
  }
  return k.subarray(0, 32);
}

/** The standard security handler, revision 6 (AES-256), user password empty, owner password "owner". */
function encryption6() {
  const fileKey = Buffer.alloc(32, 0x42);
  const aes256 = (key: Uint8Array, data: Uint8Array) => {
    const c = createCipheriv('aes-256-cbc', key, Buffer.alloc(16)).setAutoPadding(false);
    return Buffer.concat([c.update(data), c.final()]);
  };
  const [uv, uk, ov, ok] = [1, 2, 3, 4].map((n) => Buffer.alloc(8, n));
  const empty = Buffer.alloc(0);
  const u = Buffer.concat([hash6(empty, uv, empty), uv, uk]);
  const ue = aes256(hash6(empty, uk, empty), fileKey);
  const owner = latin1('owner');
  const o = Buffer.concat([hash6(owner, ov, u), ov, ok]);
  const oe = aes256(hash6(owner, ok, u), fileKey);
  const perms = createCipheriv('aes-256-ecb', fileKey, null)
    .setAutoPadding(false)
    .update(Buffer.concat([Buffer.from(Int32Array.of(-4).buffer), Buffer.alloc(4, 0xff), latin1('Tadb'), Buffer.alloc(4)]));
  const hex = (b: Uint8Array) => `<${Buffer.from(b).toString('hex')}>`;
  const dict = `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /P -4 /Perms ${hex(perms)} >>`;
  const encrypt = (_num: number, data: Uint8Array) => {
    const iv = Buffer.alloc(16, 9);
    const cipher = createCipheriv('aes-256-cbc', fileKey, iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  };
  const id = Buffer.alloc(16, 5);
  return { dict, trailer: `/Encrypt 5 0 R /ID [${hex(id)} ${hex(id)}] `, encrypt };
}

describe('an encrypted PDF', () => {
  for (const revision of [3, 4, 6] as const) {
    it(`is decrypted with the empty password before it is counted (revision ${revision}, ${{ 3: 'RC4', 4: 'AES-128', 6: 'AES-256' }[revision]})`, async () => {
      const e = revision === 6 ? encryption6() : encryption(revision);
      const honest = pdf({ dict: '<< /Filter /FlateDecode >>', data: zlib.deflateSync(text('Encrypted filing')) }, [{ dict: e.dict }], e);
      // pdf.js opens it with the empty password and reads the text: the encryption is the real one.
      expect((await extractDocument({ name: 'locked.pdf', bytes: honest }, { pdfDecodedBytes: MB })).text).toBe('Encrypted filing');
      expect(await checkPdfStreams('locked.pdf', honest, MB)).toBe(text('Encrypted filing').byteLength);
      const bomb = pdf({ dict: '<< /Filter /FlateDecode >>', data: spaces(3 * MB) }, [{ dict: e.dict }], e);
      expect(await refusal({ name: 'locked-bomb.pdf', bytes: bomb }, MB)).toEqual({ key: 'pdfTooLarge', message: bombMessage('locked-bomb.pdf', 1) });
    });
  }

  it('is left unread when it needs a password: pdf.js refuses it before decoding any of its streams', async () => {
    const e = encryption(4, 'secret');
    const bomb = pdf({ dict: '<< /Filter /FlateDecode >>', data: spaces(3 * MB) }, [{ dict: e.dict }], e);
    expect(await checkPdfStreams('secret.pdf', bomb, MB)).toBe(0);
    expect(await refusal({ name: 'secret.pdf', bytes: bomb }, MB)).toEqual({ key: 'pdfEncrypted', message: 'secret.pdf: the PDF is password-protected.' });
  });
});

describe('reading documents a few at a time', () => {
  it('runs at most the gate’s readers at once, queues the waiting and refuses one past them by name', async () => {
    const gate = new ReadingGate(1, 1);
    const page = pdf({ dict: '<< /Filter /FlateDecode >>', data: zlib.deflateSync(text('Hello')) });
    const reads = ['a.pdf', 'b.pdf', 'c.pdf'].map((name) =>
      extractOffThread({ name, bytes: page }, { gate }).then(
        (d) => d.text,
        (err: DocumentProblem) => err.message,
      ),
    );
    expect(await Promise.all(reads)).toEqual(['Hello', 'Hello', 'c.pdf: too many documents are being read right now. Try again in a minute.']);
    expect(gate.peak).toBe(1);
    // The turns were all given back (each once its thread was gone): a fourth reads, alone.
    expect((await extractOffThread({ name: 'd.pdf', bytes: page }, { gate })).text).toBe('Hello');
    expect(gate.peak).toBe(1);
  });
});
