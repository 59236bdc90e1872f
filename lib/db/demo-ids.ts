// Fixed ids of the demo cases and run (lib/db/seed.ts), so links, docs and the access-matrix
// tests can name them. Pure data, safe to import anywhere.
export const DEMO_IDS = {
  draftCase: '00000000-0000-4000-8000-00000000c001',
  submittedCase: '00000000-0000-4000-8000-00000000c002',
  run: '00000000-0000-4000-8000-00000000a001',
} as const;
