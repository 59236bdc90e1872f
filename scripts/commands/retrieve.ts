// `npm run cli -- retrieve --company <id> --query <text> [--as-of YYYY-MM-DD] [--k N] [--recency-days R] [--json]`:
// what an agent would retrieve for a question, from the operator's terminal. Handy to check an
// import ("is the new filing searchable?") and to see what a back-test as of a date can see.
import { InvalidArgumentError, type Command } from 'commander';
import type { Executor } from '@/lib/db/client';
import { appDb } from '@/lib/demo/app-database';
import { getCompanyById } from '@/lib/db/queries/companies';
import { assertIsoDate } from '@/lib/pool/as-of';
import { MAX_K, retrieve, type RetrievedItem } from '@/lib/pool/retrieve';
import { localIsoDay } from '@/lib/util/dates';

export type RetrieveCommandOptions = {
  company: string;
  query: string;
  asOf: string;
  k: number;
  recencyDays?: number;
  json?: boolean;
};

/** Today in the operator's time zone: what "as of now" means to the person at the terminal. */
export function today(now = new Date()): string {
  return localIsoDay(now);
}

function parseWholeNumber(min: number, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`Give a whole number from ${min} to ${max}.`);
    return n;
  };
}

function parseDate(value: string) {
  try {
    assertIsoDate(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
  return value;
}

function describeResult(r: RetrievedItem, rank: number): string[] {
  const kind = r.kind === 'evidence' ? 'evidence' : 'passage';
  const heading = r.heading ? ` › ${r.heading}` : '';
  const stale = r.stale ? ' · STALE' : '';
  return [
    `${String(rank).padStart(2)}. [${kind}] ${r.title}${heading}`,
    `    ${r.publishedDate} · ${r.sourceName} · score ${r.score.toFixed(3)}${stale}`,
    `    ${r.snippet}`,
    `    ${r.sourceUrl}${r.kind === 'chunk' ? ` (document ${r.documentId}, characters ${r.charStart}–${r.charEnd})` : ''}`,
  ];
}

/** The command's output, line by line; throws with a readable message for an unknown company. */
export async function runRetrieve(db: Executor, options: RetrieveCommandOptions): Promise<string[]> {
  const company = options.company.trim();
  const query = options.query.trim();
  if (!query) throw new Error('The query is empty: give some words to search for.');
  const known = await getCompanyById({ db, id: company });
  if (!known)
    throw new Error(`Unknown company "${company}". Companies are named by their id, e.g. samsung-electronics (see the Companies page or the import files).`);

  const results = await retrieve({ db, companyId: known.id, query, asOf: options.asOf, k: options.k, recencyDays: options.recencyDays });
  if (options.json) return [JSON.stringify({ company: known.id, query, asOf: options.asOf, results })];
  if (results.length === 0) return [`Nothing in ${known.name} (${known.id})'s pool matches "${query}" as of ${options.asOf}.`];
  return [
    `${results.length} result${results.length === 1 ? '' : 's'} for "${query}" in ${known.name} (${known.id}) as of ${options.asOf}:`,
    ...results.flatMap((r, i) => ['', ...describeResult(r, i + 1)]),
  ];
}

export function registerRetrieve(program: Command) {
  program
    .command('retrieve')
    .description("search a company's evidence and document passages as an agent would, as of a date")
    .requiredOption('--company <id>', 'company id, e.g. samsung-electronics')
    .requiredOption('--query <text>', 'words to search for, English and/or Korean')
    .option('--as-of <date>', 'only material published on or before this date (YYYY-MM-DD)', parseDate, today())
    .option('--k <n>', `number of results, 1 to ${MAX_K}`, parseWholeNumber(1, MAX_K), 10)
    .option('--recency-days <n>', 'mark results older than as-of minus this many days as stale', parseWholeNumber(0, 36_500))
    .option('--json', 'print one JSON object { company, query, asOf, results } on the last line')
    .action(async (options: RetrieveCommandOptions) => {
      for (const line of await runRetrieve(await appDb(), options)) console.log(line);
    });
}
