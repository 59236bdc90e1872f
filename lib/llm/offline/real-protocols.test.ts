// The offline analyst against the protocol files themselves (lib/debate/protocols), not only the
// mirrored fixtures: if a protocol changes a step's act, context, evidence access or rules, this
// is where the analyst's fit to it is checked.
import { stepOutputSchema } from '@/lib/domain/step-output';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { runProtocol, type Case } from './test-fixtures';
import { ruleProblems } from './test-rules';

const CASES: Case[] = [
  { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 },
  { companyId: 'tesla', language: 'en', asOf: '2025-12-31', recencyDays: 365 },
];

describe.each(Object.values(PROTOCOLS_BY_ID).map((p) => [p.id, p] as const))('the %s protocol file', (_id, protocol) => {
  it.each(CASES.map((c) => [c.companyId, c] as const))(
    'runs end to end on %s: every output valid, every rule kept, every citation grounded',
    async (_name, c) => {
      const runs = await runProtocol(c, protocol);
      expect([...runs.keys()]).toEqual(protocol.steps.map((s) => s.id));
      for (const run of runs.values()) {
        expect(stepOutputSchema(run.step).safeParse(JSON.parse(run.result.raw)).success, run.step.id).toBe(true);
        expect(ruleProblems(run, runs)).toEqual([]);
      }
    },
  );
});
