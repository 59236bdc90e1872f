// `npm run cli -- batch --protocol <…> --companies all|<id,id,…> [--concurrency N] [--provider …]
//   [--mode dag|sequential] [--lang ko|en] [--as-of YYYY-MM-DD] [--json]`: screens many companies.
import { Command, Option } from 'commander';
import { appDb } from '@/lib/demo/app-database';
import { listCompanyIds } from '@/lib/db/queries/companies';
import { LANGUAGES, RUN_MODES, type Language, type RunMode } from '@/lib/domain/protocol';
import { PROTOCOLS, PROVIDER_NAMES, type Protocol, type ProviderName } from '@/lib/domain/vocabulary';
import { createRun, executeRun } from '@/lib/debate/engine';
import { loadRunView } from '@/lib/report/run-view';
import { webSearchForRun } from '@/lib/debate/web-search';
import { defaultProviderName, runProviders } from '@/lib/llm';

type Options = {
  protocol: Protocol;
  companies: string;
  concurrency: string;
  provider?: ProviderName;
  mode: RunMode;
  lang: Language;
  asOf?: string;
  json?: boolean;
};

function progressBar(done: number, total: number, width = 30) {
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

export function registerBatch(program: Command) {
  program
    .command('batch')
    .description('run one analysis system over many companies, with a progress bar and a summary table')
    .addOption(new Option('--protocol <protocol>', 'analysis system').choices([...PROTOCOLS]).default('kpd-mads'))
    .option('--companies <ids>', '"all" or comma-separated company ids', 'all')
    .option('--concurrency <n>', 'runs at the same time', '4')
    .addOption(new Option('--provider <provider>').choices([...PROVIDER_NAMES]))
    .addOption(new Option('--mode <mode>').choices([...RUN_MODES]).default('dag'))
    .addOption(new Option('--lang <lang>').choices([...LANGUAGES]).default('ko'))
    .option('--as-of <date>', 'analyse as of this date (YYYY-MM-DD)')
    .option('--json', 'print the summary as one JSON object on the last line')
    .action(async (options: Options) => {
      const concurrency = Number.parseInt(options.concurrency, 10);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error('--concurrency must be a whole number from 1 to 64.');
      const db = await appDb();
      const wanted =
        options.companies === 'all'
          ? null
          : options.companies
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      const rows = await listCompanyIds({ db, ids: wanted ?? undefined });
      const missing = wanted?.filter((id) => !rows.some((r) => r.id === id)) ?? [];
      if (missing.length) throw new Error(`Unknown companies: ${missing.join(', ')}.`);
      if (rows.length === 0) throw new Error('No companies to analyse: import some first.');
      const { provider, providerFor } = runProviders(options.provider ?? defaultProviderName());
      const queue = rows.map((r) => r.id);
      const results: {
        company: string;
        runId: string;
        status: string;
        seconds: number;
        breadth: number;
        rei: number;
        grounding: number | null;
        tokens: number;
        error?: string;
      }[] = [];
      const started = performance.now();
      const tick = () => !options.json && process.stderr.write(`\r${progressBar(results.length, rows.length)}`);
      tick();
      await Promise.all(
        Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
          for (let companyId = queue.shift(); companyId; companyId = queue.shift()) {
            const run = await createRun({
              db,
              protocolId: options.protocol,
              companyId,
              provider,
              mode: options.mode,
              params: { language: options.lang, ...(options.asOf ? { asOf: options.asOf } : {}) },
            });
            const result = await executeRun({ db, runId: run.id, provider, providerFor, webSearch: webSearchForRun({ runId: run.id, companyId }) });
            const view = await loadRunView({ db, runId: run.id });
            results.push({
              company: companyId,
              runId: run.id,
              status: result.status,
              seconds: Math.round(result.wallMs / 100) / 10,
              breadth: view.metrics.breadth,
              rei: view.metrics.rei,
              grounding: view.metrics.citationGrounding,
              tokens: view.metrics.tokens.total,
              ...(result.error ? { error: result.error } : {}),
            });
            tick();
          }
        }),
      );
      const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
      results.sort((a, b) => a.company.localeCompare(b.company));
      if (options.json) {
        console.log(JSON.stringify({ protocol: options.protocol, wallSeconds, runs: results }));
      } else {
        process.stderr.write('\n');
        console.table(
          results.map(({ runId: _runId, error: _error, ...r }) => ({ ...r, grounding: r.grounding === null ? '—' : `${Math.round(r.grounding * 100)}%` })),
        );
        console.log(`${results.filter((r) => r.status === 'succeeded').length} of ${results.length} succeeded in ${wallSeconds} s.`);
        for (const r of results.filter((x) => x.error)) console.log(`${r.company}: ${r.error}`);
      }
      if (results.some((r) => r.status !== 'succeeded')) process.exitCode = 1;
    });
}
