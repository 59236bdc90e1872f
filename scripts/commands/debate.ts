// `npm run cli -- debate --company <id|name> --protocol <…> [--provider offline|openai]
//   [--mode dag|sequential] [--lang ko|en] [--as-of YYYY-MM-DD] [--json]`
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Db } from '@/lib/db/client';
import { appDb } from '@/lib/demo/app-database';
import { findCompaniesByIdOrName } from '@/lib/db/queries/companies';
import { LANGUAGES, RUN_MODES, type Language, type RunMode } from '@/lib/domain/protocol';
import { PROTOCOLS, PROVIDER_NAMES, type Protocol, type ProviderName } from '@/lib/domain/vocabulary';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { loadRunView } from '@/lib/report/run-view';
import { webSearchForRun } from '@/lib/debate/web-search';
import { defaultProviderName, runProviders } from '@/lib/llm';
import { isIsoDay } from '@/lib/util/dates';

async function findCompany(db: Db, key: string) {
  const rows = await findCompaniesByIdOrName({ db, key });
  if (rows.length === 0) throw new Error(`No company "${key}": use an id from the Companies page (e.g. samsung-electronics) or its exact name.`);
  if (rows.length > 1) throw new Error(`"${key}" matches several companies (${rows.map((r) => r.id).join(', ')}); use the id.`);
  return rows[0];
}

function isoDate(value: string) {
  if (!isIsoDay(value)) throw new InvalidArgumentError('Use YYYY-MM-DD.');
  return value;
}

type Options = { company: string; protocol: Protocol; provider?: ProviderName; mode: RunMode; lang: Language; asOf?: string; json?: boolean };

export function registerDebate(program: Command) {
  program
    .command('debate')
    .description('run one analysis of a company and print it as it streams (or as JSON)')
    .requiredOption('--company <id|name>', 'company id or exact name')
    .addOption(new Option('--protocol <protocol>', 'analysis system').choices([...PROTOCOLS]).default('kpd-mads'))
    .addOption(new Option('--provider <provider>', 'model provider (default: OpenAI-compatible when configured, else the offline analyst)').choices([...PROVIDER_NAMES]))
    .addOption(new Option('--mode <mode>', 'dag runs independent steps at once; sequential one by one').choices([...RUN_MODES]).default('dag'))
    .addOption(new Option('--lang <lang>', 'output language').choices([...LANGUAGES]).default('ko'))
    .option('--as-of <date>', 'analyse as of this date (YYYY-MM-DD; default today)', isoDate)
    .option('--json', 'print the run as one JSON object on the last line')
    .action(async (options: Options) => {
      const db = await appDb();
      const company = await findCompany(db, options.company);
      const { provider, providerFor } = runProviders(options.provider ?? defaultProviderName());
      const run = await createRun({
        db,
        protocolId: options.protocol,
        companyId: company.id,
        provider,
        mode: options.mode,
        params: { language: options.lang, ...(options.asOf ? { asOf: options.asOf } : {}) },
      });
      let unsubscribe = () => {};
      if (!options.json) {
        process.stdout.write(`${company.nameEn ?? company.name} · ${options.protocol} · ${provider.isLLM ? provider.model : 'built-in offline analyst (not an LLM)'} · run ${run.id}\n`);
        // Steps may run at the same time: print each finished turn whole, in the order they finish.
        ({ unsubscribe } = runBus().subscribe(run.id, (event) => {
          if (event.type === 'step-done') process.stdout.write(`\n[${event.stepId}] ${event.text}\n`);
          if (event.type === 'step-failed') process.stdout.write(`\n[${event.stepId}] FAILED: ${event.error}\n`);
        }));
      }
      const result = await executeRun({ db, runId: run.id, provider, providerFor, webSearch: webSearchForRun({ runId: run.id, companyId: company.id }) });
      unsubscribe();
      const view = await loadRunView({ db, runId: run.id });
      if (options.json) console.log(JSON.stringify(view));
      else {
        const m = view.metrics;
        console.log(
          `\n${result.status} in ${(result.wallMs / 1000).toFixed(1)} s · breadth ${m.breadth} · REI ${m.rei} · grounding ${m.citationGrounding === null ? '—' : `${Math.round(m.citationGrounding * 100)}%`} · ${m.tokens.total} tokens`,
        );
        if (result.error) console.log(result.error);
      }
      if (result.status !== 'succeeded') process.exitCode = 1;
    });
}
