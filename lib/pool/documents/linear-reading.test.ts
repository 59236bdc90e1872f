// Reading a document costs time in proportion to its size, whatever its markup holds: a paragraph
// of empty table cells or bars, and markup nested hundreds of thousands of elements deep without a
// single end tag, each once took from half a minute to hours of one core (a backtracking regular
// expression; a tree of open elements kept by shifting an array). Each is read here in the worker
// thread with a time limit far above what it now takes (well under a second, a few more to start
// the thread on a busy machine) and far below what it took, so a return of the old cost fails by
// timing out, never by a close call.
import { strToU8 } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { proposeCandidates } from '@/lib/pool/documents/candidates';
import { extractDocument } from '@/lib/pool/documents/extract';
import { extractOffThread } from '@/lib/pool/documents/run-extraction';

/** Five times what each reading and its thread's start take on a busy two-core machine. */
const GENEROUS_MS = 30_000;
const html = (name: string, body: string) => ({ name, bytes: strToU8(body) });

describe('reading hostile markup in linear time', () => {
  it('reads a paragraph of bars between two words', async () => {
    const source = html('bars.html', `<p>x${' | '.repeat(30)}x</p>`);
    expect(source.bytes.byteLength).toBe(99);
    const doc = await extractOffThread(source, { timeoutMs: GENEROUS_MS });
    expect(doc.text).toBe(`x${' |'.repeat(30)} x`);
  }, 60_000);

  it('reads a table row of thirty empty cells before its value, a row of 300,000 blank ones, and drops the trailing bars of a row', async () => {
    const row = `<table><tr><td>Borrowings</td>${'<td> </td>'.repeat(30)}<td>1,200</td></tr><tr><td>Notes</td>${'<td></td>'.repeat(30)}</tr></table>`;
    const doc = await extractOffThread(html('row.html', row), { timeoutMs: GENEROUS_MS });
    expect(doc.text).toBe(`Borrowings${' |'.repeat(30)} | 1,200\n\nNotes`);
    // A row that starts with 300,000 blank cells: whether the row has text yet is known without rereading it.
    const blank = await extractOffThread(html('blank.html', `<table><tr>${'<td> </td>'.repeat(300_000)}<td>1,200</td></tr></table>`), {
      timeoutMs: GENEROUS_MS,
    });
    expect(blank.text).toBe('1,200');
  }, 60_000);

  it('reads 3 MB of elements nested without an end tag, and end tags that close nothing', async () => {
    // Inline elements, then block elements, none closed: the old cost was a minute and more.
    const nested = `${'<b>x'.repeat(375_000)}${'<div>x'.repeat(250_000)}`;
    expect(nested.length).toBe(3_000_000);
    const doc = await extractOffThread(html('nested.html', nested), { timeoutMs: GENEROUS_MS });
    expect(doc.text).toBe(`${'x'.repeat(375_000)}${'\n\nx'.repeat(250_000)}`);
    // End tags that close nothing, after a deep nest: each is looked up without walking the nest.
    const stray = `${'<i>'.repeat(200_000)}x${'</u>'.repeat(200_000)}y`;
    expect((await extractOffThread(html('stray.html', stray), { timeoutMs: GENEROUS_MS })).text).toBe('xy');
  }, 120_000);

  it('keeps what the tree of open elements meant: an ancestor ends an unclosed skipped element, <body> ends an unclosed <head>', async () => {
    const doc = await extractDocument(
      html(
        'tree.html',
        '<html><head><title>T &amp; Co</title><meta charset="utf-8"><body><div>Kept<svg><text>drawn</div><p>After &amp; &#x41;</p><svg/><p>Also</p><script>no</script><p>Last</body>',
      ),
    );
    expect(doc).toMatchObject({ title: 'T & Co', text: 'Kept\n\nAfter & A\n\nAlso\n\nLast' });
  });

  it('proposes candidates from a body of a million tiny sentences with a few pattern runs each, not a hundred', () => {
    // The upload proposes the rule candidates on the server's own thread: a 1.8 MB body of ". "
    // tried every red-flag pattern and every date form on each of its 900,000 sentences (13 s).
    const body = Array.from({ length: 2_000 }, (_, i) => (i % 2 ? 'x.' : 'Acme.')).join(' ');
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    try {
      expect(proposeCandidates({ body, publishedDate: '2025-01-01' })).toEqual([]);
      expect(exec.mock.calls.length / 2_000).toBeLessThan(15);
    } finally {
      exec.mockRestore();
    }
    // The quick test passes what a rule reads: a default is proposed as before.
    expect(proposeCandidates({ body: 'Acme. On 2025-03-02 the company defaulted on its bonds. x.', publishedDate: '2025-04-01' })).toMatchObject([
      { reason: 'red-flag:payment_default', category: 'distress_default', eventDate: '2025-03-02', text: 'On 2025-03-02 the company defaulted on its bonds.' },
    ]);
  });
});
