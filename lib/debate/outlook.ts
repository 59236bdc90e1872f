// What a run of a company at an as-of date will give, read before it starts (the launcher says
// it before *Start*): the same pool and the same rule as the engine's check before any step
// (lib/debate/engine.ts, "Evidence sufficiency"; runOutlook in lib/debate/sufficiency.ts).
import type { Executor } from '@/lib/db/client';
import { runOutlook, type RunOutlook } from '@/lib/debate/sufficiency';
import { readEvidence } from '@/lib/pool/as-of';
import { findRedFlags } from '@/lib/pool/red-flags';

/**
 * The outlook of a new run (no step done yet) over the company's pool at `asOf`. The launcher's
 * recency window does not change it: stale items count toward the threshold (they are in the
 * prompts too), and a red flag is found in every item the run reads, however old. So one
 * reading per case serves every recency the RM may choose.
 */
export async function readRunOutlook({ db, companyId, asOf }: { db: Executor; companyId: string; asOf: string }): Promise<RunOutlook> {
  // Any window reads the same items; it only marks some stale, which neither count looks at.
  const evidence = await readEvidence({ db, companyId, asOf, recencyDays: 0 });
  return runOutlook(evidence, findRedFlags(evidence).length);
}
