// Every model call of a run, as sent and as answered (table run_calls; docs/case-file.md). Each
// side is kept as text, cut at CALL_SIDE_CAP bytes with a marker, gzip-compressed; its sha256
// covers the text as kept (after any cut), so the case file's verifier can recompute it from the
// file alone. When a run ends its calls are sealed in the audit chain (`sealRunCalls`): an
// edit of a stored answer then no longer matches a digest only the audit key could re-sign.
import 'server-only';
import { createHash } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import type { Executor, Tx } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { runCalls } from '@/lib/db/schema';
import { callsDigest } from '@/lib/util/case-file-digest';

/** The most bytes (UTF-8) of a request or an answer that are kept; the rest is cut, with a marker. */
export const CALL_SIDE_CAP = 512 * 1024;

export const CUT_MARKER = '\n[… cut by Crosscheck: the original was longer; see its recorded length …]';

export type CallUsage = { promptTokens: number; completionTokens: number; cachedTokens?: number };

/** One call as the engine hands it over. `request` is serialised as JSON here. */
export type CallToRecord = {
  runId: string;
  stepId: string;
  partKey: string | null;
  attempt: number;
  execution: string | null;
  provider: string;
  model: string;
  isLlm: boolean;
  request: unknown;
  answer: string;
  finishReason: string | null;
  error: string | null;
  usage: CallUsage | null;
  startedAt: Date;
  finishedAt: Date;
};

/** A side as stored: the text kept (perhaps cut), its length before the cut in bytes, and its sha256. */
export function packSide(text: string, cap = CALL_SIDE_CAP) {
  const raw = strToU8(text);
  let kept = raw;
  let truncated = false;
  if (raw.length > cap) {
    truncated = true;
    // Back to the start of a UTF-8 character, so the cut text is still valid text.
    let end = cap;
    while (end > 0 && (raw[end] & 0xc0) === 0x80) end--;
    kept = strToU8(strFromU8(raw.subarray(0, end)) + CUT_MARKER);
  }
  return {
    gz: gzipSync(kept, { level: 6, mtime: 0 }),
    bytes: raw.length,
    sha256: createHash('sha256').update(kept).digest('hex'),
    truncated,
  };
}

export function unpackSide(gz: Uint8Array): string {
  return strFromU8(gunzipSync(gz));
}

/** Writes one call. `callNo` is the next for its step and part in the run. */
export async function insertRunCall({ db, call }: { db: Executor; call: CallToRecord }) {
  const request = packSide(JSON.stringify(call.request));
  const answer = packSide(call.answer);
  const samePart = call.partKey === null ? isNull(runCalls.partKey) : eq(runCalls.partKey, call.partKey);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runCalls)
    .where(and(eq(runCalls.runId, call.runId), eq(runCalls.stepId, call.stepId), samePart));
  await db.insert(runCalls).values({
    runId: call.runId,
    stepId: call.stepId,
    partKey: call.partKey,
    attempt: call.attempt,
    callNo: Number(n) + 1,
    execution: call.execution,
    provider: call.provider,
    model: call.model,
    isLlm: call.isLlm,
    request: request.gz,
    requestBytes: request.bytes,
    requestSha256: request.sha256,
    requestTruncated: request.truncated,
    answer: answer.gz,
    answerBytes: answer.bytes,
    answerSha256: answer.sha256,
    answerTruncated: answer.truncated,
    finishReason: call.finishReason,
    error: call.error,
    usage: call.usage,
    startedAt: call.startedAt,
    finishedAt: call.finishedAt,
  });
}

/** A run's calls in a stable order: by step, part and number. `withText` unpacks both sides. */
export async function listRunCalls({ db, runId, withText = false }: { db: Executor; runId: string; withText?: boolean }) {
  const rows = await db
    .select()
    .from(runCalls)
    .where(eq(runCalls.runId, runId))
    .orderBy(asc(runCalls.startedAt), asc(runCalls.stepId), asc(runCalls.partKey), asc(runCalls.callNo));
  return rows.map(({ request, answer, ...row }) => ({
    ...row,
    storedBytes: request.length + answer.length,
    ...(withText ? { requestText: unpackSide(request), answerText: unpackSide(answer) } : {}),
  }));
}

export type RunCallRow = Awaited<ReturnType<typeof listRunCalls>>[number];

/**
 * Seals a run's calls in the audit chain: one `run.calls_sealed` entry with how many calls there
 * are and the digest of their request and answer sha256s (lib/util/case-file-digest.ts). Called
 * in the transaction that saves the run's final status; a run that resumes and ends again is
 * sealed again, the newest seal covering every call.
 */
export async function sealRunCalls({ tx, runId }: { tx: Tx; runId: string }) {
  const rows = await tx
    .select({
      stepId: runCalls.stepId,
      partKey: runCalls.partKey,
      callNo: runCalls.callNo,
      requestSha256: runCalls.requestSha256,
      answerSha256: runCalls.answerSha256,
    })
    .from(runCalls)
    .where(eq(runCalls.runId, runId));
  // A run that asked nothing (short of evidence, a red-flag screening, cancelled early) has nothing to seal.
  if (!rows.length) return;
  await appendAudit({
    tx,
    actorId: null,
    action: 'run.calls_sealed',
    entityType: 'run',
    entityId: runId,
    detail: { calls: rows.length, digest: callsDigest(rows) },
  });
}
