import { stepOutputSchema } from '@/lib/domain/step-output';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Citation, Claim, Question, Report, StepOutput } from '@/lib/domain/outputs';
import { protocolOf, runProtocol, type Case, type StepRun } from './test-fixtures';
import { ruleProblems } from './test-rules';
import { wordCount } from './text';

const SAMSUNG: Case = { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };
const TESLA: Case = { companyId: 'tesla', language: 'en', asOf: '2025-12-31', recencyDays: 365 };

type TurnOut = { text: string; claims: Claim[]; questions: Question[] };
const key = (c: Citation) => `${c.evidenceId}|${c.source}|${c.date}`;

describe.each([
  ['Samsung, Korean', SAMSUNG],
  ['Tesla, English', TESLA],
])('NAS on %s', (_label, c) => {
  it('reports claim → evidence → implication per factor in the pool, both readings kept, one topic per factor', async () => {
    const runs = await runProtocol(c, protocolOf('nas'));
    const run = runs.get('NAS')!;
    const report = run.output as Report;
    const factors = new Set(run.request.evidence.map((e) => e.factor));
    expect(report.topics.map((t) => t.factor).sort()).toEqual([...factors].sort());
    expect(new Set(report.topics.map((t) => t.topic)).size).toBe(report.topics.length);
    const chain = c.language === 'ko' ? /^주장: .+ 근거: .+ 시사점: / : /^Claim: .+ Evidence: .+ Implication: /;
    for (const t of report.topics) {
      for (const reading of [t.affirmative, t.adverse].filter(Boolean)) expect(reading).toMatch(chain);
      expect(t.citations.length).toBeGreaterThan(0);
      for (const ci of t.citations) expect(run.request.evidence.some((e) => e.id === ci.evidenceId && e.publishedDate === ci.date)).toBe(true);
    }
    expect(report.favorableSummary.length).toBeGreaterThan(0);
    expect(report.adverseSummary.length).toBeGreaterThan(0);
    expect(report.overview).toMatch(c.language === 'ko' ? /웹 검색 결과 없이/ : /No web results were used/);
  });
});

describe.each([
  ['Samsung, Korean', SAMSUNG],
  ['Tesla, English', TESLA],
])('SAS on %s', (_label, c) => {
  let runs: Map<string, StepRun>;
  const out = <T>(id: string) => runs.get(id)!.output as T;
  beforeAll(async () => {
    runs = await runProtocol(c, protocolOf('sas'));
  });

  it('writes every step in its schema, grounded in what the step could see', () => {
    for (const run of runs.values()) {
      expect(stepOutputSchema(run.step).safeParse(JSON.parse(run.result.raw)).success, run.step.id).toBe(true);
      expect(ruleProblems(run, runs)).toEqual([]);
    }
  });

  it('briefings: figures with citations, management quotes, an industry narrative within its limit in characters, whole sentences', () => {
    const facts = out<{ text: string; claims: Claim[] }>('B-F');
    expect(facts.claims.length).toBeGreaterThan(0);
    const bm = out<{ text: string; claims: Claim[] }>('B-M');
    for (const claim of bm.claims) expect(claim.text).toMatch(/“[^”]+”/);
    const narrative = out<{ text: string }>('B-I').text;
    expect(narrative.length).toBeLessThanOrEqual(runs.get('B-I')!.step.maxChars!);
    // Cut at a sentence, not by the fitting that shortens an over-long text.
    expect(narrative).toMatch(/[.다]$/);
  });

  it('openings argue from the briefings only: every citation is one a briefing made', () => {
    const briefed = new Set(['B-F', 'B-M', 'B-I'].flatMap((id) => out<TurnOut>(id).claims.flatMap((x) => x.citations.map(key))));
    for (const id of ['O-A', 'O-N']) {
      const opening = out<TurnOut>(id);
      expect(opening.claims.length).toBeGreaterThan(0);
      for (const claim of opening.claims) for (const ci of claim.citations) expect(briefed.has(key(ci))).toBe(true);
    }
  });

  it("the devil's advocate puts one to three challenges to each opening, and each side answers its own", () => {
    const challenges = out<TurnOut>('C').questions;
    for (const id of ['O-A', 'O-N']) {
      const ids = new Set(out<TurnOut>(id).claims.map((x) => x.id));
      const n = challenges.filter((q) => ids.has(q.targetClaimId)).length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(3);
    }
    for (const [id, opening] of [
      ['R-A', 'O-A'],
      ['R-N', 'O-N'],
    ] as const) {
      const ids = new Set(out<TurnOut>(opening).claims.map((x) => x.id));
      const own = challenges.filter((q) => ids.has(q.targetClaimId)).map((q) => q.id);
      const answered = out<TurnOut>(id).claims.map((x) => x.respondsTo);
      for (const q of own) expect(answered).toContain(q);
    }
  });

  it('J-DA presses at most one follow-up per side, and the side answers it or says none came', () => {
    const jda = out<TurnOut>('J-DA');
    expect(jda.questions.length).toBeLessThanOrEqual(2);
    for (const [id, team] of [
      ['F-A', 'affirmative'],
      ['F-N', 'negative'],
    ] as const) {
      const own = new Set([...runs.values()].filter((r) => r.step.team === team).flatMap((r) => ((r.output as TurnOut).claims ?? []).map((x) => x.id)));
      const asked = jda.questions.filter((q) => own.has(q.targetClaimId));
      const answer = out<TurnOut>(id);
      if (asked.length) expect(answer.claims.map((x) => x.respondsTo)).toEqual(asked.map((q) => q.id));
      else expect(answer.claims).toEqual([]);
    }
  });

  it('the judge names a side in one sentence; the stress analyst names its most fragile assumption', () => {
    const judgment = out<StepOutput<'sasJudgment'>>('JUDGE');
    expect(['affirmative', 'negative']).toContain(judgment.winner);
    expect(judgment.justification.trim().split(/(?<=[.!?다])\s+(?=[A-Z가-힣])/)).toHaveLength(1);
    const stress = out<StepOutput<'sasStress'>>('STRESS');
    expect(stress.assumption.length).toBeGreaterThan(10);
    expect(stress.critique.length).toBeGreaterThan(20);
  });

  it('the lead report runs about 700–800 words and never mentions how it was produced', () => {
    const report = out<StepOutput<'sasReport'>>('LEAD');
    const words = wordCount(
      [report.executiveSummary, report.evidenceReview, ...report.keyTakeaways, report.primaryRisk, report.mitigation, report.outlook].join(' '),
    );
    if (c.language === 'en') expect(words).toBeGreaterThanOrEqual(650);
    else expect(words).toBeGreaterThanOrEqual(550); // Korean words (어절) carry more than English ones
    expect(words).toBeLessThanOrEqual(800);
    const all = JSON.stringify(report);
    expect(all).not.toMatch(/debate|affirmative|negative|devil|judge|stress analyst|round|opening|rebuttal|agent/i);
    expect(all).not.toMatch(/토론|찬성 측|반대 측|판정|반박|에이전트/);
    expect(report.keyTakeaways.length).toBeGreaterThanOrEqual(3);
  });
});
