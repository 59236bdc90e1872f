'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { liftHold, placeHold } from '@/lib/db/queries/retention';
import { HOLD_REASON_MAX } from '@/lib/domain/retention';
import { phraseMessage, type Dictionary, type Messages } from '@/lib/i18n';
import { retentionMessages } from '@/lib/i18n/messages/retention';

// Legal holds (docs/retention.md). Admins only; the queries check that the case, borrower or hold
// exists and audit the change in its transaction.
const messages = [retentionMessages as Messages<Dictionary>];
const reason = z
  .string()
  .trim()
  .min(1, phraseMessage('errReason', { max: HOLD_REASON_MAX }))
  .max(HOLD_REASON_MAX, phraseMessage('errReason', { max: HOLD_REASON_MAX }));

export const placeLegalHold = action(
  {
    permission: 'retention:manage',
    messages,
    input: z.discriminatedUnion(
      'target',
      [
        z.object({ target: z.literal('case'), caseId: z.uuid('errTarget'), reason }),
        z.object({ target: z.literal('company'), companyId: z.string().trim().min(1, 'errTarget').max(200, 'errTarget'), reason }),
      ],
      'errTarget',
    ),
  },
  async (input, admin) => {
    const hold = await placeHold({
      db: await getDb(),
      actorId: admin.id,
      target: input.target === 'case' ? { caseId: input.caseId } : { companyId: input.companyId },
      reason: input.reason,
    });
    revalidatePath('/admin/holds');
    if (hold.caseId) revalidatePath(`/cases/${hold.caseId}`);
    return { id: hold.id };
  },
);

export const liftLegalHold = action(
  {
    permission: 'retention:manage',
    messages,
    input: z.object({
      holdId: z.uuid('errNoHold'),
      reason: z
        .string()
        .trim()
        .max(HOLD_REASON_MAX, phraseMessage('errReason', { max: HOLD_REASON_MAX }))
        .optional(),
    }),
  },
  async ({ holdId, reason: why }, admin) => {
    const hold = await liftHold({ db: await getDb(), actorId: admin.id, holdId, reason: why });
    revalidatePath('/admin/holds');
    if (hold.caseId) revalidatePath(`/cases/${hold.caseId}`);
    return { id: hold.id };
  },
);
