// Locates a Chromium for the browser tests. Never downloads one: this machine kind has no
// internet beyond the npm registry and apt, so `npx playwright install` is not an option.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// Synchronous loading, so playwright.config.ts can call findChromium() without top-level await.
const require = createRequire(import.meta.url);

/**
 * Flags every launch needs here: no sandbox (containers, root), no GPU, and nothing that
 * phones home (updates, sync, QUIC probes) — those hang or slow the tests when offline.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

// Debian's old headless shell first: the tests never show a window, and the full browser in its
// new headless mode runs the browser's own interface too. On a two-core machine with two test
// workers that kept the load average near 10 and stretched tests past their timeouts.
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Path of a Chromium executable, or null when there is none.
 * Order: PLAYWRIGHT_CHROMIUM_PATH (an explicit choice, so a wrong path is an error rather
 * than a silent fallback), Debian's headless shell, Debian's full Chromium, then Playwright's own
 * download if present.
 * @returns {string | null}
 */
export function findChromium() {
  const explicit = process.env.PLAYWRIGHT_CHROMIUM_PATH;
  if (explicit) {
    if (!isExecutable(explicit)) {
      throw new Error(`PLAYWRIGHT_CHROMIUM_PATH is set to ${explicit}, but no executable file exists there.`);
    }
    return explicit;
  }
  for (const file of [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]) if (isExecutable(file)) return file;
  const bundled = playwrightChromium();
  if (bundled && isExecutable(bundled)) return bundled;
  return null;
}

/** Where Playwright would keep its own Chromium; the file usually does not exist here. */
function playwrightChromium() {
  for (const pkg of ['playwright-core', '@playwright/test']) {
    try {
      return /** @type {string} */ (require(pkg).chromium.executablePath());
    } catch {
      // Not installed (or no build for this platform): try the next one.
    }
  }
  return null;
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// `node scripts/find-browser.mjs` prints the path (exit 1 when none), for quick checks.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const found = findChromium();
    console.log(found ?? 'No Chromium found.');
    process.exitCode = found ? 0 : 1;
  } catch (err) {
    console.error(/** @type {Error} */ (err).message);
    process.exitCode = 1;
  }
}
