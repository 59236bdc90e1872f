// `npm run cli -- judge pairwise --a <runId> --b <runId> [--provider …] [--json]` and
// `npm run cli -- judge rubric --run <runId> [--provider …] [--json]`: the automated judges of
// lib/eval/judges.ts on runs in the configured database. They need a language model: with the
// offline analyst (the default when no endpoint is configured) they refuse and say why.
// The judge's model is OPENAI_MODEL_JUDGE when set, else OPENAI_MODEL.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { appDb } from '@/lib/demo/app-database';
import { loadRunView, type RunView } from '@/lib/report/run-view';
import { assertJudgeModel, judgePairwise, judgeRubric } from '@/lib/eval/judges';
import { PROVIDER_NAMES, type ProviderName } from '@/lib/domain/vocabulary';
import { defaultProviderName, getProvider } from '@/lib/llm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRunId(value: string): string {
  if (!UUID.test(value.trim())) throw new InvalidArgumentError(`"${value}" is not a run id (a UUID, as printed by \`debate\` or shown in a run's address).`);
  return value.trim().toLowerCase();
}

export async function loadRun(runId: string): Promise<RunView> {
  return loadRunView({ db: await appDb(), runId });
}

/** The judge's provider; refuses the offline analyst before any run is loaded. */
export function judgeProvider(name?: ProviderName) {
  const provider = getProvider({ provider: name ?? defaultProviderName(), role: 'judge' });
  assertJudgeModel(provider);
  return provider;
}

const providerOption = () =>
  new Option('--provider <provider>', 'model provider (default: OpenAI-compatible when configured; the offline analyst cannot judge)').choices([
    ...PROVIDER_NAMES,
  ]);

export function registerJudge(program: Command) {
  const judge = program.command('judge').description('automated judges (need a language model)');

  judge
    .command('pairwise')
    .description('which of two runs on the same borrower better supports a credit decision, asked blind in both orders')
    .requiredOption('--a <runId>', 'first run', parseRunId)
    .requiredOption('--b <runId>', 'second run', parseRunId)
    .addOption(providerOption())
    .option('--json', 'print one JSON object {a, b, comparisons, wins, ties, winRate, consistent, usage} on the last line')
    .action(async (options: { a: string; b: string; provider?: ProviderName; json?: boolean }) => {
      const provider = judgeProvider(options.provider);
      const [a, b] = [await loadRun(options.a), await loadRun(options.b)];
      const result = await judgePairwise({ provider, a, b });
      if (options.json) return console.log(JSON.stringify({ a: a.id, b: b.id, ...result }));
      const label = (r: RunView) => `${r.protocol} run ${r.id}`;
      console.log(`Pairwise judge (${provider.model}), asked in both orders:`);
      for (const c of result.comparisons)
        console.log(`  ${c.order === 'a-first' ? 'a as Report A' : 'b as Report A'}: ${c.winner === 'tie' ? 'tie' : `${c.winner} wins`} — ${c.reason}`);
      console.log(`a = ${label(a)}: win rate ${result.winRate.a} (${result.wins.a}/${result.comparisons.length})`);
      console.log(`b = ${label(b)}: win rate ${result.winRate.b} (${result.wins.b}/${result.comparisons.length})`);
      if (!result.consistent) console.log('The two orders disagreed: the verdict may follow position rather than content.');
    });

  judge
    .command('rubric')
    .description('score every argument of a run on logic, evidence, responsiveness and honesty, with fallacies and standings')
    .requiredOption('--run <runId>', 'the run to judge', parseRunId)
    .addOption(providerOption())
    .option('--json', 'print one JSON object {run, judgment, arguments, usage} on the last line')
    .action(async (options: { run: string; provider?: ProviderName; json?: boolean }) => {
      const provider = judgeProvider(options.provider);
      const run = await loadRun(options.run);
      const result = await judgeRubric({ provider, run });
      if (options.json) return console.log(JSON.stringify({ run: run.id, ...result }));
      const { judgment } = result;
      const team = new Map(result.arguments.map((a) => [a.id, a.team]));
      const standing = new Map(judgment.trace.map((t) => [t.argumentId, t.standing]));
      console.log(`Rubric judge (${provider.model}) on ${run.protocol} run ${run.id}`);
      console.log('argument        side          logic evid resp hon  weighted  standing');
      for (const s of judgment.scores) {
        console.log(
          `${s.argumentId.padEnd(15)} ${(team.get(s.argumentId) ?? '—').padEnd(13)} ${[s.logic, s.evidence, s.responsiveness, s.honesty].map((v) => String(v).padStart(4)).join(' ')}  ${s.weighted.toFixed(2).padStart(8)}  ${standing.get(s.argumentId) ?? '—'}`,
        );
      }
      for (const f of judgment.fallacies) console.log(`fallacy ${f.fallacy} in ${f.argumentId}: ${f.explanation}`);
      console.log(`totals: affirmative ${judgment.overall.affirmativeTotal}, negative ${judgment.overall.negativeTotal}`);
      console.log(`key insight: ${judgment.overall.keyInsight}`);
      for (const q of judgment.overall.unresolved) console.log(`unresolved: ${q}`);
      console.log(`recommendation: ${judgment.overall.recommendation}`);
    });
}
