import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { chunkDocument, MAX_CHUNK_CHARS, type Chunk } from '@/lib/pool/chunk';

function expectValidOffsets(body: string, chunks: Chunk[], max = MAX_CHUNK_CHARS) {
  chunks.forEach((c, i) => {
    expect(c.ordinal).toBe(i);
    expect(body.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(c.text.length).toBeLessThanOrEqual(max);
    expect(c.text).toBe(c.text.trim());
    if (i > 0) expect(c.charStart).toBeGreaterThanOrEqual(chunks[i - 1].charEnd);
  });
}

/** Every non-space character outside heading lines ends up in exactly one chunk. */
function expectNothingLost(body: string, chunks: Chunk[]) {
  const withoutHeadings = body.replace(/^#{1,6} .*$/gm, '');
  const strip = (s: string) => s.replace(/\s+/g, '');
  expect(strip(chunks.map((c) => c.text).join(''))).toBe(strip(withoutHeadings));
}

describe('chunkDocument', () => {
  it('returns nothing for an empty or blank body', () => {
    expect(chunkDocument('')).toEqual([]);
    expect(chunkDocument('\n\n  \n')).toEqual([]);
  });

  it('packs short paragraphs together and keeps the heading above them', () => {
    const body = '\n## Overview\n\nFirst paragraph.\n\nSecond paragraph.\n';
    const chunks = chunkDocument(body);
    expect(chunks).toEqual([
      {
        ordinal: 0,
        heading: 'Overview',
        text: 'First paragraph.\n\nSecond paragraph.',
        charStart: body.indexOf('First'),
        charEnd: body.indexOf('paragraph.\n', body.indexOf('Second')) + 'paragraph.'.length,
      },
    ]);
  });

  it('starts a new chunk at each heading and gives text before any heading a null heading', () => {
    const body = 'Preamble text.\n\n# Part A\nAlpha body.\n\n### Part B ###\n\nBeta body.';
    const chunks = chunkDocument(body);
    expect(chunks.map((c) => [c.heading, c.text])).toEqual([
      [null, 'Preamble text.'],
      ['Part A', 'Alpha body.'],
      ['Part B', 'Beta body.'],
    ]);
    expectValidOffsets(body, chunks);
  });

  it('breaks between paragraphs rather than inside one when the next would overflow', () => {
    const p1 = 'a'.repeat(70);
    const p2 = 'b'.repeat(70);
    const p3 = 'c'.repeat(20);
    const body = `${p1}\n\n${p2}\n\n${p3}`;
    const chunks = chunkDocument(body, 100);
    expect(chunks.map((c) => c.text)).toEqual([p1, `${p2}\n\n${p3}`]);
    expectValidOffsets(body, chunks, 100);
  });

  it('splits an over-long paragraph at sentence ends, English and Korean alike', () => {
    const sentencesEn = Array.from({ length: 6 }, (_, i) => `Sentence number ${i} says something useful.`);
    const sentencesKo = Array.from({ length: 6 }, (_, i) => `${i}번째 문장은 채권단 관리절차에 관한 내용입니다.`);
    for (const list of [sentencesEn, sentencesKo]) {
      const body = list.join(' ');
      const chunks = chunkDocument(body, 100);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) expect(c.text).toMatch(/[.]$/);
      expectValidOffsets(body, chunks, 100);
      expectNothingLost(body, chunks);
    }
  });

  it('keeps Markdown table rows whole when a table is too long for one chunk', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| SE${i} | 계열회사 | 지급보증 | ${1000 + i} |`);
    const body = `| 법인명 | 관계 | 내용 | 금액 |\n|---|---|---|---|\n${rows.join('\n')}`;
    const chunks = chunkDocument(body, 300);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) for (const line of c.text.split('\n')) expect(line).toMatch(/^\|.*\|$/);
    expectValidOffsets(body, chunks, 300);
    expectNothingLost(body, chunks);
  });

  it('hard-splits a sentence longer than the limit, at a space when it can', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkDocument(words, 100);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.text).toMatch(/^word\d+( word\d+)*$/);
    expectValidOffsets(words, chunks, 100);

    const unbroken = 'x'.repeat(250);
    expect(chunkDocument(unbroken, 100).map((c) => c.text.length)).toEqual([100, 100, 50]);
  });

  it('does not treat # lines inside a code fence as headings', () => {
    const body = '# Real\n\n```\n# not a heading\n```\n\nAfter.';
    const chunks = chunkDocument(body);
    expect(chunks.map((c) => c.heading)).toEqual(['Real']);
    expect(chunks[0].text).toContain('# not a heading');
  });

  it('chunks every demo document within the limit with exact offsets and no text lost', () => {
    const dir = path.join(process.cwd(), 'data/demo/documents');
    for (const file of fs.readdirSync(dir)) {
      const body = matter(fs.readFileSync(path.join(dir, file), 'utf8')).content;
      const chunks = chunkDocument(body);
      expect(chunks.length, file).toBeGreaterThan(0);
      expectValidOffsets(body, chunks);
      expectNothingLost(body, chunks);
    }
  });

  it('labels the chunks of a real filing section with their section heading', () => {
    const file = path.join(process.cwd(), 'data/demo/documents/tesla--10k-fy2024-item-1c-cybersecurity.md');
    const body = matter(fs.readFileSync(file, 'utf8')).content;
    const governance = chunkDocument(body).filter((c) => c.heading === 'Cybersecurity Governance');
    expect(governance.length).toBeGreaterThan(0);
    expect(governance[0].text.startsWith('Cybersecurity is an important part')).toBe(true);
  });
});

describe('chunkDocument with overlap', () => {
  const body = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about covenant ${i}.`).join(' ');

  it('repeats the end of the previous chunk, starting at a word, with offsets still exact', () => {
    const plain = chunkDocument(body, { size: 200 });
    const overlapped = chunkDocument(body, { size: 200, overlap: 60 });
    expect(overlapped).toHaveLength(plain.length);
    for (let i = 1; i < overlapped.length; i++) {
      const c = overlapped[i];
      expect(body.slice(c.charStart, c.charEnd)).toBe(c.text);
      expect(c.charStart).toBeLessThan(plain[i].charStart);
      expect(plain[i].charStart - c.charStart).toBeLessThanOrEqual(60);
      expect(c.charStart).toBeGreaterThanOrEqual(overlapped[i - 1].charStart);
      expect(/\s/.test(body[c.charStart - 1])).toBe(true);
    }
  });

  it('does not overlap across headings', () => {
    const doc = `# A\n\n${'alpha words here. '.repeat(20)}\n\n# B\n\nbeta words here.`;
    const chunks = chunkDocument(doc, { size: 150, overlap: 100 });
    const b = chunks.find((c) => c.heading === 'B')!;
    expect(b.text).toBe('beta words here.');
  });
});
