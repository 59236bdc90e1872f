// `npm run cli -- eval readability --run <runId> [--json]`: FKGL, Coleman–Liau and ARI of an
// English run's report (lib/eval/readability.ts), measured on its prose. Korean runs are refused.
import type { Command } from 'commander';
import { readabilityOfRun } from '@/lib/eval/readability';
import { loadRun, parseRunId } from './judge';

export function registerEval(program: Command) {
  const evaluate = program.command('eval').description('automatic measures of a run');
  evaluate
    .command('readability')
    .description("FKGL, Coleman–Liau and ARI of an English run's report")
    .requiredOption('--run <runId>', 'the run to measure', parseRunId)
    .option('--json', 'print one JSON object {run, words, sentences, syllables, letters, characters, fkgl, colemanLiau, ari} on the last line')
    .action(async (options: { run: string; json?: boolean }) => {
      const run = await loadRun(options.run);
      const r = readabilityOfRun(run);
      if (options.json) return console.log(JSON.stringify({ run: run.id, ...r }));
      console.log(`Readability of the report of ${run.protocol} run ${run.id} (US grade levels)`);
      console.log(`  Flesch–Kincaid grade   ${r.fkgl.toFixed(1)}`);
      console.log(`  Coleman–Liau index     ${r.colemanLiau.toFixed(1)}`);
      console.log(`  ARI                    ${r.ari.toFixed(1)}`);
      console.log(`  from ${r.words} words, ${r.sentences} sentences, ${r.syllables} syllables`);
    });
}
