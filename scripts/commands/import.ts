// `npm run cli -- import <path> [--json] [--valid-only]`
//
// The CLI runs as an operator: whoever runs it already holds the database's credentials, so its
// import may change existing companies' profiles, as an administrator's may on the Import page
// (companyProfiles 'replace', lib/pool/import/index.ts). Changes are named in the output and in
// the audit entry.
import fs from 'node:fs';
import type { Command } from 'commander';
import { appDb } from '@/lib/demo/app-database';
import { importPool, readSourcesFromPath } from '@/lib/pool/import';

const LARGE = 5000;

export function registerImport(program: Command) {
  program
    .command('import')
    .description('import companies, evidence and documents: a folder in the pool layout, or one .json, .jsonl or .csv file of evidence')
    .argument('<path>', 'folder or file')
    .option('--json', 'print the report as one JSON object on the last line')
    .option('--valid-only', 'import the valid rows even when some are rejected')
    .action(async (target: string, options: { json?: boolean; validOnly?: boolean }) => {
      if (!fs.existsSync(target)) throw new Error(`${target} does not exist.`);
      const sources = readSourcesFromPath(target);
      let lastShown = -1;
      const report = await importPool({
        db: await appDb(),
        sources,
        actorId: null,
        validOnly: options.validOnly,
        label: target,
        companyProfiles: 'replace',
        onProgress: ({ phase, done, total }) => {
          if (total < LARGE) return;
          const pct = Math.floor((done / total) * 10) * 10;
          if (pct !== lastShown) {
            lastShown = pct;
            process.stderr.write(`importing ${phase}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} (${pct}%)\n`);
          }
        },
      });
      const { imported, skippedDuplicates, rejected, written, updatedCompanies } = report;
      if (!options.json || process.stdout.isTTY) {
        for (const r of rejected) console.log(`rejected ${r.file}${r.row ? `:${r.row}` : ''}${r.field ? ` ${r.field}` : ''}: ${r.message}`);
        for (const c of updatedCompanies) console.log(`updated the profile of ${c.id}: ${c.fields.join(', ')}`);
        console.log(
          written
            ? `Imported ${imported.companies} companies, ${imported.evidence} evidence items, ${imported.documents} documents (${imported.chunks} chunks); ` +
                `skipped ${skippedDuplicates} duplicates${rejected.length ? `; ${rejected.length} rows rejected and left out` : ''}.`
            : `Nothing imported: ${rejected.length} problem${rejected.length === 1 ? '' : 's'} found. Fix them, or run again with --valid-only to import the valid rows.`,
        );
      }
      // English only: the phrases are for the screens that translate them.
      const rows = rejected.map(({ file, row, field, message }) => ({ file, row, field, message }));
      if (options.json) console.log(JSON.stringify({ imported, skippedDuplicates, rejected: rows, ...(updatedCompanies.length ? { updatedCompanies } : {}) }));
      if (!written) process.exitCode = 1;
    });
}
