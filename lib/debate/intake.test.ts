import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { takeIn, takeInObject, type IntakeResult } from '@/lib/debate/intake';
import { failureText } from '@/lib/i18n/failures';
import type { Turn } from '@/lib/domain/outputs';

const TURN: Turn = {
  text: '매출 집중도가 높지만 수주 잔고가 두 해 치를 넘습니다.',
  claims: [
    {
      id: 'D1-c1',
      text: 'Order backlog covers two years of revenue.',
      factor: 'business-stability',
      polarity: 'favorable',
      citations: [{ evidenceId: 'ev-1', source: 'DART', date: '2024-11-01', value: '₩12.3tn' }],
    },
  ],
  questions: [],
};
const JSON_TURN = JSON.stringify(TURN);

function ok(result: IntakeResult) {
  if (!result.ok) throw new Error(`expected the answer to be taken in: ${result.reason}`);
  return result;
}
const kinds = (result: IntakeResult) => result.repairs.map((r) => r.kind);

describe('taking an answer in', () => {
  it('takes a clean answer as it is, with no repairs', () => {
    const result = ok(takeIn('turn', { raw: JSON_TURN }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([]);
  });

  it('takes the JSON out of a ```json fence and records it', () => {
    const result = ok(takeIn('turn', { raw: `\`\`\`json\n${JSON_TURN}\n\`\`\`` }, { attempt: 2 }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([{ kind: 'unwrapped', attempt: 2, detail: 'took the JSON out of a ```json code fence' }]);
  });

  it('takes the JSON out of a bare ``` fence between sentences, and says what it dropped around it', () => {
    const result = ok(takeIn('turn', { raw: `Here is the turn:\n\`\`\`\n${JSON_TURN}\n\`\`\`\nLet me know.` }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([
      {
        kind: 'unwrapped',
        attempt: 1,
        detail: 'took the JSON out of a ``` code fence; dropped the text before the JSON: “Here is the turn:”; dropped the text after the JSON: “Let me know.”',
      },
    ]);
  });

  it('drops a preamble, even one that shows braces, and a trailing sentence, quoting both', () => {
    const raw = `Sure. I will answer in the shape {text, claims, questions}:\n${JSON_TURN}\nI hope this helps {the committee}.`;
    const result = ok(takeIn('turn', { raw }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toHaveLength(1);
    expect(result.repairs[0].kind).toBe('unwrapped');
    expect(result.repairs[0].detail).toContain('dropped the text before the JSON: “Sure. I will answer in the shape {text, claims, questions}:”');
    expect(result.repairs[0].detail).toContain('dropped the text after the JSON: “I hope this helps {the committee}.”');
  });

  it('passes over an example of the shape in the preamble for the answer itself', () => {
    const raw = `I will answer as {"text": "...", "claims": [...], "questions": []} — here it is:\n${JSON_TURN}`;
    const result = ok(takeIn('turn', { raw }));
    expect(result.output).toEqual(TURN);
    expect(kinds(result)).toEqual(['unwrapped']);
  });

  it('does not count braces inside strings: a text with } and an escaped quote stays whole', () => {
    const turn = { ...TURN, text: 'The ratio fell } below 1.2, the "covenant" level {sic}.' };
    const result = ok(takeIn('turn', { raw: `Answer: ${JSON.stringify(turn)} done` }));
    expect((result.output as Turn).text).toBe(turn.text);
  });

  it('takes keys in any order and writes them in the schema order, with no repair', () => {
    const raw = JSON.stringify({ questions: [], claims: TURN.claims, text: TURN.text });
    const result = ok(takeIn('turn', { raw }));
    expect(Object.keys(result.output)).toEqual(['text', 'claims', 'questions']);
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([]);
  });

  it('drops fields the output does not have and records each once, with a count', () => {
    const raw = JSON.stringify({
      ...TURN,
      confidence: 0.8,
      claims: [
        { ...TURN.claims[0], strength: 'high' },
        { ...TURN.claims[0], id: 'D1-c2', strength: 'low' },
      ],
    });
    const result = ok(takeIn('turn', { raw }));
    expect(result.output).not.toHaveProperty('confidence');
    expect((result.output as Turn).claims[1]).not.toHaveProperty('strength');
    expect(result.repairs).toEqual([
      { kind: 'field-dropped', attempt: 1, detail: 'claims[].strength: not a field of this output, dropped (×2)' },
      { kind: 'field-dropped', attempt: 1, detail: 'confidence: not a field of this output, dropped' },
    ]);
  });

  it('fills absent lists with [] and leaves out optional fields written as null', () => {
    const raw = JSON.stringify({ text: TURN.text, claims: [{ ...TURN.claims[0], citations: undefined, respondsTo: null, assumptions: null }] });
    const result = ok(takeIn('turn', { raw }));
    expect(result.output).toEqual({ text: TURN.text, claims: [{ ...TURN.claims[0], citations: [] }], questions: [] });
    expect((result.output as Turn).claims[0]).not.toHaveProperty('respondsTo');
    expect((result.output as Turn).claims[0]).not.toHaveProperty('assumptions');
    expect(result.repairs.map((r) => r.detail).sort()).toEqual([
      'claims[].assumptions: null left out',
      'claims[].citations: missing, taken as an empty list',
      'claims[].respondsTo: null left out',
      'questions: missing, taken as an empty list',
    ]);
    expect(new Set(kinds(result))).toEqual(new Set(['field-defaulted']));
  });

  it('does not fill a missing field that has no safe default: the schema names it', () => {
    const result = takeIn('turn', { raw: JSON.stringify({ claims: [], questions: [] }) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toBe('invalid');
    expect(result.problems).toEqual([expect.stringMatching(/^text: /)]);
  });

  it('normalises each common way of writing a citation date to an ISO day, and records it', () => {
    for (const written of ['2024.11.01', '2024/11/01', '2024-11-1', '20241101', 'Nov 1, 2024', '1 November 2024', '2024년 11월 1일']) {
      const raw = JSON.stringify({ ...TURN, claims: [{ ...TURN.claims[0], citations: [{ ...TURN.claims[0].citations[0], date: written }] }] });
      const result = ok(takeIn('turn', { raw }));
      expect((result.output as Turn).claims[0].citations[0].date, written).toBe('2024-11-01');
      expect(result.repairs, written).toEqual([{ kind: 'date-normalised', attempt: 1, detail: `“${written}” → 2024-11-01` }]);
    }
  });

  it('keeps a date it cannot read as written, and flags it', () => {
    const raw = JSON.stringify({ ...TURN, claims: [{ ...TURN.claims[0], citations: [{ ...TURN.claims[0].citations[0], date: 'Q3 2024' }] }] });
    const result = ok(takeIn('turn', { raw }));
    expect((result.output as Turn).claims[0].citations[0].date).toBe('Q3 2024');
    expect(result.repairs).toEqual([{ kind: 'date-unreadable', attempt: 1, detail: '“Q3 2024” is not a day; kept as written' }]);
  });

  it('keeps the link a citation gives, under any usual key or as its id', () => {
    const raw = JSON.stringify({
      ...TURN,
      claims: [
        {
          ...TURN.claims[0],
          citations: [
            { source: 'Reuters', date: '2024-11-01', link: 'https://www.reuters.com/a' },
            { evidenceId: 'https://news.example/b', source: 'Example', date: '2024-11-02' },
          ],
        },
      ],
    });
    const result = ok(takeIn('turn', { raw }));
    const [a, b] = (result.output as Turn).claims[0].citations as { url?: string }[];
    expect(a.url).toBe('https://www.reuters.com/a');
    expect(b.url).toBe('https://news.example/b');
    expect(result.repairs).toEqual([]);
  });

  it('mends small JSON defects: trailing commas, single quotes, raw line breaks', () => {
    const raw = `{'text': 'line one\nline two', 'claims': [], 'questions': [],}`;
    const result = ok(takeIn('turn', { raw }));
    expect(result.output).toEqual({ text: 'line one\nline two', claims: [], questions: [] });
    expect(kinds(result)).toEqual(['json-mended']);
    expect(result.repairs[0].detail).toMatch(/^mended its JSON syntax \(/);
  });

  it('closes an answer that stops after a complete value with its brackets left open', () => {
    // The model stopped after its last list and never closed the object.
    const closed = `{"text":${JSON.stringify(TURN.text)},"claims":${JSON.stringify(TURN.claims)},"questions":[]`;
    const result = ok(takeIn('turn', { raw: closed }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([{ kind: 'json-mended', attempt: 1, detail: 'closed the brackets the answer left open at its end' }]);
  });

  it('refuses an answer cut off inside a value or a list: that content is lost, not mended', () => {
    for (const cut of [
      JSON_TURN.slice(0, 40),
      JSON_TURN.slice(0, JSON_TURN.indexOf('"factor"')),
      `${JSON_TURN.slice(0, JSON_TURN.indexOf('"questions"'))}"questions"`,
    ]) {
      const result = takeIn('turn', { raw: cut });
      expect(result.ok, cut).toBe(false);
      if (result.ok) continue;
      expect(result.failure).toBe('invalid');
      expect(result.problems[0]).toBe('the output is not valid JSON: it stops before it is complete, inside a value or a list');
    }
  });

  it('takes an answer out of a one-key wrapper', () => {
    const result = ok(takeIn('turn', { raw: JSON.stringify({ turn: TURN }) }));
    expect(result.output).toEqual(TURN);
    expect(result.repairs).toEqual([{ kind: 'unwrapped', attempt: 1, detail: 'took the answer out of its "turn" wrapper' }]);
  });

  it('fails an empty answer at once, with a reason for the RM', () => {
    for (const raw of ['', '   \n ', '\uFEFF']) {
      const result = takeIn('turn', { raw });
      expect(result).toMatchObject({ ok: false, failure: 'empty', reason: 'The model returned an empty answer.' });
    }
  });

  it('fails a refusal at once: the API refusal field, or refusal words with no JSON', () => {
    expect(takeIn('turn', { raw: '', refusal: "I can't help with assessing this borrower." })).toMatchObject({
      ok: false,
      failure: 'refusal',
      reason: "The model declined to answer: “I can't help with assessing this borrower.”",
    });
    expect(takeIn('turn', { raw: "I'm sorry, but I cannot provide a credit assessment." })).toMatchObject({ ok: false, failure: 'refusal' });
    expect(takeIn('turn', { raw: '죄송하지만 이 요청은 도와드릴 수 없습니다.' })).toMatchObject({ ok: false, failure: 'refusal' });
    // Said in the reader's language on the run page, as after a reload.
    const refused = takeIn('turn', { raw: "I'm sorry, I can't do that." });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(failureText(refused.reason, 'ko', refused.phrase)).toBe("모델이 답변을 거절했습니다: “I'm sorry, I can't do that.”");
    const empty = takeIn('turn', { raw: '' });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(failureText(empty.reason, 'ko', empty.phrase)).toBe('모델이 빈 답변을 보냈습니다.');
    // Refusal-like words around a real answer do not make it a refusal.
    expect(ok(takeIn('turn', { raw: `I'm sorry for the delay. ${JSON_TURN}` })).output).toEqual(TURN);
  });

  it('sends prose with no JSON and no refusal to the repair attempt', () => {
    const result = takeIn('turn', { raw: 'The borrower looks stable overall.' });
    expect(result).toMatchObject({ ok: false, failure: 'invalid', problems: ['the output holds no JSON object'] });
  });

  it('works for every output kind: a report with its summaries missing is taken in with empty lists', () => {
    const result = ok(takeIn('report', { raw: `\`\`\`json\n{"overview":"o","objective":"x","topics":[]}\n\`\`\`` }));
    expect(result.output).toEqual({ objective: 'x', overview: 'o', favorableSummary: [], adverseSummary: [], topics: [] });
    expect(kinds(result).sort()).toEqual(['field-defaulted', 'field-defaulted', 'unwrapped']);
  });
});

describe('takeInObject (a schema outside a step)', () => {
  const schema = z.object({ items: z.array(z.object({ quote: z.string(), day: z.string().nullable().optional() })), note: z.string().optional() });

  it('unwraps, drops unknown fields and nulls, and takes an absent list as empty, as for a step', () => {
    const taken = takeInObject(schema, { raw: 'Sure!\n```json\n{"result": {"note": "n", "items": [{"day": null, "extra": 1, "quote": "q"}]}}\n```' });
    expect(taken).toMatchObject({ ok: true, value: { note: 'n', items: [{ quote: 'q' }] } });
    expect(taken.ok && taken.repairs.map((r) => r.kind).sort()).toEqual(['field-defaulted', 'field-dropped', 'unwrapped', 'unwrapped']);
    expect(takeInObject(schema, { raw: '{"note": "none found"}' })).toMatchObject({ ok: true, value: { items: [], note: 'none found' } });
  });

  it('says whose shape the answer lacks', () => {
    const taken = takeInObject(schema, { raw: '{"items": [{"quote": 3}]}' }, { what: 'the candidate list' });
    expect(taken.ok).toBe(false);
    expect(!taken.ok && taken.reason).toMatch(/^The answer does not have the candidate list shape: items\.0\.quote: /);
  });
});
