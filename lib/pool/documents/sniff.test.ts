// A file's kind is decided as a PDF reader decides it: the `%PDF-` header opens the file, after a
// byte-order mark or blank space at most. A web page or filing that merely mentions "%PDF-1.7"
// near its top is read as what it is, never refused as a broken PDF.
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { extractDocument, sniff } from '@/lib/pool/documents/extract';

const file = (name: string, body: string | Uint8Array) => ({ name, bytes: typeof body === 'string' ? strToU8(body) : body });

describe('the kind of a document file', () => {
  it('reads a page that mentions the PDF header as the page it is', async () => {
    const page = '<!doctype html><html><head><title>Formats</title></head><body><p>Our filings are saved as %PDF-1.7 files.</p></body></html>';
    expect(sniff(file('formats.html', page))).toBe('html');
    // Named .pdf too: the content says what it is.
    expect(sniff(file('formats.pdf', page))).toBe('html');
    expect(await extractDocument(file('formats.html', page))).toEqual({
      format: 'html',
      text: 'Our filings are saved as %PDF-1.7 files.',
      pages: [],
      title: 'Formats',
    });
    const xml = '<?xml version="1.0"?><DOCUMENT><BODY><P>%PDF-1.4 attached</P></BODY></DOCUMENT>';
    expect(sniff(file('filing.xml', xml))).toBe('xml');
  });

  it('takes a file for a PDF when the header opens it, after a byte-order mark or blank space', () => {
    expect(sniff(file('a.bin', '%PDF-1.7\n%\u00e2\u00e3'))).toBe('pdf');
    expect(sniff(file('a.bin', new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8('%PDF-1.4\n')])))).toBe('pdf');
    expect(sniff(file('a.bin', '\r\n \t%PDF-2.0\n'))).toBe('pdf');
    // Bytes before the header that no page starts with (a download wrapper): a PDF when it says it is one.
    expect(sniff(file('wrapped.pdf', 'X-Wrapper: 1\n\n%PDF-1.4\n'))).toBe('pdf');
    expect(sniff(file('wrapped.bin', 'X-Wrapper: 1\n\n%PDF-1.4\n'))).toBeNull();
    // Further in than a reader looks: not a header.
    expect(sniff(file('late.pdf', `${'x'.repeat(1100)}%PDF-1.4\n`))).toBeNull();
  });
});
