import { stepOutputSchema } from '@/lib/domain/step-output';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Citation, Claim, Question, Report } from '@/lib/domain/outputs';
import { phrasesFor } from './env';
import { protocolOf, runProtocol, type Case, type StepRun } from './test-fixtures';
import { hangul, ownProse, ruleProblems } from './test-rules';

const SAMSUNG: Case = { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };
const TESLA: Case = { companyId: 'tesla', language: 'en', asOf: '2025-12-31', recencyDays: 365 };

type TurnOut = { text: string; claims: Claim[]; questions: Question[]; falsifiability?: string };
const turn = (runs: Map<string, StepRun>, id: string) => runs.get(id)!.output as TurnOut;
const citeKey = (c: Citation) => `${c.evidenceId}|${c.source}|${c.date}`;

describe.each([
  ['Samsung, Korean', SAMSUNG],
  ['Tesla, English', TESLA],
])('KPD-MADS on %s', (_label, c) => {
  let runs: Map<string, StepRun>;
  beforeAll(async () => {
    runs = await runProtocol(c, protocolOf('kpd-mads'));
  });

  it('writes every step in its schema and within its rules, each citation grounded in what the step could see', () => {
    for (const run of runs.values()) {
      expect(stepOutputSchema(run.step).safeParse(JSON.parse(run.result.raw)).success, run.step.id).toBe(true);
      expect(ruleProblems(run, runs)).toEqual([]);
    }
  });

  it('D1: one core claim and at least three favorable signals on distinct factors, each cited to a given item with its assumption', () => {
    const d1 = turn(runs, 'D1');
    const given = new Set(runs.get('D1')!.request.evidence.map((e) => e.id));
    expect(d1.claims.length).toBeGreaterThanOrEqual(3);
    expect(new Set(d1.claims.map((x) => x.factor)).size).toBe(d1.claims.length);
    for (const claim of d1.claims) {
      expect(claim.polarity).toBe('favorable');
      expect(claim.id).toMatch(/^D1-c\d+$/);
      expect(claim.assumptions?.length).toBeGreaterThan(0);
      for (const ci of claim.citations) expect(given.has(ci.evidenceId!)).toBe(true);
    }
    expect(d1.falsifiability).toBeTruthy();
    expect(d1.text.length).toBeLessThanOrEqual(600);
  });

  it('D1 says so when it falls back on stale evidence', () => {
    const d1 = turn(runs, 'D1');
    const evidence = runs.get('D1')!.request.evidence;
    const stale = d1.claims.some((x) => x.citations.some((ci) => evidence.find((e) => e.id === ci.evidenceId)?.stale));
    if (stale) expect(d1.text).toMatch(/최근성 기간 밖|older than the recency window/);
  });

  it('D2: exactly three questions, each aimed at a real D1 claim and quoting it, over at least two factors', () => {
    const d1 = turn(runs, 'D1');
    const d2 = turn(runs, 'D2');
    expect(d2.questions).toHaveLength(3);
    const targets = d2.questions.map((q) => d1.claims.find((x) => x.id === q.targetClaimId));
    expect(targets.every(Boolean)).toBe(true);
    expect(new Set(targets.map((t) => t!.factor)).size).toBeGreaterThanOrEqual(2);
    expect(d2.questions.map((q) => q.kind).sort()).toEqual(['counterexample', 'interpretation', 'reliability']);
    for (const q of d2.questions) expect(q.text).toMatch(/“[^”]+”/);
    expect(d2.claims).toEqual([]);
  });

  it('D3: an adverse or context case on factors D1 did not use', () => {
    const d1Factors = new Set(turn(runs, 'D1').claims.map((x) => x.factor));
    const d3 = turn(runs, 'D3');
    expect(d3.claims.length).toBeGreaterThanOrEqual(3);
    for (const claim of d3.claims) {
      expect(d1Factors.has(claim.factor)).toBe(false);
      expect(['adverse', 'context']).toContain(claim.polarity);
    }
  });

  it('D4, D6, D8: three questions of the kinds their act calls for, aimed at the turn they examine', () => {
    const kinds = {
      D4: ['alternative', 'boundary', 'measurement'],
      D6: ['consistency', 'credibility', 'testability'],
      D8: ['gap', 'omitted', 'contradiction'],
    };
    const examined = { D4: 'D3', D6: 'D5', D8: 'D7' } as const;
    for (const [id, expected] of Object.entries(kinds) as [keyof typeof examined, string[]][]) {
      const t = turn(runs, id);
      const targetIds = new Set(turn(runs, examined[id]).claims.map((x) => x.id));
      expect(t.questions.map((q) => q.kind)).toEqual(expected);
      for (const q of t.questions) expect(targetIds.has(q.targetClaimId)).toBe(true);
    }
  });

  it('D5 rebuts D3 and D7 rebuts D1: every claim answers a claim of the turn it rebuts, with a dated source', () => {
    for (const [id, target] of [
      ['D5', 'D3'],
      ['D7', 'D1'],
    ] as const) {
      const t = turn(runs, id);
      const targetIds = new Set(turn(runs, target).claims.map((x) => x.id));
      expect(t.claims.length).toBeGreaterThan(0);
      for (const claim of t.claims) {
        expect(targetIds.has(claim.respondsTo!)).toBe(true);
        expect(claim.citations[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(claim.citations[0].source).toBeTruthy();
      }
      expect(t.text.length).toBeLessThanOrEqual(400);
    }
  });

  it('D9 and D10 close on their own material only and answer the questions their side received', () => {
    for (const [id, asked] of [
      ['D9', 'D2'],
      ['D10', 'D4'],
    ] as const) {
      const run = runs.get(id)!;
      const t = turn(runs, id);
      const context = run.step.context.flatMap((s) => turn(runs, s).claims);
      const factors = new Set(context.map((x) => x.factor));
      const cited = new Set(context.flatMap((x) => x.citations.map(citeKey)));
      for (const claim of t.claims) {
        expect(factors.has(claim.factor)).toBe(true);
        for (const ci of claim.citations) expect(cited.has(citeKey(ci))).toBe(true);
      }
      // Only questions that set dated counter-evidence against a claim are answered; without
      // counter-evidence the claim stands as argued and its branch stops at the question.
      const P = phrasesFor(c.language);
      const seen = new Set<string>();
      const expected = turn(runs, asked)
        .questions.filter((q) => P.raisesCounter(q.text) && !seen.has(q.targetClaimId) && seen.add(q.targetClaimId))
        .map((q) => q.id);
      const answered = t.claims.map((x) => x.respondsTo).filter(Boolean);
      expect(answered).toEqual(expected);
      expect(t.text.length).toBeLessThanOrEqual(700);
    }
  });

  it('D9 and D10 quote, for each restated claim, the title of an item that claim cites', () => {
    const titles = new Map(runs.get('D1')!.request.evidence.map((e) => [e.id, e.title]));
    for (const id of ['D9', 'D10']) {
      for (const claim of turn(runs, id).claims) {
        const quoted = [...claim.text.matchAll(/“([^”]+)”/g)].map((m) => m[1].replace(/…$/, ''));
        if (!quoted.length || claim.respondsTo) continue;
        const cited = claim.citations.map((ci) => titles.get(ci.evidenceId!) ?? '');
        expect(
          quoted.some((q) => cited.some((t) => t.startsWith(q))),
          `${id} ${claim.id}: ${claim.text}`,
        ).toBe(true);
      }
    }
  });

  it('AG names what each cross-examination probed instead of repeating the questions, which stay in the transcript', () => {
    const report = runs.get('AG')!.output as Report;
    const readings = report.topics.flatMap((t) => [t.affirmative, t.adverse]).join('\n');
    for (const id of ['D2', 'D4', 'D6', 'D8']) {
      expect(readings).toContain(id);
      for (const q of turn(runs, id).questions) expect(readings).not.toContain(q.text);
    }
  });

  it('AG keeps both sides, one topic per factor-level topic, and cites every source the debate cited', () => {
    const report = runs.get('AG')!.output as Report;
    const names = report.topics.map((t) => t.topic);
    expect(new Set(names).size).toBe(names.length);
    expect(report.topics.some((t) => t.affirmative !== '')).toBe(true);
    expect(report.topics.some((t) => t.adverse !== '')).toBe(true);
    expect(report.favorableSummary.length).toBeGreaterThan(0);
    expect(report.adverseSummary.length).toBeGreaterThan(0);
    const inReport = new Set(report.topics.flatMap((t) => t.citations.map(citeKey)));
    for (const id of ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10']) {
      for (const claim of turn(runs, id).claims) for (const ci of claim.citations) expect(inReport.has(citeKey(ci)), `${claim.id} ${citeKey(ci)}`).toBe(true);
    }
    expect(report.objective).toContain(c.asOf);
  });

  it('claim and question ids are unique across the run', () => {
    const ids = [...runs.values()].flatMap((r) => [...((r.output as TurnOut).claims ?? []), ...((r.output as TurnOut).questions ?? [])].map((x) => x.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it(`writes in ${c.language === 'ko' ? 'Korean' : 'English'}`, () => {
    for (const id of ['D1', 'D2', 'D5', 'D9']) {
      const prose = ownProse(turn(runs, id).text);
      if (c.language === 'ko') expect(hangul(prose) / prose.replace(/\s/g, '').length, id).toBeGreaterThan(0.5);
      else expect(hangul(prose), id).toBe(0);
    }
  });
});

describe('KPD-MADS on Samsung in English', () => {
  it('writes the same debate in English: own prose without Hangul, quoted Korean titles kept', async () => {
    const runs = await runProtocol({ ...SAMSUNG, language: 'en' }, protocolOf('kpd-mads'));
    const d1 = turn(runs, 'D1');
    expect(d1.text).toMatch(/^Core claim: Samsung Electronics/);
    expect(hangul(ownProse(d1.text))).toBe(0);
    expect(hangul(d1.text)).toBeGreaterThan(0);
    for (const run of runs.values()) expect(ruleProblems(run, runs)).toEqual([]);
  });
});
