// The report page's automatic measures and whether its judge buttons are enabled.
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { groundingCounts, readabilityState } from '@/lib/eval/evaluation-view';
import { judgeAvailability } from '@/lib/eval/judge-actions';
import { NEEDS_MODEL } from '@/lib/eval/judges';
import { resetProvidersForTests } from '@/lib/llm';

const report = (overview: string) => ({ content: { overview, factors: [] }, checks: [] });

describe('readability on the report page', () => {
  it('measures English prose and explains why Korean reports and runs without a report have none', () => {
    const en = readabilityState({
      params: { language: 'en' },
      report: report('The borrower repays its loans from operating cash flow. Leverage fell in 2024.'),
    });
    expect(en.ok).toBe(true);
    if (en.ok) expect(en.value.sentences).toBe(2);
    expect(readabilityState({ params: { language: 'ko' }, report: report('차주는 영업현금흐름으로 상환합니다.') })).toEqual({ ok: false, reason: 'korean' });
    expect(readabilityState({ params: { language: 'en' }, report: null })).toEqual({ ok: false, reason: 'no-report' });
    // An "English" run whose report came out in Korean is still not measured as English.
    expect(readabilityState({ params: { language: 'en' }, report: report('차주는 영업현금흐름으로 차입금을 상환할 수 있습니다.') })).toMatchObject({
      ok: false,
      reason: 'korean',
    });
  });
});

describe('citation grounding on the report page', () => {
  it('counts resolved citations of finished turns only, and has no figure without citations', () => {
    const turn = (status: string, verified: boolean[]) => ({ status, citations: verified.map((v) => ({ verified: v })) }) as never;
    expect(groundingCounts({ turns: [turn('done', [true, false, true]), turn('failed', [false, false])] })).toEqual({ resolved: 2, total: 3, ratio: 2 / 3 });
    expect(groundingCounts({ turns: [turn('done', [])] })).toEqual({ resolved: 0, total: 0, ratio: null });
  });
});

describe('judge availability', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
    resetProvidersForTests();
  });

  it('is off with the reason when no OpenAI-compatible endpoint is configured, on with the judge model otherwise', () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    expect(judgeAvailability()).toEqual({ available: false, reason: NEEDS_MODEL });

    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    process.env.OPENAI_MODEL = 'general-model';
    process.env.OPENAI_MODEL_JUDGE = 'judge-model';
    resetEnvForTests();
    expect(judgeAvailability()).toEqual({ available: true, model: 'judge-model' });
  });
});
