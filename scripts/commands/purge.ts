// `npm run cli -- purge [--dry-run] [--now <iso>] [--json]`: one pass of the retention purge
// (docs/retention.md) from the terminal, with the admin's periods. `--dry-run` counts what has
// expired and deletes nothing; `--now` sets the clock the periods count back from, e.g. to see
// what next year's pass would take. Each batch is audited as the daily job's are.
import { InvalidArgumentError, type Command } from 'commander';
import { purgeExpired, type PurgeResult } from '@/lib/db/queries/retention';
import { appDb } from '@/lib/demo/app-database';
import { RETENTION_KINDS } from '@/lib/domain/retention';

/** An ISO 8601 instant (a day alone is its UTC midnight); anything else is refused. */
export function parseInstant(value: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}([Tt ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? new Date(value.trim()) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new InvalidArgumentError(`"${value}" is not an ISO date or time, e.g. 2031-06-01 or 2031-06-01T00:00:00Z.`);
  return at;
}

/** What the command prints, line by line. */
export function purgeLines(result: PurgeResult, json: boolean): string[] {
  if (json) return [JSON.stringify(result)];
  const lines = [`Retention purge at ${result.now}${result.dryRun ? ' (dry run: nothing deleted)' : ''}`];
  for (const kind of RETENTION_KINDS) {
    const k = result.kinds[kind];
    lines.push(`  ${kind.padEnd(14)} ${String(k.count).padStart(7)} ${result.dryRun ? 'expired' : 'deleted'}   (${k.months} months, before ${k.cutoff})`);
  }
  return lines;
}

export function registerPurge(program: Command) {
  program
    .command('purge')
    .description('delete what has passed its retention period, except what a legal hold keeps')
    .option('--dry-run', 'count what has expired, delete nothing')
    .option('--now <iso>', 'the instant the periods count back from (default: now)', parseInstant)
    .option('--json', 'print the result as one JSON object')
    .action(async (options: { dryRun?: boolean; now?: Date; json?: boolean }) => {
      const result = await purgeExpired({ db: await appDb(), now: options.now ?? new Date(), dryRun: Boolean(options.dryRun) });
      for (const line of purgeLines(result, Boolean(options.json))) console.log(line);
    });
}
