'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { CURRENCIES } from '@/components/case/case-options';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { insertCase } from '@/lib/db/queries/cases';
import { getCompanyById } from '@/lib/db/queries/companies';
import { AppError } from '@/lib/errors';
import { isoToday } from '@/lib/util/dates';

// Field messages are keys of lib/i18n/messages/cases.ts; the form shows them in the user's language.
const caseForm = z.object({
  company_id: z.string().trim().min(1, 'errCompany').max(200, 'errCompany'),
  title: z.string().trim().min(1, 'errTitle').max(200, 'errTitle'),
  loan_amount: z
    .string()
    .trim()
    .transform((v) => v.replaceAll(',', ''))
    .pipe(
      z
        .string()
        .regex(/^\d{1,18}(\.\d{1,2})?$/, 'errAmount')
        .refine((v) => Number(v) > 0, 'errAmount'),
    ),
  loan_currency: z.enum(CURRENCIES, 'errCurrency'),
  loan_purpose: z.string().trim().min(1, 'errPurpose').max(1000, 'errPurpose'),
  loan_tenor_months: z.coerce.number('errTenor').int('errTenor').min(1, 'errTenor').max(600, 'errTenor'),
  as_of_date: z.iso.date('errAsOf').refine((d) => d <= isoToday(), 'errAsOf'),
  notes: z.string().trim().max(5000, 'errNotes').optional(),
});

export const createCase = action({ permission: 'cases:write', input: caseForm }, async (input, user) => {
  const db = await getDb();
  if (!(await getCompanyById({ db, id: input.company_id }))) throw new AppError('bad_request', undefined, { company_id: ['errCompany'] });
  const created = await db.transaction(async (tx) => {
    const row = await insertCase({
      db: tx,
      values: {
        companyId: input.company_id,
        ownerId: user.id,
        title: input.title,
        loanAmount: input.loan_amount,
        loanCurrency: input.loan_currency,
        loanPurpose: input.loan_purpose,
        loanTenorMonths: input.loan_tenor_months,
        asOfDate: input.as_of_date,
        notes: input.notes || null,
      },
    });
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'case.create',
      entityType: 'case',
      entityId: row.id,
      detail: { companyId: input.company_id, title: input.title, asOfDate: input.as_of_date },
    });
    return row;
  });
  redirect(`/cases/${created.id}`);
});
