// A run outside its executions: created queued with its parameters and one pending row per step,
// and put back to queued when it is retried. What happens in between is lib/debate/engine.ts.
import type { Db, Executor, Tx } from '@/lib/db/client';
import { insertRun, lockRunStatus, resetSteps, setRunStatus } from '@/lib/db/queries/runs';
import { defaultBudget } from '@/lib/debate/limits';
import { getProtocol } from '@/lib/debate/protocols';
import type { ProtocolDef, RunMode, RunParams } from '@/lib/domain/protocol';
import type { RunStatus } from '@/lib/domain/vocabulary';
import type { ModelProvider } from '@/lib/llm/types';
import { isoToday } from '@/lib/util/dates';

/**
 * The statuses a retry starts again from: a failed or cancelled run, and one that ended for want
 * of evidence (after an import it is checked again, before any step runs). A red-flag screening
 * is a finished outcome, like a succeeded run: a fuller pool asks for a new run.
 */
export function isRetryable(status: RunStatus | undefined): boolean {
  return status === 'failed' || status === 'cancelled' || status === 'insufficient_evidence';
}

/**
 * Puts a failed, cancelled or insufficient-evidence run back to queued (its shortfall cleared):
 * its failed steps (and what could not start after them) run again; finished steps are kept. One transaction, with the run locked and its
 * status checked there, so two retries at once cannot both pass; `alsoInTransaction` adds the
 * caller's checks and writes (the per-user limit, the audit entry), and its error writes nothing.
 * False, with nothing written, when the run is not failed, cancelled or short of evidence (any more).
 */
export async function retryFailedSteps({ db, runId, alsoInTransaction }: { db: Db; runId: string; alsoInTransaction?: (tx: Tx) => Promise<void> }) {
  return db.transaction(async (tx) => {
    const status = await lockRunStatus({ db: tx, id: runId });
    if (!isRetryable(status)) return false;
    await alsoInTransaction?.(tx);
    await resetSteps({ db: tx, runId, statuses: ['failed'] });
    await setRunStatus({ db: tx, id: runId, status: 'queued' });
    return true;
  });
}

export const DEFAULT_RUN_PARAMS = {
  language: 'ko',
  /** Three years: older evidence is used only with a note that it is old. */
  recencyDays: 3 * 365,
  maxWebResults: 5,
  maxConcurrency: 8,
} as const satisfies Omit<RunParams, 'asOf'>;

export async function createRun({
  db,
  protocolId,
  companyId,
  provider,
  mode = 'dag',
  params = {},
  caseId = null,
  createdById = null,
  stabilitySetId = null,
  id,
}: {
  db: Executor;
  id?: string;
  protocolId: ProtocolDef['id'];
  companyId: string;
  provider: ModelProvider;
  mode?: RunMode;
  params?: Partial<RunParams>;
  caseId?: string | null;
  createdById?: string | null;
  /** The stability set it is started in (docs/stability.md). */
  stabilitySetId?: string | null;
}) {
  const protocol = getProtocol(protocolId);
  const full: RunParams = { ...DEFAULT_RUN_PARAMS, ...defaultBudget(), asOf: isoToday(), ...params };
  return insertRun({ db, id, protocol, params: full, provider: provider.name, model: provider.model, mode, companyId, caseId, createdById, stabilitySetId });
}
