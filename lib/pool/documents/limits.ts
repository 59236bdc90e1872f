// How much of a document the reader takes, and how long it may take. A document file is data:
// these bounds are what keeps a hostile one (a zip bomb, a PDF of a million pages, a single line
// of megabytes) from costing more than an ordinary filing. docs/security.md lists them.
import { LIMITS } from '@/lib/pool/import/schemas';

export const DOCUMENT_LIMITS = {
  /** Files in a DART zip: the original document and its attachments are a handful. */
  zipEntries: 100,
  /** Bytes all the zip's XML files may unpack to, counted as they inflate (a declared size can lie). */
  unzippedBytes: 64 * 1024 * 1024,
  /** Pages of a PDF; an annual report has a few hundred. */
  pdfPages: 500,
  /** Characters of text kept, the same as an imported document's body. */
  textChars: LIMITS.document.body,
  /** Wall-clock time of one extraction in its worker thread. */
  timeoutMs: 60_000,
  /** Heap of the worker thread, in megabytes. */
  workerHeapMb: 512,
} as const;

/** The zip is fed to the inflater this many bytes at a time, so one step's output stays bounded. */
export const ZIP_SLICE_BYTES = 16 * 1024;
