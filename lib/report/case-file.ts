// The examiner's case file (docs/case-file.md): one zip with the case, every run (its run
// document as exported, and each model call as sent and answered), the evidence each run cited
// with its whole text and fingerprint, the committee's record and the audit entries that concern
// the case, with a manifest of sha256s that carries a keyed MAC. `verifyCaseFile`
// (case-file-verify.ts) checks it with nothing but the file.
import { zipSync, strToU8 } from 'fflate';
import type { Db } from '@/lib/db/client';
import { auditKey } from '@/lib/db/audit-key';
import { appendAudit, readKeyedStart } from '@/lib/db/queries/audit';
import { citedEvidenceWithText, listAllAcknowledgements, listCaseAuditEntries, listCaseRunsForFile, readChainHead } from '@/lib/db/queries/case-file';
import { getCaseDetail } from '@/lib/db/queries/cases';
import { listCommentsForCase, listDecisionsForCase } from '@/lib/db/queries/review';
import { listRunCalls } from '@/lib/db/queries/run-calls';
import { AppError } from '@/lib/errors';
import { exportJson } from '@/lib/report/export';
import { listDecisionVotes, loadRunOversight } from '@/lib/db/queries/oversight';
import { loadReportInput } from '@/lib/report/load';
import { manifestMac, sha256Hex } from '@/lib/util/case-file-digest';

export const CASE_FILE_FORMAT = 'crosscheck-case-file';
export const CASE_FILE_VERSION = 1;

/** A run's folder in the file: `runs/01`, `runs/02`, … oldest first, as the verifier names them ("run 2"). */
export const runDir = (index: number) => `runs/${String(index).padStart(2, '0')}`;

/** A call's two files: `<step>[.<section>].<n>.request.json` and `.answer.txt`. */
export function callBase(call: { stepId: string; partKey: string | null; callNo: number }) {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `calls/${safe(call.stepId)}${call.partKey ? `.${safe(call.partKey)}` : ''}.${call.callNo}`;
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

export type CaseFileActor = { id: string | null; name: string; role: string };

/** Builds the file. Reads only; `exportCaseFile` writes the audit entry. */
export async function buildCaseFile({ db, caseId, by, now = new Date() }: { db: Db; caseId: string; by: CaseFileActor; now?: Date }) {
  const kase = await getCaseDetail({ db, id: caseId });
  if (!kase) throw new AppError('not_found', 'No such case.');
  const runRows = await listCaseRunsForFile({ db, caseId });
  const [decisions, votes, comments, acknowledgements, audit, chainHead, keyedStart] = await Promise.all([
    listDecisionsForCase({ db, caseId }),
    listDecisionVotes({ db, caseId }),
    listCommentsForCase({ db, caseId }),
    listAllAcknowledgements({ db, caseId }),
    listCaseAuditEntries({ db, caseId, runIds: runRows.map((r) => r.id) }),
    readChainHead({ db }),
    readKeyedStart({ db }),
  ]);

  const files: Record<string, Uint8Array> = {};
  const runs: {
    index: number;
    id: string;
    dir: string;
    protocol: string;
    provider: string;
    model: string;
    analyst: string;
    status: string;
    calls: number;
    storedBytes: number;
  }[] = [];
  for (const [i, run] of runRows.entries()) {
    const index = i + 1;
    const dir = runDir(index);
    // The run document exactly as the JSON export writes it (docs/run-export.md).
    // With the human oversight on record (who decided, what they confirmed and overrode), as every export carries it.
    const input = { ...(await loadReportInput({ db, runId: run.id })), oversight: await loadRunOversight({ db, runId: run.id }) };
    files[`${dir}/run.json`] = json(exportJson(input, now));
    const calls = await listRunCalls({ db, runId: run.id, withText: true });
    const index_ = calls.map((c) => {
      const base = callBase(c);
      files[`${dir}/${base}.request.json`] = strToU8(c.requestText!);
      files[`${dir}/${base}.answer.txt`] = strToU8(c.answerText!);
      return {
        stepId: c.stepId,
        part: c.partKey,
        attempt: c.attempt,
        callNo: c.callNo,
        execution: c.execution,
        provider: c.provider,
        model: c.model,
        isLlm: c.isLlm,
        finishReason: c.finishReason,
        error: c.error,
        usage: c.usage,
        startedAt: c.startedAt.toISOString(),
        finishedAt: c.finishedAt.toISOString(),
        request: { file: `${base}.request.json`, sha256: c.requestSha256, originalBytes: c.requestBytes, truncated: c.requestTruncated },
        answer: { file: `${base}.answer.txt`, sha256: c.answerSha256, originalBytes: c.answerBytes, truncated: c.answerTruncated },
      };
    });
    files[`${dir}/calls.json`] = json(index_);
    files[`${dir}/cited-evidence.json`] = json({
      frozen: run.citedEvidence !== null,
      items: run.citedEvidence ? await citedEvidenceWithText({ db, snapshot: run.citedEvidence }) : [],
    });
    runs.push({
      index,
      id: run.id,
      dir,
      protocol: run.protocol,
      provider: run.provider,
      model: run.model,
      analyst: run.provider === 'offline' ? 'built-in offline analyst (fixed rules, not a language model)' : `language model ${run.model} (${run.provider})`,
      status: run.status,
      calls: calls.length,
      storedBytes: calls.reduce((n, c) => n + c.storedBytes, 0),
    });
  }

  const systems = [...new Set(runs.map((r) => `${r.protocol}: ${r.analyst}`))];
  const decided = decisions.map((d) => ({ outcome: d.outcome, by: d.deciderName, at: d.createdAt.toISOString() }));
  const statement = {
    aiAssisted: true,
    text:
      'This analysis is AI-assisted: the runs below were produced by the analysis systems and models named here, and are support for a credit decision, ' +
      'not the decision. ' +
      (decided.length
        ? `The decision was taken by people: ${decided.map((d) => `${d.outcome} by ${d.by} on ${d.at.slice(0, 10)}`).join('; ')}.`
        : 'No decision has been recorded yet.'),
    systems,
    decidedBy: decided,
  };

  files['case.json'] = json({
    case: kase,
    statement,
    decisions,
    // Each committee member's vote per decision, with what they confirmed and overrode (docs/oversight.md).
    votes,
    comments,
    acknowledgements,
  });
  files['audit.json'] = json({
    about:
      'The audit entries that concern this case and its runs, as stored: each entry hash covers its content and the previous entry hash (keyed with the audit key), and its checkpoint MAC binds its number to its hash.',
    keyedStart: keyedStart ? { lastUnkeyed: keyedStart.lastUnkeyed, headHash: keyedStart.headHash } : null,
    chainHead,
    entries: audit,
  });

  const parts = Object.fromEntries(
    Object.entries(files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, bytes]) => [path, { sha256: sha256Hex(bytes), bytes: bytes.length }]),
  );
  const unsigned = {
    format: CASE_FILE_FORMAT,
    version: CASE_FILE_VERSION,
    caseId,
    exportedAt: now.toISOString(),
    exportedBy: by,
    statement,
    runs,
    audit: { seqs: audit.map((a) => a.seq) },
    parts,
  };
  const manifest = { ...unsigned, mac: manifestMac(unsigned, auditKey()) };
  files['manifest.json'] = json(manifest);
  const zip = zipSync(files, { level: 6, mtime: now });
  const filename = `crosscheck-case-${caseId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.zip`;
  return { zip, filename, manifest, manifestSha256: sha256Hex(files['manifest.json']) };
}

/** The file, and its `case.file_export` audit entry once it exists. */
export async function exportCaseFile({ db, caseId, by }: { db: Db; caseId: string; by: CaseFileActor }) {
  const built = await buildCaseFile({ db, caseId, by });
  await db.transaction((tx) =>
    appendAudit({
      tx,
      actorId: by.id,
      action: 'case.file_export',
      entityType: 'case',
      entityId: caseId,
      detail: { filename: built.filename, runs: built.manifest.runs.length, manifestSha256: built.manifestSha256 },
    }),
  );
  return built;
}
