// The Markdown export's escaping of bidirectional controls (a right-to-left override in an
// imported title or source must not reach the file as an invisible character that reorders it)
// and of ampersands (escaped for Markdown, not for HTML).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationLine, escapeInline } from '@/lib/report/markdown';

const labels = {
  unverified: 'unverified',
  afterAsOfLong: 'dated after the as-of date: supports nothing',
  changedInPool: 'changed',
  removedFromPool: 'removed',
  notFrozen: 'not frozen',
};
const CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('Markdown export and bidirectional controls', () => {
  it('right-to-left override characters (U+202A–U+202E, U+2066–U+2069) are written as visible code points, never as themselves', () => {
    for (const c of CONTROLS) {
      const out = escapeInline(`Invoice ${c}fdp.exe`);
      expect(out).not.toContain(c);
      expect(out).toBe(`Invoice &lt;U+${c.charCodeAt(0).toString(16).toUpperCase()}&gt;fdp.exe`);
    }
  });

  it('a citation whose title, source and value carry an override keeps none of them', () => {
    const line = citationLine(
      { source: 'Wire\u202Egro.sweN', date: '2024-01-02', value: '\u2067100\u2069', verified: true, url: 'https://example.com/a', title: 'Acme\u202Egpj.exe' },
      labels,
    );
    expect(line).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(line).toContain('Wire&lt;U+202E&gt;gro.sweN');
    expect(line).toContain('[Acme&lt;U+202E&gt;gpj.exe](https://example.com/a)');
  });

  it('ordinary right-to-left text (Hebrew, Arabic) is left as it is', () => {
    expect(escapeInline('שלום مرحبا')).toBe('שלום مرحبا');
  });
});

describe('Markdown export and ampersands', () => {
  // The demo pool's own names (data/demo/companies.json) and evidence text carry plain ampersands.
  const companies = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'data/demo/companies.json'), 'utf8')) as { id: string; name_en?: string }[];

  it('keeps a plain ampersand as it is: Markdown shows it literally, "&amp;" would show as written in a plain-text reader', () => {
    const taeyoung = companies.find((c) => c.id === 'taeyoung-engineering-construction')!;
    expect(taeyoung.name_en).toBe('Taeyoung Engineering & Construction Co., Ltd.');
    expect(escapeInline(taeyoung.name_en!)).toBe('Taeyoung Engineering & Construction Co., Ltd.');
    expect(escapeInline('R&D 12.2조원; AT&T')).toBe('R&D 12.2조원; AT&T');
    const line = citationLine({ source: 'DART', date: '2022-08-16', verified: true, url: 'https://example.com/a', title: 'Major contracts & R&D' }, labels);
    expect(line).toContain('[Major contracts & R&D](https://example.com/a)');
    expect(line).not.toContain('&amp;');
  });

  it('escapes an ampersand only where it would start a character reference, and still neutralises tags', () => {
    expect(escapeInline('&amp; &#38; &lt;b&gt;')).toBe('&amp;amp; &amp;\\#38; &amp;lt;b&amp;gt;');
    expect(escapeInline('<b>bold</b> & more')).toBe('&lt;b&gt;bold&lt;/b&gt; & more');
  });
});

describe('Markdown export and citations dated after the as-of date', () => {
  it('says a late citation is dated after the as-of date, not merely unverified; an unverified one stays unverified', () => {
    const late = citationLine({ source: 'DART', date: '2023-12-16', verified: false, afterAsOf: true }, labels);
    expect(late).toBe('2023-12-16 — DART — **⚠ dated after the as-of date: supports nothing**');
    const unverified = citationLine({ source: 'Blog', date: '2023-01-02', verified: false }, labels);
    expect(unverified).toBe('2023-01-02 — Blog — **⚠ unverified**');
    expect(citationLine({ source: 'DART', date: '2023-01-02', verified: true }, labels)).toBe('2023-01-02 — DART');
  });
});
