'use server';
// Settings an admin changes in the app (the rest live in the environment). Each change and its
// audit entry share one transaction.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { setQuorumSetting } from '@/lib/db/queries/oversight';
import { setSystemOwner } from '@/lib/db/queries/settings';
import { QUORUM_MAX, QUORUM_SETTING } from '@/lib/domain/oversight';
import { aboutMessages } from '@/lib/i18n/messages/about';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { saveRetention } from '@/lib/db/queries/retention';
import { MAX_RETENTION_MONTHS, MIN_RETENTION_MONTHS, RETENTION_KINDS, type RetentionKind } from '@/lib/domain/retention';
import { phraseMessage, type Dictionary, type Messages } from '@/lib/i18n';
import { retentionMessages } from '@/lib/i18n/messages/retention';

/** How many committee members must agree before a decision is final (docs/oversight.md). */
export const setQuorum = action(
  {
    permission: 'settings:write',
    messages: [oversightMessages as Messages<Dictionary>],
    input: z.object({ quorum: z.coerce.number('errQuorum').int('errQuorum').min(1, 'errQuorum').max(QUORUM_MAX, 'errQuorum') }),
  },
  async ({ quorum }, admin) => {
    const db = await getDb();
    const before = await db.transaction(async (tx) => {
      const previous = await setQuorumSetting({ db: tx, value: quorum, actorId: admin.id });
      await appendAudit({
        tx,
        actorId: admin.id,
        action: 'settings.update',
        entityType: 'setting',
        entityId: QUORUM_SETTING,
        detail: { setting: QUORUM_SETTING, previousQuorum: previous, quorum },
      });
      return previous;
    });
    revalidatePath('/admin/settings');
    return { quorum, before };
  },
);

const retentionTables = [retentionMessages as Messages<Dictionary>];
const monthsError = phraseMessage('errMonths', { min: MIN_RETENTION_MONTHS, max: MAX_RETENTION_MONTHS });
const months = z.coerce.number(monthsError).int(monthsError).min(MIN_RETENTION_MONTHS, monthsError).max(MAX_RETENTION_MONTHS, monthsError);

/** The retention periods (docs/retention.md), one field per kind, in months; audited with before and after. */
export const saveRetentionSettings = action(
  {
    permission: 'retention:manage',
    messages: retentionTables,
    input: z.object(Object.fromEntries(RETENTION_KINDS.map((k) => [k, months])) as Record<RetentionKind, typeof months>),
  },
  async (periods, admin) => {
    const saved = await saveRetention({ db: await getDb(), actorId: admin.id, periods });
    revalidatePath('/admin/settings');
    return saved;
  },
);

/** Names the system's owner on the system card (/about); audited in lib/db/queries/settings.ts. Field errors are keys of the about table. */
export const setSystemOwnerAction = action(
  {
    permission: 'settings:write',
    messages: [aboutMessages as Messages<Dictionary>],
    input: z.object({
      name: z.string().trim().min(1, 'errOwnerName').max(200, 'errOwnerName'),
      title: z.string().trim().min(1, 'errOwnerTitle').max(200, 'errOwnerTitle'),
      contact: z.string().trim().max(200, 'errOwnerContact').default(''),
    }),
  },
  async (owner, admin) => {
    await setSystemOwner({ db: await getDb(), actorId: admin.id, owner });
    revalidatePath('/admin/settings');
    revalidatePath('/about');
    return { name: owner.name };
  },
);
