// The audit key comes from AUDIT_SECRET, else from the session secret, always through HKDF, and
// is never made up where instances must share it.
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { AuditKeyError, auditKey, deriveAuditKey, resetAuditKeyForTests } from '@/lib/db/audit-key';

const NAMES = ['AUDIT_SECRET', 'AUTH_SECRET', 'DATABASE_URL'] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));

function withEnv(values: Partial<Record<(typeof NAMES)[number], string>>) {
  for (const n of NAMES) {
    if (values[n] === undefined) delete process.env[n];
    else process.env[n] = values[n];
  }
  resetEnvForTests();
  resetAuditKeyForTests();
}

afterEach(() => withEnv(saved as Record<string, string>));

describe('audit key', () => {
  const audit = 'an-audit-secret-of-at-least-32-characters';
  const session = 'a-session-secret-of-at-least-32-characters';

  it('is AUDIT_SECRET through HKDF when set, so rotating the session secret leaves it alone', () => {
    withEnv({ AUDIT_SECRET: audit, AUTH_SECRET: session });
    expect(auditKey()).toEqual(deriveAuditKey(audit));
    expect(auditKey()).not.toEqual(Buffer.from(audit));
    expect(auditKey()).toHaveLength(32);
  });

  it('is derived from the session secret, with its own label, when AUDIT_SECRET is unset', () => {
    withEnv({ AUTH_SECRET: session });
    expect(auditKey()).toEqual(deriveAuditKey(session));
    expect(auditKey().toString('hex')).not.toContain(Buffer.from(session).toString('hex'));
  });

  it('refuses to make one up on PostgreSQL, where every instance must sign with the same key', () => {
    withEnv({ DATABASE_URL: 'postgres://app@db.example/crosscheck' });
    expect(() => auditKey()).toThrow(AuditKeyError);
    expect(() => auditKey()).toThrow(/AUDIT_SECRET or AUTH_SECRET must be set/);
  });
});
