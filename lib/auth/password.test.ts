import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@/lib/auth/password';

describe('password hashing', () => {
  it('verifies the password it hashed and rejects any other', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash, so the same password never hashes the same twice', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('same password', b)).toBe(true);
  });

  it('handles non-ASCII passwords', async () => {
    const stored = await hashPassword('비밀번호-Ünïcödé');
    expect(await verifyPassword('비밀번호-Ünïcödé', stored)).toBe(true);
    expect(await verifyPassword('비밀번호-Unicode', stored)).toBe(false);
  });

  describe('returns false, never throws, for malformed stored strings', () => {
    // Shaped like real parts (16-byte salt, 64-byte key); only the broken field differs per case.
    const salt = Buffer.alloc(16, 1).toString('base64url');
    const key = Buffer.alloc(64, 2).toString('base64url');
    it.each([
      ['empty', ''],
      ['not a hash', 'not-a-hash'],
      ['another scheme', `bcrypt$32768$8$1$${salt}$${key}`],
      ['no key part', `scrypt$32768$8$1$${salt}`],
      ['empty key part', `scrypt$32768$8$1$${salt}$`],
      // Decodes to zero bytes: must not compare equal to a zero-length derived key.
      ['key that decodes to nothing', `scrypt$32768$8$1$${salt}$!!!`],
      ['non-numeric N', `scrypt$abc$8$1$${salt}$${key}`],
      ['N not a power of two', `scrypt$3$8$1$${salt}$${key}`],
      ['N beyond the memory limit', `scrypt$1073741824$8$1$${salt}$${key}`],
      ['non-numeric r', `scrypt$32768$x$1$${salt}$${key}`],
    ])('%s', async (_label, stored) => {
      await expect(verifyPassword('pw-for-tampering', stored)).resolves.toBe(false);
    });
  });
});
