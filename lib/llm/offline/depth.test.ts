// A branch's depth follows the evidence: KPD-MADS rebuttals answer a claim only with
// counter-evidence from the pool, and closings answer a question only when it sets dated
// counter-evidence against the claim (or the claim is itself a rebuttal). So REI
// (lib/eval/tree.ts) differs between borrowers whose pools differ.
import { describe, expect, it } from 'vitest';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { Claim } from '@/lib/domain/outputs';
import { buildReasoningTree } from '@/lib/eval/tree';
import { evidenceAsOf, runProtocol, type Case, type StepRun } from './test-fixtures';

const SAMSUNG: Case = { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };
const MONRO: Case = { companyId: 'monro-inc', language: 'en', asOf: '2021-06-30', recencyDays: 365 };
const WINTEC: Case = { companyId: 'wintec-automation', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };

const treeOf = (runs: Map<string, StepRun>) =>
  buildReasoningTree([...runs.values()].map((r) => ({ stepId: r.step.id, team: r.step.team, act: r.step.act, output: r.output })));
const claimsOf = (runs: Map<string, StepRun>, id: string) => (runs.get(id)!.output as { claims: Claim[] }).claims;

describe('KPD-MADS branch depth follows the evidence', () => {
  it('gives borrowers with different pools different depth profiles, and not every branch the same depth', async () => {
    const profiles = new Map<string, number[]>();
    for (const c of [SAMSUNG, MONRO, WINTEC]) profiles.set(c.companyId, treeOf(await runProtocol(c, PROTOCOLS_BY_ID['kpd-mads'])).depths);
    const samsung = profiles.get('samsung-electronics')!;
    // Samsung: claims nobody could answer with counter-evidence stop at the question (depth 2);
    // the others run on to an answer (depth 3).
    expect(new Set(samsung).size).toBeGreaterThan(1);
    expect(Math.min(...samsung)).toBe(2);
    expect(Math.max(...samsung)).toBe(3);
    // Monro's two items give two unanswered branches; Wintec's one factor a single branch.
    expect(profiles.get('monro-inc')).toEqual([2, 2]);
    expect(profiles.get('wintec-automation')).toEqual([3]);
    const rei = [...profiles.values()].map((d) => d.reduce((a, b) => a + b, 0));
    expect(new Set(rei).size).toBe(3);
  });

  it('rebuts a claim only with counter-evidence on its factor, never with an invented reading of its own item', async () => {
    const runs = await runProtocol(SAMSUNG, PROTOCOLS_BY_ID['kpd-mads']);
    const pool = evidenceAsOf(SAMSUNG.companyId, SAMSUNG.asOf, SAMSUNG.recencyDays);
    for (const [rebuttal, target] of [
      ['D5', 'D3'],
      ['D7', 'D1'],
    ] as const) {
      const side = rebuttal === 'D5' ? 'favorable' : 'adverse';
      const visible = new Set(runs.get(rebuttal)!.request.evidence.map((e) => e.id));
      for (const claim of claimsOf(runs, target)) {
        const own = new Set(claim.citations.map((c) => c.evidenceId));
        // What could be set against the claim: another visible item on its factor reading the side's way or either way.
        const counters = pool.filter(
          (e) => visible.has(e.id) && !own.has(e.id) && e.factor === claim.factor && (e.polarity === side || e.polarity === 'context'),
        );
        const answers = claimsOf(runs, rebuttal).filter((r) => r.respondsTo === claim.id);
        if (!counters.length) expect(answers, `${rebuttal} answers ${claim.id} with no counter-evidence`).toEqual([]);
        for (const a of answers) {
          expect(own.has(a.citations[0].evidenceId)).toBe(false);
          expect(counters.map((e) => e.id)).toContain(a.citations[0].evidenceId);
        }
      }
    }
  });

  it('Monro: with no counter-evidence on either side, neither rebuttal invents one and no closing answers a question', async () => {
    const runs = await runProtocol(MONRO, PROTOCOLS_BY_ID['kpd-mads']);
    expect(claimsOf(runs, 'D5')).toEqual([]);
    expect(claimsOf(runs, 'D7')).toEqual([]);
    for (const id of ['D9', 'D10']) for (const c of claimsOf(runs, id)) expect(c.respondsTo).toBeUndefined();
  });
});
