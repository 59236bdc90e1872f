// `npm run cli -- debate --company <id|name> --protocol <…> [--provider offline|openai]
//   [--mode dag|sequential] [--lang ko|en] [--as-of YYYY-MM-DD] [--temperature t]
//   [--judge-temperature t] [--json]`
// Exits 0 when the run succeeded or ended as a red-flag screening (a thin pool with decisive red
// flags: the screening is printed), 1 when it failed, 3 when the pool held too little evidence at
// the as-of date to debate and no red flag (no model was called; --json carries `status` and `shortfall`).
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Db } from '@/lib/db/client';
import { appDb } from '@/lib/demo/app-database';
import { findCompaniesByIdOrName } from '@/lib/db/queries/companies';
import { LANGUAGES, RUN_MODES, type Language, type RunMode } from '@/lib/domain/protocol';
import { PROTOCOLS, PROVIDER_NAMES, type Protocol, type ProviderName } from '@/lib/domain/vocabulary';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { loadRunView } from '@/lib/report/run-view';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc } from '@/lib/report/model';
import { webSearchForRun } from '@/lib/debate/web-search';
import { defaultProviderName, runProviders } from '@/lib/llm';
import { isIsoDay } from '@/lib/util/dates';
import { FACTORS } from '@/lib/domain/factors';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';

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

/** The exit code of a run that ended as insufficient evidence (1 is a failed run). */
export const EXIT_INSUFFICIENT_EVIDENCE = 3;

/** What the pool held against the threshold, and where to add evidence, in plain words. */
export function shortfallText(shortfall: EvidenceShortfall, asOf: string): string {
  const items = `${shortfall.items} evidence item${shortfall.items === 1 ? '' : 's'}`;
  return [
    `Not enough evidence to analyse: as of ${asOf} the pool holds ${items} on ${shortfall.factors} of the ten guideline factors; an analysis needs at least ${shortfall.minItems} items on at least ${shortfall.minFactors} factors. No model was called.`,
    shortfall.missingFactors.length ? `No evidence on: ${shortfall.missingFactors.map((f) => FACTORS.find((x) => x.id === f)?.label ?? f).join('; ')}.` : '',
    'Add evidence (npm run cli -- import <path>, or fetch filings from OpenDART or SEC EDGAR on the company page), then run again.',
  ]
    .filter(Boolean)
    .join('\n');
}

type Options = {
  company: string;
  protocol: Protocol;
  provider?: ProviderName;
  mode: RunMode;
  lang: Language;
  asOf?: string;
  json?: boolean;
  temperature?: number;
  judgeTemperature?: number;
};

export function temperature(value: string) {
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n < 0 || n > 2) throw new InvalidArgumentError('Use a number from 0 to 2.');
  return n;
}

export function registerDebate(program: Command) {
  program
    .command('debate')
    .description('run one analysis of a company and print it as it streams (or as JSON)')
    .requiredOption('--company <id|name>', 'company id or exact name')
    .addOption(new Option('--protocol <protocol>', 'analysis system').choices([...PROTOCOLS]).default('kpd-mads'))
    .addOption(
      new Option('--provider <provider>', 'model provider (default: OpenAI-compatible when configured, else the offline analyst)').choices([...PROVIDER_NAMES]),
    )
    .addOption(new Option('--mode <mode>', 'dag runs independent steps at once; sequential one by one').choices([...RUN_MODES]).default('dag'))
    .addOption(new Option('--lang <lang>', 'output language').choices([...LANGUAGES]).default('ko'))
    .option('--as-of <date>', 'analyse as of this date (YYYY-MM-DD; default today)', isoDate)
    .option('--json', 'print the run as one JSON object on the last line')
    .option('--temperature <t>', "the model's temperature for every step but the judge's (default: the provider's)", temperature)
    .option('--judge-temperature <t>', 'the temperature of the steps that judge a debate (default 0.2)', temperature)
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
        params: {
          language: options.lang,
          ...(options.asOf ? { asOf: options.asOf } : {}),
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.judgeTemperature !== undefined ? { judgeTemperature: options.judgeTemperature } : {}),
        },
      });
      let unsubscribe = () => {};
      if (!options.json) {
        process.stdout.write(
          `${company.nameEn ?? company.name} · ${options.protocol} · ${provider.isLLM ? provider.model : 'built-in offline analyst (not an LLM)'} · run ${run.id}\n`,
        );
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
      if (result.status === 'red_flag_screening' && !options.json) {
        // The screening as the report says it (lib/report/screening.ts), in the run's language.
        const doc = buildReportDoc(await loadReportInput({ db, runId: run.id }), options.lang === 'ko' ? 'ko' : 'en');
        console.log(`${doc.notice?.title}: ${doc.notice?.text}`);
        for (const f of doc.redFlags) console.log(`- ${f.label} · ${f.date} · ${f.title}${f.source ? ` (${f.source})` : ''}`);
      }
      if (result.status === 'insufficient_evidence') {
        // Not a failure of the run: the pool is too thin to debate. Said plainly, with its own code.
        if (!options.json && result.shortfall) console.log(shortfallText(result.shortfall, view.params.asOf));
        process.exitCode = EXIT_INSUFFICIENT_EVIDENCE;
      } else if (result.status !== 'succeeded' && result.status !== 'red_flag_screening') process.exitCode = 1;
    });
}
