// The floor plan of the code, checked on every `npm test` (scripts/test.mjs runs
// `npm run depcheck`). Read bottom to top; each floor imports only from the floors below it.
// docs/architecture.md explains each floor in prose.
//
//   0 domain    lib/domain/                  constants, types and zod schemas shared by server and
//                                            browser: no Node APIs, no database, nothing above
//   1 kernel    lib/env.ts, lib/errors.ts,   process-wide basics and helpers with one home each
//               lib/event-loop.ts, lib/util/,
//               lib/i18n/, lib/ops/log.ts
//   2 db        lib/db/                      the Drizzle schema, the client and every query; server-only
//   3 services  lib/pool < lib/llm < lib/debate < lib/jobs < lib/eval, lib/report;
//               lib/auth and lib/ops beside them
//   4 start-up  lib/demo/ (the demo data), lib/startup.ts, lib/shutdown.ts
//   5 top       app/, components/, proxy.ts, instrumentation.ts, scripts/
//
// Also: no import cycles anywhere, components never import lib/db, and no browser ('use client')
// module reaches a module marked `import 'server-only'`.
import fs from 'node:fs';
import path from 'node:path';

/** Files whose first statement is the given directive or that import the given marker. */
function filesWith(pattern, roots) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && pattern.test(fs.readFileSync(p, 'utf8'))) out.push(p);
    }
  };
  for (const root of roots) if (fs.existsSync(root)) walk(root);
  return out;
}
const escape = (p) => `^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
// A directive is the first statement; comments may come before it.
const directive = (name) => new RegExp(`^(?:\\s|//[^\\n]*\\n|/\\*[\\s\\S]*?\\*/)*['"]${name}['"]`);
const ROOTS = ['app', 'components', 'lib'];
const clientModules = filesWith(directive('use client'), ROOTS).map(escape);
const serverActionModules = filesWith(directive('use server'), ROOTS).map(escape);
const serverOnlyModules = filesWith(/^import 'server-only';?$/m, ROOTS).map(escape);

// Two passes (scripts/depcheck.mjs). The floors pass checks every import, types included. The
// browser pass follows only what reaches a browser bundle: it skips type-only imports (erased
// when compiling) and stops at 'use server' modules (the browser calls those over HTTP; their
// imports stay on the server).
const BROWSER_PASS = process.env.DEPCHECK_PASS === 'browser';

const DOMAIN = '^lib/domain/';
const KERNEL = ['^lib/(env|errors|event-loop|server-only)\\.ts$', '^lib/util/', '^lib/i18n/', '^lib/ops/log\\.ts$'];
const DB = '^lib/db/';
const SERVICES = ['^lib/(pool|llm|debate|jobs|eval|report|auth)/', '^lib/ops/(?!log\\.ts$)'];
const STARTUP = ['^lib/demo/', '^lib/(startup|shutdown)\\.ts$'];
const TOP = ['^app/', '^components/', '^(proxy|instrumentation)\\.ts$', '^scripts/'];

/** `from` may not import anything in `to` (imports of its own floor and below are fine). */
const floor = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

const floorRules = [
  { name: 'no-circular', comment: 'An import cycle: split the shared part out into a lower floor.', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'domain-is-the-floor',
    comment: 'lib/domain imports only lib/domain and zod: no Node APIs, no database, no other floor.',
    severity: 'error',
    from: { path: DOMAIN },
    to: { pathNot: [DOMAIN, '^node_modules/zod/'] },
  },
  floor('kernel-above-domain-only', 'The kernel (env, errors, helpers, i18n, log) imports only the domain and itself.', KERNEL, [
    DB,
    ...SERVICES,
    ...STARTUP,
    ...TOP,
  ]),
  floor('db-above-kernel-only', 'lib/db imports only the domain and the kernel: never a service, start-up or the top.', DB, [...SERVICES, ...STARTUP, ...TOP]),
  floor(
    'pool-below-models',
    'The knowledge pool does not know about models, debates, jobs, measurements, reports or sign-in.',
    '^lib/pool/',
    '^lib/(llm|debate|jobs|eval|report|auth)/',
  ),
  floor(
    'llm-below-debate',
    'Providers and the offline analyst read the step contract from lib/domain, never the engine.',
    '^lib/llm/',
    '^lib/(debate|jobs|eval|report|auth)/',
  ),
  floor(
    'debate-below-jobs',
    'The engine does not know where it runs (lib/jobs) or how its results are measured and rendered.',
    '^lib/debate/',
    '^lib/(jobs|eval|report)/',
  ),
  floor('jobs-below-eval-and-report', 'The queue runs the engine; it does not measure or render.', '^lib/jobs/', '^lib/(eval|report)/'),
  floor('services-below-startup', 'Services never import the demo data, start-up, pages, components or scripts.', SERVICES, [...STARTUP, ...TOP]),
  floor('startup-below-top', 'Start-up never imports pages, components or scripts.', STARTUP, TOP),
  floor('lib-never-imports-scripts', 'Scripts are the top floor.', '^lib/', '^scripts/'),
  {
    name: 'sql-lives-in-lib-db',
    comment: 'Queries are written once, in lib/db/queries; everything else calls them (no drizzle-orm above lib/db).',
    severity: 'error',
    from: { path: ['^lib/', ...TOP], pathNot: [DB, '^scripts/(cluster|bench)/'] },
    to: { path: '^node_modules/drizzle-orm/' },
  },
  {
    name: 'tables-stay-in-lib-db',
    comment: 'Only lib/db uses the tables; vocabulary (roles, statuses) comes from lib/domain, row types may be imported as types.',
    severity: 'error',
    from: { pathNot: DB },
    to: { path: '^lib/db/schema\\.ts$', dependencyTypesNot: ['type-only'] },
  },
  floor('components-never-touch-the-database', 'Components get data from pages and actions; their types come from lib/domain.', '^components/', DB),
];

const browserRules = [
  {
    name: 'client-never-reaches-server-only',
    comment: "A 'use client' module must not reach a module marked import 'server-only' (the database, secrets).",
    severity: 'error',
    from: { path: clientModules.length ? clientModules : ['^$'] },
    to: { path: serverOnlyModules.length ? serverOnlyModules : ['^$'], reachable: true },
  },
];

const config = {
  forbidden: BROWSER_PASS ? browserRules : floorRules,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        ...(BROWSER_PASS ? serverActionModules : []),
        '(^|/)(\\.next|\\.data|test-results|playwright-report|relay-fixtures|fixtures)/',
        '\\.test\\.tsx?$',
        '(^|/)test-[^/]+\\.ts$',
      ],
    },
    tsPreCompilationDeps: !BROWSER_PASS,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

export default config;
