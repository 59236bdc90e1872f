// The model's reading of an uploaded document, when a model is configured: after the rules have
// proposed their candidates and the upload has answered, the model reads the document chunk by
// chunk (as many as MODEL_READING allows) and names the statements an RM should weigh. Its answer
// goes through the debate's tolerant intake (fences, preambles, reordered keys) and then the strict
// reading of lib/pool/documents/model-reading.ts; what was refused is counted, never silently lost,
// and a span already proposed is not proposed twice. The offline analyst is not a model: with it
// the rule candidates alone stand and nothing is sent anywhere.
import { z } from 'zod';
import type { Db } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { insertCandidates, listCandidateSpans, lockDocumentForReading, mergeDocumentMeta, mergeModelReadings } from '@/lib/db/queries/documents';
import { takeInObject } from '@/lib/debate/intake';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { defaultProviderName, getProvider } from '@/lib/llm';
import { costOf } from '@/lib/llm/prices';
import { spentBy, type LanguageModel, type ModelProvider } from '@/lib/llm/types';
import type { Chunk } from '@/lib/pool/chunk';
import type { Candidate } from '@/lib/pool/documents/candidates';
import type { PageRange } from '@/lib/pool/documents/extract';
import { ingestDocument, type IngestResult, type WrittenDocument } from '@/lib/pool/documents/ingest';
import { MODEL_READING } from '@/lib/pool/documents/limits';
import { modelStatements, placeStatement, readingOf, systemPrompt, userPrompt, type Dropped, type ModelReading } from '@/lib/pool/documents/model-reading';
import { storable } from '@/lib/pool/import/schemas';

const JSON_SCHEMA = z.toJSONSchema(modelStatements) as Record<string, unknown>;

/** The model's reading of each candidate it proposed, by span (`charStart:charEnd`): shown beside the candidate, never part of it. */
export type ModelProposal = {
  candidates: Candidate[];
  readings: Record<string, string>;
  dropped: Dropped;
  chunksRead: number;
  promptTokens: number;
  completionTokens: number;
};

/** Reads the chunks with the model and returns what survives the strict reading, deduplicated against `taken` spans. */
export async function proposeWithModel({
  model,
  chunks,
  pages = [],
  publishedDate,
  taken = [],
  signal = new AbortController().signal,
  spent = { promptTokens: 0, completionTokens: 0 },
}: {
  model: LanguageModel;
  chunks: readonly Chunk[];
  pages?: readonly PageRange[];
  publishedDate: string;
  taken?: readonly { charStart: number; charEnd: number }[];
  signal?: AbortSignal;
  /** Tokens spent so far, kept up to date as each answer comes: the caller's count when a request fails midway. */
  spent?: { promptTokens: number; completionTokens: number };
}): Promise<ModelProposal> {
  const seen = new Set(taken.map((t) => `${t.charStart}:${t.charEnd}`));
  const out: ModelProposal = {
    candidates: [],
    readings: {},
    dropped: { notQuoted: 0, notStatement: 0, unknownCategory: 0, unknownFactor: 0, duplicate: 0, unreadableAnswers: 0 },
    chunksRead: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
  const system = systemPrompt();
  for (const chunk of chunks.slice(0, MODEL_READING.chunks)) {
    if (out.promptTokens + out.completionTokens >= MODEL_READING.documentTokens) break;
    const result = await model.complete({
      system,
      user: userPrompt({ text: chunk.text, heading: chunk.heading, publishedDate }),
      output: { name: 'document_candidates', jsonSchema: JSON_SCHEMA },
      temperature: 0,
      maxTokens: MODEL_READING.answerTokens,
      signal,
      tag: { stepId: 'document_candidates' },
    });
    out.chunksRead++;
    out.promptTokens += result.usage.promptTokens;
    out.completionTokens += result.usage.completionTokens;
    spent.promptTokens = out.promptTokens;
    spent.completionTokens = out.completionTokens;
    const taken = takeInObject(modelStatements, { raw: result.raw, refusal: result.refusal }, { what: 'the candidate list' });
    if (!taken.ok) {
      out.dropped.unreadableAnswers++;
      continue;
    }
    for (const statement of taken.value.statements.slice(0, MODEL_READING.statementsPerChunk)) {
      const placed = placeStatement(statement, { chunk, pages, publishedDate });
      if (!placed.ok) {
        out.dropped[placed.why]++;
        continue;
      }
      const key = `${placed.candidate.charStart}:${placed.candidate.charEnd}`;
      if (seen.has(key)) {
        out.dropped.duplicate++;
        continue;
      }
      seen.add(key);
      out.candidates.push(placed.candidate);
      if (placed.reading) out.readings[key] = placed.reading;
    }
  }
  out.candidates.sort((a, b) => a.charStart - b.charStart);
  return out;
}

/**
 * The model's reading of an uploaded document, after its upload's transaction: the candidates and
 * one audit entry (with the tokens and cost) in one transaction, and the state on the document's
 * meta for its page. A failure is recorded on the document with its reason, never thrown.
 */
export async function readDocumentWithModel({
  db,
  reader,
  document: { documentId, companyId, chunks, pages, publishedDate },
  actorId,
}: {
  db: Db;
  reader: LanguageModel;
  document: WrittenDocument;
  actorId: string | null;
}): Promise<void> {
  const model = reader.model;
  const spent = { promptTokens: 0, completionTokens: 0 };
  try {
    const taken = await listCandidateSpans({ db, documentId });
    const proposal = await proposeWithModel({ model: reader, chunks, pages, publishedDate, taken, spent });
    const usage = { promptTokens: proposal.promptTokens, completionTokens: proposal.completionTokens };
    const costUsd = costOf(model, usage);
    const state: ModelReading = {
      state: 'done',
      model,
      proposed: proposal.candidates.length,
      chunksRead: proposal.chunksRead,
      dropped: proposal.dropped,
      ...usage,
      costUsd,
    };
    await db.transaction(async (tx) => {
      await insertCandidates({
        db: tx,
        rows: proposal.candidates.map((c) => ({ ...c, reason: storable(`model:${model}`.slice(0, 200)), documentId, companyId, proposedBy: 'model' as const })),
      });
      await mergeDocumentMeta({ db: tx, id: documentId, meta: { modelReading: state } });
      await mergeModelReadings({ db: tx, id: documentId, readings: proposal.readings });
      await appendAudit({ tx, actorId, action: 'document.model_candidates', entityType: 'document', entityId: documentId, detail: { ...state } });
    });
  } catch (err) {
    const reason = storable((err instanceof Error ? err.message : String(err)).slice(0, 500));
    console.error(`[documents] the model could not read ${documentId}: ${reason}`);
    // The answers that came before the failure, and what the failed request itself spent.
    const failed = spentBy(err);
    const usage = {
      promptTokens: spent.promptTokens + (failed?.promptTokens ?? 0),
      completionTokens: spent.completionTokens + (failed?.completionTokens ?? 0),
    };
    const state: ModelReading = { state: 'failed', model, reason, ...usage, costUsd: costOf(model, usage) };
    try {
      await db.transaction(async (tx) => {
        await mergeDocumentMeta({ db: tx, id: documentId, meta: { modelReading: state } });
        await appendAudit({ tx, actorId, action: 'document.model_candidates_failed', entityType: 'document', entityId: documentId, detail: { ...state } });
      });
    } catch (recordErr) {
      console.error(`[documents] could not record the model's failure on ${documentId}:`, recordErr);
    }
  }
}

/** The language model that reads documents, or null: the offline analyst has none and proposes nothing. */
export function documentReader(provider: ModelProvider | null): LanguageModel | null {
  return provider?.languageModel ?? null;
}

/** Whether an OpenAI-compatible model is configured to read documents (no provider is built to tell). */
export function readerConfigured(): boolean {
  return defaultProviderName() === 'openai';
}

/** The configured OpenAI-compatible model, when there is one. */
export function configuredReader(): ModelProvider | null {
  return readerConfigured() ? getProvider({ provider: 'openai' }) : null;
}

/**
 * An upload (lib/pool/documents/ingest.ts) and, when `provider` has a language model, its model's reading
 * started in the background once the upload is written; `reading` settles when the reading has
 * been recorded (it never rejects). The caller answers without awaiting it; the tests await it.
 */
export async function uploadAndRead({
  provider,
  ...upload
}: Omit<Parameters<typeof ingestDocument>[0], 'modelReading'> & { provider: ModelProvider | null }): Promise<{
  result: IngestResult;
  reading: Promise<void> | null;
}> {
  const reader = documentReader(provider);
  let reading: Promise<void> | null = null;
  const result = await ingestDocument({
    ...upload,
    modelReading: reader
      ? { model: reader.model, start: (document) => void (reading = readDocumentWithModel({ db: upload.db, reader, document, actorId: upload.actorId })) }
      : null,
  });
  return { result, reading };
}

/**
 * Reads an uploaded document with the model again, when its last reading failed or was stopped
 * (it has said "reading" for longer than any reading takes: lib/pool/documents/model-reading.ts).
 * The document's row is locked while its state turns to "reading", so two requests start one
 * reading; the other is refused. The rule candidates and those the model proposed before stay:
 * a span already proposed is not proposed again. `reading` settles when the reading has been
 * recorded (it never rejects); the caller answers without awaiting it.
 */
export async function readDocumentAgain({
  db,
  provider,
  documentId,
  actorId,
  now = new Date(),
}: {
  db: Db;
  provider: ModelProvider | null;
  documentId: string;
  actorId: string;
  now?: Date;
}) {
  const reader = documentReader(provider);
  if (!reader) throw new AppError('bad_request', say(documentMessages, 'rereadNoModel'));
  const document = await db.transaction(async (tx) => {
    const doc = await lockDocumentForReading({ tx, id: documentId });
    if (!doc) throw new AppError('not_found', say(documentMessages, 'rereadGone'));
    const last = readingOf(doc.meta, now.getTime());
    if (!last || !(last.state === 'failed' || last.stalled)) throw new AppError('conflict', say(documentMessages, 'rereadNotNeeded'));
    const state: ModelReading = { state: 'reading', model: reader.model, startedAt: now.toISOString() };
    await mergeDocumentMeta({ db: tx, id: documentId, meta: { modelReading: state } });
    await appendAudit({
      tx,
      actorId,
      action: 'document.model_reread',
      entityType: 'document',
      entityId: documentId,
      detail: { model: reader.model, previous: last.state === 'failed' ? 'failed' : 'stopped' },
    });
    const pages = Array.isArray(doc.meta.pages) ? (doc.meta.pages as [number, number, number][]).map(([page, start, end]) => ({ page, start, end })) : [];
    return { documentId, companyId: doc.companyId, chunks: doc.chunks, pages, publishedDate: doc.publishedDate } satisfies WrittenDocument;
  });
  return { companyId: document.companyId, reading: readDocumentWithModel({ db, reader, document, actorId }) };
}
