import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayReadCompany } from '@/lib/auth/company-access';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { recordDecision } from '@/lib/db/queries/review';
import { cases, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';

// The demo seed (lib/demo/seed.ts): Samsung Electronics is the borrower of the submitted case,
// Tesla and Taeyoung of the two drafts, Monro of none.
describe.each(testBackends())('who reads a company on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let committeeId: string;
  const committee = { role: 'committee' as const };
  const read = (role: 'rm' | 'committee' | 'evaluator' | 'admin', companyId: string) => mayReadCompany({ db, user: { role }, companyId });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: committeeId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'committee'));
  }, 90_000);
  afterAll(() => handle?.close());

  it("opens the submitted case's borrower to the committee, and no company without such a case", async () => {
    const [submitted] = await db.select().from(cases).where(eq(cases.id, DEMO_IDS.submittedCase));
    expect(submitted.companyId).toBe('samsung-electronics');
    expect(await read('committee', 'samsung-electronics')).toBe(true);
    expect(await read('committee', 'taeyoung-engineering-construction')).toBe(false);
    expect(await read('committee', 'tesla')).toBe(false);
    expect(await read('committee', 'monro-inc')).toBe(false);
    expect(await read('committee', 'no-such-company')).toBe(false);
  });

  it('keeps RMs and admins on every company and evaluators off all', async () => {
    for (const id of ['samsung-electronics', 'tesla']) {
      expect(await read('rm', id)).toBe(true);
      expect(await read('admin', id)).toBe(true);
      expect(await read('evaluator', id)).toBe(false);
    }
  });

  it('keeps the borrower open once the committee has decided the case', async () => {
    await db.transaction((tx) =>
      recordDecision({ db: tx, caseId: DEMO_IDS.submittedCase, deciderId: committeeId, outcome: 'approve', rationale: 'Sound record.' }),
    );
    const [decided] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, DEMO_IDS.submittedCase));
    expect(decided.status).toBe('decided');
    expect(await mayReadCompany({ db, user: committee, companyId: 'samsung-electronics' })).toBe(true);
  });
});
