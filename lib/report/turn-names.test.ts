// Step ids in report prose, in words (lib/report/turn-names.ts): sentences as models and the
// offline analyst write them, and every system's report on the demo companies with no id left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { getProtocol } from '@/lib/debate/protocols';
import { PROTOCOLS, type Protocol } from '@/lib/domain/vocabulary';
import { buildReportDoc } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { plainTurnNames, turnNames } from '@/lib/report/turn-names';
import type { Block } from '@/lib/report/doc';

describe('plainTurnNames', () => {
  it('names KPD-MADS turns by side and act, numbering a side’s two cross-examinations, with a capital where a name opens a sentence', () => {
    const en = plainTurnNames(getProtocol('kpd-mads'), 'en');
    expect(en('D2 questioned it, and D8-q3 asked again; AG weighs both.')).toBe(
      'The first negative cross-examination questioned it, and question 3 of the second affirmative cross-examination asked again; the aggregator aggregation weighs both.',
    );
    expect(en('The answer to D1-c2 stands (D10).')).toBe('The answer to claim 2 of the affirmative constructive stands (the negative closing).');
    const ko = plainTurnNames(getProtocol('kpd-mads'), 'ko');
    // The particle written onto an id agrees with the words that replace it.
    expect(ko('D2가 제기한 질문(D2-q1)에 D5는 답했고 D9를 보라.')).toBe(
      '반대 측 첫 번째 교차 신문이 제기한 질문(반대 측 첫 번째 교차 신문의 질문 1)에 찬성 측 반론은 답했고 찬성 측 최종 변론을 보라.',
    );
  });

  it('rewrites FinDebate’s claim references and leaves lookalikes alone', () => {
    const ko = plainTurnNames(getProtocol('findebate'), 'ko');
    expect(ko('(DRAFT-c1, SKEPTIC-c1 반영)')).toBe('(작성자 초안 작성의 주장 1, 반대 측 토론의 주장 1 반영)');
    const en = plainTurnNames(getProtocol('findebate'), 'en');
    // Not an id: inside a word, a longer token, or a different case of a word.
    expect(en('DRAFTING, S-RISKY and the draft stay as written.')).toBe('DRAFTING, S-RISKY and the draft stay as written.');
    // SAS's one-letter challenge step is rewritten only with a claim or question number.
    const sas = plainTurnNames(getProtocol('sas'), 'en');
    expect(sas('Plan C failed; C-q2 remains open.')).toBe('Plan C failed; question 2 of the devil’s advocate challenge remains open.');
  });

  it('gives every step of every protocol a distinct name in both languages', () => {
    for (const protocol of PROTOCOLS) {
      for (const locale of ['en', 'ko'] as const) {
        const names = [...turnNames(getProtocol(protocol), locale).values()];
        expect(new Set(names).size, `${protocol} ${locale}: ${names.join(' | ')}`).toBe(names.length);
        // No raw agent id (a kebab-case key such as performance-analyst) shows through.
        const agentIds = getProtocol(protocol)
          .steps.map((s) => s.agent)
          .filter((a) => a.includes('-'));
        expect(
          names.filter((n) => agentIds.some((a) => n.includes(a))),
          `${protocol} ${locale}`,
        ).toEqual([]);
      }
    }
  });
});

const texts = (blocks: Block[]): string[] =>
  blocks.flatMap((b) => {
    switch (b.kind) {
      case 'paragraph':
      case 'note':
        return [b.text];
      case 'list':
        return b.items;
      case 'fields':
        return b.items.map((f) => f.value);
      case 'table':
        return b.rows.flat();
      case 'group':
        return [b.title, ...texts(b.blocks)];
      default:
        return [];
    }
  });

describe.each(testBackends())('report prose without step ids on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
  }, 120_000);
  afterAll(() => handle?.close());

  it.each(PROTOCOLS)(
    '%s: no step id of the protocol in the prose of its report, for a Korean and an English borrower',
    async (protocol: Protocol) => {
      const ids = getProtocol(protocol).steps.map((s) => s.id);
      // Ids are ASCII: Hangul written onto one ("D3의") does not hide it.
      const idPattern = new RegExp(
        `(?<![A-Za-z0-9_-])(${ids.filter((id) => id.length > 1).join('|')})(?:-[cq]\\d+)?(?![A-Za-z0-9_-])|(?<![A-Za-z0-9_-])[A-Z]-[cq]\\d+`,
      );
      for (const [company, language] of [
        ['samsung-electronics', 'ko'],
        ['tesla', 'en'],
      ] as const) {
        const input = await finishedRun(handle, protocol, company, language);
        // Read in the other language's interface too: the prose keeps the run's language.
        for (const locale of ['en', 'ko'] as const) {
          const doc = buildReportDoc(input, locale);
          const leaks = doc.sections.flatMap((s) => texts(s.blocks)).filter((t) => idPattern.test(t));
          expect(leaks, `${protocol} ${company} read in ${locale}`).toEqual([]);
          if (language === 'ko')
            expect(
              doc.sections.flatMap((s) => texts(s.blocks)).filter((t) => /the (negative|affirmative) /.test(t)),
              `${protocol} ${company} ${locale}`,
            ).toEqual([]);
        }
        const doc = buildReportDoc(input, language);
        const leaks = doc.sections.flatMap((s) => texts(s.blocks)).filter((t) => idPattern.test(t));
        expect(leaks, `${protocol} ${company}`).toEqual([]);
      }
    },
    120_000,
  );
});
