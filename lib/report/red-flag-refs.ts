// The red flags of a company's pool at a date, with what the panel needs to open each flagged
// item (source name, date, link): for the case page (at the case's as-of date) and the company
// page (today). A run shows the flags it stored (`runs.red_flags`, lib/report/live-state.ts).
import type { Db } from '@/lib/db/client';
import type { RedFlag } from '@/lib/domain/red-flags';
import { readRedFlags } from '@/lib/pool/red-flags';
import { evidenceRefsFor } from '@/lib/report/live-state';
import type { EvidenceRefs } from '@/lib/report/run-state';

export async function poolRedFlags({
  db,
  companyId,
  asOf,
}: {
  db: Db;
  companyId: string;
  asOf: string;
}): Promise<{ flags: RedFlag[]; evidence: EvidenceRefs }> {
  const flags = await readRedFlags({ db, companyId, asOf });
  if (!flags.length) return { flags, evidence: {} };
  return {
    flags,
    evidence: await evidenceRefsFor({ db, ids: [...new Set(flags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]))], webEvidence: [] }),
  };
}
