'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { saveRetention } from '@/lib/db/queries/retention';
import { MAX_RETENTION_MONTHS, MIN_RETENTION_MONTHS, RETENTION_KINDS, type RetentionKind } from '@/lib/domain/retention';
import { phraseMessage, type Dictionary, type Messages } from '@/lib/i18n';
import { retentionMessages } from '@/lib/i18n/messages/retention';

const messages = [retentionMessages as Messages<Dictionary>];
const monthsError = phraseMessage('errMonths', { min: MIN_RETENTION_MONTHS, max: MAX_RETENTION_MONTHS });
const months = z.coerce.number(monthsError).int(monthsError).min(MIN_RETENTION_MONTHS, monthsError).max(MAX_RETENTION_MONTHS, monthsError);

/** The retention periods (docs/retention.md), one field per kind, in months; audited with before and after. */
export const saveRetentionSettings = action(
  {
    permission: 'retention:manage',
    messages,
    input: z.object(Object.fromEntries(RETENTION_KINDS.map((k) => [k, months])) as Record<RetentionKind, typeof months>),
  },
  async (periods, admin) => {
    const saved = await saveRetention({ db: await getDb(), actorId: admin.id, periods });
    revalidatePath('/admin/settings');
    return saved;
  },
);
