// What viewers get while a step streams: its answer so far as one object (and its prose), at
// most every PARTIAL_EVERY_MS and once more at the end, and its spend growing — on a known answer
// chunk by chunk, on a stream that restarts after a wait, and on the offline analyst for every
// output kind of the five systems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { liveStep, partialAnswer, PARTIAL_EVERY_MS, USAGE_EVERY_TOKENS } from '@/lib/debate/live-step';
import { getProtocol } from '@/lib/debate/protocols';
import { OUTPUT_SCHEMAS, type OutputKind } from '@/lib/domain/outputs';
import type { RunEvent, Usage } from '@/lib/domain/protocol';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { createOfflineAnalyst } from '@/lib/llm/offline';

/** The ids of the objects in every array under `key`, wherever in the output. */
function idsUnder(output: unknown, key: string): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, at?: string) => {
    if (Array.isArray(value)) {
      if (at === key) for (const v of value) if (v && typeof v === 'object') out.push((v as { id?: unknown }).id);
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(output);
  return out;
}

const NOTHING: Usage = { promptTokens: 0, completionTokens: 0, costUsd: 0 };
const turn = {
  text: 'Orders grew.\nMargins "held".',
  claims: [{ id: 'D1-c1', text: 'Orders up', factor: 'other', polarity: 'favorable', citations: [] }],
  questions: [],
};

/** A live step on a clock the test moves, with the events it publishes. */
function harness(options: { kind?: OutputKind; sources?: string[]; spent?: () => Usage } = {}) {
  const events: RunEvent[] = [];
  let now = 0;
  const live = liveStep({
    publish: (e) => events.push(e),
    runId: 'r1',
    stepId: 'D1',
    kind: options.kind ?? 'turn',
    spent: options.spent ?? (() => NOTHING),
    sources: options.sources,
    now: () => now,
  });
  const partials = () => events.flatMap((e) => (e.type === 'step-partial' ? [{ text: e.text, output: e.output }] : []));
  return { live, events, partials, advance: (ms: number) => (now += ms) };
}

describe('partialAnswer', () => {
  it('reads the object being written past a fence and a sentence, cutting the string, list and object under way', () => {
    expect(partialAnswer('Here it is:\n```json\n{"text":"Orders gr')).toEqual({ text: 'Orders gr' });
    expect(partialAnswer('{"text":"a","claims":[{"id":"c1","text":"Ord')).toEqual({ text: 'a', claims: [{ id: 'c1', text: 'Ord' }] });
    expect(partialAnswer('{"text":"a\\"b"}\n```')).toEqual({ text: 'a"b' });
    expect(partialAnswer('```json\n')).toBeNull();
    expect(partialAnswer('')).toBeNull();
  });
});

describe('liveStep', () => {
  it('publishes the answer so far at most every PARTIAL_EVERY_MS, and the whole answer at the end', () => {
    const { live, partials, advance } = harness();
    const raw = '```json\n' + JSON.stringify(turn) + '\n```';
    const cut = raw.indexOf('Margins');
    // The first chunk with the object goes out at once; one 100 ms later waits; one 150 ms after the first goes.
    live.onToken(raw.slice(0, cut));
    expect(partials()).toEqual([{ text: 'Orders grew.\n', output: { text: 'Orders grew.\n' } }]);
    advance(100);
    live.onToken(raw.slice(cut, cut + 7));
    expect(partials()).toHaveLength(1);
    advance(PARTIAL_EVERY_MS - 100);
    live.onToken(raw.slice(cut + 7, cut + 12));
    expect(partials().at(-1)).toEqual({ text: 'Orders grew.\nMargins "he', output: { text: 'Orders grew.\nMargins "he' } });
    // The rest within the same 150 ms: nothing more until the call returns, then all of it.
    live.onToken(raw.slice(cut + 12));
    expect(partials()).toHaveLength(2);
    live.end();
    expect(partials()).toHaveLength(3);
    expect(partials()[2]).toEqual({ text: turn.text, output: turn });
    // Nothing new since: a second end sends nothing.
    live.end();
    expect(partials()).toHaveLength(3);
  });

  it('sends no partial that adds nothing, so the first words go out as soon as they are written', () => {
    const { live, partials, advance } = harness();
    // A fence, then the object with only a key begun: nothing to show, and nothing sent.
    live.onToken('```json\n{"te');
    advance(10);
    live.onToken('xt"');
    expect(partials()).toEqual([]);
    // The prose's first letters 20 ms later: out at once, not held back by the empty ones.
    advance(10);
    live.onToken(':"Or');
    expect(partials()).toEqual([{ text: 'Or', output: { text: 'Or' } }]);
  });

  it('spaces the partials of a steady stream by the interval, each a longer start of the same answer', () => {
    const { live, partials, advance } = harness();
    const raw = JSON.stringify({ ...turn, text: 'x'.repeat(600) });
    // 4 characters every 10 ms: 1,600 ms of streaming.
    for (let i = 0; i < raw.length; i += 4) {
      live.onToken(raw.slice(i, i + 4));
      advance(10);
    }
    live.end();
    const sent = partials();
    const duration = Math.ceil(raw.length / 4) * 10;
    expect(sent.length).toBeGreaterThanOrEqual(Math.floor(duration / PARTIAL_EVERY_MS));
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(duration / PARTIAL_EVERY_MS) + 1);
    for (let i = 1; i < sent.length; i++) expect(sent[i].text.startsWith(sent[i - 1].text)).toBe(true);
    expect(sent.at(-2)!.text.length).toBeGreaterThan(sent[0].text.length);
    expect(sent.at(-1)!.output).toEqual(JSON.parse(raw));
  });

  it('shows a cited source by name where the model wrote its key, and the prose of a kind whose prose is two fields', () => {
    const judged = harness({ kind: 'sasJudgment' });
    judged.live.onToken('{"winner":"affirmative","justification":"');
    expect(judged.partials()).toEqual([{ text: 'affirmative', output: { winner: 'affirmative', justification: '' } }]);
    const { live, partials } = harness({ kind: 'sasStress', sources: ['DART 반기보고서', 'Reuters'] });
    live.onToken(JSON.stringify({ assumption: 'Orders hold', critique: 'They may not', evidence: [{ evidenceId: 'e1', source: 'S2', date: '2025-01-02' }] }));
    live.end();
    expect(partials().at(-1)).toEqual({
      text: 'Orders hold — They may not',
      output: { assumption: 'Orders hold', critique: 'They may not', evidence: [{ evidenceId: 'e1', source: 'Reuters', date: '2025-01-02' }] },
    });
  });

  it('publishes the spend every few dozen tokens, then as it stands at the end', () => {
    let spent: Usage = NOTHING;
    const { live, events } = harness({ spent: () => spent });
    const raw = JSON.stringify(turn);
    for (let i = 0; i < raw.length; i += 3) {
      spent = { promptTokens: 500, completionTokens: Math.ceil((i + 3) / 4), costUsd: 0.001 };
      live.onToken(raw.slice(i, i + 3));
    }
    spent = { promptTokens: 480, completionTokens: 30, costUsd: 0.002 };
    live.end();
    const usages = events.flatMap((e) => (e.type === 'step-usage' ? [e.usage] : []));
    // The first figure at once, then only after USAGE_EVERY_TOKENS more, and the settled one last.
    expect(usages[0]).toEqual({ promptTokens: 500, completionTokens: 1, costUsd: 0.001 });
    for (let i = 1; i < usages.length - 1; i++) {
      expect(usages[i].completionTokens - usages[i - 1].completionTokens).toBeGreaterThanOrEqual(USAGE_EVERY_TOKENS);
    }
    expect(usages.at(-1)).toEqual({ promptTokens: 480, completionTokens: 30, costUsd: 0.002 });
    expect(usages.length).toBeLessThan(raw.length / 3 / 4);
  });

  it("starts reading afresh after a wait: the retried answer goes out at once, without the first attempt's text", () => {
    const { live, events, partials, advance } = harness();
    const raw = JSON.stringify(turn);
    // The first attempt breaks off inside the text; the provider waits and asks again.
    live.onToken(raw.slice(0, 13));
    expect(partials()).toEqual([{ text: 'Orde', output: { text: 'Orde' } }]);
    advance(10);
    live.onWait({ reason: 'provider-error', until: '2025-01-01T00:00:05.000Z' });
    live.onToken(raw.slice(0, 10));
    live.end();
    const afterWait = events.slice(events.findIndex((e) => e.type === 'step-waiting') + 1).flatMap((e) => (e.type === 'step-partial' ? [e.text] : []));
    expect(afterWait).toEqual(['O']);
    expect(events.filter((e) => e.type === 'step-waiting')).toHaveLength(1);
  });
});

describe('the engine streams partial answers on the offline analyst', () => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it('for every output kind of the five systems: each partial’s prose is a start of the step’s text, the last holds its claims and questions, spend grows to its usage', async () => {
    const kinds = new Set<OutputKind>();
    for (const protocol of PROTOCOLS) {
      const provider = createOfflineAnalyst();
      const language = protocol === 'sas' || protocol === 'three-round' ? 'en' : 'ko';
      const run = await createRun({ db, protocolId: protocol, companyId: 'samsung-electronics', provider, params: { asOf: '2025-06-30', language } });
      const events: RunEvent[] = [];
      const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
      const result = await executeRun({ db, runId: run.id, provider });
      unsubscribe();
      expect(result.status, `${protocol}: ${result.error}`).toBe('succeeded');

      for (const step of getProtocol(protocol).steps) {
        kinds.add(step.output);
        const mine = events.filter((e) => 'stepId' in e && e.stepId === step.id);
        const done = mine.find((e) => e.type === 'step-done');
        if (done?.type !== 'step-done') throw new Error(`${protocol} ${step.id} did not finish`);
        const partials = mine.flatMap((e) => (e.type === 'step-partial' ? [e] : []));
        const where = `${protocol} ${step.id} (${step.output})`;
        expect(partials.length, where).toBeGreaterThan(0);
        // The prose as it grew: each a start of the step's text, never JSON, the last all of it.
        for (const p of partials) {
          expect(done.text.startsWith(p.text), where).toBe(true);
          expect(p.text, where).not.toMatch(/\{"|":|\[\{/);
        }
        expect(partials.at(-1)!.text, where).toBe(done.text);
        // What the model wrote: a safety check's `report` (the version it keeps, with the draft's
        // or the leader's claims) is the engine's, added after the answer (lib/debate/enforce.ts).
        const answered = step.output === 'safetyCheck' ? { ...(done.output as object), report: undefined } : done.output;
        if (step.output === 'safetyCheck') expect(idsUnder(done.output, 'claims').length, where).toBeGreaterThan(0);
        const last = partials.at(-1)!.output;
        for (const key of ['claims', 'questions', 'arguments']) expect(idsUnder(last, key), `${where}: ${key}`).toEqual(idsUnder(answered, key));

        // The spend grows while the step writes and ends at what the step used.
        const usages = mine.flatMap((e) => (e.type === 'step-usage' ? [e.usage] : []));
        expect(usages.length, where).toBeGreaterThan(0);
        const totals = usages.map((u) => u.promptTokens + u.completionTokens);
        expect(
          [...totals].sort((a, b) => a - b),
          where,
        ).toEqual(totals);
        expect(usages.at(-1)!.promptTokens, where).toBe(done.usage.promptTokens);
        expect(usages.at(-1)!.completionTokens, where).toBe(done.usage.completionTokens);
        // Every live event of the step came before its end.
        expect(
          mine.findIndex((e) => e.type === 'step-done'),
          where,
        ).toBe(mine.length - 1);
      }
    }
    expect([...kinds].sort()).toEqual(Object.keys(OUTPUT_SCHEMAS).sort());
  }, 120_000);
});
