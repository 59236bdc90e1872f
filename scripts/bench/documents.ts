// Filings in: reading a large 10-K page and a long PDF in the worker thread (lib/pool/documents),
// what the server's event loop feels meanwhile (its longest delay, which stays small because the
// parsing happens elsewhere), and writing a document with its chunks and candidates.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ingestDocument } from '@/lib/pool/documents/ingest';
import { importPool } from '@/lib/pool/import';
import { extractOffThread } from '@/lib/pool/documents/run-extraction';
import { round, timed } from './stats';
import type { Benchmark, BenchRow } from './types';

const FIXTURE = 'data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm';

/** The fixture's body repeated until the page holds about `chars` characters of markup. */
function largePage(chars: number) {
  const page = fs.readFileSync(FIXTURE, 'utf8');
  const body = page.slice(page.indexOf('<h2>'), page.lastIndexOf('</body>'));
  return new TextEncoder().encode(`<html><body>${body.repeat(Math.ceil(chars / body.length))}</body></html>`);
}

async function longPdf(pages: number) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      page.drawText(`Page ${i}, line ${line}: On March 5, 2024, the company settled a lawsuit over its supply contract.`, {
        x: 40,
        y: 750 - line * 18,
        size: 9,
        font,
      });
    }
  }
  return doc.save();
}

/** How long reading takes in the worker thread, and the main loop's longest delay meanwhile. */
async function measure(name: string, bytes: Uint8Array, file: string): Promise<BenchRow[]> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const { ms, result } = await timed(() => extractOffThread({ name: file, bytes }));
  delay.disable();
  return [
    { name, metric: 'read in worker', value: round(ms / 1000, 2), unit: 's', key: `${name}.seconds` },
    { name, metric: 'text', value: result.text.length, unit: 'chars' },
    { name, metric: 'main loop longest delay', value: round(delay.max / 1e6, 1), unit: 'ms', target: { atMost: 100 }, key: `${name}.loopMaxMs` },
  ];
}

export const documentsBenchmark: Benchmark = {
  name: 'documents',
  description: 'filings in: a large 10-K page and a long PDF read in the worker thread, then written with chunks and candidates',
  async run(ctx) {
    const pageChars = ctx.quick ? 300_000 : 1_800_000;
    const pdfPages = ctx.quick ? 30 : 300;
    ctx.log(`reading a ${round(pageChars / 1e6, 1)} M-character 10-K page and a ${pdfPages}-page PDF …`);
    const html = largePage(pageChars);
    const pdf = await longPdf(pdfPages);
    const rows = [...(await measure('documents html', html, 'large.htm')), ...(await measure(`documents pdf ${pdfPages}p`, pdf, 'long.pdf'))];
    const handle = await ctx.scratchDatabase();
    try {
      const company = JSON.stringify([{ id: 'bench-co', name: 'Bench Co', country: 'US' }]);
      await importPool({ db: handle.db, sources: [{ name: 'companies.json', bytes: new TextEncoder().encode(company) }], actorId: null, label: 'bench' });
      const { ms, result } = await timed(() =>
        ingestDocument({
          db: handle.db,
          file: { name: 'large.htm', bytes: html },
          details: {
            company_id: 'bench-co',
            title: 'Large 10-K',
            kind: 'annual_report',
            published_date: '2025-01-30',
            source_name: 'Bench',
            source_url: 'https://example.org/10k',
          },
          actorId: null,
        }),
      );
      if (!result.ok) throw new Error(`documents bench: ${result.message}`);
      rows.push(
        { name: 'documents ingest', metric: 'read, chunk, propose, write', value: round(ms / 1000, 2), unit: 's', key: 'ingest.seconds' },
        { name: 'documents ingest', metric: 'candidates', value: result.candidates, unit: 'items' },
      );
    } finally {
      await handle.close();
    }
    return rows;
  },
};
