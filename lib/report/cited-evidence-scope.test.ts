// A citation is snapshotted only from what its step was shown (issue 25, #3). A model that cites
// another borrower's evidence id or document chunk, an item of the same borrower dated after the
// as-of date, or a chunk its step was not shown gets the citation kept as it wrote it (id,
// source, date), marked unverified, and nothing of that item reaches the run: not its frozen
// sources, the report, the exports, the chips of a finished run, nor those of a run still going.
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { resolveCitedSources } from '@/lib/db/queries/sources';
import { documentChunks, documents, evidenceItems } from '@/lib/db/schema';
import { testBackends } from '@/lib/db/test-db';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { citationsOf } from '@/lib/domain/output-parts';
import { sectionCalls, sectionOf } from '@/lib/domain/sections';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { renderExport } from '@/lib/report/export';
import { evidenceForOutput, loadLiveState, runEvidenceRefs } from '@/lib/report/live-state';
import { loadReportInput } from '@/lib/report/load';
import { loadRunView } from '@/lib/report/run-view';
import { buildReportDoc, type Block, type CitationRef, type ReportDoc } from '@/lib/report/model';
import { AS_OF, openReportTestDb } from '@/lib/report/test-runs';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';

type Cite = { evidenceId?: string; source: string; date: string; verified?: boolean; afterAsOf?: boolean };

function allCitations(doc: ReportDoc): CitationRef[] {
  const walk = (blocks: Block[]): CitationRef[] => blocks.flatMap((b) => (b.kind === 'citations' ? b.items : b.kind === 'group' ? walk(b.blocks) : []));
  return [...doc.sections.flatMap((s) => walk(s.blocks)), ...doc.transcript.flatMap((t) => t.citations)];
}

describe.each(testBackends())('a run snapshots only what its steps were shown (%s)', (backend) => {
  let handle: DatabaseHandle;
  let fake: FakeLlm;

  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    fake = await startFakeLlm({ ttftMs: 1, tokensPerSecond: 0 });
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  it("another borrower's evidence and chunk, a later item and an unshown chunk are kept as written, unverified, with none of their content in the run", async () => {
    const { db } = handle;
    // What the hostile answer cites besides its own evidence: another borrower's pool item and
    // document chunk, and, of Tesla's own, an item published after the as-of date and a 10-K
    // chunk (NAS reads the pool, not documents: it is shown no chunk).
    const [foreignItem] = await db
      .select()
      .from(evidenceItems)
      .where(eq(evidenceItems.companyId, 'samsung-electronics'))
      .orderBy(asc(evidenceItems.id))
      .limit(1);
    const [foreignChunk] = await db
      .select({ id: documentChunks.id, text: documentChunks.text, heading: documentChunks.heading, title: documents.title, url: documents.sourceUrl })
      .from(documentChunks)
      .innerJoin(documents, eq(documents.id, documentChunks.documentId))
      .where(and(eq(documents.companyId, 'samsung-electronics'), gt(sql`length(${documentChunks.text})`, 200)))
      .orderBy(asc(documentChunks.id))
      .limit(1);
    const [laterItem] = await db
      .select()
      .from(evidenceItems)
      .where(and(eq(evidenceItems.companyId, 'tesla'), gt(evidenceItems.publishedDate, AS_OF)))
      .orderBy(asc(evidenceItems.id))
      .limit(1);
    const [unshownChunk] = await db
      .select({ id: documentChunks.id })
      .from(documentChunks)
      .innerJoin(documents, eq(documents.id, documentChunks.documentId))
      .where(and(eq(documents.companyId, 'tesla'), ne(documentChunks.text, '')))
      .orderBy(asc(documentChunks.id))
      .limit(1);
    for (const found of [foreignItem, foreignChunk, laterItem, unshownChunk]) expect(found).toBeDefined();

    const planted: Cite[] = [
      { evidenceId: foreignItem.id, source: 'Planted source one', date: '2022-08-16' },
      { evidenceId: foreignChunk.id, source: 'Planted source two', date: '2022-08-16' },
      { evidenceId: laterItem.id, source: 'Planted source three', date: '2025-03-01' },
      { evidenceId: unshownChunk.id, source: 'Planted source four', date: '2025-01-29' },
    ];
    const plantedIds = planted.map((c) => c.evidenceId!);
    // Words that only the planted items hold: titles, links, the start of their text. (Tesla's
    // 10-K passages repeat what its own evidence items quote, so the unshown chunk is checked by
    // its id and by the snapshot holding no passage at all: NAS is shown none.)
    const secrets = [
      foreignItem.title,
      foreignItem.sourceUrl,
      foreignItem.text.slice(0, 200),
      foreignChunk.title,
      foreignChunk.url,
      foreignChunk.text.slice(0, 200),
      laterItem.title,
      laterItem.sourceUrl,
      laterItem.text.slice(0, 200),
    ];

    // The answer: the offline analyst's report for the same run, with the planted citations
    // added to its first topic, answered section by section by the fake model server.
    const offline = createOfflineAnalyst();
    const params = { asOf: AS_OF, language: 'en' as const };
    const reference = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    const [refStep] = await listRunSteps({ db, runId: reference.id });
    const answer = structuredClone(refStep.output) as unknown as { topics: { citations: Cite[] }[] };
    const ownId = answer.topics[0].citations[0].evidenceId!;
    answer.topics[0].citations.push(...planted.map((c) => ({ ...c })));
    const step = getProtocol('nas').steps[0];
    fake.setScript(
      sectionCalls(step.sections!).map((call) => ({ match: `Part ${call.key} of step NAS`, reply: JSON.stringify(sectionOf('report', answer, call)) })),
    );

    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', sleep: async () => {} });
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider, params });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result.status, result.error).toBe('succeeded');

    // The step keeps each planted citation as the model wrote it, unverified.
    const [saved] = await listRunSteps({ db, runId: run.id });
    const cites = citationsOf(saved.output) as Cite[];
    for (const c of planted) {
      expect(cites.find((x) => x.evidenceId === c.evidenceId)).toEqual({ ...c, verified: false });
    }
    expect(cites.find((x) => x.evidenceId === ownId)?.verified).toBe(true);

    // The frozen sources hold the run's own cited item and nothing of the planted ones.
    const finished = (await getRun({ db, id: run.id }))!;
    const frozenIds = finished.citedEvidence!.map((s) => s.id);
    expect(frozenIds).toContain(ownId);
    expect(frozenIds.filter((id) => plantedIds.includes(id))).toEqual([]);
    expect(finished.citedEvidence!.filter((s) => s.kind === 'passage')).toEqual([]);
    const frozenText = JSON.stringify(finished.citedEvidence);
    for (const s of secrets) expect(frozenText).not.toContain(s);

    // The report model: the planted citations as written, unverified, with no title or link.
    const input = await loadReportInput({ db, runId: run.id });
    expect(input.sourcesState).toBe('frozen');
    expect(Object.keys(input.sources).filter((id) => plantedIds.includes(id))).toEqual([]);
    const refs = allCitations(buildReportDoc(input, 'en')).filter((c) => plantedIds.includes(c.evidenceId ?? ''));
    expect(refs.length).toBe(2 * planted.length); // the report's topic and the transcript's turn
    for (const r of refs) {
      const c = planted.find((p) => p.evidenceId === r.evidenceId)!;
      expect(r).toMatchObject({
        evidenceId: c.evidenceId,
        source: c.source,
        date: c.date,
        verified: false,
        title: undefined,
        url: undefined,
        poolNote: undefined,
      });
    }

    // The exports.
    const json = (await renderExport(input, 'json')).body as string;
    const md = (await renderExport(input, 'md', 'en')).body as string;
    for (const s of secrets) {
      expect(json).not.toContain(JSON.stringify(s).slice(1, -1));
      expect(md).not.toContain(s);
    }
    expect(JSON.parse(json).sources[ownId]).toMatchObject({ frozen: true });

    // The chips of the finished run, and those sent with the step as it finished.
    const live = await loadLiveState({ db, runId: run.id });
    expect(Object.keys(live.evidence)).toContain(ownId);
    expect(Object.keys(live.evidence).filter((id) => plantedIds.includes(id))).toEqual([]);
    const stepDone = await evidenceForOutput({ db, runId: run.id, output: saved.output });
    expect(Object.keys(stepDone)).toContain(ownId);
    expect(Object.keys(stepDone).filter((id) => plantedIds.includes(id))).toEqual([]);

    // Read live: a run still going, and a run finished before snapshots existed.
    const view = await loadRunView({ db, runId: run.id });
    for (const state of [
      { ...finished, status: 'running' as const, citedEvidence: null },
      { ...finished, citedEvidence: null },
    ]) {
      const chips = await runEvidenceRefs({ db, run: state, turns: view.turns });
      expect(Object.keys(chips)).toContain(ownId);
      expect(Object.keys(chips).filter((id) => plantedIds.includes(id))).toEqual([]);
      const { sources } = await resolveCitedSources({ db, run: state, ids: [...plantedIds, ownId], verifiedIds: [ownId] });
      expect(Object.keys(sources)).toEqual([ownId]);
      // Even an id a caller calls verified is read only within the run's borrower and as-of date.
      const claimed = [foreignItem.id, foreignChunk.id, laterItem.id, ownId];
      const scoped = await resolveCitedSources({ db, run: state, ids: claimed, verifiedIds: claimed });
      expect(Object.keys(scoped.sources)).toEqual([ownId]);
      for (const s of secrets) expect(JSON.stringify(chips) + JSON.stringify(sources) + JSON.stringify(scoped.sources)).not.toContain(s);
    }
  }, 60_000);
});
