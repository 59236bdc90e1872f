// An RM's edits of one pool item: an edit that would make it a duplicate of another item fails
// with PostgreSQL's unique-violation code, which the companies page's action turns into its own
// message; deleting an item keeps its tag correction for a re-import.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { deleteEvidenceItem, getEvidenceById, setEvidenceTag, updateEvidenceItem } from '@/lib/db/queries/evidence';
import { companies, evidenceItems, evidenceTagOverrides, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const item = (id: string, title: string) => ({
  id,
  companyId: 'edit-co',
  category: 'litigation',
  title,
  text: 'Text.',
  publishedDate: '2024-05-01',
  sourceName: 'Court',
  sourceUrl: 'https://example.org/case',
  language: 'en',
});

/** The unique-violation code, wherever the driver puts it. */
const codeOf = (err: unknown) => (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;

describe.each(testBackends())('editing pool items on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'edit-co', name: 'Edit Co', country: 'KR' });
    await db.insert(evidenceItems).values([item('edit-1', 'Suit filed'), item('edit-2', 'Suit settled')]);
    [{ id: rmId }] = await db.insert(users).values({ email: 'rm@example.test', name: 'RM', role: 'rm' }).returning({ id: users.id });
  });
  afterAll(() => handle?.close());

  it('writes the edit to that item only', async () => {
    await updateEvidenceItem({ db, id: 'edit-2', values: { title: 'Suit settled out of court', value: 'KRW 1bn' } });
    expect(await getEvidenceById({ db, id: 'edit-2' })).toMatchObject({ title: 'Suit settled out of court', value: 'KRW 1bn' });
    expect(await getEvidenceById({ db, id: 'edit-1' })).toMatchObject({ title: 'Suit filed', value: null });
  });

  it("refuses an edit that repeats another item's company, source, date and title, with code 23505", async () => {
    const err = await updateEvidenceItem({ db, id: 'edit-2', values: { title: 'Suit filed' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(codeOf(err)).toBe('23505');
    expect(await getEvidenceById({ db, id: 'edit-2' })).toMatchObject({ title: 'Suit settled out of court' });
  });

  it('deletes the item and keeps its tag correction', async () => {
    await setEvidenceTag({ db, id: 'edit-1', factor: 'legal', polarity: 'adverse', userId: rmId });
    await deleteEvidenceItem({ db, id: 'edit-1' });
    expect(await getEvidenceById({ db, id: 'edit-1' })).toBeUndefined();
    expect(await db.select().from(evidenceTagOverrides).where(eq(evidenceTagOverrides.evidenceId, 'edit-1'))).toMatchObject([
      { factor: 'legal', polarity: 'adverse' },
    ]);
  });
});
