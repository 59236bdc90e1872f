// How much of a document the reader takes, and how long it may take. A document file is data:
// these bounds are what keeps a hostile one (a zip bomb, a PDF of a million pages, a single line
// of megabytes) from costing more than an ordinary filing. docs/security.md lists them.
import { env } from '@/lib/env';
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
  /** Uploads that wait for a reader while DOCUMENT_READERS are busy; one more is asked to try again. */
  waitingReads: 8,
} as const;

/**
 * What a PDF's streams may unpack to, together (and one image alone), in bytes: DOCUMENT_MAX_DECODED_MB.
 * pdf.js holds a stream's decoded bytes outside the worker's heap limit, so this is what bounds them.
 */
export const pdfDecodedBytes = () => Math.round(env().DOCUMENT_MAX_DECODED_MB * 1024 * 1024);

/** The zip is fed to the inflater this many bytes at a time, so one step's output stays bounded. */
export const ZIP_SLICE_BYTES = 16 * 1024;

/**
 * How much of one document the model reads for candidate items (lib/jobs/document-reading.ts), when a model
 * is configured. The model is paid per token and its answers are reviewed one by one: a long
 * filing gives its first chunks, not all of them, and the totals below stop it early.
 */
export const MODEL_READING = {
  /** Chunks sent, in reading order; the rest of a long document is left to the rules. */
  chunks: 24,
  /** Characters of one chunk's text in the prompt (a chunk is at most MAX_CHUNK_CHARS already). */
  chunkChars: 4_000,
  /** Completion tokens one chunk's answer may use. */
  answerTokens: 1_200,
  /** Prompt and completion tokens all of a document's requests may use; no request starts past it. */
  documentTokens: 60_000,
  /** Statements one answer may give; more are not read. */
  statementsPerChunk: 8,
  /** Characters of a quotation, and of the reading the model gives it. */
  quoteChars: 1_500,
  readingChars: 200,
} as const;
