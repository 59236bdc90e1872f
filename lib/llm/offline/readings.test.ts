// How well the offline analyst reads the items it cites: every claim of all five protocols, run on
// every demo company, is compared with the hand-checked reading of each demo-pool item it cites
// (fixtures/readings.json, labelled by reading the items, not by running the code). A claim agrees
// with an item labelled favorable or adverse when its polarity is that reading; an item labelled
// context can be argued either way, so any polarity agrees with it — the claim says it is
// context-dependent. Passages and web results are not in the fixture and are not counted.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { Claim } from '@/lib/domain/outputs';
import type { ProtocolId } from '@/lib/domain/protocol';
import type { RetrievedItem } from '@/lib/pool/retrieve';
import { createOfflineAnalyst } from './index';
import { evidenceAsOf, requestFor, type Case } from './test-fixtures';

type Reading = 'favorable' | 'adverse' | 'context';
const LABELS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/readings.json'), 'utf8')) as Record<string, { reading: Reading; reason: string }>;
const ROWS = new Map(
  fs
    .readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; title: string })
    .map((r) => [r.id, r] as const),
);
const DEMO_IDS = [...ROWS.keys()];

/** Every demo company at a date that sees all its items, in the language of its sources and in the other. */
const CASES: Case[] = [
  { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 },
  { companyId: 'samsung-electronics', language: 'en', asOf: '2022-09-30', recencyDays: 365 },
  { companyId: 'taeyoung-engineering-construction', language: 'ko', asOf: '2025-06-30', recencyDays: 365 },
  { companyId: 'taeyoung-engineering-construction', language: 'en', asOf: '2025-06-30', recencyDays: 365 },
  { companyId: 'tesla', language: 'en', asOf: '2025-12-31', recencyDays: 365 },
  { companyId: 'tesla', language: 'ko', asOf: '2025-12-31', recencyDays: 365 },
  { companyId: 'wintec-automation', language: 'ko', asOf: '2024-12-31', recencyDays: 365 },
  { companyId: 'monro-inc', language: 'en', asOf: '2021-06-30', recencyDays: 365 },
  { companyId: 'travelers-companies', language: 'en', asOf: '2020-12-31', recencyDays: 365 },
];

type Check = { system: ProtocolId; step: string; claim: string; evidenceId: string; polarity: Claim['polarity']; label: Reading; agrees: boolean };

/**
 * The protocol's steps in order, each with its declared context, as the engine runs them; steps
 * that read documents get the pool's items as retrieval hands them over (kind \`evidence\`) beside
 * the document passages, so FinDebate's specialists cite demo items too.
 */
async function runSteps(c: Case, protocol: (typeof PROTOCOLS_BY_ID)[ProtocolId]) {
  const analyst = createOfflineAnalyst();
  const done = new Map<string, { team: string; output: Record<string, unknown>; text: string; agent: string; act: string }>();
  const asItems: RetrievedItem[] = evidenceAsOf(c.companyId, c.asOf, c.recencyDays).map(
    (e) =>
      ({
        kind: 'evidence',
        id: e.id,
        documentId: null,
        heading: null,
        charStart: null,
        charEnd: null,
        title: e.title,
        snippet: e.text.slice(0, 240),
        publishedDate: e.publishedDate,
        sourceName: e.sourceName,
        sourceUrl: e.sourceUrl,
        score: 1,
        stale: e.stale,
        category: e.category,
        factor: e.factor,
        polarity: e.polarity,
        factorSource: e.factorSource,
      }) as unknown as RetrievedItem,
  );
  const out: { step: string; team: string; context: string[]; output: Record<string, unknown> }[] = [];
  for (const s of protocol.steps) {
    const context = s.context.map((id) => {
      const d = done.get(id)!;
      return { stepId: id, agent: d.agent, team: d.team as never, act: d.act as never, text: d.text, output: d.output };
    });
    const request = requestFor(c, protocol, s, context);
    if (s.evidence === 'documents') request.passages = [...asItems, ...request.passages];
    const result = await analyst.generate(request);
    const output = JSON.parse(result.raw) as Record<string, unknown>;
    done.set(s.id, { team: s.team, output, text: typeof output.text === 'string' ? output.text : '', agent: s.agent, act: s.act });
    out.push({ step: s.id, team: s.team, context: s.context, output });
  }
  return out;
}

function agrees(polarity: Claim['polarity'], label: Reading): boolean {
  return label === 'context' || polarity === label;
}

/** The claims of a turn, briefing or draft; a safety check's kept report repeats claims already counted. */
function claimsOf(output: Record<string, unknown>): Claim[] {
  return Array.isArray(output.claims) ? (output.claims as Claim[]) : [];
}

/** Every string in an output, with the step that wrote it. */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsOf(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => stringsOf(x, out));
  return out;
}

/** The demo pool's own words, as cleaned for prose: an ellipsis there is the source's, not a cut. */
const CORPUS = [...ROWS.values()]
  .map((r) => `${r.title} ${(r as { text?: string }).text ?? ''}`.replace(/\s+/g, ' '))
  .flatMap((t) => [t, t.replace(/[“”"]/g, '')])
  .join('\n');

describe('the offline analyst reads cited demo items as a credit analyst would', () => {
  const checks: Check[] = [];
  const written: { case: Case; system: ProtocolId; step: string; text: string }[] = [];
  beforeAll(async () => {
    for (const c of CASES) {
      for (const protocol of Object.values(PROTOCOLS_BY_ID)) {
        for (const run of await runSteps(c, protocol)) {
          for (const text of stringsOf(run.output)) written.push({ case: c, system: protocol.id, step: run.step, text });
          const check = (claim: string, polarity: Claim['polarity'], citations: Claim['citations']) => {
            for (const ci of citations) {
              const label = ci.evidenceId ? LABELS[ci.evidenceId]?.reading : undefined;
              if (label)
                checks.push({ system: protocol.id, step: run.step, claim, evidenceId: ci.evidenceId!, polarity, label, agrees: agrees(polarity, label) });
            }
          };
          for (const claim of claimsOf(run.output)) check(claim.id, claim.polarity, claim.citations);
          // Three-round arguments carry their team's side.
          for (const a of (run.output.arguments ?? []) as { id: string; evidence: Claim['citations'] }[]) {
            check(a.id, run.team === 'affirmative' ? 'favorable' : run.team === 'negative' ? 'adverse' : 'context', a.evidence);
          }
          // NAS's report topics (the aggregator's repeat claims already counted on their turns): an
          // item is read the way of the side whose text names it (both sides: context).
          for (const t of (run.context.length ? [] : (run.output.topics ?? [])) as {
            topic: string;
            affirmative: string;
            adverse: string;
            citations: Claim['citations'];
          }[]) {
            for (const ci of t.citations) {
              const row = ROWS.get(ci.evidenceId ?? '');
              if (!row) continue;
              const probe = row.title.replace(/\s+/g, ' ').slice(0, 14);
              const inFav = t.affirmative.includes(probe);
              const inAdv = t.adverse.includes(probe);
              if (inFav || inAdv) check(`${t.topic}`, inFav && inAdv ? 'context' : inFav ? 'favorable' : 'adverse', [ci]);
            }
          }
        }
      }
    }
  }, 240_000);

  it('labels every demo-pool item, and only those, with a reading and a reason', () => {
    expect(Object.keys(LABELS).sort()).toEqual([...DEMO_IDS].sort());
    for (const v of Object.values(LABELS)) {
      expect(['favorable', 'adverse', 'context']).toContain(v.reading);
      expect(v.reason.length).toBeGreaterThan(20);
    }
  });

  it('agrees with the labelled reading for at least 95% of citations, in every system', () => {
    const systems = Object.keys(PROTOCOLS_BY_ID) as ProtocolId[];
    const rows = systems.map((s) => {
      const list = checks.filter((c) => c.system === s);
      return { system: s, checked: list.length, agreeing: list.filter((c) => c.agrees).length };
    });
    const checked = checks.length;
    const agreeing = checks.filter((c) => c.agrees).length;
    const share = agreeing / checked;
    console.log(
      [
        `Reading agreement: ${agreeing}/${checked} citations (${(share * 100).toFixed(1)}%); same polarity as the label: ${checks.filter((c) => c.polarity === c.label).length}/${checked}`,
        ...rows.map((r) => `  ${r.system.padEnd(12)} ${r.agreeing}/${r.checked} (${((r.agreeing / Math.max(1, r.checked)) * 100).toFixed(1)}%)`),
        ...checks
          .filter((c) => !c.agrees)
          .slice(0, 40)
          .map((c) => `  ✗ ${c.system} ${c.step} ${c.claim} ${c.evidenceId}: ${c.polarity} vs ${c.label}`),
      ].join('\n'),
    );
    for (const r of rows) expect(r.checked, r.system).toBeGreaterThan(10);
    expect(share).toBeGreaterThanOrEqual(0.95);
  });

  it('never reads the creditor-bank workout as favorable or mere context', () => {
    const workout = checks.filter((c) => c.evidenceId === 'taeyoung-engineering-construction-001');
    expect(workout.length).toBeGreaterThan(5);
    expect(workout.filter((c) => c.polarity !== 'adverse')).toEqual([]);
  });

  it('never cuts a sentence or a title off with an ellipsis: every ellipsis is the source text itself', () => {
    expect(written.length).toBeGreaterThan(1000);
    const cuts = written.flatMap((w) =>
      [...w.text.matchAll(/…/g)]
        .map((m) => w.text.slice(Math.max(0, m.index! - 4), m.index! + 1))
        .filter((sig) => !CORPUS.includes(sig))
        .map((sig) => `${w.system} ${w.step}: ${sig}`),
    );
    expect(cuts).toEqual([]);
  });

  it('marks Korean quotations in English prose as Korean source text, and English quotations in Korean prose as English sources', () => {
    const unmarked: string[] = [];
    for (const w of written) {
      for (const m of w.text.matchAll(/“([^”]*)”/g)) {
        // A title that itself quotes (“저가 공세에 밀렸다”…) nests quotations: not checked here.
        if (m[1].includes('“')) continue;
        // The mark follows the quotation (a value in parentheses may come between).
        const after = w.text.slice(m.index! + m[0].length, m.index! + m[0].length + 60);
        if (w.case.language === 'en' && /[\uac00-\ud7a3]/.test(m[1]) && !/^(?: \([^)]*\))? \(Korean source\)/.test(after))
          unmarked.push(`${w.system} ${w.step}: ${m[0]}`);
        if (w.case.language === 'ko' && !/[\uac00-\ud7a3]/.test(m[1]) && /[A-Za-z]{3,}/.test(m[1]) && !/^\(영문 자료\)/.test(after))
          unmarked.push(`${w.system} ${w.step}: ${m[0]}`);
      }
    }
    expect(unmarked.slice(0, 20)).toEqual([]);
  });
});
