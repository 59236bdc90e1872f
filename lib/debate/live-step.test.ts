// What viewers get while a step streams: its prose only (never the JSON around it), each part as
// it completes, and its spend growing — on the offline analyst for every output kind of the five
// systems, and on a stream that restarts after a wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { DRAFT_EVERY_CHARS, liveStep, USAGE_EVERY_TOKENS } from '@/lib/debate/live-step';
import { getProtocol } from '@/lib/debate/protocols';
import { LIVE_FIELDS } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, PROSE, type OutputKind } from '@/lib/domain/outputs';
import type { RunEvent, Usage } from '@/lib/domain/protocol';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { createOfflineAnalyst } from '@/lib/llm/offline';

/** The strings at a path of keys in an output, lists on the way flattened (as LIVE_FIELDS reads it). */
function stringsAt(output: unknown, path: readonly string[]): string[] {
  let values: unknown[] = [output];
  for (const key of path) {
    values = values.flatMap((v) => (v && typeof v === 'object' && !Array.isArray(v) ? [(v as Record<string, unknown>)[key]] : [])).flatMap((v) => (Array.isArray(v) ? v : [v]));
  }
  return values.filter((v): v is string => typeof v === 'string');
}

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

const turn = { text: 'Orders grew.\nMargins "held".', claims: [{ id: 'D1-c1', text: 'Orders up', factor: 'other', polarity: 'favorable', citations: [] }], questions: [] };

describe('liveStep', () => {
  it('publishes the prose as tokens, the parts as they complete and the spend every few dozen tokens, then the rest at the end', () => {
    const events: RunEvent[] = [];
    let spent: Usage = { promptTokens: 0, completionTokens: 0, costUsd: 0 };
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'D1', kind: 'turn', spent: () => spent });
    const raw = '```json\n' + JSON.stringify(turn) + '\n```';
    for (let i = 0; i < raw.length; i += 3) {
      spent = { promptTokens: 500, completionTokens: Math.ceil((i + 3) / 4), costUsd: 0.001 };
      live.onToken(raw.slice(i, i + 3));
    }
    spent = { promptTokens: 480, completionTokens: 30, costUsd: 0.002 };
    live.end();
    const tokens = events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
    expect(tokens.join('')).toBe(turn.text);
    expect(events.filter((e) => e.type === 'step-part')).toEqual([{ type: 'step-part', runId: 'r1', stepId: 'D1', part: { kind: 'claim', value: turn.claims[0] } }]);
    const usages = events.flatMap((e) => (e.type === 'step-usage' ? [e.usage] : []));
    // The first figure at once, then only after USAGE_EVERY_TOKENS more, and the settled one last.
    expect(usages[0]).toEqual({ promptTokens: 500, completionTokens: 1, costUsd: 0.001 });
    for (let i = 1; i < usages.length - 1; i++) {
      expect(usages[i].completionTokens - usages[i - 1].completionTokens).toBeGreaterThanOrEqual(USAGE_EVERY_TOKENS);
    }
    expect(usages.at(-1)).toEqual({ promptTokens: 480, completionTokens: 30, costUsd: 0.002 });
    expect(usages.length).toBeLessThan(raw.length / 3 / 4);
  });

  it('starts reading afresh after a wait: the retried answer streams its prose from the beginning', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'D1', kind: 'turn', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = JSON.stringify(turn);
    // The first attempt breaks off inside the text; the provider waits and asks again.
    live.onToken(raw.slice(0, 15));
    live.onWait({ reason: 'provider-error', until: '2025-01-01T00:00:05.000Z' });
    live.onToken(raw);
    live.end();
    const afterWait = events.slice(events.findIndex((e) => e.type === 'step-waiting') + 1);
    expect(afterWait.flatMap((e) => (e.type === 'token' ? [e.text] : [])).join('')).toBe(turn.text);
    expect(events.filter((e) => e.type === 'step-waiting')).toHaveLength(1);
  });
});

describe('liveStep drafts', () => {
  // The court rehabilitation filing of DH오토넥스 (data/fixtures/opendart/material/testdata/ctrcvsBgrq.json), in a turn that writes its claims first.
  const claimText = 'DH오토넥스는 서울회생법원에 회생절차 개시를 신청했다: 채권 회수가 지연될 수 있고 담보의 처분 가치가 핵심이 된다.';
  const claimsFirst = {
    claims: [{ id: 'D3-c1', text: claimText, factor: 'legal_regulatory', polarity: 'adverse', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-03-05' }] }],
    questions: [],
    text: '회생 신청은 상환 능력에 직접 영향을 준다.',
  };

  it('shows a claim written before the prose from its first character, every few dozen characters after, and whole when its text is complete', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'D3', kind: 'turn', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = 'Here is the analysis for this step as JSON:\n```json\n' + JSON.stringify(claimsFirst) + '\n```';
    const firstVisible = raw.indexOf('"text":"') + '"text":"'.length;
    let visibleAt = -1;
    for (let i = 0; i < raw.length; i += 2) {
      const before = events.length;
      live.onToken(raw.slice(i, i + 2));
      if (visibleAt < 0 && events.slice(before).some((e) => e.type === 'step-part-draft' || e.type === 'token')) visibleAt = i + 2;
    }
    live.end();
    // Visible with the chunk that brings the claim's first character, not after the claim is closed.
    expect(visibleAt).toBe(firstVisible + (firstVisible % 2 ? 1 : 2));
    const drafts = events.flatMap((e) => (e.type === 'step-part-draft' ? [e.draft] : []));
    expect(drafts[0]).toEqual({ kind: 'claim', index: 0, text: claimText.slice(0, drafts[0].text.length) });
    expect(drafts[0].text.length).toBeLessThanOrEqual(2);
    expect(drafts.at(-1)).toEqual({ kind: 'claim', index: 0, text: claimText });
    for (let i = 1; i < drafts.length - 1; i++) expect(drafts[i].text.length - drafts[i - 1].text.length).toBeGreaterThanOrEqual(DRAFT_EVERY_CHARS);
    expect(drafts.length).toBeLessThanOrEqual(Math.ceil(claimText.length / DRAFT_EVERY_CHARS) + 2);
    for (const d of drafts) expect(claimText.startsWith(d.text)).toBe(true);
    // The finished claim follows its drafts, and the prose still streams as tokens of its own.
    const kinds = events.filter((e) => e.type === 'step-part-draft' || e.type === 'step-part' || e.type === 'token').map((e) => e.type);
    expect(kinds.lastIndexOf('step-part-draft')).toBeLessThan(kinds.indexOf('step-part'));
    expect(events.flatMap((e) => (e.type === 'token' ? [e.text] : [])).join('')).toBe(claimsFirst.text);
  });

  it('drafts the claim afresh after a wait', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'D3', kind: 'turn', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = JSON.stringify(claimsFirst);
    const cut = raw.indexOf('서울');
    live.onToken(raw.slice(0, cut));
    live.onWait({ reason: 'provider-limit', until: '2025-01-01T00:00:05.000Z' });
    for (let i = 0; i < cut; i += 4) live.onToken(raw.slice(i, i + 4));
    const afterWait = events.slice(events.findIndex((e) => e.type === 'step-waiting') + 1).flatMap((e) => (e.type === 'step-part-draft' ? [e.draft.text] : []));
    // The retried answer's first characters go out again, though the first attempt had sent more.
    expect(afterWait[0].length).toBeLessThanOrEqual(4);
    expect(claimText.startsWith(afterWait[0])).toBe(true);
  });
});

describe('liveStep fields', () => {
  const objective = '삼성전자의 상환 능력을 비재무 근거로 판단한다: 수주, 지배구조, 소송과 규제 위험을 차례로 본다.';
  // A report that writes its objective and a summary before its overview, as a model that reorders keys does.
  const report = { objective, favorableSummary: ['Orders grew.'], adverseSummary: [], topics: [], overview: 'Samsung overview.' };

  it('shows a field written before the prose from its first characters, every few dozen characters after, whole when complete, and the prose as tokens', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'R1', kind: 'report', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = '```json\n' + JSON.stringify(report) + '\n```';
    const firstVisible = raw.indexOf('"objective":"') + '"objective":"'.length;
    let visibleAt = -1;
    for (let i = 0; i < raw.length; i += 4) {
      const before = events.length;
      live.onToken(raw.slice(i, i + 4));
      if (visibleAt < 0 && events.slice(before).some((e) => e.type === 'step-field')) visibleAt = i;
    }
    live.end();
    // Out with the chunk that brings the objective's first character.
    expect(visibleAt).toBe(firstVisible - (firstVisible % 4));
    const fields = events.flatMap((e) => (e.type === 'step-field' ? [e.field] : []));
    const objectives = fields.filter((f) => f.name === 'objective');
    expect(objectives[0].text.length).toBeLessThanOrEqual(4);
    expect(objectives.at(-1)).toEqual({ name: 'objective', index: 0, text: objective });
    for (let i = 1; i < objectives.length - 1; i++) expect(objectives[i].text.length - objectives[i - 1].text.length).toBeGreaterThanOrEqual(DRAFT_EVERY_CHARS);
    for (const f of objectives) expect(objective.startsWith(f.text)).toBe(true);
    // A short summary: once as it starts, once whole.
    const summary = fields.filter((f) => f.name !== 'objective');
    expect(summary).toHaveLength(2);
    expect('Orders grew.'.startsWith(summary[0].text) && summary[0].text.length > 0).toBe(true);
    expect(summary[1]).toEqual({ name: 'favorableSummary', index: 0, text: 'Orders grew.' });
    expect(events.flatMap((e) => (e.type === 'token' ? [e.text] : [])).join('')).toBe('Samsung overview.');
  });

  it('takes a field back, after the token that brings it into the prose, and only one it has shown', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'S2', kind: 'sasStress', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = JSON.stringify({ critique: 'It assumes growth.', assumption: 'Demand holds.' });
    for (let i = 0; i < raw.length; i += 5) live.onToken(raw.slice(i, i + 5));
    live.end();
    const seen = events.filter((e) => e.type === 'step-field' || e.type === 'token').map((e) => (e.type === 'step-field' ? `field:${e.field.text}` : `token:${e.text}`));
    const back = seen.indexOf('field:');
    expect(back).toBeGreaterThan(0);
    expect(seen[back - 1]).toMatch(/^token:.*It assumes growth\.$/);
    expect(seen.filter((x) => x === 'field:')).toHaveLength(1);
    expect(seen.filter((x) => x.startsWith('field:It')).at(-1)).toBe('field:It assumes growth.');
  });

  it('shows the fields afresh after a wait', () => {
    const events: RunEvent[] = [];
    const live = liveStep({ publish: (e) => events.push(e), runId: 'r1', stepId: 'R1', kind: 'report', spent: () => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 }) });
    const raw = JSON.stringify(report);
    const cut = raw.indexOf('지배구조');
    live.onToken(raw.slice(0, cut));
    live.onWait({ reason: 'provider-limit', until: '2025-01-01T00:00:05.000Z' });
    for (let i = 0; i < cut; i += 4) live.onToken(raw.slice(i, i + 4));
    const afterWait = events.slice(events.findIndex((e) => e.type === 'step-waiting') + 1).flatMap((e) => (e.type === 'step-field' ? [e.field.text] : []));
    expect(afterWait[0].length).toBeLessThanOrEqual(4);
    expect(objective.startsWith(afterWait[0])).toBe(true);
  });
});

describe('the engine streams prose on the offline analyst', () => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it('for every output kind of the five systems: tokens are the step’s prose and nothing of its JSON, parts are its claims and questions, spend grows to its usage', async () => {
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
        const tokens = mine.flatMap((e) => (e.type === 'token' ? [e.text] : []));
        const where = `${protocol} ${step.id} (${step.output})`;
        expect(tokens.length, where).toBeGreaterThan(0);
        expect(tokens.join(''), where).toBe(done.text);
        for (const t of tokens) expect(t, where).not.toMatch(/\{"|":|\[\{/);

        const parts = mine.flatMap((e) => (e.type === 'step-part' ? [e.part] : []));
        // What the model wrote: a safety check's `report` (the version it keeps, with the draft's
        // or the leader's claims) is the engine's, added after the answer (lib/debate/enforce.ts).
        const answered = step.output === 'safetyCheck' ? { ...(done.output as object), report: undefined } : done.output;
        if (step.output === 'safetyCheck') expect(idsUnder(done.output, 'claims').length, where).toBeGreaterThan(0);
        expect(parts.filter((p) => p.kind === 'claim').map((p) => p.value.id), where).toEqual(idsUnder(answered, 'claims'));
        expect(parts.filter((p) => p.kind === 'question').map((p) => p.value.id), where).toEqual(idsUnder(answered, 'questions'));
        expect(parts.filter((p) => p.kind === 'argument').map((p) => p.value.id), where).toEqual(idsUnder(answered, 'arguments'));
        // The claims being written show as drafts: a start of the claim's text, nothing of its JSON.
        const claimTexts = parts.filter((p) => p.kind === 'claim').map((p) => String(p.value.text));
        for (const e of mine) {
          if (e.type !== 'step-part-draft') continue;
          expect(e.draft.text, where).not.toMatch(/\{"|":|\[\{/);
          if (e.draft.kind === 'claim') expect(claimTexts[e.draft.index].startsWith(e.draft.text), where).toBe(true);
        }

        // Its other readable fields show as they are written: a start of the value at the field's path, nothing of its JSON.
        for (const e of mine) {
          if (e.type !== 'step-field') continue;
          const path = LIVE_FIELDS[step.output].find((p) => p.at(-1) === e.field.name)!;
          const value = stringsAt(done.output, path)[e.field.index];
          expect(e.field.text, where).not.toMatch(/\{"|":|\[\{/);
          expect(value.startsWith(e.field.text.replace(/…$/, '')), `${where}: ${e.field.name}`).toBe(true);
        }
        const shownFields = new Set<string>(mine.flatMap((e) => (e.type === 'step-field' ? [e.field.name] : [])));
        for (const path of LIVE_FIELDS[step.output]) {
          if (stringsAt(done.output, path).some((v) => v.trim()) && !PROSE[step.output].parts.some((p) => p.join('.') === path.join('.'))) expect(shownFields.has(path.at(-1)!), `${where}: ${path.join('.')}`).toBe(true);
        }

        // The spend grows while the step writes and ends at what the step used.
        const usages = mine.flatMap((e) => (e.type === 'step-usage' ? [e.usage] : []));
        expect(usages.length, where).toBeGreaterThan(0);
        const totals = usages.map((u) => u.promptTokens + u.completionTokens);
        expect([...totals].sort((a, b) => a - b), where).toEqual(totals);
        expect(usages.at(-1)!.promptTokens, where).toBe(done.usage.promptTokens);
        expect(usages.at(-1)!.completionTokens, where).toBe(done.usage.completionTokens);
        // Every live event of the step came before its end.
        expect(mine.findIndex((e) => e.type === 'step-done'), where).toBe(mine.length - 1);
      }
    }
    expect([...kinds].sort()).toEqual(Object.keys(OUTPUT_SCHEMAS).sort());
  }, 120_000);
});
