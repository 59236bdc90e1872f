// The stability sets of a case (docs/stability.md): runs started together by "Run N times",
// sharing runs.stability_set_id.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';

/** The runs of one set of one case, oldest first; empty when the set is not the case's. */
export async function listStabilityRuns({ db, caseId, setId }: { db: Executor; caseId: string; setId: string }) {
  return db
    .select({ id: runs.id, protocol: runs.protocol, provider: runs.provider, model: runs.model, status: runs.status, createdAt: runs.createdAt })
    .from(runs)
    .where(and(eq(runs.caseId, caseId), eq(runs.stabilitySetId, setId)))
    .orderBy(asc(runs.createdAt), asc(runs.id));
}

export type StabilitySetSummary = { id: string; protocol: string; model: string; runs: number; createdAt: Date };

/** The case's sets, newest first, each with its system, model, size and start. */
export async function listStabilitySets({ db, caseId }: { db: Executor; caseId: string }): Promise<StabilitySetSummary[]> {
  const rows = await db
    .select({ setId: runs.stabilitySetId, protocol: runs.protocol, model: runs.model, createdAt: runs.createdAt })
    .from(runs)
    .where(and(eq(runs.caseId, caseId), isNotNull(runs.stabilitySetId)))
    .orderBy(asc(runs.createdAt));
  const sets = new Map<string, StabilitySetSummary>();
  for (const r of rows) {
    const set = sets.get(r.setId!);
    if (set) set.runs++;
    else sets.set(r.setId!, { id: r.setId!, protocol: r.protocol, model: r.model, runs: 1, createdAt: r.createdAt });
  }
  return [...sets.values()].reverse();
}
