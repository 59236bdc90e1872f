// Reading filings: the EDGAR 10-K page and the DART original document of data/fixtures/documents/
// (generated from the demo pool, see the README there), PDFs made here with pdf-lib, and hostile
// files, each of which must give a named problem or come out neutralised.
import fs from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { proposeCandidates, datesIn } from '@/lib/pool/documents/candidates';
import { extractDocument, type ExtractSource } from '@/lib/pool/documents/extract';
import { DOCUMENT_LIMITS } from '@/lib/pool/documents/limits';
import { DocumentProblem } from '@/lib/pool/documents/problems';
import { extractOffThread } from '@/lib/pool/documents/run-extraction';

const fixture = (name: string): ExtractSource => ({ name, bytes: new Uint8Array(fs.readFileSync(`data/fixtures/documents/${name}`)) });
const text = (name: string, body: string): ExtractSource => ({ name, bytes: strToU8(body) });

/** The problem's key and file, or a failure if the reading did not refuse. */
async function refusal(source: ExtractSource) {
  try {
    await extractDocument(source);
  } catch (err) {
    if (err instanceof DocumentProblem) return { key: err.phrase.key, message: err.message };
    throw err;
  }
  throw new Error(`${source.name} was read`);
}

async function pdfOf(pages: string[]) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.split('\n').forEach((line, i) => page.drawText(line, { x: 40, y: 740 - i * 16, size: 10, font }));
  }
  return doc.save();
}

describe('an EDGAR 10-K page', () => {
  it('gives its prose and headings, never its script, style or hidden XBRL facts', async () => {
    const doc = await extractDocument(fixture('tesla-10k-fy2024-legal-proceedings.htm'));
    expect(doc.format).toBe('html');
    expect(doc.title).toBe('tsla-20241231');
    expect(doc.text.startsWith('## ITEM 3. LEGAL PROCEEDINGS\n\nFor a description of our material pending legal proceedings')).toBe(true);
    expect(doc.text).not.toContain('injected script text');
    expect(doc.text).not.toContain('font-family');
    expect(doc.text).not.toContain('hidden XBRL facts');
    // Entities decoded: &#8212; and &nbsp; are characters, not markup.
    expect(doc.text).toContain('Form 10-K page 12 — Tesla, Inc.');
    expect(doc.pages).toEqual([]);
  });

  it('proposes its dated statements with their dates, categories and exact offsets', async () => {
    const doc = await extractDocument(fixture('tesla-10k-fy2024-legal-proceedings.htm'));
    const candidates = proposeCandidates({ body: doc.text, publishedDate: '2025-01-30' });
    expect(candidates.length).toBe(46);
    for (const c of candidates) expect(doc.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    // Whole sentences: none stops at "the U.S." or "Tesla, Inc." (lib/util/sentences.ts).
    for (const c of candidates) expect(c.text).not.toMatch(/(?:U\.S\.|Inc\.|Mr\.|Corp\.)$/);
    expect(candidates.find((c) => c.eventDate === '2022-10-05')?.text).toBe(
      'On October 5, 2022, a proposed class action complaint was filed in the U.S. District Court for the Eastern District of New York asserting similar state and federal law claims against the same defendants.',
    );
    const first = candidates[0];
    expect(first.text.startsWith('On June 4, 2018, a purported Tesla stockholder filed a putative class and derivative action')).toBe(true);
    expect(first).toMatchObject({
      eventDate: '2018-06-04',
      publishedDate: '2025-01-30',
      category: 'legal_proceedings',
      factor: 'internal_control_risk',
      reason: 'litigation',
      page: null,
    });
    // A lost suit is a red flag (lib/pool/red-flags-rules.ts), proposed as one.
    const lost = candidates.find((c) => c.text.startsWith('On December 2, 2024, the Court issued an opinion denying'));
    expect(lost).toMatchObject({ reason: 'red-flag:lawsuit_lost', eventDate: '2024-12-02' });
    // A later date in a sentence is never its event's date when it is after publication.
    expect(candidates.every((c) => c.eventDate === null || c.eventDate <= '2025-01-30')).toBe(true);
  });
});

describe('a DART original document', () => {
  it('reads the XML inside its zip, with section titles as headings and table rows on one line', async () => {
    const zipped = await extractDocument(fixture('20220816001711.zip'));
    const bare = await extractDocument(fixture('20220816001711.xml'));
    expect(zipped.format).toBe('dart');
    expect(zipped.text).toBe(bare.text);
    expect(zipped.title).toBe('반기보고서');
    expect(zipped.text).toContain('## 2. 우발부채 등에 관한 사항\n\n가. 중요한 소송사건등');
    expect(zipped.text).toContain('2019.04.18 | 서울중앙지방법원 | 당사 임직원 | 벌금 | 100 | - |');
  });

  it('proposes the Korean sanctions with the dates written in them', async () => {
    const doc = await extractDocument(fixture('20220816001711.zip'));
    const candidates = proposeCandidates({ body: doc.text, publishedDate: '2022-08-16' });
    for (const c of candidates) expect(doc.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    const fine = candidates.find((c) => c.text.startsWith('서울중앙지방법원은 위 혐의를 인정하여'));
    expect(fine).toMatchObject({ category: 'sanctions', reason: 'red-flag:regulatory_sanction', eventDate: '2019-04-18', factor: 'internal_control_risk' });
    const row = candidates.find((c) => c.text.startsWith('2022.07.07 | 광주지방법원'));
    expect(row?.eventDate).toBe('2022-07-07');
    // A table's header row names sanctions without reporting one.
    expect(candidates.some((c) => c.text.startsWith('일자 | 제재기관'))).toBe(false);
  });
});

describe('a PDF', () => {
  it('gives each page its own range of the text, and candidates their page', async () => {
    const bytes = await pdfOf([
      'Tesla, Inc. Annual Report 2024\nItem 3. Legal Proceedings',
      'On October 21, 2022, a lawsuit was filed in the Delaware Court of Chancery.\nThe case is pending.',
      'On June 13, 2024, Tesla converted to a Texas corporation.',
    ]);
    const doc = await extractDocument({ name: 'report.pdf', bytes });
    expect(doc.format).toBe('pdf');
    expect(doc.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(doc.text.slice(doc.pages[1].start, doc.pages[1].end)).toBe(
      'On October 21, 2022, a lawsuit was filed in the Delaware Court of Chancery.\nThe case is pending.',
    );
    expect(doc.text.slice(doc.pages[0].start, doc.pages[0].end)).toBe('Tesla, Inc. Annual Report 2024\nItem 3. Legal Proceedings');
    const [lawsuit] = proposeCandidates({ body: doc.text, pages: doc.pages, publishedDate: '2025-01-30' });
    expect(lawsuit).toMatchObject({
      page: 2,
      eventDate: '2022-10-21',
      category: 'legal_proceedings',
      text: 'On October 21, 2022, a lawsuit was filed in the Delaware Court of Chancery.',
    });
  });

  it(`refuses more than ${DOCUMENT_LIMITS.pdfPages} pages by name, and a damaged file`, async () => {
    const many = await PDFDocument.create();
    for (let i = 0; i <= DOCUMENT_LIMITS.pdfPages; i++) many.addPage([100, 100]);
    expect(await refusal({ name: 'huge.pdf', bytes: await many.save() })).toEqual({
      key: 'pdfTooManyPages',
      message: `huge.pdf: the PDF has 501 pages; the most is 500.`,
    });
    const broken = await refusal(text('broken.pdf', '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF'));
    expect(broken.key).toBe('pdfUnreadable');
    expect(broken.message.startsWith('broken.pdf: the PDF cannot be read (')).toBe(true);
  });
});

describe('hostile files', () => {
  it('never expands an XML entity: no external file, no billion laughs', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE DOCUMENT [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<DOCUMENT><BODY><P>Secret: &xxe; Laughs: &lol3;</P></BODY></DOCUMENT>`;
    const doc = await extractDocument(text('evil.xml', xxe));
    expect(doc.text).toBe('Secret: &xxe; Laughs: &lol3;');
    expect(doc.text).not.toContain('root:');
  });

  it('drops script and neutralises NUL bytes and bidirectional controls', async () => {
    const html =
      '<html><body><script>fetch("/steal")</script><p onclick="alert(1)">Invoice\u202Efdp.exe and a NUL\u0000 here.</p><img src=x onerror=alert(1)></body></html>';
    const doc = await extractDocument(text('clip.html', html));
    expect(doc.text).toBe('Invoicefdp.exe and a NUL here.');
  });

  it('refuses a zip bomb by its unpacked size, however small its declared sizes', async () => {
    const zeros = new Uint8Array(DOCUMENT_LIMITS.unzippedBytes + 1024 * 1024);
    const bomb = zipSync({ 'bomb.xml': zeros }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(200_000);
    expect(await refusal({ name: 'bomb.zip', bytes: bomb })).toEqual({
      key: 'zipTooLarge',
      message: 'bomb.zip: the zip archive unpacks to more than 64 MB; it is refused as a possible zip bomb.',
    });
  });

  it('refuses a zip of too many files, a zip without XML and a damaged zip', async () => {
    const many = Object.fromEntries(Array.from({ length: DOCUMENT_LIMITS.zipEntries + 1 }, (_, i) => [`f${i}.xml`, strToU8('<P>x</P>')]));
    expect((await refusal({ name: 'many.zip', bytes: zipSync(many) })).key).toBe('zipTooManyEntries');
    expect((await refusal({ name: 'images.zip', bytes: zipSync({ 'a.jpg': new Uint8Array([1, 2, 3]) }) })).key).toBe('zipNoXml');
    const cut = zipSync({ '1.xml': strToU8('<P>'.repeat(5000)) }, { level: 9 }).slice(0, 60);
    expect((await refusal({ name: 'cut.zip', bytes: cut })).key).toMatch(/^zip(Unreadable|NoXml)$/);
  });

  it('refuses a text longer than a document may be, even on one huge line', async () => {
    const line = `<p>${'A'.repeat(DOCUMENT_LIMITS.textChars + 10)}</p>`;
    expect(await refusal(text('line.html', line))).toEqual({
      key: 'textTooLong',
      message: `line.html: its text is 2,000,010 characters long; the most is 2,000,000.`,
    });
  });

  it('refuses a DART zip of one 60 MB paragraph by its text length, counted as it is read, not by running out of memory', async () => {
    // 61 KB of zip, 60 MB of XML: the paragraph was built whole and cleaned in copies, past the worker's heap.
    const sentence = 'The company reported a loss. ';
    const paragraph = sentence.repeat(Math.ceil(60_000_000 / sentence.length));
    const zip = zipSync(
      { '20220816001711.xml': strToU8(`<?xml version="1.0" encoding="utf-8"?><DOCUMENT><BODY><P>${paragraph}</P></BODY></DOCUMENT>`) },
      { level: 1 },
    );
    expect(zip.byteLength).toBeLessThan(1_000_000);
    await expect(extractOffThread({ name: 'paragraph.zip', bytes: zip })).rejects.toMatchObject({
      phrase: { key: 'textTooLong', values: { file: 'paragraph.zip', n: paragraph.length - 1, max: DOCUMENT_LIMITS.textChars } },
    });
  }, 60_000);

  it('cleans a long paragraph piece by piece as it would whole: a character pair across two pieces, spaces across many, trailing bars', async () => {
    const raw = `${'x'.repeat(65_535)}\u{1F600}${' \n '.repeat(40_000)}end${' | '.repeat(5)}`;
    const doc = await extractDocument(text('long.html', `<p>${raw}</p><p> a &amp; b </p>`));
    expect(doc.text).toBe(`${'x'.repeat(65_535)}\u{1F600} end\n\na & b`);
  });

  it('refuses what it does not read, and a document without text', async () => {
    expect(await refusal({ name: 'photo.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) })).toEqual({
      key: 'unsupportedFormat',
      message: 'photo.png: not a document Crosscheck reads. Upload HTML, a DART original document (.zip or .xml) or a PDF.',
    });
    expect((await refusal(text('empty.html', '<html><body><script>x</script></body></html>'))).key).toBe('emptyDocument');
  });
});

describe('reading in a worker thread', () => {
  it('gives the same text as reading here, and a named problem back across the thread', async () => {
    const source = fixture('20220816001711.zip');
    expect((await extractOffThread(source)).text).toBe((await extractDocument(source)).text);
    await expect(extractOffThread(text('photo.png', '\u0089PNG'))).rejects.toMatchObject({
      phrase: { key: 'unsupportedFormat', values: { file: 'photo.png' } },
    });
  });

  it('stops a reading that runs out of time', async () => {
    await expect(extractOffThread(fixture('tesla-10k-fy2024-legal-proceedings.htm'), { timeoutMs: 1 })).rejects.toMatchObject({
      phrase: { key: 'extractionTimedOut', values: { file: 'tesla-10k-fy2024-legal-proceedings.htm', seconds: 0 } },
    });
  });
});

describe('dates in a sentence', () => {
  it('reads the forms Korean and US filings write, in order, and refuses impossible days', () => {
    expect(datesIn('On Jan. 5, 2024 and 2023-02-30, then 2022.7.7, 2021년 1월 20일 and 3 March 2020.')).toEqual([
      '2024-01-05',
      '2022-07-07',
      '2021-01-20',
      '2020-03-03',
    ]);
  });
});
