import { stepOutputSchema } from '@/lib/domain/step-output';
import { beforeAll, describe, expect, it } from 'vitest';
import { HORIZONS, type Claim, type StepOutput, type StoredSafetyCheck, type StoredStanceDraft } from '@/lib/domain/outputs';
import type { ContextTurn } from '@/lib/llm/types';
import { createOfflineAnalyst } from './index';
import { enforce } from '@/lib/debate/enforce';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { FINDEBATE } from '@/lib/debate/protocols';
import { FINDEBATE_STEPS, THREE_ROUND_STEPS, evidenceAsOf, protocolOf, requestFor, runProtocol, type Case, type StepRun } from './test-fixtures';
import { ruleProblems } from './test-rules';
import { wordCount } from './text';

const SAMSUNG: Case = { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };
const TESLA: Case = { companyId: 'tesla', language: 'en', asOf: '2025-12-31', recencyDays: 365 };

describe.each([
  ['Samsung, Korean', SAMSUNG],
  ['Tesla, English', TESLA],
])('three-round debate on %s', (_label, c) => {
  let runs: Map<string, StepRun>;
  const out = <K extends 'argumentsRound' | 'responsesRound' | 'closingRound' | 'rubricJudgment'>(id: string) => runs.get(id)!.output as StepOutput<K>;
  beforeAll(async () => {
    runs = await runProtocol(c, protocolOf('three-round'));
  });

  it('writes every step in its schema', () => {
    for (const run of runs.values()) expect(stepOutputSchema(run.step).safeParse(JSON.parse(run.result.raw)).success, run.step.id).toBe(true);
  });

  it('round 1: three to five numbered arguments per side, each with cited evidence the step was given', () => {
    for (const id of ['R1-A', 'R1-N']) {
      const round = out<'argumentsRound'>(id);
      const given = new Set(runs.get(id)!.request.evidence.map((e) => e.id));
      expect(round.arguments.length).toBeGreaterThanOrEqual(3);
      expect(round.arguments.length).toBeLessThanOrEqual(5);
      round.arguments.forEach((a, i) => {
        expect(a.id).toBe(`${id}-${i + 1}`);
        expect(a.evidence.length).toBeGreaterThan(0);
        for (const e of a.evidence) expect(given.has(e.evidenceId!)).toBe(true);
        expect(a.reasoning.length).toBeGreaterThan(20);
      });
    }
  });

  it('round 2: every opposing argument answered exactly once, no new arguments', () => {
    for (const [id, other] of [
      ['R2-A', 'R1-N'],
      ['R2-N', 'R1-A'],
    ] as const) {
      const responses = out<'responsesRound'>(id).responses;
      expect(responses.map((r) => r.targetId)).toEqual(out<'argumentsRound'>(other).arguments.map((a) => a.id));
      for (const r of responses) {
        expect(['refute', 'challenge', 'concede', 'partial']).toContain(r.kind);
        expect(r.followUp).toMatch(/\?$/);
      }
    }
  });

  it('round 3: closings of at most 200 words whose unrebutted arguments are their own and were not refuted', () => {
    for (const [id, own, answers] of [
      ['R3-A', 'R1-A', 'R2-N'],
      ['R3-N', 'R1-N', 'R2-A'],
    ] as const) {
      const closing = out<'closingRound'>(id);
      expect(wordCount(closing.text)).toBeLessThanOrEqual(200);
      expect(closing.text.length).toBeLessThanOrEqual(1400);
      const ownIds = out<'argumentsRound'>(own).arguments.map((a) => a.id);
      const refuted = out<'responsesRound'>(answers)
        .responses.filter((r) => r.kind === 'refute')
        .map((r) => r.targetId);
      for (const u of closing.unrebutted) {
        expect(ownIds).toContain(u);
        expect(refuted).not.toContain(u);
      }
      expect(closing.finalPosition.length).toBeGreaterThan(10);
    }
  });

  it('the rubric judge scores every argument with the 30/30/25/15 weighting and traces each one', () => {
    const judgment = out<'rubricJudgment'>('JUDGE');
    const ids = [...out<'argumentsRound'>('R1-A').arguments, ...out<'argumentsRound'>('R1-N').arguments].map((a) => a.id);
    expect(judgment.scores.map((s) => s.argumentId)).toEqual(ids);
    for (const s of judgment.scores) expect(s.weighted).toBeCloseTo(0.3 * s.logic + 0.3 * s.evidence + 0.25 * s.responsiveness + 0.15 * s.honesty, 2);
    // Side totals are averages, as the published rubric has them: a sum favours the side with more arguments.
    const mean = (prefix: string) => {
      const w = judgment.scores.filter((s) => s.argumentId.startsWith(`${prefix}-`)).map((s) => s.weighted);
      return w.reduce((n, x) => n + x, 0) / w.length;
    };
    // To two decimals.
    expect(Math.abs(judgment.overall.affirmativeTotal - mean('R1-A'))).toBeLessThanOrEqual(0.005 + 1e-9);
    expect(Math.abs(judgment.overall.negativeTotal - mean('R1-N'))).toBeLessThanOrEqual(0.005 + 1e-9);
    for (const total of [judgment.overall.affirmativeTotal, judgment.overall.negativeTotal]) {
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(10);
    }
    // The engine would change nothing in it.
    const enforced = enforce(
      THREE_ROUND_STEPS.find((s) => s.id === 'JUDGE')!,
      judgment,
      {
        context: ['R1-A', 'R1-N', 'R2-A', 'R2-N', 'R3-A', 'R3-N'].map((id) => ({ step: runs.get(id)!.step, output: runs.get(id)!.output })),
        language: c.language,
      },
    );
    expect(enforced.repairs).toEqual([]);
    expect(judgment.trace.map((t) => t.argumentId)).toEqual(ids);
    for (const f of judgment.fallacies) expect(ids).toContain(f.argumentId);
    // A refuted argument is traced as refuted.
    const refuted = [...out<'responsesRound'>('R2-A').responses, ...out<'responsesRound'>('R2-N').responses]
      .filter((r) => r.kind === 'refute')
      .map((r) => r.targetId);
    for (const t of judgment.trace) if (refuted.includes(t.argumentId)) expect(t.standing).toBe('REFUTED');
    expect(judgment.overall.recommendation.length).toBeGreaterThan(20);
  });
});

describe.each([
  ['Samsung, Korean', SAMSUNG],
  ['Tesla, English', TESLA],
])('FinDebate on %s', (_label, c) => {
  let runs: Map<string, StepRun>;
  const out = <T>(id: string) => runs.get(id)!.output as T;
  beforeAll(async () => {
    runs = await runProtocol(c, protocolOf('findebate'));
  });

  it('writes every step in its schema, grounded in what the step could see', () => {
    for (const run of runs.values()) {
      expect(stepOutputSchema(run.step).safeParse(JSON.parse(run.result.raw)).success, run.step.id).toBe(true);
      expect(ruleProblems(run, runs)).toEqual([]);
    }
  });

  it('specialists cite the passages they were given', () => {
    for (const id of ['S-PERF', 'S-MKT', 'S-MGMT', 'S-COLL', 'S-RISK']) {
      const passages = new Set(runs.get(id)!.request.passages.map((p) => p.id));
      for (const claim of out<{ claims: Claim[] }>(id).claims) for (const ci of claim.citations) expect(passages.has(ci.evidenceId!)).toBe(true);
    }
  });

  it('the draft takes a stance over two horizons with calibrated confidence', () => {
    const draft = out<StepOutput<'stanceDraft'>>('DRAFT');
    expect(['favorable', 'neutral', 'adverse']).toContain(draft.stance);
    expect(draft.horizons).toHaveLength(2);
    // Fixed codes, the same in Korean and English.
    expect(draft.horizons.map((h) => h.horizon)).toEqual(['12m', '36m']);
    for (const h of draft.horizons) expect(HORIZONS).toContain(h.horizon);
    for (const h of draft.horizons) {
      expect(h.confidence).toBeGreaterThan(0);
      expect(h.confidence).toBeLessThan(0.9);
    }
  });

  it('the trust agent backs draft claims, the skeptic adds adverse risks', () => {
    const draftIds = new Set(out<StepOutput<'stanceDraft'>>('DRAFT').claims.map((x) => x.id));
    for (const claim of out<{ claims: Claim[] }>('TRUST').claims) expect(draftIds.has(claim.respondsTo!)).toBe(true);
    for (const claim of out<{ claims: Claim[] }>('SKEPTIC').claims) expect(claim.polarity).toBe('adverse');
  });

  it("the skeptic reviews the trust agent's output: it cites none of its items and answers its claim on a shared factor", () => {
    const trust = out<{ claims: Claim[] }>('TRUST').claims;
    const skeptic = out<{ claims: Claim[] }>('SKEPTIC').claims;
    expect(runs.get('SKEPTIC')!.request.context.map((t) => t.stepId)).toEqual(['DRAFT', 'TRUST']);
    const trustCited = new Set(trust.flatMap((x) => x.citations.map((ci) => ci.evidenceId)));
    for (const claim of skeptic) for (const ci of claim.citations) expect(trustCited.has(ci.evidenceId)).toBe(false);
    for (const claim of skeptic) {
      const backed = trust.find((t) => t.factor === claim.factor);
      if (backed) expect(claim.respondsTo).toBe(backed.id);
    }
    // On both cases the skeptic takes on at least one of the trust agent's supports.
    expect(skeptic.filter((x) => trust.some((t) => t.id === x.respondsTo)).length).toBeGreaterThan(0);
  });

  it('the engine would change nothing in the safety check', () => {
    const context = ['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER'].map((id) => ({ step: runs.get(id)!.step, output: runs.get(id)!.output }));
    expect(enforce(runs.get('SAFETY')!.step, runs.get('SAFETY')!.output, { context, language: c.language }).repairs).toEqual([]);
  });

  it('the safety check keeps the leader only when stance and horizons held; the engine stores the version it kept as the report', () => {
    const check = out<StepOutput<'safetyCheck'>>('SAFETY');
    const draft = out<StepOutput<'stanceDraft'>>('DRAFT');
    const leader = out<StepOutput<'stanceDraft'>>('LEADER');
    expect(check.stanceChanged).toBe(draft.stance !== leader.stance);
    expect(check.kept).toBe(check.stanceChanged || check.horizonsChanged ? 'draft' : 'final');
    // A decision and no edits, never a copy of the version.
    expect(check.edits).toEqual([]);
    expect(check).not.toHaveProperty('report');
    const context = ['DRAFT', 'TRUST', 'SKEPTIC', 'LEADER'].map((id) => ({ step: runs.get(id)!.step, output: runs.get(id)!.output }));
    const stored = enforce(runs.get('SAFETY')!.step, check, { context, language: c.language }).output as StoredSafetyCheck;
    expect(stored.report).toEqual(check.kept === 'draft' ? draft : leader);
  });
});

describe('the FinDebate safety check', () => {
  it('keeps the draft, unchanged, when the debate moved the stance', async () => {
    const draft: StoredStanceDraft = {
      text: 'Stance: favorable.',
      stance: 'favorable',
      horizons: [{ horizon: '12 months', outlook: 'favorable', confidence: 0.6 }],
      claims: [],
    };
    const leader: StoredStanceDraft = {
      ...draft,
      text: 'Stance: adverse.',
      stance: 'adverse',
      horizons: [{ horizon: '12 months', outlook: 'adverse', confidence: 0.5 }],
    };
    const context: ContextTurn[] = [
      { stepId: 'DRAFT', agent: 'writer', team: 'neutral', act: 'draft', text: draft.text, output: draft },
      { stepId: 'LEADER', agent: 'leader', team: 'neutral', act: 'aggregation', text: leader.text, output: leader },
    ];
    const step = FINDEBATE_STEPS.find((s) => s.id === 'SAFETY')!;
    const result = await createOfflineAnalyst().generate(requestFor(TESLA, protocolOf('findebate'), step, context));
    const check = JSON.parse(result.raw) as StepOutput<'safetyCheck'>;
    expect(check).toEqual({ reason: expect.any(String), stanceChanged: true, horizonsChanged: true, kept: 'draft', edits: [] });
    expect(check.reason).toMatch(/moved the stance from favorable to adverse/);
  });

  it('keeps the draft when the trust agent and the skeptic recommended nothing, though the stance held', async () => {
    const draft: StoredStanceDraft = {
      text: 'Stance: neutral.',
      stance: 'neutral',
      horizons: [{ horizon: '12m', outlook: 'neutral', confidence: 0.4 }],
      claims: [],
    };
    // An older run's label for the same horizon: not a change.
    const leader: StoredStanceDraft = { ...draft, text: 'Stance: neutral, merged.', horizons: [{ horizon: '12개월', outlook: 'neutral', confidence: 0.45 }] };
    const empty = { text: 'Nothing to add.', claims: [], questions: [] };
    const context: ContextTurn[] = [
      { stepId: 'DRAFT', agent: 'writer', team: 'neutral', act: 'draft', text: draft.text, output: draft },
      { stepId: 'TRUST', agent: 'trust-agent', team: 'neutral', act: 'debate', text: empty.text, output: empty },
      { stepId: 'SKEPTIC', agent: 'skeptic', team: 'negative', act: 'debate', text: empty.text, output: empty },
      { stepId: 'LEADER', agent: 'leader', team: 'neutral', act: 'aggregation', text: leader.text, output: leader },
    ];
    const step = FINDEBATE_STEPS.find((s) => s.id === 'SAFETY')!;
    const result = await createOfflineAnalyst().generate(requestFor(TESLA, protocolOf('findebate'), step, context));
    const check = JSON.parse(result.raw) as StepOutput<'safetyCheck'>;
    expect(check).toMatchObject({ stanceChanged: false, horizonsChanged: false, kept: 'draft', edits: [] });
    expect(check.reason).toBe('The trust agent and the skeptic recommended nothing, so the debate round had nothing to add and the draft is kept.');
  });

  // The trust agent is not shown the items the draft cites (lib/debate/evidence-scope.ts): on
  // Tesla at the end of 2024 the draft cites every `other` item, so its first five claims have
  // nothing more to show, and the trust agent backs the later management claim instead.
  it('the trust agent looks past claims it cannot back, and says once per factor that it cannot', async () => {
    const c: Case = { companyId: 'tesla', language: 'en', asOf: '2024-12-31', recencyDays: 3 * 365 };
    const pool = evidenceAsOf(c.companyId, c.asOf, c.recencyDays);
    const cite = (id: string, n: number): Claim => {
      const e = pool.find((x) => x.id === id)!;
      return {
        id: `DRAFT-c${n + 1}`,
        text: e.title,
        factor: e.factor ?? 'other',
        polarity: 'context',
        citations: [{ evidenceId: id, source: e.sourceName, date: e.publishedDate }],
      };
    };
    const draft: StoredStanceDraft = {
      text: 'Stance: neutral.',
      stance: 'neutral',
      horizons: [{ horizon: '12m', outlook: 'neutral', confidence: 0.4 }],
      claims: ['tesla-015', 'tesla-016', 'tesla-011', 'tesla-012', 'tesla-013', 'tesla-001'].map(cite),
    };
    const context: ContextTurn[] = [{ stepId: 'DRAFT', agent: 'writer', team: 'neutral', act: 'draft', text: draft.text, output: draft }];
    const step = FINDEBATE.steps.find((s) => s.id === 'TRUST')!;
    const evidence = visibleEvidence(step, pool, context);
    // Only management items the draft does not cite: no `other` item is left to show.
    expect(evidence.every((e) => e.factor === 'management_continuity' && e.id !== 'tesla-001')).toBe(true);
    const result = await createOfflineAnalyst().generate({ ...requestFor(c, FINDEBATE, step, context), evidence, passages: [] });
    const turn = JSON.parse(result.raw) as StepOutput<'turn'>;
    expect(turn.claims.map((k) => [k.respondsTo, k.factor])).toEqual([['DRAFT-c6', 'management_continuity']]);
    expect(evidence.map((e) => e.id)).toContain(turn.claims[0].citations[0].evidenceId);
    expect(turn.text.match(/No further passage supports other matters/g)).toHaveLength(1);
  });
});
