// The worker thread that reads one document (extract.ts) and answers once: the text, or the
// problem that names the file. Started by run-extraction.ts through extract-entry.mjs.
import { parentPort } from 'node:worker_threads';
import { extractDocument, type ExtractOptions, type ExtractSource } from '@/lib/pool/documents/extract';
import { DocumentProblem, problemData } from '@/lib/pool/documents/problems';

parentPort?.once('message', async ({ source, options }: { source: ExtractSource; options: ExtractOptions }) => {
  try {
    parentPort?.postMessage({ ok: true, extracted: await extractDocument(source, options) });
  } catch (err) {
    if (err instanceof DocumentProblem) parentPort?.postMessage({ ok: false, problem: problemData(err) });
    else parentPort?.postMessage({ ok: false, detail: String((err as Error)?.message ?? err).slice(0, 200) });
  }
});
