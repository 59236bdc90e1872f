// Real offline runs on a throwaway database, shared by the report tests.
import type { DatabaseHandle } from '@/lib/db/client';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, type TestBackend } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import type { Language, ProtocolId } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { loadReportInput } from '@/lib/report/load';
import type { ReportInput } from '@/lib/report/model';

export const AS_OF = '2025-06-30';

export async function openReportTestDb(backend: TestBackend): Promise<DatabaseHandle> {
  const handle = await createTestDatabase(backend);
  await seedDemo(handle.db, { accounts: false });
  return handle;
}

export async function finishedRun(
  handle: DatabaseHandle,
  protocolId: ProtocolId,
  companyId = 'samsung-electronics',
  language: Language = 'ko',
): Promise<ReportInput> {
  const provider = createOfflineAnalyst();
  const run = await createRun({ db: handle.db, protocolId, companyId, provider, params: { asOf: AS_OF, language } });
  const result = await executeRun({ db: handle.db, runId: run.id, provider });
  if (result.status !== 'succeeded') throw new Error(`${protocolId} run failed: ${result.error}`);
  return loadReportInput({ db: handle.db, runId: run.id });
}

/**
 * The demo companies, each at an as-of date where its pool holds enough to debate (Taeyoung's one
 * item is a decisive event at any date: a red-flag screening, with no debate).
 */
export const DEMO_CASES: { companyId: string; asOf: string }[] = [
  { companyId: 'samsung-electronics', asOf: AS_OF },
  { companyId: 'taeyoung-engineering-construction', asOf: AS_OF },
  { companyId: 'tesla', asOf: AS_OF },
  { companyId: 'wintec-automation', asOf: '2024-12-31' },
  { companyId: 'monro-inc', asOf: '2021-06-30' },
  { companyId: 'travelers-companies', asOf: '2020-12-31' },
];

/** A run of the offline analyst, whatever it ends as (a report, a screening, too little evidence). */
export async function offlineReportRun(
  handle: DatabaseHandle,
  protocolId: ProtocolId,
  companyId: string,
  language: Language,
  asOf: string,
): Promise<ReportInput> {
  const provider = createOfflineAnalyst();
  const run = await createRun({ db: handle.db, protocolId, companyId, provider, params: { asOf, language } });
  await executeRun({ db: handle.db, runId: run.id, provider });
  return loadReportInput({ db: handle.db, runId: run.id });
}
