import { describe, expect, it } from 'vitest';
import { AnswerStream } from '@/lib/debate/answer-stream';
import { MAX_LIVE_PARTS, type StepPart } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, PROSE, type OutputKind } from '@/lib/domain/outputs';

/** Feeds the chunks one by one; returns the prose of every update, the parts, and the prose after each chunk. */
function read(kind: OutputKind, chunks: string[]) {
  const reader = new AnswerStream(kind);
  const updates: string[] = [];
  const parts: StepPart[] = [];
  for (const chunk of chunks) {
    const u = reader.push(chunk);
    updates.push(u.prose);
    parts.push(...u.parts);
  }
  const end = reader.finish();
  updates.push(end.prose);
  parts.push(...end.parts);
  return { prose: updates.join(''), updates, parts, reader };
}

const inPieces = (raw: string, size: number) => Array.from({ length: Math.ceil(raw.length / size) }, (_, i) => raw.slice(i * size, (i + 1) * size));

// Korean, a line break, quotes, a backslash, a \u escape and a character outside the BMP: every
// escape JSON has, in the prose, so splits land inside each of them.
const TEXT = '핵심 주장: 매출이 늘었다.\n"수주 잔고"는 \\ 3조 원 ሴ 😀 끝.';
const turn = {
  text: TEXT,
  claims: [
    { id: 'D1-c1', text: '매출 증가', factor: 'industry_growth_outlook', polarity: 'favorable', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-05-01' }] },
    { id: 'D1-c2', text: 'Backlog "firm"', factor: 'management_quality', polarity: 'context', citations: [] },
  ],
  questions: [{ id: 'D1-q1', targetClaimId: 'N1-c1', text: '근거는?' }],
};
// JSON.stringify leaves ሴ as it is: write it as the \u escape a model may send.
const RAW = JSON.stringify(turn).replace('ሴ', '\\u1234');

describe('AnswerStream', () => {
  it('gives exactly the prose and the parts, in order, for every split of an answer into two chunks', () => {
    expect(RAW).toContain('\\u1234');
    expect(RAW).toContain('\\n');
    expect(RAW).toContain('\\"');
    for (let i = 1; i < RAW.length; i++) {
      const { prose, parts } = read('turn', [RAW.slice(0, i), RAW.slice(i)]);
      expect(prose, `split at ${i}`).toBe(TEXT);
      expect(parts.map((p) => `${p.kind}:${String(p.value.id ?? p.value.source)}`), `split at ${i}`).toEqual(['citation:DART', 'claim:D1-c1', 'claim:D1-c2', 'question:D1-q1']);
    }
  });

  it('never sends part of an escape: each update decodes to a prefix of the prose, in one-character chunks too', () => {
    const { updates, prose } = read('turn', [...RAW]);
    expect(prose).toBe(TEXT);
    let sofar = '';
    for (const u of updates) {
      sofar += u;
      expect(TEXT.startsWith(sofar)).toBe(true);
      // A lone high surrogate would be half a character on the screen.
      const last = sofar.charCodeAt(sofar.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    // The prose streams while it is written, not at the end: by the end of the text field it is all out.
    const cut = RAW.indexOf('","claims"');
    expect(read('turn', [...RAW.slice(0, cut)]).updates.slice(0, -1).join('')).toBe(TEXT);
  });

  it('sends a claim the moment its closing brace arrives, before the rest of the answer', () => {
    const reader = new AnswerStream('turn');
    const end = RAW.indexOf('}]},{"id":"D1-c2"') + 3;
    const first = reader.push(RAW.slice(0, end - 1));
    expect(first.parts.map((p) => p.kind)).toEqual(['citation']);
    const second = reader.push(RAW.slice(end - 1, end));
    expect(second.parts).toEqual([{ kind: 'claim', value: turn.claims[0] }]);
  });

  it('follows keys in any order: claims before the text, the text last', () => {
    const raw = JSON.stringify({ claims: turn.claims, questions: turn.questions, text: TEXT });
    const { prose, parts, updates } = read('turn', inPieces(raw, 5));
    expect(prose).toBe(TEXT);
    expect(parts.filter((p) => p.kind === 'claim')).toHaveLength(2);
    // Nothing of the prose before its field starts.
    const before = Math.floor(raw.indexOf('"text"') / 5);
    expect(updates.slice(0, before).join('')).toBe('');
  });

  it('skips a ```json fence, a sentence before the answer (braces included) and anything after it', () => {
    const raw = `Here is my answer {as asked}:\n\`\`\`json\n${RAW}\n\`\`\`\nI hope this helps. {"text":"not this"}`;
    for (const size of [1, 3, 7, 64]) {
      const { prose, parts } = read('turn', inPieces(raw, size));
      expect(prose, `chunks of ${size}`).toBe(TEXT);
      expect(parts).toHaveLength(4);
    }
  });

  it('tolerates whitespace and pretty-printing between tokens', () => {
    const raw = JSON.stringify(turn, null, 2);
    expect(read('turn', inPieces(raw, 4)).prose).toBe(TEXT);
    expect(read('turn', inPieces(raw, 4)).parts).toHaveLength(4);
  });

  it('gives all the prose of an answer cut off in the middle of it', () => {
    const cut = RAW.indexOf('3조');
    const { prose, parts } = read('turn', inPieces(RAW.slice(0, cut), 4));
    expect(prose).toBe(TEXT.slice(0, TEXT.indexOf('3조')));
    expect(parts).toEqual([]);
  });

  it('joins a prose of two fields once the first is complete, whatever order they come in', () => {
    const inOrder = read('sasJudgment', inPieces('{"winner":"negative","justification":"Cash covers the debt."}', 3));
    expect(inOrder.prose).toBe('negative: Cash covers the debt.');
    const reversed = read('sasJudgment', inPieces('{"justification":"Cash covers the debt.","winner":"negative"}', 3));
    expect(reversed.prose).toBe('negative: Cash covers the debt.');
    // Nothing until the winner is being written: the justification cannot be shown ahead of it.
    const upToWinner = Math.floor('{"justification":"Cash covers the debt.","winner":"'.length / 3);
    expect(reversed.updates.slice(0, upToWinner).join('')).toBe('');
  });

  it('finds a prose field nested in an object (the rubric judge’s key insight), not a same-named field elsewhere', () => {
    const raw = JSON.stringify({
      scores: [{ argumentId: 'A1', logic: 7, evidence: 6, responsiveness: 5, honesty: 8, weighted: 6.5 }],
      keyInsight: 'not this one',
      overall: { affirmativeTotal: 6.5, negativeTotal: 5, keyInsight: 'Liquidity decides it.', unresolved: [], recommendation: 'Approve.' },
    });
    expect(read('rubricJudgment', inPieces(raw, 2)).prose).toBe('Liquidity decides it.');
  });

  it('reads the prose of every output kind from an answer in its schema order', () => {
    for (const kind of Object.keys(OUTPUT_SCHEMAS) as OutputKind[]) {
      const prose = PROSE[kind].parts.map((path) => path.join('.'));
      const sample: Record<string, unknown> = {};
      for (const path of PROSE[kind].parts) {
        let at = sample;
        for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
        at[path[path.length - 1]] = `${path.join('.')} says "yes"\n`;
      }
      expect(read(kind, inPieces(JSON.stringify(sample), 3)).prose, kind).toBe(prose.map((p) => `${p} says "yes"\n`).join(PROSE[kind].join));
    }
  });

  it('shortens long strings of a part and stops sending parts past the limit, so live events stay small', () => {
    const long = { text: 'x', claims: Array.from({ length: MAX_LIVE_PARTS + 5 }, (_, i) => ({ id: `c${i}`, text: 'y'.repeat(5_000), citations: [] })) };
    const { parts } = read('turn', inPieces(JSON.stringify(long), 500));
    expect(parts).toHaveLength(MAX_LIVE_PARTS);
    expect(String(parts[0].value.text).length).toBeLessThanOrEqual(601);
    expect(JSON.stringify(parts[0]).length).toBeLessThan(800);
  });

  it('reads an answer that is not JSON at all as no prose and no parts', () => {
    const { prose, parts } = read('turn', inPieces("I'm sorry, but I can't help with that request.", 4));
    expect(prose).toBe('');
    expect(parts).toEqual([]);
  });

  it('does linear work: a 20 KB answer in 4-character chunks decodes each character about once, and 100 KB stays quick', () => {
    const answer = (n: number) => {
      const claims = Array.from({ length: 10 * n }, (_, i) => ({ id: `D1-c${i}`, text: `주장 ${i} `.repeat(100), factor: 'other', polarity: 'context', citations: [{ source: 'DART', date: '2024-05-01' }] }));
      return { text: '매출이 늘었다. '.repeat(1_600 * n), claims, questions: [] };
    };
    const big = answer(1);
    const raw = JSON.stringify(big);
    expect(raw.length).toBeGreaterThan(20_000);
    const { prose, parts, reader } = read('turn', inPieces(raw, 4));
    expect(prose).toBe(big.text);
    expect(parts.filter((p) => p.kind === 'claim')).toHaveLength(10);
    // Decoded: the prose once, each claim once (its citation once more), the keys, and the one
    // reading of the whole answer at its end. A parse per chunk would be ~5,000 × 10 KB.
    expect(reader.decodedChars).toBeLessThan(3 * raw.length);
    // Time, for what the count cannot see (copying the answer on every chunk): quadratic work took
    // seconds for 100 KB here, linear takes milliseconds; the margin is for a loaded machine.
    const huge = JSON.stringify(answer(4));
    expect(huge.length).toBeGreaterThan(80_000);
    const chunks = inPieces(huge, 4);
    const started = performance.now();
    expect(read('turn', chunks).prose).toBe(answer(4).text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
