// The passages a step that reads documents is shown, through the engine (docs/protocols.md,
// FinDebate): a retrieved passage that is a pool item the step's evidence block already shows is
// not shown a second time, and one the block does not show stays. Offline on the bench's Samsung
// case, whose retrieval brings pool items among the document chunks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { createRun, executeRun } from '@/lib/debate/engine';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';

describe.each(testBackends())('passages beside the evidence block, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const requests = new Map<string, GenerateRequest>();

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    const offline = createOfflineAnalyst();
    const recording: ModelProvider = {
      ...offline,
      generate: (req) => {
        requests.set(req.step.id, req);
        return offline.generate(req);
      },
    };
    const run = await createRun({
      db,
      protocolId: 'findebate',
      companyId: 'samsung-electronics',
      provider: recording,
      params: { asOf: '2024-12-31', language: 'en' },
    });
    const result = await executeRun({ db, runId: run.id, provider: recording });
    expect(result.status, result.error).toBe('succeeded');
  });
  afterAll(async () => {
    await handle?.close();
  });

  const poolIds = /^samsung-electronics-\d+$/;

  it('shows no pool item twice: never as a passage when the evidence block holds it', () => {
    const documents = [...requests.values()].filter((r) => r.step.evidence === 'documents');
    // The specialists run at the same time: in any order.
    expect(documents.map((r) => r.step.id).sort()).toEqual(['S-COLL', 'S-MGMT', 'S-MKT', 'S-PERF', 'S-RISK', 'SKEPTIC', 'TRUST']);
    for (const r of documents) {
      const shown = new Set(r.evidence.map((e) => e.id));
      expect(
        r.passages.filter((p) => shown.has(p.id)).map((p) => p.id),
        r.step.id,
      ).toEqual([]);
      expect(r.passages.length, r.step.id).toBeGreaterThan(0);
    }
  });

  it('keeps a passage that is a pool item the block does not show', () => {
    // A step's retrieval may bring a pool item its block leaves out (outside its lane, or past its
    // dozen): that one is shown, as a passage.
    const documents = [...requests.values()].filter((r) => r.step.evidence === 'documents');
    const unshown = documents.flatMap((r) =>
      r.passages.filter((p) => poolIds.test(p.id) && !r.evidence.some((e) => e.id === p.id)).map((p) => `${r.step.id}:${p.id}`),
    );
    expect(unshown.length).toBeGreaterThan(0);
  });
});
