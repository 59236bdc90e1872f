// Stand-in for the `server-only` package outside Next (tsx scripts, workers, vitest), wired
// through tsconfig `paths`. Inside Next the compiler still checks the specifier: a client
// component that imports a module marked `import 'server-only'` fails the build.
export {};
