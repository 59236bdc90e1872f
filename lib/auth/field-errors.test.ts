import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsOf } from '@/lib/auth/field-errors';
import { phraseMessage } from '@/lib/i18n';

describe('field errors of a server action', () => {
  // The new-case form's loan amount: a format check and a range check with one message
  // (app/(signed-in)/(workspace)/cases/new/actions.ts); "abc" fails both.
  const form = z.object({
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
    loan_tenor_months: z.coerce.number('errTenor').int('errTenor').min(1, 'errTenor').max(600, 'errTenor'),
    title: z.string().trim().min(1, 'errTitle').max(5, 'errTitleLong'),
  });

  it('lists a message once per field, even when two checks fail with it', () => {
    const parsed = form.safeParse({ loan_amount: 'abc', loan_tenor_months: '0.5', title: '' });
    expect(parsed.success).toBe(false);
    expect(fieldErrorsOf(parsed.error!)).toEqual({ loan_amount: ['errAmount'], loan_tenor_months: ['errTenor'], title: ['errTitle'] });
  });

  it('keeps different messages of one field, in order', () => {
    const schema = z.object({ code: z.string().min(3, 'errShort').regex(/^\d+$/, 'errDigits') });
    const parsed = schema.safeParse({ code: 'x' });
    expect(fieldErrorsOf(parsed.error!)).toEqual({ code: ['errShort', 'errDigits'] });
  });

  it('gives back a phrase with values that a check put in its message', () => {
    const schema = z.object({ password: z.string().min(10, phraseMessage('errPasswordMin', { n: 10 })) });
    const parsed = schema.safeParse({ password: 'short' });
    expect(fieldErrorsOf(parsed.error!)).toEqual({ password: [{ key: 'errPasswordMin', values: { n: 10 } }] });
  });
});
