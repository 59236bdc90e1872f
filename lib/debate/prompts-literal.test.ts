// Prompts a literal model can follow (docs/protocols.md, "What a prompt may say"): a model that
// takes every sentence at its word must not be offered a tool the request does not carry, must not
// read anything dated after the as-of date, must not be told as a fact that a report part has no
// material, and must not be asked at all for a part that has none. Every step of the five systems
// is run through the engine with the offline analyst posing as a model, on a thin pool and a rich
// one, with a search provider configured and without; each request is turned into the messages
// and tools the OpenAI provider sends (lib/llm/openai.ts) and read as the model would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getReport, listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { createRun, executeRun, type WebSearchFn } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { POOL_REPORT_SECTIONS } from '@/lib/debate/protocols/report-sections';
import { coversFactor } from '@/lib/domain/sections';
import type { ProtocolId } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { buildMessages } from '@/lib/llm/openai';
import { stepCall, type GenerateRequest, type ModelProvider } from '@/lib/llm/types';
import { readEvidence } from '@/lib/pool/as-of';

const PROTOCOLS: ProtocolId[] = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'];
// A thin pool (three items from one earnings call, a year old) and a rich one (forty items);
// Tesla as of mid-2021 is a pool whose company profile was recorded years later.
const POOLS = [
  { companyId: 'travelers-companies', asOf: '2021-06-30' },
  { companyId: 'tesla', asOf: '2021-06-30' },
  { companyId: 'samsung-electronics', asOf: '2025-06-30' },
] as const;
// A thin pool is what this test is about: the sufficiency gate would stop it before any step.
const THRESHOLD = { minItems: 1, minFactors: 0 };

type Sent = { step: string; part?: string; text: string; tools: string[] };

/**
 * The offline analyst as a model that searches when it can (a KPD-MADS constructive short of
 * signals must), recording what each request sends: the OpenAI provider's messages and tools.
 */
function recording() {
  const inner = createOfflineAnalyst();
  const sent: Sent[] = [];
  const provider: ModelProvider = {
    name: 'openai',
    model: 'gpt-4o-mini',
    isLLM: true,
    async generate(req: GenerateRequest) {
      // The provider attaches the web_search tool exactly when the request carries the search (lib/llm/openai.ts).
      const tools = req.tools.webSearch ? ['web_search'] : [];
      const text = buildMessages(stepCall(req), 'json_schema')
        .map((m) => (typeof m.content === 'string' ? m.content : ''))
        .join('\n\n');
      sent.push({ step: req.step.id, part: req.part?.key, text, tools });
      if (req.tools.webSearch) await req.tools.webSearch(`${req.company.name} news`);
      return inner.generate(req);
    },
  };
  return { provider, sent };
}

// A search provider that finds nothing: what matters here is that it is configured.
const search: WebSearchFn = async () => [];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Every date the text names, as the latest day it can mean (a month names its last day's month:
 * "2025년 3월" is compared as 2025-03, a year as 2025): ISO dates, 2025.03.31, 2025년 3월 (31일),
 * March 31, 2025, 31 March 2025, March 2025, and a year on its own (FY2024, a 2023 filing).
 */
function datesIn(text: string): { found: string; date: string }[] {
  const out: { found: string; date: string }[] = [];
  const add = (found: string, y: string, m: number, d?: number) => out.push({ found, date: d ? `${y}-${pad(m)}-${pad(d)}` : `${y}-${pad(m)}` });
  for (const m of text.matchAll(/\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/g)) add(m[0], m[1], Number(m[2]), Number(m[3]));
  for (const m of text.matchAll(/\b((?:19|20)\d\d)\.(\d{1,2})\.(\d{1,2})\b/g)) add(m[0], m[1], Number(m[2]), Number(m[3]));
  for (const m of text.matchAll(/((?:19|20)\d\d)년\s*(\d{1,2})월(?:\s*(\d{1,2})일)?/g)) add(m[0], m[1], Number(m[2]), m[3] ? Number(m[3]) : undefined);
  const month = `(${MONTHS.join('|')})`;
  for (const m of text.matchAll(new RegExp(`\\b${month}\\s+(\\d{1,2}),\\s*((?:19|20)\\d\\d)\\b`, 'gi')))
    add(m[0], m[3], MONTHS.indexOf(m[1].toLowerCase()) + 1, Number(m[2]));
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})\\s+${month}\\s+((?:19|20)\\d\\d)\\b`, 'gi')))
    add(m[0], m[3], MONTHS.indexOf(m[2].toLowerCase()) + 1, Number(m[1]));
  for (const m of text.matchAll(new RegExp(`(?<!\\d\\s)\\b${month}\\s+((?:19|20)\\d\\d)\\b`, 'gi'))) add(m[0], m[2], MONTHS.indexOf(m[1].toLowerCase()) + 1);
  // A year alone, not part of a date above: as FY2024, 2023년 or "a 2023 filing" writes it.
  for (const m of text.matchAll(/(?<![\w.\-])(?:FY|CY)?((?:19|20)\d\d)(?![\d.\-]|년\s*\d)/g)) out.push({ found: m[0], date: m[1] });
  return out;
}

/** A date named in the text that falls after the as-of date (a month after the as-of month, a year after its year). */
function after(asOf: string, date: string): boolean {
  return date > asOf.slice(0, date.length);
}

/** Words that offer a search: the tool's name, or searching as something the model may do. */
const SEARCH_OFFER = /web_search|search tool|search the web(?! is not)|(?:a|your|from the) web search|you may (?:also )?search|웹 검색을 (?:하|할)/i;
/** The one sentence that says search is not there. */
const NO_SEARCH = 'You may not search the web.';

describe('prompts a literal model can follow', () => {
  let handle: DatabaseHandle;
  let db: Db;
  const runs = new Map<string, { sent: Sent[]; asOf: string; status: string; error?: string; itemDates: Set<string> }>();

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
    for (const pool of POOLS) {
      // Dates a pool item shows as its own publication or event date, or inside its text: what
      // the pool says at the as-of date (an item published before it may name a later maturity).
      const evidence = await readEvidence({ db, companyId: pool.companyId, asOf: pool.asOf, recencyDays: 3 * 365 });
      const itemDates = new Set(
        evidence.flatMap((e) => [e.publishedDate, e.eventDate ?? '', ...datesIn(`${e.id}\n${e.title}\n${e.text}\n${e.value ?? ''}`).map((d) => d.found)]),
      );
      for (const protocolId of PROTOCOLS) {
        for (const searching of [false, true]) {
          const { provider, sent } = recording();
          const run = await createRun({ db, protocolId, companyId: pool.companyId, provider, params: { asOf: pool.asOf, language: 'en' } });
          const result = await executeRun({ db, runId: run.id, provider, evidenceThreshold: THRESHOLD, ...(searching ? { webSearch: search } : {}) });
          runs.set(`${protocolId}|${pool.companyId}|${searching}`, { sent, asOf: pool.asOf, status: result.status, error: result.error, itemDates });
        }
      }
    }
  }, 600_000);
  afterAll(() => handle?.close());

  const cases = PROTOCOLS.flatMap((p) => POOLS.flatMap((pool) => [false, true].map((s) => [p, pool.companyId, s] as const)));

  it.each(cases)('%s on %s (search configured: %s): every step ran and was asked', (protocolId, companyId, searching) => {
    const run = runs.get(`${protocolId}|${companyId}|${searching}`)!;
    expect(run.status, run.error).toBe('succeeded');
    const steps = new Set(run.sent.map((s) => s.step));
    expect([...steps].sort()).toEqual(
      getProtocol(protocolId)
        .steps.map((s) => s.id)
        .sort(),
    );
  });

  it.each(cases)('%s on %s (search configured: %s): no tool is offered in words unless the request carries it', (protocolId, companyId, searching) => {
    const run = runs.get(`${protocolId}|${companyId}|${searching}`)!;
    for (const s of run.sent) {
      const offers = s.text.split(NO_SEARCH).join('').match(SEARCH_OFFER);
      if (s.tools.includes('web_search')) continue;
      expect(offers?.[0], `${s.step}${s.part ? `/${s.part}` : ''} offers search without the tool`).toBeUndefined();
    }
    // With search configured, the steps that may search carry the tool and are told so; a call of
    // a sectioned step that writes no citation (an overview, NAS's summaries) could not use a
    // result, and gets neither.
    const searchers = getProtocol(protocolId)
      .steps.filter((s) => s.webSearch)
      .map((s) => s.id);
    for (const s of run.sent.filter((x) => searchers.includes(x.step))) {
      const cites = !s.part || ['governance', 'business', 'market', 'firm'].includes(s.part);
      expect(s.tools, `${s.step}/${s.part}`).toEqual(searching && cites ? ['web_search'] : []);
      if (!cites) continue;
      if (searching) expect(s.text, s.step).toMatch(/You may call the web_search tool/);
    }
  });

  it.each(cases)(
    '%s on %s (search configured: %s): no date after the as-of date, outside what pool items say; the publication date is the one cited',
    (protocolId, companyId, searching) => {
      const run = runs.get(`${protocolId}|${companyId}|${searching}`)!;
      for (const s of run.sent) {
        const late = datesIn(s.text).filter((d) => after(run.asOf, d.date) && !run.itemDates.has(d.found));
        expect(
          late.map((d) => d.found),
          `${s.step}${s.part ? `/${s.part}` : ''}`,
        ).toEqual([]);
        // Which date to cite is said once, for every step: the publication date.
        expect(s.text.split('Date every item you cite by its publication date').length - 1, s.step).toBe(1);
      }
    },
  );

  it.each(cases)('%s on %s (search configured: %s): no report part is told as a fact that it has nothing to write', (protocolId, companyId, searching) => {
    const run = runs.get(`${protocolId}|${companyId}|${searching}`)!;
    for (const s of run.sent) {
      // Every sentence that asks for an empty list says when: it opens with a condition.
      const sentences = s.text.split(/(?<=[.:;])\s+|\n/).filter((x) => /answer with an empty list/i.test(x));
      for (const x of sentences) expect(x, `${s.step}/${s.part}`).toMatch(/^(?:If|When)\b/);
    }
  });

  it.each(cases)(
    '%s on %s (search configured: %s): every claim a question aims at or a claim answers is in the request, or said not to be',
    (protocolId, companyId, searching) => {
      const run = runs.get(`${protocolId}|${companyId}|${searching}`)!;
      let pointers = 0;
      for (const s of run.sent) {
        // The ids the debate block lists (a claim or a question, each on its own line) and the turns it holds.
        const listed = new Set([...s.text.matchAll(/^- (\S+) (?:\[|→)/gm)].map((m) => m[1]));
        for (const m of s.text.matchAll(/<turn step="([^"]+)"/g)) listed.add(m[1]);
        // A question's line ("- D2-q1 → D1-c3 …") and a claim's "(answers D3-c1)".
        for (const m of s.text.matchAll(/^- \S+ → (\S+?)( \(not shown to you\)|\s)|\(answers (\S+?)( \(not shown to you\)|;|\))/gm)) {
          const id = m[1] ?? m[3];
          const marked = (m[2] ?? m[4]) === ' (not shown to you)';
          pointers++;
          expect(
            listed.has(id),
            `${s.step}${s.part ? `/${s.part}` : ''}: ${id} ${marked ? 'is shown yet said not to be' : 'is pointed at but not in the request'}`,
          ).toBe(!marked);
        }
      }
      // The debates ask questions of claims, so the check had pointers to read.
      if (protocolId === 'kpd-mads') expect(pointers).toBeGreaterThan(0);
    },
  );

  it('dates the scan finds, in every form the pools use', () => {
    const dates = datesIn(
      'recorded 2026-02-17; 2023.09.30; 2025년 3월 말; 2024년 12월 31일; March 31, 2025; 28 December 2019; since June 2024; its FY2024 10-K',
    ).map((d) => d.date);
    expect(dates.filter((d) => d.length > 4)).toEqual(['2026-02-17', '2023-09-30', '2025-03', '2024-12-31', '2025-03-31', '2019-12-28', '2024-06']);
    // Years alone: FY2024, and the years of the dates written with words (the month forms share them).
    expect(dates.filter((d) => d.length === 4).sort()).toEqual(['2019', '2024', '2024', '2025']);
    expect(after('2022-06-30', '2022-07')).toBe(true);
    expect(after('2022-06-30', '2022-06')).toBe(false);
    expect(after('2022-06-30', '2023')).toBe(true);
    expect(after('2022-06-30', '2022')).toBe(false);
  });

  it('asks no model for a report part whose factors have no material, and keeps the part as an empty list', async () => {
    // The thin pool as of 2021-06-30: three items from one call, on few factors.
    const evidence = await readEvidence({ db, companyId: 'travelers-companies', asOf: '2021-06-30', recencyDays: 3 * 365 });
    const topicParts = POOL_REPORT_SECTIONS.parts.filter((p) => p.factors);
    const empty = topicParts.filter((p) => !evidence.some((e) => coversFactor(p.factors!, e.factor ?? null))).map((p) => p.key);
    const full = topicParts.filter((p) => !empty.includes(p.key)).map((p) => p.key);
    // The pool does leave a part empty, and fills another: the case the rule is for.
    expect(empty.length).toBeGreaterThan(0);
    expect(full.length).toBeGreaterThan(0);

    const { provider, sent } = recording();
    const run = await createRun({ db, protocolId: 'nas', companyId: 'travelers-companies', provider, params: { asOf: '2021-06-30', language: 'en' } });
    const result = await executeRun({ db, runId: run.id, provider, evidenceThreshold: THRESHOLD });
    expect(result.status, result.error).toBe('succeeded');
    const asked = sent.filter((s) => s.step === 'NAS').map((s) => s.part);
    for (const key of empty) expect(asked).not.toContain(key);
    expect([...asked].sort()).toEqual([...full, 'summaries', 'overview'].sort());
    const nas = (await listRunSteps({ db, runId: run.id })).find((s) => s.stepId === 'NAS')!;
    // Recorded on the step, so a reviewer sees which parts were not asked and why.
    for (const key of empty) expect(nas.repairs).toContainEqual(expect.objectContaining({ kind: 'section-not-asked', part: key }));
    const report = await getReport({ db, runId: run.id });
    const topics = (report!.content as { topics: { factor: string }[] }).topics;
    expect(topics.length).toBeGreaterThan(0);
    for (const key of empty) expect(topics.filter((t) => coversFactor(topicParts.find((p) => p.key === key)!.factors!, t.factor))).toEqual([]);

    // With a search provider configured, the part could find material on the web: it is asked.
    const searching = recording();
    const run2 = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'travelers-companies',
      provider: searching.provider,
      params: { asOf: '2021-06-30', language: 'en' },
    });
    const result2 = await executeRun({ db, runId: run2.id, provider: searching.provider, evidenceThreshold: THRESHOLD, webSearch: search });
    expect(result2.status, result2.error).toBe('succeeded');
    expect(
      searching.sent
        .filter((s) => s.step === 'NAS')
        .map((s) => s.part)
        .sort(),
    ).toEqual([...topicParts.map((p) => p.key), 'summaries', 'overview'].sort());
  }, 120_000);
});
