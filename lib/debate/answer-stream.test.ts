import { describe, expect, it } from 'vitest';
import { AnswerStream } from '@/lib/debate/answer-stream';
import { MAX_DRAFT_CHARS, MAX_LIVE_FIELDS, MAX_LIVE_PARTS, withField, type LiveField, type PartDraft, type StepPart } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, PROSE, type OutputKind } from '@/lib/domain/outputs';

type Seen = { chunk: number } & ({ part: StepPart } | { draft: PartDraft & { done: boolean } });

/**
 * Feeds the chunks one by one; returns the prose of every update, the parts, the drafts, and
 * every part and draft in the order they came with the chunk that brought it.
 */
function read(kind: OutputKind, chunks: string[]) {
  const reader = new AnswerStream(kind);
  const updates: string[] = [];
  const parts: StepPart[] = [];
  const drafts: (PartDraft & { done: boolean })[] = [];
  const seen: Seen[] = [];
  /** Every field update, with the chunk that brought it. */
  const fields: (LiveField & { done: boolean; chunk: number })[] = [];
  chunks.forEach((chunk, i) => {
    const u = reader.push(chunk);
    for (const f of u.fields) fields.push({ ...f, chunk: i });
    updates.push(u.prose);
    parts.push(...u.parts);
    for (const part of u.parts) seen.push({ chunk: i, part });
    if (u.draft) {
      drafts.push(u.draft);
      seen.push({ chunk: i, draft: u.draft });
    }
  });
  const end = reader.finish();
  updates.push(end.prose);
  parts.push(...end.parts);
  expect(end.draft).toBeUndefined();
  expect(end.fields).toEqual([]);
  // What the live page shows at the end: each field's latest text, those taken back left out.
  const shown = fields.reduce<LiveField[]>((list, { done: _d, chunk: _c, ...f }) => withField(list, f), []);
  return { prose: updates.join(''), updates, parts, drafts, seen, fields, shown, reader };
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
  describe('drafts of the part being written', () => {
    // Claims before the prose, as some models write them: the first words a reader can see are a claim's.
    const claimsFirst = JSON.stringify({ claims: turn.claims, questions: turn.questions, text: TEXT });
    const claimText = (i: number) => turn.claims[i].text;
    const emojiClaim = { id: 'D2-c1', text: TEXT, factor: 'other', polarity: 'adverse', citations: [] };
    // A claim whose text holds every escape, an emoji and Korean, written before the prose.
    const hard = JSON.stringify({ claims: [emojiClaim, turn.claims[1]], questions: [], text: 'x' }).replace('ሴ', '\\u1234');

    /** Each draft is a prefix of its part's text and never ends in half a character; each part comes after its drafts, never followed by one. */
    function expectDrafts(seen: Seen[], textOf: (kind: string, index: number) => string, where: string) {
      const finished = new Set<string>();
      const counts: Record<string, number> = {};
      for (const s of seen) {
        if ('part' in s) {
          if (s.part.kind === 'citation') continue;
          const index = (counts[s.part.kind] = (counts[s.part.kind] ?? -1) + 1);
          finished.add(`${s.part.kind}:${index}`);
          continue;
        }
        const { kind, index, text } = s.draft;
        expect(finished.has(`${kind}:${index}`), `${where}: draft after its part`).toBe(false);
        expect(textOf(kind, index).startsWith(text), `${where}: ${JSON.stringify(text)}`).toBe(true);
        expect(text.length, where).toBeGreaterThan(0);
        const last = text.charCodeAt(text.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff, where).toBe(false);
      }
    }

    it('reports a claim’s text as it is written, decoded, for every split of a claims-first answer into two chunks', () => {
      expect(hard).toContain('\\u1234');
      const texts: Record<string, string[]> = { claim: [TEXT, turn.claims[1].text], question: [] };
      const textStart = hard.indexOf('"text":"') + '"text":"'.length;
      const textEnd = textStart + JSON.stringify(TEXT).replace('ሴ', '\\u1234').length - 2;
      for (let i = 1; i < hard.length; i++) {
        const { seen, drafts, parts, prose } = read('turn', [hard.slice(0, i), hard.slice(i)]);
        expectDrafts(seen, (kind, index) => texts[kind][index], `split at ${i}`);
        expect(prose, `split at ${i}`).toBe('x');
        expect(parts.filter((p) => p.kind === 'claim').map((p) => p.value.text), `split at ${i}`).toEqual([TEXT, turn.claims[1].text]);
        // Split inside the first claim's text (after its first character): the first chunk shows what it holds of it.
        if (i > textStart && i < textEnd) {
          const shown = drafts.find((d) => d.index === 0)!;
          expect(shown, `split at ${i}`).toBeDefined();
          expect(shown.done).toBe(false);
          // The longest start of the text whose JSON fits in what the first chunk holds of the field.
          const encoded = (k: number) => JSON.stringify(TEXT.slice(0, k)).replace('ሴ', '\\u1234').length - 2;
          let k = 0;
          for (let j = 1; j <= TEXT.length; j++) if (encoded(j) <= i - textStart) k = j;
          expect(shown.text, `split at ${i}`).toBe(TEXT.slice(0, k));
        }
      }
    });

    it('grows a claim in one-character chunks from its first character to its whole text, then the part replaces it', () => {
      const chunks = [...hard];
      const { seen, drafts } = read('turn', chunks);
      expectDrafts(seen, (kind, index) => [TEXT, turn.claims[1].text][index], 'one-character chunks');
      const first = drafts.filter((d) => d.index === 0);
      // The first character of the claim's text is out with the chunk that brings it.
      const firstChunk = seen.find((s) => 'draft' in s)!.chunk;
      expect(firstChunk).toBe(hard.indexOf('"text":"') + '"text":"'.length);
      expect(first[0].text).toBe(TEXT[0]);
      expect(first.at(-1)).toEqual({ kind: 'claim', index: 0, text: TEXT, done: true });
      // Each update has more of it than the last.
      for (let i = 1; i < first.length; i++) expect(first[i].text.length).toBeGreaterThanOrEqual(first[i - 1].text.length);
      expect(drafts.filter((d) => d.index === 1).at(-1)).toEqual({ kind: 'claim', index: 1, text: 'Backlog "firm"', done: true });
      // The first claim is sent after its last draft and before the second claim's first.
      const order = seen.map((s) => ('part' in s ? `part:${s.part.kind}` : `draft:${s.draft.index}`)).filter((x, i, all) => x !== all[i - 1]);
      expect(order).toEqual(['draft:0', 'part:claim', 'draft:1', 'part:claim']);
    });

    it('reads claims-first answers in chunks of every size, fenced and in Korean: the first visible text is a claim’s, and nothing of JSON is in a draft', () => {
      const fenced = `Below is the requested JSON object.\n\`\`\`json\n${claimsFirst}\n\`\`\`\nI hope this helps.`;
      for (const size of [1, 2, 3, 4, 5, 7, 11, 64]) {
        const { seen, drafts, prose, parts } = read('turn', inPieces(fenced, size));
        expectDrafts(seen, (kind, index) => (kind === 'claim' ? claimText(index) : turn.questions[index].text), `chunks of ${size}`);
        expect(prose).toBe(TEXT);
        expect(parts).toHaveLength(4);
        for (const d of drafts) expect(d.text, `chunks of ${size}`).not.toMatch(/\{"|":|\[\{|```/);
        // Short texts in small chunks: each claim and the question is seen growing before it completes.
        if (size <= 3) expect(new Set(drafts.map((d) => `${d.kind}:${d.index}`))).toEqual(new Set(['claim:0', 'claim:1', 'question:0']));
      }
    });

    it('sends no draft for a part that completes within the chunk that started it, nor after the answer ends', () => {
      const { drafts, parts } = read('turn', [claimsFirst]);
      expect(drafts).toEqual([]);
      expect(parts).toHaveLength(4);
      // Cut in the middle of the first claim: the draft holds what was written, the end adds nothing.
      const cut = claimsFirst.indexOf('증가');
      const partial = read('turn', inPieces(claimsFirst.slice(0, cut + 1), 4));
      expect(partial.drafts.at(-1)).toEqual({ kind: 'claim', index: 0, text: '매출 증', done: false });
    });

    it('drafts the readable field of each kind of part, not its other strings, and never a citation', () => {
      const round = {
        text: 'Three arguments.',
        arguments: [{ id: 'A1', factor: 'other', reasoning: 'Cash covers the debt twice.', claim: '유동성은 충분하다', evidence: [{ source: 'DART', date: '2024-05-01' }] }],
      };
      const { drafts } = read('argumentsRound', [...JSON.stringify(round)]);
      expect([...new Set(drafts.map((d) => d.text))].at(-1)).toBe('유동성은 충분하다');
      expect(drafts.every((d) => d.kind === 'argument' && round.arguments[0].claim.startsWith(d.text))).toBe(true);
      const answers = { text: 't', responses: [{ targetId: 'A1', kind: 'refute', reasoning: 'The covenant was waived in 2023.', followUp: 'Which lender?' }] };
      expect(read('responsesRound', inPieces(JSON.stringify(answers), 2)).drafts.at(-1)).toEqual({ kind: 'response', index: 0, text: 'The covenant was waived in 2023.', done: true });
      const report = { overview: 'o', objective: 'b', favorableSummary: [], adverseSummary: [], topics: [{ topic: '수주 잔고', factor: 'other', affirmative: 'a', adverse: 'b', citations: [{ source: 'DART', date: '2024-01-01' }] }] };
      expect(read('report', inPieces(JSON.stringify(report), 2)).drafts.map((d) => `${d.kind}:${d.index}:${d.text}`).at(-1)).toBe('topic:0:수주 잔고');
      // A claim's text written twice keeps its first value, as the finished part does.
      const twice = '{"claims":[{"id":"c1","text":"first","factor":"other","text":"second","citations":[]}],"text":"p"}';
      expect(read('turn', inPieces(twice, 2)).drafts.map((d) => d.text)).not.toContain('second');
    });

    it('cuts a long draft at the limit with an ellipsis and decodes no further, so updates stay small', () => {
      const long = 'y'.repeat(5_000);
      const raw = JSON.stringify({ claims: [{ id: 'c1', text: long, factor: 'other', polarity: 'context', citations: [] }], questions: [], text: 'p' });
      const { drafts, parts, reader } = read('turn', inPieces(raw, 100));
      expect(drafts.at(-1)!.text).toBe(`${'y'.repeat(MAX_DRAFT_CHARS)}…`);
      expect(Math.max(...drafts.map((d) => d.text.length))).toBe(MAX_DRAFT_CHARS + 1);
      expect(parts[0].value.text).toBe(drafts.at(-1)!.text);
      // The part once, the answer once at the end, the first 600 characters of the draft: not the draft's 5,000 again.
      expect(reader.decodedChars).toBeLessThan(2 * raw.length + 2 * MAX_DRAFT_CHARS);
    });

    it('stops drafting once parts are no longer sent live', () => {
      const many = { claims: Array.from({ length: MAX_LIVE_PARTS + 2 }, (_, i) => ({ id: `c${i}`, text: `claim ${i}`, citations: [] })), text: 'p' };
      const { drafts, parts } = read('turn', inPieces(JSON.stringify(many), 3));
      expect(parts).toHaveLength(MAX_LIVE_PARTS);
      expect(Math.max(...drafts.map((d) => d.index))).toBe(MAX_LIVE_PARTS - 1);
    });
  });

  describe('readable fields beyond the prose and the parts', () => {
    // A report that writes its objective (every escape, Korean, an emoji) and summaries before its
    // overview, as a model that reorders keys does; the topic's own strings belong to the topic.
    const report = {
      objective: TEXT,
      favorableSummary: ['Orders grew.', 'Backlog "firm" \\ up.'],
      adverseSummary: [],
      topics: [{ topic: 'Growth', factor: 'industry_growth_outlook', affirmative: 'Up', adverse: 'Down', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-05-01' }] }],
      overview: '삼성전자 개요.',
    };
    const reportRaw = JSON.stringify(report).replace('ሴ', '\\u1234');
    const valueOf = (f: LiveField) => (f.name === 'objective' ? TEXT : report.favorableSummary[f.index]);

    it('shows each field decoded as it is written, for every split of the answer into two chunks, and the overview as the prose', () => {
      expect(reportRaw).toContain('\\u1234');
      const objectiveStart = reportRaw.indexOf('"objective":"') + '"objective":"'.length;
      for (let i = 1; i < reportRaw.length; i++) {
        const { prose, fields, shown, parts } = read('report', [reportRaw.slice(0, i), reportRaw.slice(i)]);
        const at = `split at ${i}`;
        expect(prose, at).toBe('삼성전자 개요.');
        expect(shown, at).toEqual([
          { name: 'objective', index: 0, text: TEXT },
          { name: 'favorableSummary', index: 0, text: 'Orders grew.' },
          { name: 'favorableSummary', index: 1, text: 'Backlog "firm" \\ up.' },
        ]);
        for (const f of fields) {
          expect(valueOf(f).startsWith(f.text) && f.text.length > 0, `${at}: ${JSON.stringify(f.text)}`).toBe(true);
          const last = f.text.charCodeAt(f.text.length - 1);
          expect(last >= 0xd800 && last <= 0xdbff, at).toBe(false);
        }
        expect(parts.map((p) => p.kind), at).toEqual(['citation', 'topic']);
        // Split after the objective's first character: the first chunk already shows it.
        if (i > objectiveStart) expect(fields.find((f) => f.chunk === 0)?.name, at).toBe('objective');
      }
    });

    it('shows a summary written before the overview from its first character, and keeps the overview as the prose', () => {
      const raw = JSON.stringify({ favorableSummary: ['Orders grew.'], adverseSummary: ['Debt rose.'], topics: [], overview: 'The overview.', objective: 'Why we ask.' });
      const { prose, fields, updates, shown } = read('report', inPieces(raw, 4));
      expect(prose).toBe('The overview.');
      const first = raw.indexOf('Orders');
      expect(fields[0]).toMatchObject({ name: 'favorableSummary', index: 0, chunk: Math.floor(first / 4) });
      expect(fields[0].text).toBe('Orders grew.'.slice(0, 4 - (first % 4)));
      expect(updates.slice(0, Math.floor(raw.indexOf('The overview') / 4)).join('')).toBe('');
      // A field written after the prose is shown too, under its own heading.
      expect(shown.map((f) => `${f.name}:${f.text}`)).toEqual(['favorableSummary:Orders grew.', 'adverseSummary:Debt rose.', 'objective:Why we ask.']);
    });

    it('never shows an id, a date or an enum code, nor a part’s strings, as a field', () => {
      const rubric = JSON.stringify({
        scores: [{ argumentId: 'A1', logic: 7, evidence: 6, responsiveness: 5, honesty: 8, weighted: 6.5 }],
        fallacies: [{ argumentId: 'A1', fallacy: 'straw_man', explanation: 'It answers a weaker claim.' }],
        trace: [{ argumentId: 'A1', standing: 'UPHELD', note: 'Never rebutted.' }],
        overall: { keyInsight: 'Liquidity decides it.', affirmativeTotal: 6.5, negativeTotal: 5, unresolved: ['Refinancing in 2025?'], recommendation: 'Approve.' },
      });
      const judged = read('rubricJudgment', inPieces(rubric, 3));
      expect(judged.shown.map((f) => `${f.name}:${f.text}`)).toEqual(['explanation:It answers a weaker claim.', 'note:Never rebutted.', 'unresolved:Refinancing in 2025?', 'recommendation:Approve.']);
      expect(judged.prose).toBe('Liquidity decides it.');
      const codes = /A1|straw_man|UPHELD/;
      expect(judged.fields.filter((f) => codes.test(f.text))).toEqual([]);
      // A stance draft's stance, its horizons (a name, an enum, a number) and its claims are no fields; a turn's claims are drafts.
      const draft = JSON.stringify({ stance: 'adverse', horizons: [{ horizon: '12 months', outlook: 'adverse', confidence: 0.6 }], claims: turn.claims, text: 'Adverse.' });
      expect(read('stanceDraft', inPieces(draft, 5)).fields).toEqual([]);
      const claimsFirst = read('turn', inPieces(JSON.stringify({ claims: turn.claims, questions: turn.questions, falsifiability: 'A rise in orders.', text: 'x' }), 5));
      expect(claimsFirst.shown).toEqual([{ name: 'falsifiability', index: 0, text: 'A rise in orders.' }]);
      expect(claimsFirst.drafts.length).toBeGreaterThan(0);
      // The same key in the wrong place is no field: a report's objective nested in a topic, a final report's outlook in a horizon.
      const nested = read('report', inPieces(JSON.stringify({ topics: [{ topic: 'T', objective: 'no' }], extra: { objective: 'no' }, overview: 'o' }), 4));
      expect(nested.fields).toEqual([]);
    });

    it('lets nothing of a fence, a sentence around the answer or JSON into a field', () => {
      const raw = `Below is the requested JSON {as asked}:\n\`\`\`json\n${reportRaw}\n\`\`\`\nNote: all figures are cited. {"objective":"not this"}`;
      for (const size of [1, 3, 7, 64]) {
        const { fields, shown, prose } = read('report', inPieces(raw, size));
        expect(prose, `chunks of ${size}`).toBe('삼성전자 개요.');
        expect(shown.map((f) => f.text), `chunks of ${size}`).toEqual([TEXT, 'Orders grew.', 'Backlog "firm" \\ up.']);
        for (const f of fields) expect(valueOf(f).startsWith(f.text), `chunks of ${size}: ${JSON.stringify(f.text)}`).toBe(true);
      }
    });

    it('shows a prose field written before its turn as a field, and takes it back as the prose reaches it', () => {
      const reversed = read('sasStress', inPieces('{"critique":"It assumes growth.","assumption":"Demand holds."}', 3));
      expect(reversed.prose).toBe('Demand holds. — It assumes growth.');
      const critique = reversed.fields.filter((f) => f.name === 'critique');
      // '{"critique":"' is 13 characters: the fifth chunk of three brings its first two letters.
      expect(critique[0]).toMatchObject({ index: 0, text: 'It', chunk: 4 });
      expect(critique.at(-2)).toMatchObject({ text: 'It assumes growth.', done: true });
      // Taken back with the update whose prose holds it.
      const back = critique.at(-1)!;
      expect(back.text).toBe('');
      expect(reversed.updates[back.chunk]).toContain('It assumes growth.');
      expect(reversed.shown).toEqual([]);
      // In order, the prose streams as it comes: no field at all.
      expect(read('sasStress', inPieces('{"assumption":"Demand holds.","critique":"It assumes growth."}', 3)).fields).toEqual([]);
      // A judgment's justification before its winner: the justification shows, the winner (an enum) never as a field.
      const judged = read('sasJudgment', inPieces('{"justification":"Cash covers the debt.","winner":"negative"}', 3));
      expect(new Set(judged.fields.map((f) => f.name))).toEqual(new Set(['justification']));
      expect(judged.fields[0].chunk).toBe(Math.floor('{"justification":"'.length / 3));
      expect(judged.shown).toEqual([]);
      expect(judged.prose).toBe('negative: Cash covers the debt.');
    });

    it('cuts a long field and stops opening fields past the limit, so live events stay small', () => {
      const long = read('report', inPieces(JSON.stringify({ objective: 'x'.repeat(3 * MAX_DRAFT_CHARS), overview: 'o' }), 50));
      expect(long.shown).toEqual([{ name: 'objective', index: 0, text: `${'x'.repeat(MAX_DRAFT_CHARS)}…` }]);
      // An empty or blank field is shown from its first non-space, if any.
      const blank = read('report', ['{"objective":"', '  ', '\\n', ' Why', '","favorableSummary":["",""],"overview":"o"}']);
      expect(blank.fields.map((f) => `${f.chunk}:${JSON.stringify(f.text)}`)).toEqual(['3:"  \\n Why"', '4:"  \\n Why"']);
      const many = read('closingRound', inPieces(JSON.stringify({ concessions: Array.from({ length: 100 }, (_, i) => `Point ${i}.`), unrebutted: [], finalPosition: 'Hold.', text: 't' }), 16));
      expect(many.shown).toHaveLength(MAX_LIVE_FIELDS);
      expect(many.shown.at(-1)).toEqual({ name: 'concessions', index: MAX_LIVE_FIELDS - 1, text: `Point ${MAX_LIVE_FIELDS - 1}.` });
      expect(many.prose).toBe('t');
    });
  });
});
