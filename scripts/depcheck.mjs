// `npm run depcheck`: the floor plan of .dependency-cruiser.mjs, in its two passes (every import;
// then only what reaches a browser bundle). Prints the violations and one summary line per pass.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const TARGETS = ['lib', 'app', 'components', 'scripts', 'proxy.ts', 'instrumentation.ts'];

let failed = false;
for (const pass of ['floors', 'browser']) {
  const run = spawnSync(process.execPath, [cli, '--config', '.dependency-cruiser.mjs', '--output-type', 'err', ...TARGETS], {
    cwd: root,
    env: { ...process.env, DEPCHECK_PASS: pass },
    encoding: 'utf8',
  });
  const out = `${run.stdout}${run.stderr}`.trim();
  const summary =
    out
      .split('\n')
      .filter((line) => /dependency violations|no dependency violations/.test(line))
      .pop() ?? out;
  if (run.status !== 0) {
    failed = true;
    console.error(out);
  }
  console.log(`depcheck ${pass}: ${summary.replace(/^[^\w]*/, '')}`);
}
process.exit(failed ? 1 : 0);
