// scrypt password hashes in a self-describing string: scrypt$N$r$p$salt$hash (base64url).
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 1 << 15;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;
// 128 * N * r bytes are needed; leave headroom above Node's 32 MiB default.
const MAXMEM = 64 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: MAXMEM });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, saltText, keyText, ...extra] = stored.split('$');
  const params = [n, rr, pp].map(Number);
  if (scheme !== 'scrypt' || extra.length > 0 || !saltText || !keyText || !params.every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(keyText, 'base64url');
  // An empty or truncated key would compare nothing with nothing and accept any password.
  if (expected.length < 32) return false;
  let key: Buffer;
  try {
    key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
      N: params[0],
      r: params[1],
      p: params[2],
      maxmem: MAXMEM,
    });
  } catch {
    // Parameters scrypt rejects (N not a power of two, too much memory): not a hash we issued.
    return false;
  }
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Burns the same scrypt work as a real check, for sign-ins with an unknown email, so the
 * response time does not tell an attacker which emails have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}

export const PASSWORD_MIN_LENGTH = 10;
