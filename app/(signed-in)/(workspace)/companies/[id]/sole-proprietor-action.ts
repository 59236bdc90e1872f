'use server';
// Marks a borrower as a sole proprietor, an individual in business, or clears the mark: its cases
// then warn and need two agreeing committee votes (docs/oversight.md). The change and its audit
// entry share one transaction.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { setSoleProprietor } from '@/lib/db/queries/oversight';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { errorMessages } from '@/lib/i18n/messages/errors';

export const markSoleProprietor = action(
  { permission: 'pool:write', input: z.object({ company_id: z.string().min(1).max(200), value: z.enum(['on', 'off']) }) },
  async ({ company_id: companyId, value }, user) => {
    const db = await getDb();
    const soleProprietor = value === 'on';
    const found = await db.transaction(async (tx) => {
      const ok = await setSoleProprietor({ db: tx, companyId, value: soleProprietor });
      if (ok)
        await appendAudit({ tx, actorId: user.id, action: 'company.sole_proprietor', entityType: 'company', entityId: companyId, detail: { soleProprietor } });
      return ok;
    });
    if (!found) throw new AppError('not_found', say(errorMessages, 'not_found'));
    revalidatePath(`/companies/${companyId}`);
    return { soleProprietor };
  },
);
