// The Markdown export's escaping of bidirectional controls: a right-to-left override in an
// imported title or source must not reach the file as an invisible character that reorders it.
import { describe, expect, it } from 'vitest';
import { citationLine, escapeInline } from '@/lib/report/markdown';

const labels = { unverified: 'unverified', changedInPool: 'changed', removedFromPool: 'removed', notFrozen: 'not frozen' };
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
    const line = citationLine({ source: 'Wire\u202Egro.sweN', date: '2024-01-02', value: '\u2067100\u2069', verified: true, url: 'https://example.com/a', title: 'Acme\u202Egpj.exe' }, labels);
    expect(line).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(line).toContain('Wire&lt;U+202E&gt;gro.sweN');
    expect(line).toContain('[Acme&lt;U+202E&gt;gpj.exe](https://example.com/a)');
  });

  it('ordinary right-to-left text (Hebrew, Arabic) is left as it is', () => {
    expect(escapeInline('שלום مرحبا')).toBe('שלום مرحبا');
  });
});
