// `npm test`: every check the project has, cheapest first, stopping at the first failure.
import { spawn } from 'node:child_process';

const STAGES = ['format:check', 'typecheck', 'lint', 'depcheck', 'test:unit', 'test:e2e'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @type {import('node:child_process').ChildProcess | null} */
let current = null;

// On Ctrl-C the terminal signals the whole foreground group, but a child may ignore it or
// take its time: pass the signal on explicitly and exit once it is gone.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (current && current.exitCode === null && current.signalCode === null) current.kill(signal);
    else process.exit(130);
  });
}

/** @param {string} script @returns {Promise<{ code: number | null, signal: string | null }>} */
function run(script) {
  return new Promise((resolve) => {
    current = spawn(npm, ['run', '--silent', script], { stdio: 'inherit' });
    current.on('error', (err) => {
      console.error(`Could not start npm: ${err.message}`);
      resolve({ code: 1, signal: null });
    });
    current.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** @type {{ stage: string, seconds: number, ok: boolean }[]} */
const results = [];
let failed = null;
for (const stage of STAGES) {
  console.log(`\n━━ ${stage} ━━`);
  const started = performance.now();
  const { code, signal } = await run(stage);
  const ok = code === 0;
  results.push({ stage, seconds: (performance.now() - started) / 1000, ok });
  if (!ok) {
    failed = { stage, reason: signal ? `killed by ${signal}` : `exit code ${code}` };
    break;
  }
}

console.log('\n━━ summary ━━');
for (const { stage, seconds, ok } of results) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${stage.padEnd(12)} ${seconds.toFixed(1).padStart(6)} s`);
}
for (const stage of STAGES.slice(results.length)) console.log(`  skip  ${stage}`);
if (failed) {
  console.error(`\nnpm test failed at "${failed.stage}" (${failed.reason}).`);
  process.exit(1);
}
console.log('\nAll checks passed.');
