// `npm run cli -- stability --case <id> --protocol <…> --runs N [--provider offline|openai]
//   [--lang ko|en] [--temperature t] [--seed n] [--json]`
// Runs one system N times (2–5) on a case, as one stability set, the way `debate` runs one
// (createRun + executeRun in this process, no queue), then prints how much the runs agree
// (lib/report/stability.ts, docs/stability.md). On a model, the case's runs are decision-grade
// (temperature 0, OPENAI_SEED) unless --temperature or --seed say otherwise. The offline analyst
// gives the same analysis every time by design: its figures are full agreement.
// Exits 0 when at least two runs succeeded (the figures are over those), 1 otherwise.
import { Command, InvalidArgumentError, Option } from 'commander';
import { appDb } from '@/lib/demo/app-database';
import { getCaseById } from '@/lib/db/queries/cases';
import { executeRun } from '@/lib/debate/engine';
import { DEFAULT_RUN_PARAMS } from '@/lib/debate/run/lifecycle';
import { webSearchForRun } from '@/lib/debate/web-search';
import { LANGUAGES, type Language } from '@/lib/domain/protocol';
import { PROTOCOLS, PROVIDER_NAMES, type Protocol, type ProviderName } from '@/lib/domain/vocabulary';
import { startCaseRuns } from '@/lib/jobs/case-runs';
import { defaultProviderName, runProviders } from '@/lib/llm';
import { loadRunView } from '@/lib/report/run-view';
import { MAX_STABILITY_RUNS, measureStability, MIN_STABILITY_RUNS, type Overlap, type Spread, type Stability } from '@/lib/report/stability';
import { temperature } from './debate';

type Options = {
  case: string;
  protocol: Protocol;
  runs: number;
  provider?: ProviderName;
  lang: Language;
  temperature?: number;
  seed?: number;
  json?: boolean;
};

function runCount(value: string) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_STABILITY_RUNS || n > MAX_STABILITY_RUNS)
    throw new InvalidArgumentError(`Use a whole number from ${MIN_STABILITY_RUNS} to ${MAX_STABILITY_RUNS}.`);
  return n;
}

function seed(value: string) {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > 2_147_483_647) throw new InvalidArgumentError('Use a whole number from 0 to 2147483647.');
  return n;
}

const pct = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);
const overlap = (o: Overlap) => `${pct(o.share)} (${o.all.length} of ${o.any.length})`;
const spread = (s: Spread) => `${s.min} · ${s.median} · ${s.max}`;

/** The figures as the command prints them without --json. */
export function stabilityText(s: Stability): string {
  return [
    `Factors read the same in every run: ${pct(s.readings.share)} (${s.readings.same} of ${s.readings.argued} argued)`,
    `Evidence cited by every run:        ${overlap(s.evidence)}${s.evidence.all.length ? ` — ${s.evidence.all.join(', ')}` : ''}`,
    `Report topics in common, by factor: ${overlap(s.topics.byFactor)}`,
    `Report topics in common, by title:  ${overlap(s.topics.byTitle)}`,
    `REI min · median · max:             ${spread(s.rei)}`,
    `Deepest branch min · median · max:  ${spread(s.depth)}`,
    ...s.factors.filter((f) => f.readings.some((r) => r !== 'none')).map((f) => `  ${f.same ? 'same   ' : 'differs'} ${f.factor}: ${f.readings.join(' / ')}`),
  ].join('\n');
}

export function registerStability(program: Command) {
  program
    .command('stability')
    .description('run one system 2-5 times on a case and print how much the runs agree')
    .requiredOption('--case <id>', 'the case id (from its page address)')
    .addOption(new Option('--protocol <protocol>', 'analysis system').choices([...PROTOCOLS]).default('kpd-mads'))
    .requiredOption('--runs <n>', `how many runs (${MIN_STABILITY_RUNS}-${MAX_STABILITY_RUNS})`, runCount)
    .addOption(
      new Option('--provider <provider>', 'model provider (default: OpenAI-compatible when configured, else the offline analyst)').choices([...PROVIDER_NAMES]),
    )
    .addOption(new Option('--lang <lang>', 'output language').choices([...LANGUAGES]).default('ko'))
    .option('--temperature <t>', "the model's temperature (default on a case: 0, decision-grade)", temperature)
    .option('--seed <n>', 'the seed sent to the model (default on a case: OPENAI_SEED)', seed)
    .option('--json', 'print the set, its runs and the figures as one JSON object on the last line')
    .action(async (options: Options) => {
      const db = await appDb();
      const kase = /^[0-9a-f-]{36}$/i.test(options.case) ? await getCaseById({ db, id: options.case }) : undefined;
      if (!kase) throw new Error(`No case "${options.case}": use the id from the case page's address (/cases/<id>).`);
      const { provider, providerFor } = runProviders(options.provider ?? defaultProviderName());
      const { stabilitySetId, runs } = await startCaseRuns({
        db,
        kase,
        actorId: null,
        protocolId: options.protocol,
        provider,
        mode: 'dag',
        params: {
          language: options.lang,
          recencyDays: DEFAULT_RUN_PARAMS.recencyDays,
          maxWebResults: DEFAULT_RUN_PARAMS.maxWebResults,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
        },
        count: options.runs,
        queue: false,
      });
      if (!options.json) {
        process.stdout.write(
          `${kase.title} · ${options.protocol} × ${options.runs} · ${provider.isLLM ? provider.model : 'built-in offline analyst (not an LLM): identical runs by design'} · set ${stabilitySetId}\n`,
        );
      }
      // The runs of a set go at once, as they do when the case page starts them.
      const results = await Promise.all(
        runs.map((run) => executeRun({ db, runId: run.id, provider, providerFor, webSearch: webSearchForRun({ runId: run.id, companyId: kase.companyId }) })),
      );
      const views = await Promise.all(runs.map((run) => loadRunView({ db, runId: run.id })));
      const succeeded = views.filter((v) => v.status === 'succeeded');
      const stability = succeeded.length >= MIN_STABILITY_RUNS ? measureStability(succeeded) : null;
      const params = views[0]?.params ?? {};
      if (options.json) {
        console.log(
          JSON.stringify({
            stabilitySetId,
            caseId: kase.id,
            protocol: options.protocol,
            provider: provider.name,
            model: provider.model,
            temperature: params.temperature ?? null,
            seed: params.seed ?? null,
            runs: views.map((v, i) => ({ id: v.id, status: v.status, error: results[i].error ?? null, rei: v.metrics.rei })),
            stability,
          }),
        );
      } else {
        for (const [i, v] of views.entries())
          console.log(`run ${i + 1} ${v.id}: ${v.status} · REI ${v.metrics.rei}${results[i].error ? ` · ${results[i].error}` : ''}`);
        console.log(stability ? `\n${stabilityText(stability)}` : '\nFewer than two runs succeeded: nothing to compare.');
      }
      if (!stability) process.exitCode = 1;
    });
}
