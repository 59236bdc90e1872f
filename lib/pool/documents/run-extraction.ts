// Reading a document off the web server's event loop: each extraction runs in a worker thread of
// its own with a bounded heap and a time limit, and is terminated when it answers or runs out of
// time. A parser stuck on a hostile file costs that thread, never the server's requests. What a
// thread holds outside its heap (a PDF's decoded streams) is bounded by the reader itself
// (pdf-streams.ts), so the process bounds how many threads read at once: DOCUMENT_READERS, with a
// short queue behind them and a named "try again" past it.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Semaphore } from '@/lib/util/semaphore';
import { env } from '@/lib/env';
import type { Extracted, ExtractOptions, ExtractSource } from '@/lib/pool/documents/extract';
import { DOCUMENT_LIMITS, pdfDecodedBytes } from '@/lib/pool/documents/limits';
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

/**
 * At most `readers` extractions at once; `waiting` more wait their turn in arrival order, and one
 * past them is refused by name rather than queued without end.
 */
export class ReadingGate {
  private readonly slots: Semaphore;
  /** Extractions running or waiting. */
  private held = 0;
  running = 0;
  /** The most that ran at once, for the tests. */
  peak = 0;
  constructor(
    readonly readers: number,
    readonly waiting: number,
  ) {
    this.slots = new Semaphore(readers);
  }

  /** A turn to read `file`: resolves with its release once a reader is free. */
  async enter(file: string): Promise<() => void> {
    if (this.held >= this.readers + this.waiting) throw new DocumentProblem('extractionBusy', { file });
    this.held++;
    const release = await this.slots.acquire();
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
      this.held--;
      release();
    };
  }
}

const globalForReaders = globalThis as typeof globalThis & { __crosscheckDocumentReaders?: ReadingGate };

/** The process's one gate, shared by every upload (the server may load this module more than once). */
export function documentReaders(): ReadingGate {
  globalForReaders.__crosscheckDocumentReaders ??= new ReadingGate(env().DOCUMENT_READERS, DOCUMENT_LIMITS.waitingReads);
  return globalForReaders.__crosscheckDocumentReaders;
}

/** A document's text, read in a worker thread once the gate gives a turn; a DocumentProblem naming the file when it cannot be. */
export async function extractOffThread(
  source: ExtractSource,
  { timeoutMs = DOCUMENT_LIMITS.timeoutMs, gate = documentReaders(), options = {} }: { timeoutMs?: number; gate?: ReadingGate; options?: ExtractOptions } = {},
): Promise<Extracted> {
  const leave = await gate.enter(source.name);
  return readInThread(source, { pdfDecodedBytes: pdfDecodedBytes(), ...options }, timeoutMs, leave);
}

function readInThread(source: ExtractSource, options: ExtractOptions, timeoutMs: number, leave: () => void): Promise<Extracted> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(/* turbopackIgnore: true */ ENTRY(), { resourceLimits: { maxOldGenerationSizeMb: DOCUMENT_LIMITS.workerHeapMb } });
    } catch (err) {
      leave();
      throw err;
    }
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The turn passes on once the thread is gone and its memory with it.
      worker.terminate().then(leave, leave);
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
    worker.postMessage({ source, options });
  });
}
