import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canAccessRun } from '@/lib/auth/access-rules';
import type { DatabaseHandle } from '@/lib/db/client';
import { seedDemo } from '@/lib/demo/seed';
import { verifyAuditChain } from '@/lib/db/queries/audit';
import { auditLog, cases, runs, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { exportRun } from '@/lib/report/export';
import { loadReportInput } from '@/lib/report/load';
import { PAGES, API_ROUTES } from '@/lib/auth/permissions';

describe.each(testBackends())('exports of the demo run on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    await seedDemo(handle.db, { accounts: true });
  }, 60_000);
  afterAll(() => handle?.close());

  it('the seeded demo run is a finished KPD-MADS run on a submitted case that its RM and the committee read', async () => {
    const input = await loadReportInput({ db: handle.db, runId: DEMO_IDS.run });
    expect(input.view).toMatchObject({ status: 'succeeded', protocol: 'kpd-mads', provider: 'offline', company: { id: 'samsung-electronics' } });
    expect(input.view.turns.every((t) => t.status === 'done')).toBe(true);

    const [kase] = await handle.db.select().from(cases).where(eq(cases.id, DEMO_IDS.submittedCase));
    const [run] = await handle.db.select().from(runs).where(eq(runs.id, DEMO_IDS.run));
    const [rm] = await handle.db.select().from(users).where(eq(users.id, kase.ownerId));
    expect(rm.role).toBe('rm');
    // Who the access matrix expects to read it: the owner and the committee, nobody else.
    expect(canAccessRun(rm, run, kase, 'read')).toBe(true);
    expect(canAccessRun({ id: 'someone', role: 'committee' }, run, kase, 'read')).toBe(true);
    expect(canAccessRun({ id: 'someone', role: 'rm' }, run, kase, 'read')).toBe(false);
    expect(canAccessRun({ id: rm.id, role: 'evaluator' }, run, kase, 'read')).toBe(false);
  });

  it('every export is audited with its format and file name, on an intact chain', async () => {
    const [kase] = await handle.db.select().from(cases).where(eq(cases.id, DEMO_IDS.submittedCase));
    const before = await handle.db.select().from(auditLog).where(eq(auditLog.action, 'run.export'));
    const md = await exportRun({ db: handle.db, actorId: kase.ownerId, runId: DEMO_IDS.run, format: 'md' });
    expect(md.contentType).toBe('text/markdown; charset=utf-8');
    expect(md.body).toContain('# Crosscheck 보고서 — 삼성전자');
    const json = await exportRun({ db: handle.db, actorId: kase.ownerId, runId: DEMO_IDS.run, format: 'json', locale: 'en' });
    expect(json.contentDisposition).toContain('filename="crosscheck-samsung-electronics-kpd-mads-2025-06-30.json"');
    const after = await handle.db.select().from(auditLog).where(eq(auditLog.action, 'run.export'));
    expect(after.length - before.length).toBe(2);
    expect(after.slice(-2).map((a) => [a.actorId, a.entityType, a.entityId, a.detail.format])).toEqual([
      [kase.ownerId, 'run', DEMO_IDS.run, 'md'],
      [kase.ownerId, 'run', DEMO_IDS.run, 'json'],
    ]);
    expect(after.at(-1)!.detail.filename).toBe('crosscheck-삼성전자-kpd-mads-2025-06-30.json');
    expect((await verifyAuditChain({ db: handle.db })).ok).toBe(true);
  });

  it('is the run the access matrix samples', () => {
    expect(PAGES.find((p) => p.path === '/runs/[id]/report')).toMatchObject({ sample: `/runs/${DEMO_IDS.run}/report` });
    expect(API_ROUTES.find((r) => r.path === '/api/runs/[id]/export')).toMatchObject({ sample: `/api/runs/${DEMO_IDS.run}/export?format=json` });
  });
});
