// Fixed ids of the demo cases and run, which the demo seed (lib/demo/seed.ts) writes under these
// ids so links, docs, the access map's sample URLs (lib/auth/permissions.ts) and the e2e tests
// can name them. Pure data, safe to import anywhere, the browser included.
export const DEMO_IDS = {
  /** The draft a newcomer starts on (Tesla): evidence on eight factors, so a run debates in full. */
  draftCase: '00000000-0000-4000-8000-00000000c001',
  /** The second draft (Taeyoung E&C): one filing, so a run ends as insufficient evidence. */
  thinCase: '00000000-0000-4000-8000-00000000c003',
  submittedCase: '00000000-0000-4000-8000-00000000c002',
  run: '00000000-0000-4000-8000-00000000a001',
} as const;
