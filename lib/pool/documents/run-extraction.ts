// Reading a document off the web server's event loop: each extraction runs in a worker thread of
// its own with a bounded heap and a time limit, and is terminated when it answers or runs out of
// time. A parser stuck on a hostile file costs that thread, never the server's requests.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Extracted, ExtractSource } from '@/lib/pool/documents/extract';
import { DOCUMENT_LIMITS } from '@/lib/pool/documents/limits';
import { DocumentProblem, type ProblemData } from '@/lib/pool/documents/problems';

type Answer = { ok: true; extracted: Extracted } | { ok: false; problem?: ProblemData; detail?: string };

/**
 * The worker's entry, from the project's root: the Next.js server bundles this module elsewhere,
 * so the file is found where the app runs (npm start, the CLI and the tests all run from there).
 * Joined at run time on purpose: a path the bundler can work out would make it bundle the entry
 * (and tsx with it) instead of leaving the worker to load it from disk.
 */
const ENTRY_PARTS = ['lib', 'pool', 'documents', 'extract-entry.mjs'];
const ENTRY = () => [process.cwd(), ...ENTRY_PARTS].join(path.sep);

/** A document's text, read in a worker thread; a DocumentProblem naming the file when it cannot be. */
export function extractOffThread(source: ExtractSource, { timeoutMs = DOCUMENT_LIMITS.timeoutMs }: { timeoutMs?: number } = {}): Promise<Extracted> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(/* turbopackIgnore: true */ ENTRY(), { resourceLimits: { maxOldGenerationSizeMb: DOCUMENT_LIMITS.workerHeapMb } });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new DocumentProblem('extractionTimedOut', { file: source.name, seconds: Math.round(timeoutMs / 1000) }))),
      timeoutMs,
    );
    worker.once('message', (answer: Answer) =>
      finish(() => {
        if (answer.ok) resolve(answer.extracted);
        else if (answer.problem) reject(DocumentProblem.fromData(answer.problem));
        else reject(new DocumentProblem('extractionFailed', { file: source.name, detail: answer.detail ?? 'unknown' }));
      }),
    );
    // Out of heap, or a crash: the thread is gone and says why.
    worker.once('error', (err) => finish(() => reject(new DocumentProblem('extractionFailed', { file: source.name, detail: err.message.slice(0, 200) }))));
    worker.once('exit', (code) => finish(() => reject(new DocumentProblem('extractionFailed', { file: source.name, detail: `worker exited (${code})` }))));
    // The bytes are copied, not moved: the caller keeps its upload.
    worker.postMessage(source);
  });
}
