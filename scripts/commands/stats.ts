// `npm run cli -- stats wilcoxon --x 3,4,… --y 4,4,… [--no-tie-correction] [--json]`: the paired
// Wilcoxon signed-rank test of lib/eval/stats.ts from the terminal, e.g. to check a study's table
// against the paper. With --json the last line is one object {n, W, z, p, r, tieCorrection}.
import { InvalidArgumentError, type Command } from 'commander';
import { wilcoxonSignedRank, type WilcoxonResult } from '@/lib/eval/stats';

/** "3,4, 5" → [3, 4, 5]; anything that is not a list of numbers is refused with the culprit named. */
export function parseNumberList(value: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.every((p) => p === '')) throw new InvalidArgumentError('Give comma-separated numbers, e.g. 3,4,5.');
  return parts.map((p, i) => {
    const n = Number(p);
    if (p === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`Value ${i + 1} ("${p}") is not a number; give comma-separated numbers, e.g. 3,4,5.`);
    return n;
  });
}

const fmt = (v: number | null, digits: number) => (v === null ? '—' : v.toFixed(digits));

/** What the command prints, line by line. */
export function wilcoxonLines(result: WilcoxonResult, json: boolean): string[] {
  const { n, W, z, p, r, tieCorrection, reason } = result;
  if (json) return [JSON.stringify({ n, W, z, p, r, tieCorrection, ...(reason ? { reason } : {}) })];
  const lines = [
    'Wilcoxon signed-rank test (paired, two-sided, normal approximation)',
    `  non-zero pairs n   ${n}`,
    `  W (smaller sum)    ${W}`,
    `  Z                  ${fmt(z, 3)}${tieCorrection ? ' (tie-corrected)' : ' (no tie correction)'}`,
    `  p                  ${p === null ? '—' : p < 0.001 ? '< .001' : fmt(p, 3)}`,
    `  r = Z/√n           ${fmt(r, 3)}`,
  ];
  if (reason) lines.push(reason);
  return lines;
}

export function registerStats(program: Command) {
  const stats = program.command('stats').description('evaluation statistics');
  stats
    .command('wilcoxon')
    .description('paired Wilcoxon signed-rank test of x against y (zero differences dropped)')
    .requiredOption('--x <values>', 'first sample, comma-separated (e.g. ratings of system A)', parseNumberList)
    .requiredOption('--y <values>', 'second sample, same length and order (the paired ratings)', parseNumberList)
    .option('--no-tie-correction', "leave the tie term out of the variance, as the paper's table does")
    .option('--json', 'print one JSON object {n, W, z, p, r, tieCorrection} on the last line')
    .action((options: { x: number[]; y: number[]; tieCorrection: boolean; json?: boolean }) => {
      const result = wilcoxonSignedRank(options.x, options.y, { tieCorrection: options.tieCorrection });
      for (const line of wilcoxonLines(result, Boolean(options.json))) console.log(line);
    });
}
