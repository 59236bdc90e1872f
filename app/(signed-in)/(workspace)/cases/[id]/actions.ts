'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertCaseAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { insertAcknowledgements, type NewAcknowledgement } from '@/lib/db/queries/acknowledgements';
import { countActiveRunsOfCase, countCompletedRuns, getCaseById, isCaseClosed, lockCaseStatus, markCaseSubmitted } from '@/lib/db/queries/cases';
import { notifyCaseSubmitted } from '@/lib/db/queries/notifications';
import { LANGUAGES, RUN_MODES } from '@/lib/domain/protocol';
import { ACK_FIELD_PREFIX, ACK_REASON_MAX, ackField, type AckItem } from '@/lib/domain/acknowledgements';
import { normalizeNote } from '@/lib/domain/submission';
import { submissionNoteInput } from '@/lib/domain/submission-input';
import { PROTOCOLS, PROVIDER_NAMES } from '@/lib/domain/vocabulary';
import { startCaseRun } from '@/lib/jobs/case-runs';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { runMessages } from '@/lib/i18n/messages/run';
import { getProvider, ProviderConfigError } from '@/lib/llm';
import { ackItemFields, itemsToAcknowledge } from '@/lib/report/acknowledgements';

const caseId = z.string().uuid();
/** An optional number field: empty means the server's default. */
const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Field messages are keys of lib/i18n/messages/run.ts; the launcher shows them in the user's language.
const startInput = z.object({
  case_id: caseId,
  protocol: z.enum(PROTOCOLS, 'errProtocol'),
  provider: z.enum(PROVIDER_NAMES, 'errProvider'),
  language: z.enum(LANGUAGES),
  mode: z.enum(RUN_MODES),
  recency_days: z.coerce.number('errRecency').int('errRecency').min(1, 'errRecency').max(3650, 'errRecency'),
  max_web_results: z.coerce.number('errWebResults').int('errWebResults').min(0, 'errWebResults').max(20, 'errWebResults'),
  max_tokens: z.preprocess(
    blankAsUnset,
    z.coerce.number('errMaxTokens').int('errMaxTokens').min(1_000, 'errMaxTokens').max(100_000_000, 'errMaxTokens').optional(),
  ),
  max_cost_usd: z.preprocess(blankAsUnset, z.coerce.number('errMaxCost').min(0.01, 'errMaxCost').max(10_000, 'errMaxCost').optional()),
});

export const startRun = action({ permission: 'cases:write', input: startInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'write');
  if (isCaseClosed(kase.status)) throw new AppError('conflict', say(runMessages, 'errCaseClosed'));
  let provider;
  try {
    provider = getProvider({ provider: input.provider });
  } catch (err) {
    if (err instanceof ProviderConfigError)
      throw new AppError('bad_request', say(runMessages, 'providerOpenaiMissing'), { provider: ['providerOpenaiMissing'] });
    throw err;
  }
  // The case check, the run limit, the run, the audit entry in one transaction, then the runner
  // (lib/jobs/case-runs.ts); its refusals are phrases the action wrapper shows in the reader's language.
  const run = await startCaseRun({
    db: await getDb(),
    kase,
    actorId: user.id,
    protocolId: input.protocol,
    provider,
    mode: input.mode,
    params: {
      language: input.language,
      recencyDays: input.recency_days,
      maxWebResults: input.max_web_results,
      maxTokens: input.max_tokens,
      maxCostUsd: input.max_cost_usd,
    },
  });
  revalidatePath(`/cases/${kase.id}`);
  redirect(`/runs/${run.id}`);
});

// The cover note's field message is a key of lib/i18n/messages/cases.ts. Every `ack:<item key>`
// field is a reason for one failed check or unaddressed red flag (lib/domain/acknowledgements.ts),
// taken as the note is (normalized, blank as absent); which ones are required the handler decides.
const submitInput = z
  .object({ case_id: caseId, note: submissionNoteInput })
  .catchall(z.unknown())
  .transform(({ case_id, note, ...fields }) => ({
    case_id,
    note,
    reasons: new Map(
      Object.entries(fields).flatMap(([name, value]) =>
        name.startsWith(ACK_FIELD_PREFIX) && typeof value === 'string' && normalizeNote(value)
          ? [[name.slice(ACK_FIELD_PREFIX.length), normalizeNote(value)] as const]
          : [],
      ),
    ),
  }));

/**
 * The reason for each item, or the items' field errors: one missing or over the bound refuses the
 * whole submission (`errAckRequired`, `errAckTooLong`: keys of lib/i18n/messages/acknowledgements.ts).
 */
function acknowledgementsOf(items: AckItem[], reasons: Map<string, string>): { rows: NewAcknowledgement[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const rows: NewAcknowledgement[] = [];
  for (const item of items) {
    const reason = reasons.get(item.key);
    if (!reason) errors[ackField(item.key)] = ['errAckRequired'];
    else if (reason.length > ACK_REASON_MAX) errors[ackField(item.key)] = ['errAckTooLong'];
    else rows.push({ ...ackItemFields(item), itemKey: item.key, reason });
  }
  return { rows, errors };
}

export const submitCase = action({ permission: 'cases:write', input: submitInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'write');
  const db = await getDb();
  await db.transaction(async (tx) => {
    // The case row is locked first, so no run can be started or retried on it while it is checked.
    const status = await lockCaseStatus({ db: tx, id: kase.id });
    // A case already with the committee (a second click) says so before anything else is asked.
    if (status === 'submitted' || status === 'decided') throw new AppError('conflict', say(casesMessages, 'errAlreadySubmitted'));
    if ((await countCompletedRuns({ db: tx, caseId: kase.id })) === 0) throw new AppError('conflict', say(casesMessages, 'errNoSucceededRun'));
    // A run still going would change the record after the committee received it.
    if ((await countActiveRunsOfCase({ db: tx, caseId: kase.id })) > 0) throw new AppError('conflict', say(casesMessages, 'errRunsActive'));
    // What this round must acknowledge, computed here from the stored runs, never from the form:
    // each failed check of a finished run and each red flag no finished run addresses. One reason
    // missing refuses the submission and nothing is written.
    const { rows, errors } = acknowledgementsOf(await itemsToAcknowledge({ db: tx, caseId: kase.id }), input.reasons);
    const missing = Object.keys(errors).length;
    if (missing) throw new AppError('bad_request', say(acknowledgementMessages, 'errAckMissing', { n: missing }), errors);
    // The round's cover note goes in with the status: a resubmission without one clears the last.
    if (!(await markCaseSubmitted({ db: tx, id: kase.id, note: input.note }))) throw new AppError('conflict', say(casesMessages, 'errAlreadySubmitted'));
    // The round is the case's submitted_at, which markCaseSubmitted has just set.
    const submittedAt = (await getCaseById({ db: tx, id: kase.id }))?.submittedAt;
    if (!submittedAt) throw new Error(`Case ${kase.id} has no submission time after being submitted.`);
    await insertAcknowledgements({ db: tx, caseId: kase.id, submittedAt, actorId: user.id, rows });
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'case.submit',
      entityType: 'case',
      entityId: kase.id,
      detail: {
        fromStatus: kase.status,
        withNote: input.note !== null,
        // Each acknowledged item with the RM's reason, as stored (submission_acknowledgements).
        ...(rows.length ? { acknowledged: rows.map((r) => ({ item: r.itemKey, reason: r.reason })) } : {}),
      },
    });
    await notifyCaseSubmitted({ db: tx, caseId: kase.id, actorId: user.id });
  });
  revalidatePath(`/cases/${kase.id}`);
  revalidatePath('/cases');
  return { submitted: true };
});
