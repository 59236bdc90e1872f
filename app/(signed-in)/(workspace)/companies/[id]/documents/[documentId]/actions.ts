'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { EVIDENCE_CATEGORIES } from '@/lib/domain/factors';
import type { Dictionary, Messages } from '@/lib/i18n';
import { configuredReader, readDocumentAgain } from '@/lib/jobs/document-reading';
import { acceptCandidate, REVIEW_TABLES, rejectCandidate } from '@/lib/pool/documents/review';

const messages = REVIEW_TABLES as unknown as Messages<Dictionary>[];
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

// The import checks the edited item (review.ts); here only its shape.
const acceptInput = z.object({
  id: z.uuid(),
  category: z.enum(EVIDENCE_CATEGORIES).optional(),
  title: z.string().max(5_000).optional(),
  text: z.string().max(50_000).optional(),
  event_date: z.preprocess(blankToNull, z.string().max(40).nullable().optional()),
});

function refresh(place: { companyId: string; documentId: string }) {
  revalidatePath(`/companies/${place.companyId}/documents/${place.documentId}`);
  revalidatePath(`/companies/${place.companyId}`);
}

// RMs and admins (pool:write) read and write every company's pool, so the permission is the whole
// access check; a candidate that is gone or decided is refused by review.ts.
export const acceptDocumentCandidate = action({ permission: 'pool:write', input: acceptInput, messages }, async ({ id, ...edits }, user) => {
  const accepted = await acceptCandidate({ db: await getDb(), id, userId: user.id, edits });
  refresh(accepted);
  return accepted;
});

export const rejectDocumentCandidate = action({ permission: 'pool:write', input: z.object({ id: z.uuid() }), messages }, async ({ id }, user) => {
  const rejected = await rejectCandidate({ db: await getDb(), id, userId: user.id });
  refresh(rejected);
  return rejected;
});

// The model reads the document again when its last reading failed or was stopped by a restart;
// the reading goes on after this answer and records its own outcome (lib/jobs/document-reading.ts).
export const rereadDocument = action(
  { permission: 'pool:write', input: z.object({ document_id: z.string().min(1).max(300) }), messages },
  async ({ document_id }, user) => {
    const { companyId } = await readDocumentAgain({ db: await getDb(), provider: configuredReader(), documentId: document_id, actorId: user.id });
    refresh({ companyId, documentId: document_id });
    return { documentId: document_id };
  },
);
