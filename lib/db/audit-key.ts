// The key of the audit log's HMACs (lib/db/queries/audit.ts). It is never stored in the database:
// someone who can write to the database but does not hold the key cannot recompute a keyed hash
// after editing an entry. AUDIT_SECRET when set; otherwise derived from the session secret
// (lib/auth/secret.ts: AUTH_SECRET, or on the embedded database the secret generated into the
// data folder). Either way through HKDF with a fixed label, so the session secret itself never
// signs audit entries. Changing the key makes entries written under the old one unverifiable.
import 'server-only';
import { auditKeyFromSecret, macHex } from '@/lib/util/case-file-digest';
import { resolveAuthSecret } from '@/lib/db/data-dir';
import { env } from '@/lib/env';

export class AuditKeyError extends Error {}

/** 32 key bytes from a secret; the label keeps them apart from any other use of the same secret. */
export function deriveAuditKey(secret: string): Buffer {
  return auditKeyFromSecret(secret);
}

let cached: Buffer | undefined;

function resolveAuditKey(): Buffer {
  const e = env();
  if (e.AUDIT_SECRET) return deriveAuditKey(e.AUDIT_SECRET);
  if (e.DATABASE_URL && !e.AUTH_SECRET) {
    // Every app instance, worker and CLI must sign with the same key, so none may make one up.
    throw new AuditKeyError('AUDIT_SECRET or AUTH_SECRET must be set when DATABASE_URL is set: audit entries are signed with a key every instance shares.');
  }
  return deriveAuditKey(resolveAuthSecret(e));
}

/** The audit key, resolved once per process. */
export function auditKey(): Buffer {
  cached ??= resolveAuditKey();
  return cached;
}

/** HMAC-SHA256 with the audit key (or the given one), hex. */
export function auditMac(parts: string[], key: Buffer = auditKey()): string {
  return macHex(parts, key);
}

/** For tests that change AUDIT_SECRET between cases (after resetEnvForTests). */
export function resetAuditKeyForTests() {
  cached = undefined;
}
