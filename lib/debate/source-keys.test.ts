import { describe, expect, it } from 'vitest';
import { resolveCitations, type KnownEvidence, type ResolvedCitation } from '@/lib/debate/checks';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { buildPrompt, type PromptInput } from '@/lib/debate/prompts';
import { KPD_MADS, SAS } from '@/lib/debate/protocols';
import { sectionPrompt } from '@/lib/debate/section-prompts';
import { liveStep } from '@/lib/debate/live-step';
import { sourceKeys, sourceTable } from '@/lib/domain/source-keys';
import type { Turn } from '@/lib/domain/outputs';
import type { ProtocolDef, RunEvent, RunParams, StepDef } from '@/lib/domain/protocol';
import { sectionCalls } from '@/lib/domain/sections';
import type { ContextTurn, StepRedFlag } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';

const FILING = 'SEC EDGAR — Acme Corp. Form 10-K for fiscal year 2023 (accession 0000950170-24-012345)';
const NEWS = 'Example Daily';
const REGULATOR = 'Financial Supervisory Service';

function item(id: string, sourceName: string, publishedDate: string, factor: string, polarity: 'favorable' | 'adverse'): EvidenceAsOf {
  return {
    id,
    companyId: 'acme',
    category: 'news',
    factor,
    polarity,
    factorSource: 'rule',
    title: `Title of ${id}`,
    text: `What ${id} records about the borrower.`,
    value: null,
    eventDate: null,
    publishedDate,
    sourceName,
    sourceUrl: `https://example.test/${id}`,
    language: 'en',
    stale: false,
  };
}

// Three sources, the filing's long name behind most items, on both sides.
const POOL: EvidenceAsOf[] = [
  item('ev-1', FILING, '2024-03-01', 'industry_growth_outlook', 'favorable'),
  item('ev-2', FILING, '2024-03-01', 'management_continuity', 'favorable'),
  item('ev-3', FILING, '2024-03-01', 'economic_sensitivity', 'adverse'),
  item('ev-4', FILING, '2024-03-01', 'internal_control_risk', 'adverse'),
  item('ev-5', NEWS, '2024-05-20', 'certifications', 'favorable'),
  item('ev-6', NEWS, '2024-04-02', 'industry_competition_intensity', 'adverse'),
  item('ev-7', REGULATOR, '2024-02-10', 'internal_control_risk', 'adverse'),
];
const SOURCES = sourceTable(POOL);

const FLAG: StepRedFlag = {
  kind: 'regulatory_sanction',
  evidenceId: 'ev-7',
  date: '2024-02-01',
  title: 'Fine for a disclosure breach',
  sourceName: REGULATOR,
  publishedDate: '2024-02-10',
  text: 'The regulator fined the borrower.',
};

const PARAMS: RunParams = { language: 'en', asOf: '2024-06-30', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };
const COMPANY = { id: 'acme', name: 'Acme Corp.', nameEn: null, country: 'US', industry: 'Machinery' };

/**
 * A turn as a model writes it: prose that repeats its claims' and questions' words, citations by
 * the full name (as stored). What a model writes in its prose is its own and is not rewritten, so
 * the prose here names no source.
 */
function turnFor(step: StepDef): Turn {
  const asks = step.act === 'cross-examination' || step.act === 'challenge';
  const side = POOL.filter((e) => (step.team === 'negative' ? e.polarity === 'adverse' : e.polarity === 'favorable'));
  const claims = asks
    ? []
    : side.slice(0, 2).map((e, i) => ({
        id: `${step.id}-c${i + 1}`,
        text: `${step.id} reads ${e.id} (${e.publishedDate}) as a signal on ${e.factor} that bears on repayment.`,
        factor: e.factor!,
        polarity: e.polarity as 'favorable' | 'adverse',
        citations: [{ evidenceId: e.id, source: e.sourceName, date: e.publishedDate }],
      }));
  const target = step.context[0];
  const questions = asks
    ? [1, 2].map((i) => ({
        id: `${step.id}-q${i}`,
        targetClaimId: `${target}-c${i}`,
        kind: 'reliability',
        text: `Question ${i} of ${step.id}: how current and complete is the filing behind this claim?`,
      }))
    : [];
  const text = [`Opening words of ${step.id}.`, ...claims.map((c, i) => `(${i + 1}) ${c.text}`), ...questions.map((q, i) => `(${i + 1}) ${q.text}`)].join('\n');
  return { text, claims, questions };
}

function inputsOf(protocol: ProtocolDef, sources: string[] | null = SOURCES) {
  const turns = new Map<string, ContextTurn>(
    protocol.steps.map((s) => [s.id, { stepId: s.id, agent: s.agent, team: s.team, act: s.act, text: turnFor(s).text, output: turnFor(s) }]),
  );
  return protocol.steps.map((step): PromptInput => {
    const context = step.context.map((id) => turns.get(id)!);
    return {
      runId: 'run-1',
      protocol,
      step,
      params: PARAMS,
      company: COMPANY,
      evidence: visibleEvidence(step, POOL, context),
      passages: [],
      context,
      redFlags: [FLAG],
      sources: sources ?? undefined,
    };
  });
}

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('the source table', () => {
  it('names each source once, in one order whatever order the pool comes in', () => {
    expect(SOURCES).toEqual([NEWS, REGULATOR, FILING]);
    expect(sourceTable([...POOL].reverse())).toEqual(SOURCES);
    const keys = sourceKeys(SOURCES);
    expect(keys.keyOf(FILING)).toBe('S3');
    expect(keys.nameOf('S3')).toBe(FILING);
    expect(keys.nameOf(' s2 ')).toBe(REGULATOR);
    expect(keys.nameOf('[S1]')).toBe(NEWS);
    expect(keys.nameOf('S4')).toBeUndefined();
    expect(keys.nameOf('Sony')).toBeUndefined();
    expect(keys.keyOf('Reuters')).toBeUndefined();
  });
});

describe('prompts name each source once', () => {
  for (const protocol of [KPD_MADS, SAS]) {
    it(`${protocol.name}: every step's prompt names each source once, in the header, and keys it everywhere else`, () => {
      for (const input of inputsOf(protocol)) {
        const { system, user } = buildPrompt(input);
        for (const name of SOURCES) {
          expect(count(`${system}\n${user}`, name), `${input.step.id}: ${name}`).toBe(1);
          expect(system).toContain(`: ${name}`);
        }
        expect(system).toContain('Cite by key; in prose, name the source.');
        // The red flag gives its source by key; so does every evidence line the step sees.
        expect(system).toContain('[ev-7] regulatory sanction | event 2024-02-01 | published 2024-02-10 | source: S2 |');
        for (const e of input.evidence)
          expect(user).toContain(`[${e.id}] | published ${e.publishedDate} | source: ${sourceKeys(SOURCES).keyOf(e.sourceName)} |`);
      }
    });
  }

  it('keys the citations of the turns a step receives (KPD-MADS D9 sees no evidence, only its turns)', () => {
    const d9 = inputsOf(KPD_MADS).find((i) => i.step.id === 'D9')!;
    const { user } = buildPrompt(d9);
    expect(user).toContain('(cites: ev-1 2024-03-01 S3)');
    expect(user).not.toContain(`ev-1 2024-03-01 ${FILING}`);
  });

  it("a sectioned step's every call names each source once too, the overview with what the sections wrote", () => {
    const ag = inputsOf(KPD_MADS).find((i) => i.step.id === KPD_MADS.reportStep)!;
    const cited = { evidenceId: 'ev-1', source: FILING, date: '2024-03-01' };
    const written = [
      {
        key: 'governance',
        output: { topics: [{ topic: 'Growth', factor: 'industry_growth_outlook', affirmative: 'It grows.', adverse: '', citations: [cited] }] },
      },
      { key: 'summaries', output: { favorableSummary: ['Growth (2024-03-01): it grows.'], adverseSummary: [] } },
    ];
    for (const call of sectionCalls(ag.step.sections!)) {
      const q = sectionPrompt(ag, call, call.overview ? written : []);
      for (const name of SOURCES) expect(count(`${q.system}\n${q.user}`, name), `${call.key}: ${name}`).toBe(1);
      // The overview reads the topics by their titles and the summaries in full.
      if (call.overview) {
        expect(q.user).toContain('{"topics":[{"topic":"Growth","factor":"industry_growth_outlook"}]}');
        expect(q.user).not.toContain('It grows."');
        expect(q.user).toContain('"favorableSummary":["Growth (2024-03-01): it grows."]');
      }
    }
  });

  it('keeps the header byte-identical for every step and the shared start of the user messages', () => {
    const prompts = inputsOf(KPD_MADS).map(buildPrompt);
    for (const p of prompts) expect(p.system).toBe(prompts[0].system);
    // D4 and D5 see the same evidence and turns: the same bytes up to their own part.
    const own = (user: string) => user.slice(0, user.indexOf('# Your step'));
    const [d4, d5] = ['D4', 'D5'].map((id) => prompts[KPD_MADS.steps.findIndex((s) => s.id === id)].user);
    expect(own(d4).length).toBeGreaterThan(200);
    expect(own(d5)).toBe(own(d4));
  });

  it('without a source table (no run: the automated judges) writes the names out, as before', () => {
    const [d1] = inputsOf(KPD_MADS, null);
    const { system, user } = buildPrompt(d1);
    expect(system).not.toContain('<sources>');
    expect(user).toContain(`source: ${FILING}`);
  });
});

describe('a turn that repeats its claims and questions in its prose', () => {
  it("carries each claim's and question's words once, the prose pointing to them", () => {
    const inputs = inputsOf(KPD_MADS);
    const d3 = inputs.find((i) => i.step.id === 'D3')!;
    const { user } = buildPrompt(d3);
    const d1 = turnFor(KPD_MADS.steps[0]);
    for (const c of d1.claims) {
      expect(count(user, c.text)).toBe(1);
      expect(user).toContain(`[claim ${c.id}, below]`);
    }
    // D9 receives D2's questions, which D2's prose repeats word for word.
    const q = turnFor(KPD_MADS.steps.find((s) => s.id === 'D2')!).questions[0];
    const seen = buildPrompt(inputs.find((i) => i.step.id === 'D9')!).user;
    expect(count(seen, q.text)).toBe(1);
    expect(seen).toContain(`(1) [question ${q.id}, below]`);
    expect(seen).toContain(`- ${q.id} → ${q.targetClaimId} [reliability] ${q.text}`);
  });
});

describe('a claim an earlier turn of the prompt already made word for word', () => {
  it('is given once: the later claim names the earlier one, and keeps its own id, factor and citations', () => {
    const ag = inputsOf(KPD_MADS).find((i) => i.step.id === KPD_MADS.reportStep)!;
    const d5 = ag.context.find((t) => t.stepId === 'D5')!;
    const d9 = ag.context.find((t) => t.stepId === 'D9')!;
    const restated = (d5.output as Turn).claims[0];
    const closing: Turn = { text: 'The affirmative closes.', claims: [{ ...restated, id: 'D9-c1', respondsTo: 'D2-q1' }], questions: [] };
    const context = ag.context.map((t) => (t === d9 ? { ...d9, text: closing.text, output: closing } : t));
    const { user } = buildPrompt({ ...ag, context });
    expect(count(user, restated.text)).toBe(1);
    expect(user).toContain(
      `- D9-c1 [${restated.factor}, ${restated.polarity}] (word for word as ${restated.id}) (cites: ${restated.citations[0].evidenceId} ${restated.citations[0].date} S`,
    );
  });
});

describe('a source given by its key', () => {
  const known = new Map<string, KnownEvidence>(POOL.map((e) => [e.id, { id: e.id, sourceName: e.sourceName, publishedDate: e.publishedDate }]));
  const scope = { shown: known, known, asOf: PARAMS.asOf, sources: SOURCES };
  const resolve = (citations: { evidenceId?: string; source: string; date: string }[]) => {
    const output: Turn = {
      text: 't',
      claims: citations.map((c, i) => ({ id: `D1-c${i + 1}`, text: 'x', factor: 'other', polarity: 'favorable', citations: [{ ...c }] })),
      questions: [],
    };
    const result = resolveCitations(output, scope);
    return { ...result, cited: output.claims.map((c) => c.citations[0] as ResolvedCitation) };
  };

  it('is stored as the full name, with the item verified by its id', () => {
    const { cited, repairs } = resolve([{ evidenceId: 'ev-2', source: 'S3', date: '2024-03-01' }]);
    expect(cited[0]).toMatchObject({ evidenceId: 'ev-2', source: FILING, verified: true });
    expect(repairs).toEqual([]);
  });

  it('finds the item by source and date when the id is missing', () => {
    const { cited, repairs } = resolve([{ source: 'S1', date: '2024-05-20' }]);
    expect(cited[0]).toMatchObject({ evidenceId: 'ev-5', source: NEWS, verified: true });
    expect(repairs).toEqual([{ kind: 'citation-matched', detail: `${NEWS}, 2024-05-20 → ev-5 (by source and date)` }]);
  });

  it('a key the table does not have stays as written, and the citation unverified without an id', () => {
    const { cited } = resolve([{ source: 'S9', date: '2024-05-20' }]);
    expect(cited[0]).toMatchObject({ source: 'S9', verified: false });
  });

  it('in the prose, where it cites a source, is stored as the name; a product that looks like a key is left alone', () => {
    const output: Turn = {
      text: 'Orders grew (published 2024-03-01, S3); the Galaxy S2 sold well (S1; S9).',
      claims: [
        {
          id: 'D1-c1',
          text: 'Revenue rose [S3, 2024-03-01].',
          factor: 'other',
          polarity: 'favorable',
          citations: [{ evidenceId: 'ev-2', source: 'S3', date: '2024-03-01' }],
        },
      ],
      questions: [],
    };
    resolveCitations(output, scope);
    expect(output.text).toBe(`Orders grew (published 2024-03-01, “${FILING}”); the Galaxy S2 sold well (“${NEWS}”; S9).`);
    expect(output.claims[0].text).toBe(`Revenue rose [“${FILING}”, 2024-03-01].`);
    expect(output.claims[0].id).toBe('D1-c1');
  });

  it('without a table, a name that looks like a key is a name', () => {
    const output: Turn = {
      text: 't',
      claims: [{ id: 'D1-c1', text: 'x', factor: 'other', polarity: 'favorable', citations: [{ evidenceId: 'ev-2', source: 'S2', date: '2024-03-01' }] }],
      questions: [],
    };
    resolveCitations(output, { ...scope, sources: undefined });
    expect(output.claims[0].citations[0].source).toBe('S2');
  });
});

describe('a key while the answer streams', () => {
  it("shows viewers the source's name in the partial answer, before the citations are taken in", () => {
    const events: RunEvent[] = [];
    const live = liveStep({
      publish: (e) => events.push(e),
      runId: 'r',
      stepId: 'D1',
      kind: 'turn',
      spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }),
      sources: SOURCES,
    });
    const claim = {
      id: 'D1-c1',
      text: 'Orders grew.',
      factor: 'other',
      polarity: 'favorable',
      citations: [{ evidenceId: 'ev-1', source: 'S3', date: '2024-03-01' }],
    };
    live.onToken(JSON.stringify({ text: 'Orders grew.', claims: [claim], questions: [] }));
    live.end();
    const partials = events.flatMap((e) => (e.type === 'step-partial' ? [e.output] : []));
    expect(partials).toEqual([
      { text: 'Orders grew.', claims: [{ ...claim, citations: [{ evidenceId: 'ev-1', source: FILING, date: '2024-03-01' }] }], questions: [] },
    ]);
  });
});
