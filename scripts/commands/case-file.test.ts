// verify-case-file's choice of secret and its words: which checks ran, and the verdict last.
import { describe, expect, it } from 'vitest';
import { verdictLines, verifySecret } from './case-file';

describe('verify-case-file', () => {
  it('takes --secret first, then AUDIT_SECRET, then AUTH_SECRET, and says when there is none', () => {
    expect(verifySecret('given', { AUDIT_SECRET: 'a', AUTH_SECRET: 'b' })).toEqual({ secret: 'given', from: '--secret' });
    expect(verifySecret(undefined, { AUDIT_SECRET: 'a', AUTH_SECRET: 'b' })).toEqual({ secret: 'a', from: 'AUDIT_SECRET' });
    expect(verifySecret(undefined, { AUTH_SECRET: 'b' })).toEqual({ secret: 'b', from: 'AUTH_SECRET' });
    expect(verifySecret(undefined, {})).toEqual({ from: 'none' });
  });

  it('lists the checks that ran and ends with the verdict, naming the place that does not hold', () => {
    const held = verdictLines({ ok: true, checks: ['one', 'two'], notes: ['n'] }, 'none');
    expect(held).toEqual([
      'Audit key: none given, so the keyed checks did not run.',
      'Checks that ran:',
      '  ✓ one',
      '  ✓ two',
      '  note: n',
      'HOLDS: every check above passed.',
    ]);
    const broken = verdictLines({ ok: false, failure: 'audit entry #7 is missing between #6 and #8', checks: ['one'], notes: [] }, 'AUDIT_SECRET');
    expect(broken[0]).toBe('Audit key: from AUDIT_SECRET.');
    expect(broken.at(-1)).toBe('DOES NOT HOLD: audit entry #7 is missing between #6 and #8');
  });
});
