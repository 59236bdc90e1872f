// The worker thread's entry: plain JavaScript, so Node starts it as it is in every setting (the
// Next.js server, the CLI, the tests); it loads the TypeScript reader through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./extract-worker.ts', import.meta.url);
