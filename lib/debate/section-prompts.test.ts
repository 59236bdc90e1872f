// The calls of a sectioned report step read as a literal model reads them: what a call is told it
// is shown must be what its request holds.
import { describe, expect, it } from 'vitest';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import type { PromptInput } from '@/lib/debate/prompts';
import { KPD_MADS, NAS } from '@/lib/debate/protocols';
import { sectionInput, sectionJsonSchema, sectionPrompt } from '@/lib/debate/section-prompts';
import type { ProtocolDef, RunParams } from '@/lib/domain/protocol';
import { droppedEntries, sectionCalls, sectionOf, sectionSchema } from '@/lib/domain/sections';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { jsonFromSchema } from '@/scripts/fake-llm/json-from-schema';

function item(id: string, factor: string, polarity: 'favorable' | 'adverse'): EvidenceAsOf {
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
    publishedDate: '2024-03-01',
    sourceName: 'Example Daily',
    sourceUrl: `https://example.test/${id}`,
    language: 'en',
    stale: false,
  };
}

const POOL = [
  item('ev-1', 'internal_control_risk', 'adverse'),
  item('ev-2', 'industry_growth_outlook', 'favorable'),
  item('ev-3', 'management_continuity', 'favorable'),
];
const PARAMS: RunParams = { language: 'en', asOf: '2024-06-30', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };
const COMPANY = { id: 'acme', name: 'Acme Corp.', nameEn: null, country: 'US', industry: 'Machinery' };

/** Every turn a report step receives, each with one claim citing the item on its factor. */
function reportInput(protocol: ProtocolDef): PromptInput {
  const step = protocol.steps.find((s) => s.id === protocol.reportStep)!;
  const context: ContextTurn[] = step.context.map((id, i) => {
    const e = POOL[i % POOL.length];
    const claim = {
      id: `${id}-c1`,
      text: `${id} reads ${e.id}.`,
      factor: e.factor!,
      polarity: e.polarity!,
      citations: [{ evidenceId: e.id, source: e.sourceName, date: e.publishedDate }],
    };
    return { stepId: id, agent: id, team: 'neutral', act: 'constructive', text: '', output: { text: '', claims: [claim] } };
  });
  return { runId: 'run-1', protocol, step, params: PARAMS, company: COMPANY, evidence: visibleEvidence(step, POOL, context), passages: [], context };
}

describe('a report section is told what it is shown', () => {
  it('a KPD-MADS topic section, whose step has no evidence block, is not told it is shown evidence items', () => {
    const ag = reportInput(KPD_MADS);
    const topics = sectionCalls(ag.step.sections!).filter((c) => c.factors && !c.overview);
    expect(topics.map((c) => c.key)).toEqual(['governance', 'business']);
    for (const call of topics) {
      const { user } = sectionPrompt(ag, call);
      expect(user, call.key).not.toContain('<evidence>');
      expect(user, call.key).toContain('You do not see the evidence block');
      expect(user, call.key).toContain(
        'You are shown the material on these factors only: of each turn, its claims on them and the questions aimed at those claims.',
      );
    }
  });

  it('a NAS topic section, which reads the pool, is told it is shown the evidence items on its factors, and is', () => {
    const nas = reportInput(NAS);
    const governance = sectionCalls(nas.step.sections!).find((c) => c.key === 'governance')!;
    const { user } = sectionPrompt(nas, governance);
    expect(user).toContain('You are shown the material on these factors only: the evidence items on them and, of each turn,');
    expect(user).toContain('[ev-1] | published 2024-03-01');
    expect(user).not.toContain('[ev-2]');
  });
});

describe("NAS's overview is told what it needs to follow its task", () => {
  it('reads whether any topic cites a web result, which its task makes the condition of a sentence, though the topics come without their citations', () => {
    const nas = reportInput(NAS);
    expect(nas.step.task).toContain('If no topic cites a web result, say in `overview` that the report rests on the pool alone.');
    const overview = sectionCalls(nas.step.sections!).find((c) => c.overview)!;
    const topic = (evidenceId: string) => ({
      topic: `Reading of ${evidenceId}`,
      factor: 'internal_control_risk',
      affirmative: '',
      adverse: 'It reads adverse.',
      citations: [{ evidenceId, source: 'Example Daily', date: '2024-03-01' }],
    });
    const summaries = { key: 'summaries', output: { favorableSummary: [], adverseSummary: ['A fine (2024-03-01).'] } };
    const poolOnly = sectionPrompt(nas, overview, [{ key: 'governance', output: { topics: [topic('ev-1')] } }, summaries]).user;
    expect(poolOnly).not.toContain('"citations"');
    expect(poolOnly).toContain('No topic of these sections cites a web result.');
    const searched = sectionPrompt(nas, overview, [{ key: 'governance', output: { topics: [topic('ev-1'), topic('web-run-1-0')] } }, summaries]).user;
    expect(searched).toContain('Some of these topics cite a web result.');
    expect(searched).not.toContain('No topic of these sections cites a web result.');
  });

  it("KPD-MADS's overview, whose step does not search, is told nothing of web results", () => {
    const ag = reportInput(KPD_MADS);
    const overview = sectionCalls(ag.step.sections!).find((c) => c.overview)!;
    const user = sectionPrompt(ag, overview, [{ key: 'governance', output: { topics: [] } }]).user;
    expect(user).not.toMatch(/web result/);
  });
});

describe("KPD-MADS's topic sections share the rule on the debate's sources", () => {
  it('tells each topic call its share of the sources to cite, and the shares cover every item the debate cites', () => {
    const ag = reportInput(KPD_MADS);
    expect(ag.step.task).toContain("Every source cited anywhere in the debate must appear in some topic's citations");
    const topics = sectionCalls(ag.step.sections!).filter((c) => c.factors && !c.overview);
    const shown = new Set<string>();
    for (const call of topics) {
      const { user } = sectionPrompt(ag, call);
      expect(user, call.key).toContain(
        "Of the debate's sources that must appear in some topic's citations, yours are those the material shown to you cites; the other calls cite the rest.",
      );
      for (const m of user.matchAll(/\(cites: ([^)]*)\)/g)) for (const cite of m[1].split('; ')) shown.add(cite.split(' ')[0]);
    }
    const cited = new Set(
      ag.context.flatMap((t) =>
        (t.output as { claims: { citations: { evidenceId: string }[] }[] }).claims.flatMap((c) => c.citations.map((x) => x.evidenceId)),
      ),
    );
    expect([...shown].sort()).toEqual([...cited].sort());
    // NAS writes from the pool, not a debate: its topic calls are not told of one.
    const nas = reportInput(NAS);
    for (const call of sectionCalls(nas.step.sections!).filter((c) => c.factors && !c.overview))
      expect(sectionPrompt(nas, call).user).not.toContain("the debate's sources");
  });
});

describe('the overview call is told what stands in for the material it is not shown', () => {
  it.each([
    ['KPD-MADS', KPD_MADS],
    ['NAS', NAS],
  ] as const)(
    '%s: the task names the debate or the evidence as a source of the overview; the call is shown neither and told the sections stand in for them',
    (_name, protocol) => {
      const input = reportInput(protocol);
      expect(input.step.task).toMatch(/from the company block \(who the borrower is\) and the (debate|evidence)/);
      const overview = sectionCalls(input.step.sections!).find((c) => c.overview)!;
      const { user } = sectionPrompt(input, overview, [{ key: 'summaries', output: { favorableSummary: ['Growth (2024-03-01).'], adverseSummary: [] } }]);
      expect(user).not.toContain('<evidence>');
      expect(user).not.toMatch(/<turn step="(?!NAS"|AG")/);
      expect(user).toContain('in place of the material the sections read, which this call is not shown');
      expect(user).toContain('from the company block and what the sections say');
    },
  );
});

describe('a topic section is asked only for topics it keeps', () => {
  it.each([
    ['KPD-MADS', KPD_MADS],
    ['NAS', NAS],
  ] as const)(
    '%s: the schema sent and the shape in the prompt allow its own factors only, so an answer held to the schema loses no entry',
    (_name, protocol) => {
      const input = reportInput(protocol);
      const topics = sectionCalls(input.step.sections!).filter((c) => c.factors && !c.overview);
      for (const call of topics) {
        const schema = sectionJsonSchema(input.step.output, call.fields, call.factors) as {
          properties: { topics: { items: { properties: { factor: { enum?: string[] } } } } };
        };
        expect(schema.properties.topics.items.properties.factor.enum, call.key).toEqual(call.factors);
        expect(sectionPrompt(input, call).user, call.key).toContain(`"factor": ${call.factors!.map((f) => JSON.stringify(f)).join(' | ')}`);
        // A model held to the schema (here the fake's schema filler) writes no entry the section then drops.
        const answer = jsonFromSchema(schema as never, { seed: 7, arrayItems: { min: 3, max: 4 } }) as Record<string, unknown>;
        expect(droppedEntries(answer, sectionOf(input.step.output, answer, call)), call.key).toBe(0);
        // The answer itself is checked without the narrowing: an entry that strays is dropped, not the call.
        expect(sectionSchema(input.step.output, call.fields).safeParse({ topics: [{ ...(answer.topics as object[])[0], factor: 'elsewhere' }] }).success).toBe(
          true,
        );
      }
    },
  );
});

describe('a topic section is told what its evidence block holds', () => {
  it("NAS: a section shown its factors' items does not call them the whole pool, and names the factors", () => {
    const nas = reportInput(NAS);
    for (const call of sectionCalls(nas.step.sections!).filter((c) => c.factors && !c.overview)) {
      const { user } = sectionPrompt(nas, call);
      expect(user, call.key).not.toContain('the whole pool');
      const shown = sectionInput(nas, call).evidence.length;
      expect(user, call.key).toContain(
        `Cite items of the evidence block above (${shown} item${shown === 1 ? '' : 's'}: the pool's items on ${call.factors!.map((f) => `\`${f}\``).join(', ')} as of the as-of date).`,
      );
    }
    // The summaries read every claim, and the step alone still reads the whole pool.
    const summaries = sectionCalls(nas.step.sections!).find((c) => c.key === 'summaries')!;
    expect(sectionInput(nas, summaries).evidenceOnFactors).toBeUndefined();
  });
});
