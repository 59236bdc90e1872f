// Checks a case file offline (docs/case-file.md): no database, nothing but the file and, when
// given, the audit key. It recomputes every digest in a fixed order and stops at the first thing
// that does not hold, naming its place. Without the key it cannot tell a consistent forgery
// (every digest recomputed by whoever edited the file) from the original: it says which checks
// ran, so a reader knows what "holds" covered.
import { strFromU8, unzipSync } from 'fflate';
import { auditEntryHash, callsDigest, checkpointMacHex, evidenceFingerprint, manifestMac, sha256Hex } from '@/lib/util/case-file-digest';

export type CaseFileVerdict = {
  ok: boolean;
  /** The first thing that does not hold, with its place. */
  failure?: string;
  /** What was checked, in words, in the order it ran. */
  checks: string[];
  /** Things worth knowing that are not failures (a run still going, text the pool no longer holds). */
  notes: string[];
};

type Manifest = {
  format: string;
  version: number;
  runs: { index: number; id: string; dir: string }[];
  audit: { seqs: number[] };
  parts: Record<string, { sha256: string; bytes: number }>;
  mac?: string;
};

type CallEntry = {
  stepId: string;
  part: string | null;
  callNo: number;
  finishedAt: string;
  request: { file: string; sha256: string };
  answer: { file: string; sha256: string };
};

type AuditEntry = {
  seq: number;
  at: string;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  detail: Record<string, unknown>;
  prevHash: string;
  hash: string;
  keyed: boolean;
  checkpoint: { hash: string | null; mac: string } | null;
};

type CitedItem = Parameters<typeof evidenceFingerprint>[0] & { text?: string; excerpt: string; fingerprint: string; textState?: string };

class Broken extends Error {}

/** `key`: the audit key (lib/util/case-file-digest.ts, auditKeyFromSecret); without it the keyed checks are skipped and said to be. */
export function verifyCaseFile(zip: Uint8Array, { key }: { key?: Buffer } = {}): CaseFileVerdict {
  const checks: string[] = [];
  const notes: string[] = [];
  const fail = (what: string): never => {
    throw new Broken(what);
  };
  try {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(zip);
    } catch {
      return fail('the file is not a readable zip archive');
    }
    const text = (path: string) => (files[path] ? strFromU8(files[path]) : fail(`${path} is missing from the file`));
    const parse = <T>(path: string): T => {
      try {
        return JSON.parse(text(path)) as T;
      } catch (err) {
        if (err instanceof Broken) throw err;
        return fail(`${path} is not valid JSON`);
      }
    };
    const manifest = parse<Manifest>('manifest.json');
    if (manifest.format !== 'crosscheck-case-file' || manifest.version !== 1) fail('manifest.json is not a Crosscheck case file of version 1');
    const audit = parse<{ entries: AuditEntry[] }>('audit.json');
    const seals = new Map<string, AuditEntry>();
    for (const e of audit.entries) if (e.action === 'run.calls_sealed' && e.entityId) seals.set(e.entityId, e);

    // 1. Every call's request and answer against the sha256 recorded when it was made.
    let callCount = 0;
    for (const run of manifest.runs) {
      const calls = parse<CallEntry[]>(`${run.dir}/calls.json`);
      for (const c of calls) {
        const place = `run ${run.index} step ${c.stepId}${c.part ? ` section ${c.part}` : ''} call ${c.callNo}`;
        const req = files[`${run.dir}/${c.request.file}`];
        const ans = files[`${run.dir}/${c.answer.file}`];
        if (!req) fail(`${place}: the request is missing from the file`);
        if (!ans) fail(`${place}: the answer is missing from the file`);
        if (sha256Hex(req) !== c.request.sha256) fail(`${place}: the request does not match its recorded sha256`);
        if (sha256Hex(ans) !== c.answer.sha256) fail(`${place}: the answer does not match its recorded sha256`);
        callCount++;
      }
      // 2. The calls against the digest sealed in the audit chain when the run ended.
      const seal = seals.get(run.id);
      if (!seal) {
        if (calls.length) notes.push(`run ${run.index}: its calls are not sealed in the audit chain (the run had not ended when the file was written)`);
        continue;
      }
      const sealedAt = Date.parse(seal.at);
      const covered = calls.filter((c) => Date.parse(c.finishedAt) <= sealedAt);
      const digest = callsDigest(
        covered.map((c) => ({ stepId: c.stepId, partKey: c.part, callNo: c.callNo, requestSha256: c.request.sha256, answerSha256: c.answer.sha256 })),
      );
      if (seal.detail.calls !== covered.length || seal.detail.digest !== digest)
        fail(`run ${run.index}: its calls do not match the digest sealed in audit entry #${seal.seq}`);
      if (covered.length < calls.length) notes.push(`run ${run.index}: ${calls.length - covered.length} calls were made after its last seal`);
    }
    checks.push(
      `${callCount} model calls: request and answer against their recorded sha256, and each ended run's calls against the digest sealed in the audit chain`,
    );

    // 3. Cited evidence: each whole text against its fingerprint, and each fingerprint against the run document's.
    let items = 0;
    for (const run of manifest.runs) {
      const cited = parse<{ items: CitedItem[] }>(`${run.dir}/cited-evidence.json`);
      const doc = parse<{ sources?: Record<string, { fingerprint?: string }> }>(`${run.dir}/run.json`);
      for (const item of cited.items) {
        const place = `evidence snapshot ${item.id} (run ${run.index})`;
        if (item.text !== undefined) {
          if (evidenceFingerprint(item as CitedItem & { text: string }) !== item.fingerprint) fail(`${place}: text does not match its fingerprint`);
          if (!item.text.startsWith(item.excerpt)) fail(`${place}: its excerpt is not the start of its text`);
        } else
          notes.push(`${place}: the pool no longer holds its text as cited (${item.textState ?? 'no text'}); only its excerpt and fingerprint are in the file`);
        const source = doc.sources?.[item.id];
        if (source?.fingerprint !== undefined && source.fingerprint !== item.fingerprint) fail(`${place}: its fingerprint differs from the run document's`);
        items++;
      }
    }
    checks.push(`${items} cited evidence snapshots: whole text against fingerprint, where the file has it`);

    // 4. The audit entries: the ones the manifest lists, in order, linked where they are neighbours in the chain.
    const bySeq = new Map(audit.entries.map((e) => [e.seq, e]));
    const listed = manifest.audit.seqs;
    for (const [i, seq] of listed.entries()) {
      if (bySeq.has(seq)) continue;
      const before = listed[i - 1];
      const after = listed[i + 1];
      fail(
        `audit entry #${seq} is missing${before !== undefined && after !== undefined ? ` between #${before} and #${after}` : before !== undefined ? ` after #${before}` : after !== undefined ? ` before #${after}` : ''}`,
      );
    }
    const listedSet = new Set(listed);
    let previous: AuditEntry | undefined;
    for (const e of audit.entries) {
      if (!listedSet.has(e.seq)) fail(`audit entry #${e.seq} is not listed in the manifest`);
      if (previous && e.seq <= previous.seq) fail(`audit entry #${e.seq} is out of order after #${previous.seq}`);
      if (previous && e.seq === previous.seq + 1 && e.prevHash !== previous.hash) fail(`audit entry #${e.seq} does not link to #${previous.seq}`);
      if (!e.keyed && auditEntryHash(e.prevHash, e) !== e.hash) fail(`audit entry #${e.seq}: its content does not match its hash`);
      if (key && e.keyed) {
        if (auditEntryHash(e.prevHash, e, key) !== e.hash) fail(`audit entry #${e.seq}: its content does not match its keyed hash`);
        if (!e.checkpoint || e.checkpoint.hash !== e.hash || checkpointMacHex(e.seq, e.hash, key) !== e.checkpoint.mac)
          fail(`audit entry #${e.seq}: its checkpoint does not hold with the audit key`);
      }
      previous = e;
    }
    checks.push(
      key
        ? `${audit.entries.length} audit entries: all listed, in order, linked to their neighbours, each keyed hash and checkpoint MAC recomputed with the audit key`
        : `${audit.entries.length} audit entries: all listed, in order, linked to their neighbours (keyed hashes and checkpoint MACs NOT checked: no audit key)`,
    );

    // 5. Every file against the manifest, and nothing in the file that the manifest does not list.
    for (const [path, part] of Object.entries(manifest.parts)) {
      const bytes = files[path];
      if (!bytes) fail(`${path} is listed in the manifest but missing from the file`);
      if (sha256Hex(bytes) !== part.sha256) fail(`${path} does not match its sha256 in the manifest`);
    }
    for (const path of Object.keys(files)) if (path !== 'manifest.json' && !manifest.parts[path]) fail(`${path} is not listed in the manifest`);
    checks.push(`${Object.keys(manifest.parts).length} files against their sha256 in the manifest`);

    // 6. The manifest's keyed MAC.
    if (key) {
      if (!manifest.mac || manifestMac(manifest as unknown as Record<string, unknown>, key) !== manifest.mac)
        fail('the manifest: its keyed MAC does not hold with the audit key');
      checks.push('the manifest: its keyed MAC, with the audit key');
    } else checks.push('the manifest keyed MAC: NOT checked (no audit key; set AUDIT_SECRET or AUTH_SECRET, or pass --secret)');
    return { ok: true, checks, notes };
  } catch (err) {
    if (err instanceof Broken) return { ok: false, failure: err.message, checks, notes };
    throw err;
  }
}
