// At server start: runs that a stopped process left queued or running continue from their
// last completed step. They run in the background; the server does not wait for them.
import type { Db } from '@/lib/db/client';
import { getRun, listInterruptedRuns, setRunStatus } from '@/lib/db/queries/runs';
import { executeRun, isRunActive } from '@/lib/debate/engine';
import { webSearchForRun } from '@/lib/debate/web-search';
import { getProvider } from '@/lib/llm';

export async function resumeInterruptedRuns({ db }: { db: Db }) {
  const interrupted = await listInterruptedRuns({ db });
  for (const { id } of interrupted) {
    if (isRunActive(id)) continue;
    const run = await getRun({ db, id });
    if (!run) continue;
    let provider;
    try {
      provider = getProvider({ provider: run.provider === 'openai' ? 'openai' : 'offline' });
    } catch (err) {
      await setRunStatus({ db, id, status: 'failed', error: `Could not resume: ${(err as Error).message}` });
      continue;
    }
    void executeRun({ db, runId: id, provider, webSearch: webSearchForRun({ runId: id, companyId: run.companyId }) }).catch((err) =>
      console.error(`[runs] resuming ${id} failed:`, (err as Error).message),
    );
  }
  return interrupted.length;
}
