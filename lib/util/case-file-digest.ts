// The digests a case file is checked by (docs/case-file.md), in one place for the code that
// writes them (lib/db/queries/audit.ts, lib/db/queries/cited-evidence.ts and lib/db/audit-key.ts
// compute theirs here) and the verifier, which runs offline with nothing but the file and,
// optionally, the audit secret: no server module, so the verifier can import it.
import { createHash, createHmac, hkdfSync } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Stable JSON: object keys sorted, undefined left out (as the audit log hashes a detail). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The call digest a run's `run.calls_sealed` audit entry carries: order-free, one line per call. */
export function callsDigest(calls: readonly { stepId: string; partKey: string | null; callNo: number; requestSha256: string; answerSha256: string }[]): string {
  const lines = calls.map((c) => [c.stepId, c.partKey ?? '', String(c.callNo), c.requestSha256, c.answerSha256].join('\t')).sort();
  return sha256Hex(lines.join('\n'));
}

/** The audit key from a secret (AUDIT_SECRET, or the session secret), as lib/db/audit-key.ts derives it. */
export function auditKeyFromSecret(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', 'crosscheck audit log v1', 32));
}

export function macHex(parts: string[], key: Buffer): string {
  const mac = createHmac('sha256', key);
  parts.forEach((part, i) => {
    if (i) mac.update('\n');
    mac.update(part);
  });
  return mac.digest('hex');
}

/** An audit entry's hash: keyed (HMAC with the audit key) or, for entries from before keying, plain SHA-256. */
export function auditEntryHash(
  prevHash: string,
  entry: { at: string; actorId: string | null; action: string; entityType: string; entityId: string | null; detail: Record<string, unknown> },
  key?: Buffer,
): string {
  const body = canonicalJson({
    at: entry.at,
    actorId: entry.actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    detail: entry.detail ?? {},
  });
  if (key) return macHex([prevHash, body], key);
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

export function checkpointMacHex(seq: number, hash: string, key: Buffer): string {
  return macHex(['checkpoint', String(seq), hash], key);
}

/** The fingerprint of a cited-evidence item, its whole text included (lib/db/queries/cited-evidence.ts). */
export function evidenceFingerprint(item: {
  kind: string;
  id: string;
  title: string;
  text: string;
  value: string | null;
  sourceName: string;
  sourceUrl: string;
  publishedDate: string;
  eventDate: string | null;
  factor: string | null;
  polarity: string | null;
  documentId: string | null;
  documentTitle: string | null;
  heading: string | null;
}): string {
  const fields = [
    'crosscheck-cited-evidence-v1',
    item.kind,
    item.id,
    item.title,
    item.text,
    item.value,
    item.sourceName,
    item.sourceUrl,
    item.publishedDate,
    item.eventDate,
    item.factor,
    item.polarity,
    item.documentId,
    item.documentTitle,
    item.heading,
  ];
  return sha256Hex(JSON.stringify(fields));
}

/** The manifest's keyed MAC: over its canonical JSON without the `mac` field. */
export function manifestMac(manifest: Record<string, unknown>, key: Buffer): string {
  const { mac: _mac, ...rest } = manifest;
  void _mac;
  return macHex(['crosscheck case file v1', canonicalJson(rest)], key);
}
