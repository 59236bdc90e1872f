// The examiner's case file (docs/case-file.md): built from a decided case, it holds as exported;
// one character of a stored answer, an audit entry taken out or a cited text changed are each
// named at their place; a forgery that recomputes every unkeyed digest passes only without the
// audit key. The verifier's own digests are held to the database's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditKey, deriveAuditKey } from '@/lib/db/audit-key';
import { appendAudit, checkpointMac, hashAuditEntry, verifyAuditChain } from '@/lib/db/queries/audit';
import { fingerprintOf } from '@/lib/db/queries/cited-evidence';
import { recordDecision } from '@/lib/db/queries/review';
import { auditLog, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { buildCaseFile, exportCaseFile } from '@/lib/report/case-file';
import { verifyCaseFile } from '@/lib/report/case-file-verify';
import { auditEntryHash, auditKeyFromSecret, checkpointMacHex, evidenceFingerprint, sha256Hex } from '@/lib/util/case-file-digest';

type Files = Record<string, Uint8Array>;
const edit = (zip: Uint8Array, change: (files: Files) => void) => {
  const files = unzipSync(zip);
  change(files);
  return zipSync(files);
};
const readJson = <T>(files: Files, path: string) => JSON.parse(strFromU8(files[path])) as T;
const writeJson = (files: Files, path: string, value: unknown) => (files[path] = strToU8(`${JSON.stringify(value, null, 2)}\n`));
/** What a forger without the key can do: recompute a file's sha256 in the manifest. */
const reseal = (files: Files, ...paths: string[]) => {
  const manifest = readJson<{ parts: Record<string, { sha256: string; bytes: number }> }>(files, 'manifest.json');
  for (const p of paths) manifest.parts[p] = { sha256: sha256Hex(files[p]), bytes: files[p].length };
  writeJson(files, 'manifest.json', manifest);
};

type Call = { stepId: string; part: string | null; callNo: number; answer: { file: string; sha256: string } };

describe.each(testBackends())('case file, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let zip: Uint8Array;
  let key: Buffer;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    // The demo's submitted case, with its offline run executed by the engine as the seed writes it.
    await seedDemo(db, { accounts: true });
    const [member] = await db.select().from(users).where(eq(users.role, 'committee'));
    await db.transaction(async (tx) => {
      await appendAudit({
        tx,
        actorId: member.id,
        action: 'comment.create',
        entityType: 'comment',
        entityId: null,
        detail: { caseId: DEMO_IDS.submittedCase },
      });
      const row = await recordDecision({ db: tx, caseId: DEMO_IDS.submittedCase, deciderId: member.id, outcome: 'approve', rationale: 'Sound.' });
      await appendAudit({
        tx,
        actorId: member.id,
        action: 'case.decide',
        entityType: 'case',
        entityId: DEMO_IDS.submittedCase,
        detail: { decisionId: row!.id },
      });
    });
    zip = (await exportCaseFile({ db, caseId: DEMO_IDS.submittedCase, by: { id: member.id, name: member.name, role: 'committee' } })).zip;
    key = auditKey();
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('holds as exported, with and without the key, and says which checks ran', () => {
    const keyed = verifyCaseFile(zip, { key });
    expect(keyed.failure).toBeUndefined();
    expect(keyed.ok).toBe(true);
    expect(keyed.checks.join('\n')).toMatch(/keyed hash and checkpoint MAC recomputed with the audit key/);
    expect(keyed.checks.join('\n')).toMatch(/its keyed MAC, with the audit key/);
    const plain = verifyCaseFile(zip);
    expect(plain.ok).toBe(true);
    expect(plain.checks.join('\n')).toMatch(/NOT checked \(no audit key/);
    // Another key: the keyed checks fail, on the first audit entry.
    const wrong = verifyCaseFile(zip, { key: auditKeyFromSecret('not the secret') });
    expect(wrong.ok).toBe(false);
    expect(wrong.failure).toMatch(/^audit entry #\d+: its content does not match its keyed hash$/);
  });

  it('carries the case, the run with its calls, the cited evidence, the decision, the audit entries and the AI statement', async () => {
    const files = unzipSync(zip);
    const manifest = readJson<{
      runs: { id: string; dir: string; calls: number }[];
      statement: { aiAssisted: boolean; text: string; systems: string[] };
      audit: { seqs: number[] };
    }>(files, 'manifest.json');
    expect(manifest.runs.map((r) => r.id)).toEqual([DEMO_IDS.run]);
    expect(manifest.statement.aiAssisted).toBe(true);
    expect(manifest.statement.text).toMatch(/AI-assisted.*approve by Demo Committee Member/);
    expect(manifest.statement.systems.join()).toMatch(/offline analyst \(fixed rules, not a language model\)/);
    const calls = readJson<Call[]>(files, 'runs/01/calls.json');
    expect(calls.length).toBe(manifest.runs[0].calls);
    expect(calls.length).toBeGreaterThan(5);
    const run = readJson<{ id: string; turns: { step: string; repairs: unknown[]; output: unknown }[]; sources: Record<string, { fingerprint?: string }> }>(
      files,
      'runs/01/run.json',
    );
    expect(run.id).toBe(DEMO_IDS.run);
    expect(run.turns.length).toBeGreaterThan(0);
    const cited = readJson<{ items: { id: string; text?: string; fingerprint: string }[] }>(files, 'runs/01/cited-evidence.json');
    expect(cited.items.length).toBeGreaterThan(0);
    expect(cited.items.every((i) => typeof i.text === 'string' && i.fingerprint === run.sources[i.id]?.fingerprint)).toBe(true);
    const caseJson = readJson<{ decisions: { outcome: string }[]; votes: Record<string, unknown[]> }>(files, 'case.json');
    expect(caseJson.decisions.map((d) => d.outcome)).toEqual(['approve']);
    // Decided here without a vote (recordDecision alone): no member's vote to show.
    expect(caseJson.votes).toEqual({});
    const audit = readJson<{ entries: { seq: number; action: string }[] }>(files, 'audit.json');
    const actions = audit.entries.map((e) => e.action);
    for (const a of ['run.calls_sealed', 'comment.create', 'case.decide']) expect(actions).toContain(a);
    expect(manifest.audit.seqs).toEqual(audit.entries.map((e) => e.seq));
    // The export itself is audited, and the chain still verifies.
    const [exported] = await db.select().from(auditLog).where(eq(auditLog.action, 'case.file_export'));
    expect(exported.entityId).toBe(DEMO_IDS.submittedCase);
    expect((await verifyAuditChain({ db })).ok).toBe(true);
  });

  it('(a) one character of a stored model answer changed: the call is named', () => {
    const tampered = edit(zip, (files) => {
      const calls = readJson<Call[]>(files, 'runs/01/calls.json');
      const target = calls[2];
      const path = `runs/01/${target.answer.file}`;
      const text = strFromU8(files[path]);
      const i = text.indexOf('"', 5);
      files[path] = strToU8(`${text.slice(0, i + 1)}${text[i + 1] === 'X' ? 'Y' : 'X'}${text.slice(i + 2)}`);
    });
    const calls = readJson<Call[]>(unzipSync(zip), 'runs/01/calls.json');
    const c = calls[2];
    const verdict = verifyCaseFile(tampered, { key });
    expect(verdict.ok).toBe(false);
    expect(verdict.failure).toBe(`run 1 step ${c.stepId}${c.part ? ` section ${c.part}` : ''} call ${c.callNo}: the answer does not match its recorded sha256`);
    expect(verifyCaseFile(tampered).failure).toBe(verdict.failure);
  });

  it('(b) an audit entry removed from the file: the gap is named', () => {
    const seqs = readJson<{ entries: { seq: number }[] }>(unzipSync(zip), 'audit.json').entries.map((e) => e.seq);
    expect(seqs.length).toBeGreaterThanOrEqual(3);
    const gone = seqs[1];
    const tampered = edit(zip, (files) => {
      const audit = readJson<{ entries: { seq: number }[] }>(files, 'audit.json');
      writeJson(files, 'audit.json', { ...audit, entries: audit.entries.filter((e) => e.seq !== gone) });
    });
    const verdict = verifyCaseFile(tampered);
    expect(verdict.ok).toBe(false);
    expect(verdict.failure).toBe(`audit entry #${gone} is missing between #${seqs[0]} and #${seqs[2]}`);
  });

  it("(c) a cited snapshot's text changed: the snapshot is named", () => {
    let id = '';
    const tampered = edit(zip, (files) => {
      const cited = readJson<{ items: { id: string; text: string }[] }>(files, 'runs/01/cited-evidence.json');
      const item = cited.items[0];
      id = item.id;
      item.text = `${item.text} `;
      writeJson(files, 'runs/01/cited-evidence.json', cited);
    });
    const verdict = verifyCaseFile(tampered, { key });
    expect(verdict.ok).toBe(false);
    expect(verdict.failure).toBe(`evidence snapshot ${id} (run 1): text does not match its fingerprint`);
  });

  it('a forger without the key who recomputes the digests is stopped by the seal, then by the keyed hash', () => {
    const files0 = unzipSync(zip);
    const calls = readJson<Call[]>(files0, 'runs/01/calls.json');
    const target = calls[0];
    const forge = (files: Files) => {
      const path = `runs/01/${target.answer.file}`;
      files[path] = strToU8(`${strFromU8(files[path])} `);
      const edited = readJson<Call[]>(files, 'runs/01/calls.json');
      edited[0].answer.sha256 = sha256Hex(files[path]);
      writeJson(files, 'runs/01/calls.json', edited);
      reseal(files, path, 'runs/01/calls.json');
    };
    // The answer and its recorded sha256 edited, the manifest recomputed: the sealed digest does not follow.
    const first = edit(zip, forge);
    const seal = readJson<{ entries: { seq: number; action: string }[] }>(files0, 'audit.json').entries.find((e) => e.action === 'run.calls_sealed')!;
    expect(verifyCaseFile(first).failure).toBe(`run 1: its calls do not match the digest sealed in audit entry #${seal.seq}`);
    // The seal's digest rewritten as well: without the key nothing more can be told; with it, the entry's keyed hash fails.
    const second = edit(zip, (files) => {
      forge(files);
      const edited = readJson<Call[]>(files, 'runs/01/calls.json');
      const audit = readJson<{ entries: { seq: number; action: string; detail: Record<string, unknown> }[] }>(files, 'audit.json');
      const entry = audit.entries.find((e) => e.seq === seal.seq)!;
      entry.detail = {
        ...entry.detail,
        digest: sha256Hex(
          edited
            .map((c) =>
              [c.stepId, c.part ?? '', String(c.callNo), (c as unknown as { request: { sha256: string } }).request.sha256, c.answer.sha256].join('\t'),
            )
            .sort()
            .join('\n'),
        ),
      };
      writeJson(files, 'audit.json', audit);
      reseal(files, 'audit.json');
    });
    expect(verifyCaseFile(second).ok).toBe(true);
    expect(verifyCaseFile(second, { key }).failure).toBe(`audit entry #${seal.seq}: its content does not match its keyed hash`);
  });

  it('the manifest edited by someone without the key fails its keyed MAC', () => {
    const tampered = edit(zip, (files) => {
      const manifest = readJson<{ statement: { text: string } }>(files, 'manifest.json');
      manifest.statement.text = 'Decided by the model.';
      writeJson(files, 'manifest.json', manifest);
    });
    expect(verifyCaseFile(tampered).ok).toBe(true);
    expect(verifyCaseFile(tampered, { key }).failure).toBe('the manifest: its keyed MAC does not hold with the audit key');
  });

  it("the verifier's digests are the database's", async () => {
    expect(auditKeyFromSecret('s3cret').equals(deriveAuditKey('s3cret'))).toBe(true);
    const entry = {
      at: '2026-01-02T03:04:05.678Z',
      actorId: null,
      action: 'x.y',
      entityType: 'case',
      entityId: 'c',
      detail: { b: [1, { z: 1, a: 'é' }], a: null },
    };
    expect(auditEntryHash('p', entry, key)).toBe(hashAuditEntry('p', entry, key));
    expect(auditEntryHash('p', entry)).toBe(hashAuditEntry('p', entry));
    expect(checkpointMacHex(7, 'h', key)).toBe(checkpointMac(7, 'h', key));
    const item = {
      kind: 'evidence' as const,
      id: 'e1',
      title: 't',
      text: 'whole text',
      value: null,
      sourceName: 's',
      sourceUrl: 'https://x',
      publishedDate: '2024-01-01',
      eventDate: null,
      factor: 'liquidity',
      polarity: 'favorable' as const,
      documentId: null,
      documentTitle: null,
      heading: null,
    };
    expect(evidenceFingerprint(item)).toBe(fingerprintOf(item));
    // And a file built again reads the same, but for its time.
    const again = await buildCaseFile({ db, caseId: DEMO_IDS.submittedCase, by: { id: null, name: 'test', role: 'committee' } });
    expect(verifyCaseFile(again.zip, { key }).ok).toBe(true);
  });
});
