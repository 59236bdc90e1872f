// What a literal model is asked at a specialist step (SAS briefings, FinDebate's five) on a thin
// pool and on a rich one, and what the steps after it are told when a specialist found nothing.
import { describe, expect, it } from 'vitest';
import { buildPrompt, describeOutputShape, type PromptInput } from '@/lib/debate/prompts';
import { FINDEBATE, SAS } from '@/lib/debate/protocols';
import type { ProtocolDef, RunParams, StepDef } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import type { RetrievedItem } from '@/lib/pool/retrieve';

const PARAMS: RunParams = { language: 'en', asOf: '2024-12-31', recencyDays: 365, maxWebResults: 5, maxConcurrency: 4 };
const COMPANY = { id: 'monro-inc', name: 'Monro, Inc.', nameEn: null, country: 'US', industry: 'Automotive services', description: null };

const ITEM: EvidenceAsOf = {
  id: 'monro-inc-001',
  companyId: 'monro-inc',
  category: 'filing',
  factor: 'management_continuity',
  polarity: 'context',
  factorSource: 'rule',
  title: 'Form 8-K: departure of an officer',
  text: 'The Company announced that its Chief Financial Officer will step down.',
  value: null,
  eventDate: null,
  publishedDate: '2024-10-30',
  sourceName: 'SEC EDGAR',
  sourceUrl: 'https://www.sec.gov/example',
  language: 'en',
  stale: false,
};
const PASSAGE: RetrievedItem = {
  kind: 'chunk',
  id: 'monro-inc--10k#3',
  documentId: 'monro-inc--10k',
  heading: 'Competition',
  title: 'Form 10-K',
  snippet: 'The automotive service industry is highly competitive.',
  publishedDate: '2024-05-20',
  sourceName: 'SEC EDGAR',
  sourceUrl: 'https://www.sec.gov/example-10k',
  score: 1,
  stale: false,
};

const input = (protocol: ProtocolDef, step: StepDef, overrides: Partial<PromptInput> = {}): PromptInput => ({
  runId: 'run-1',
  protocol,
  step,
  params: PARAMS,
  company: COMPANY,
  evidence: [],
  passages: [],
  context: [],
  ...overrides,
});

const specialists = [...SAS.steps, ...FINDEBATE.steps].filter((s) => s.role === 'specialist');
const protocolOf = (step: StepDef) => (SAS.steps.includes(step) ? SAS : FINDEBATE);

describe("a specialist step's prompt", () => {
  it.each(specialists.map((s) => [s.id, s] as const))(
    '%s on a thin pool: says the explicit "nothing" is the one answer that passes, and how to write it',
    (_id, step) => {
      const { user } = buildPrompt(input(protocolOf(step), step));
      expect(user).toContain(
        '- At least one finding: a claim citing an item or passage shown to you. If the material holds nothing on your topic, answer with `nothingInMaterial`: true, `claims`: [] and say so in `text`; a briefing with neither findings nor that field fails.',
      );
      expect(user).toContain('- You were shown no evidence items and no passages: the one answer that passes is `nothingInMaterial`: true with `claims`: [].');
      expect(user).toContain('"nothingInMaterial"?: boolean  // true only when the material holds nothing on your topic; then claims is []');
    },
  );

  it.each(specialists.map((s) => [s.id, s] as const))(
    '%s on a rich pool: asks for findings, with "nothing" only for a topic the material does not cover',
    (_id, step) => {
      const { user } = buildPrompt(input(protocolOf(step), step, { evidence: [ITEM], passages: [PASSAGE] }));
      expect(user).toContain('- At least one finding: a claim citing an item or passage shown to you.');
      expect(user).not.toContain('You were shown no evidence items and no passages');
    },
  );

  it('says no such thing to steps without the rule', () => {
    const opening = SAS.steps.find((s) => s.id === 'O-A')!;
    expect(buildPrompt(input(SAS, opening)).user).not.toContain('nothingInMaterial');
    expect(describeOutputShape('turn')).not.toContain('nothingInMaterial');
  });
});

describe('the steps after a specialist that found nothing', () => {
  const nothing = (step: StepDef, text: string): ContextTurn => ({
    stepId: step.id,
    agent: step.agent,
    team: step.team,
    act: step.act,
    text,
    output: { text, nothingInMaterial: true, claims: [] },
  });

  it('SAS openings are told plainly that the management specialist found nothing on its topic', () => {
    const opening = SAS.steps.find((s) => s.id === 'O-N')!;
    const bm = SAS.steps.find((s) => s.id === 'B-M')!;
    const { user } = buildPrompt(input(SAS, opening, { context: [nothing(bm, 'The passages say nothing about management.')] }));
    expect(user).toContain(
      '<turn step="B-M" agent="management-analyst" team="neutral" act="distillation">\ntext: The passages say nothing about management.\nfinding: none — this specialist found nothing on its topic in the material it was given.\n</turn>',
    );
    expect(user).not.toContain('"nothingInMaterial"');
  });

  it("FinDebate's writer is told the same of each silent specialist, and the others' findings as before", () => {
    const draft = FINDEBATE.steps.find((s) => s.id === 'DRAFT')!;
    const coll = FINDEBATE.steps.find((s) => s.id === 'S-COLL')!;
    const perf = FINDEBATE.steps.find((s) => s.id === 'S-PERF')!;
    const finding = {
      id: 'S-PERF-c1',
      text: 'Sales rose.',
      factor: 'other',
      polarity: 'favorable' as const,
      citations: [{ evidenceId: 'monro-inc-001', source: 'SEC EDGAR', date: '2024-10-30' }],
    };
    const perfTurn: ContextTurn = {
      stepId: 'S-PERF',
      agent: perf.agent,
      team: perf.team,
      act: perf.act,
      text: 'Sales.',
      output: { text: 'Sales.', nothingInMaterial: false, claims: [finding] },
    };
    const { user } = buildPrompt(input(FINDEBATE, draft, { context: [perfTurn, nothing(coll, 'Nothing on collateral.')] }));
    expect(user).toContain('text: Nothing on collateral.\nfinding: none — this specialist found nothing on its topic in the material it was given.');
    expect(user).toContain('text: Sales.\nclaims:\n- S-PERF-c1 [other, favorable] Sales rose. (cites: monro-inc-001 2024-10-30 SEC EDGAR)\n</turn>');
  });
});
