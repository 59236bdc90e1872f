// `npm run cli -- case-file --case <id> --out <file>`: the examiner's case file of one case, a zip
// (docs/case-file.md), audited as `case.file_export`. `npm run cli -- verify-case-file <file>`
// checks one offline, with no database: exit code 0 when it holds, 1 when it does not, naming the
// first thing that does not hold. The keyed checks need the audit secret (AUDIT_SECRET, else
// AUTH_SECRET, or --secret); without it the output says they did not run.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import { appDb } from '@/lib/demo/app-database';
import { exportCaseFile } from '@/lib/report/case-file';
import { verifyCaseFile, type CaseFileVerdict } from '@/lib/report/case-file-verify';
import { auditKeyFromSecret } from '@/lib/util/case-file-digest';

/** The secret the audit key comes from, as the app picks it: --secret, AUDIT_SECRET, AUTH_SECRET. */
export function verifySecret(given: string | undefined, env: Record<string, string | undefined> = process.env): { secret?: string; from: string } {
  if (given) return { secret: given, from: '--secret' };
  if (env.AUDIT_SECRET) return { secret: env.AUDIT_SECRET, from: 'AUDIT_SECRET' };
  if (env.AUTH_SECRET) return { secret: env.AUTH_SECRET, from: 'AUTH_SECRET' };
  return { from: 'none' };
}

export function verdictLines(verdict: CaseFileVerdict, keyFrom: string): string[] {
  const lines = [keyFrom === 'none' ? 'Audit key: none given, so the keyed checks did not run.' : `Audit key: from ${keyFrom}.`, 'Checks that ran:'];
  for (const c of verdict.checks) lines.push(`  ✓ ${c}`);
  for (const n of verdict.notes) lines.push(`  note: ${n}`);
  lines.push(verdict.ok ? 'HOLDS: every check above passed.' : `DOES NOT HOLD: ${verdict.failure}`);
  return lines;
}

export function registerCaseFile(program: Command) {
  program
    .command('case-file')
    .description("write a case's examiner file: a zip with every run, model call, cited snapshot, decision and audit entry")
    .requiredOption('--case <id>', 'the case id')
    .requiredOption('--out <file>', 'where to write the zip')
    .action(async (options: { case: string; out: string }) => {
      const id = z.uuid().safeParse(options.case);
      if (!id.success) throw new Error(`"${options.case}" is not a case id.`);
      const built = await exportCaseFile({ db: await appDb(), caseId: id.data, by: { id: null, name: 'command line', role: 'operator' } });
      await writeFile(options.out, built.zip);
      const calls = built.manifest.runs.reduce((n, r) => n + r.calls, 0);
      const stored = built.manifest.runs.reduce((n, r) => n + r.storedBytes, 0);
      console.log(
        `Wrote ${options.out} (${built.zip.length.toLocaleString('en-US')} bytes): ${built.manifest.runs.length} runs, ${calls} model calls (${stored.toLocaleString('en-US')} bytes stored compressed), ${built.manifest.audit.seqs.length} audit entries.`,
      );
    });

  program
    .command('verify-case-file')
    .description('check a case file offline: every digest, and with the audit secret its keyed MACs')
    .argument('<file>', 'the case file (zip)')
    .option('--secret <secret>', 'the audit secret (default: AUDIT_SECRET, else AUTH_SECRET)')
    .action(async (file: string, options: { secret?: string }) => {
      const { secret, from } = verifySecret(options.secret);
      const verdict = verifyCaseFile(new Uint8Array(await readFile(file)), { key: secret ? auditKeyFromSecret(secret) : undefined });
      for (const line of verdictLines(verdict, from)) console.log(line);
      if (!verdict.ok) process.exitCode = 1;
    });
}
