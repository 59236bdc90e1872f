// Real runs for the evaluation tests: the demo pool on a throwaway database and the offline
// analyst, run through the engine exactly as the app runs them, read back with loadRunView.
import type { DatabaseHandle } from '@/lib/db/client';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, type TestBackend } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import { loadRunView, type RunView } from '@/lib/report/run-view';
import type { ProtocolId, RunParams } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';

export async function seededDatabase(backend: TestBackend): Promise<DatabaseHandle> {
  const handle = await createTestDatabase(backend);
  await seedDemo(handle.db, { accounts: false });
  return handle;
}

export async function offlineRun(
  handle: DatabaseHandle,
  { protocol, companyId, params }: { protocol: ProtocolId; companyId: string; params: Partial<RunParams> },
): Promise<RunView> {
  const provider = createOfflineAnalyst();
  const run = await createRun({ db: handle.db, protocolId: protocol, companyId, provider, params });
  const result = await executeRun({ db: handle.db, runId: run.id, provider });
  if (result.status !== 'succeeded') throw new Error(`${protocol} on ${companyId} ended ${result.status}: ${result.error}`);
  return loadRunView({ db: handle.db, runId: run.id });
}
