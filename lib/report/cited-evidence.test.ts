// A finished run keeps the evidence it cites as it read then (runs.cited_evidence): editing or
// deleting the shared pool item afterwards changes neither the report, the chips, the exports
// nor the blinded study report, and each of them says the pool has changed since.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { fingerprintOf } from '@/lib/db/queries/cited-evidence';
import { cancelActiveRun, getRun, setRunStatus } from '@/lib/db/queries/runs';
import { documents, evidenceItems, runs } from '@/lib/db/schema';
import type { CitedEvidenceSnapshot } from '@/lib/domain/stored';
import { testBackends } from '@/lib/db/test-db';
import { loadLiveState } from '@/lib/report/live-state';
import { loadBlindReport } from '@/lib/eval/study-blind-load';
import { extractPdfText } from '@/lib/report/pdf-text';
import { renderExport } from '@/lib/report/export';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc, type Block, type CitationRef, type ReportDoc, type ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

/** Every citation the report model shows: the report's sections and the transcript. */
function allCitations(doc: ReportDoc): CitationRef[] {
  const walk = (blocks: Block[]): CitationRef[] => blocks.flatMap((b) => (b.kind === 'citations' ? b.items : b.kind === 'group' ? walk(b.blocks) : []));
  return [...doc.sections.flatMap((s) => walk(s.blocks)), ...doc.transcript.flatMap((t) => t.citations)];
}

/** A pool item the report itself cites (the first topic's first citation). */
function reportCitedId(input: ReportInput): string {
  const content = input.view.report!.content as { topics: { citations: { evidenceId: string }[] }[] };
  return content.topics[0].citations[0].evidenceId;
}

async function jsonExport(input: ReportInput) {
  const { body } = await renderExport(input, 'json');
  return JSON.parse(body as string) as { sourcesState: string; sources: Record<string, Record<string, unknown>> };
}

const EDITED = { title: 'Edited by another RM after the decision', sourceUrl: 'https://edited.example/after-the-decision' };

describe.each(testBackends())('cited evidence frozen with the run (%s)', (backend) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openReportTestDb(backend);
  }, 60_000);
  afterAll(() => handle?.close());

  it('a second RM editing the source_url and title of cited evidence changes neither the finished report, its chips, its exports nor the study report, which mark it changed', async () => {
    const before = await finishedRun(handle, 'kpd-mads', 'samsung-electronics', 'en');
    const id = reportCitedId(before);
    const original = before.sources[id];
    const [row] = await handle.db.select().from(evidenceItems).where(eq(evidenceItems.id, id));
    expect(original).toMatchObject({ title: row.title, url: row.sourceUrl });

    await handle.db.update(evidenceItems).set(EDITED).where(eq(evidenceItems.id, id));
    const after = await loadReportInput({ db: handle.db, runId: before.view.id });

    // The report model: the original title and link, marked changed; other citations unmarked.
    const cites = allCitations(buildReportDoc(after, 'en'));
    const edited = cites.filter((c) => c.evidenceId === id);
    expect(edited.length).toBeGreaterThan(0);
    for (const c of edited) expect(c).toMatchObject({ url: original.url, title: original.title, poolNote: 'changed' });
    expect(cites.filter((c) => c.evidenceId !== id && c.poolNote)).toEqual([]);
    expect(original).toMatchObject({ kind: 'evidence', frozen: true, changedSincePublished: false, removedFromPool: false });

    // The snapshot was written with the run, with a fingerprint of the item as it read then.
    const run = await getRun({ db: handle.db, id: before.view.id });
    const snap = run!.citedEvidence!.find((s) => s.id === id)!;
    expect(snap).toMatchObject({
      title: row.title,
      sourceUrl: row.sourceUrl,
      sourceName: row.sourceName,
      publishedDate: row.publishedDate,
      factor: row.factor,
      polarity: row.polarity,
    });
    expect(snap.excerpt).toBe(row.text.slice(0, 1000));
    const { excerpt: _excerpt, fingerprint, ...fields } = snap;
    expect(fingerprint).toBe(fingerprintOf({ ...fields, text: row.text }));
    expect(fingerprint).not.toBe(fingerprintOf({ ...fields, ...EDITED, text: row.text }));

    // JSON: the original values, `changedSincePublished`, and still valid against the schema.
    const json = await jsonExport(after);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(json.sourcesState).toBe('frozen');
    expect(json.sources[id]).toMatchObject({ title: original.title, url: original.url, frozen: true, changedSincePublished: true, removedFromPool: false });
    expect(JSON.stringify(json)).not.toContain(EDITED.sourceUrl);

    // Markdown and PDF: the original link, never the new one, and the mark in words.
    const md = (await renderExport(after, 'md', 'en')).body as string;
    expect(md).toContain(`](${original.url})`);
    expect(md).not.toContain('edited.example');
    expect(md).toContain('changed in the pool since this report');
    const pdf = (await extractPdfText((await renderExport(after, 'pdf', 'en')).body as Uint8Array)).join('\n').replace(/\s+/g, '');
    expect(pdf).toContain(original.url.replace(/\s+/g, ''));
    expect(pdf).not.toContain('edited.example');
    expect(pdf).toContain('changedinthepoolsincethisreport');

    // The run page's chips.
    const live = await loadLiveState({ db: handle.db, runId: before.view.id });
    expect(live.evidence[id]).toMatchObject({ title: original.title, url: original.url, poolNote: 'changed' });

    // The blinded study report an evaluator reads.
    const { report } = await loadBlindReport({ db: handle.db, runId: before.view.id, locale: 'en' });
    const blind = JSON.stringify(report);
    expect(blind).toContain(original.url);
    expect(blind).not.toContain('edited.example');
    expect(blind).toContain('"poolNote":"changed"');
  }, 60_000);

  it('a cited pool item deleted after the run finished still shows as cited, marked removed from the pool', async () => {
    const input = await finishedRun(handle, 'nas', 'tesla', 'en');
    const id = reportCitedId(input);
    const original = input.sources[id];
    await handle.db.delete(evidenceItems).where(eq(evidenceItems.id, id));

    const after = await loadReportInput({ db: handle.db, runId: input.view.id });
    expect(after.sources[id]).toMatchObject({ title: original.title, url: original.url, removedFromPool: true, changedSincePublished: false });
    const cites = allCitations(buildReportDoc(after, 'en')).filter((c) => c.evidenceId === id);
    expect(cites.length).toBeGreaterThan(0);
    for (const c of cites) expect(c).toMatchObject({ url: original.url, poolNote: 'removed' });
    expect((await renderExport(after, 'md', 'en')).body).toContain('removed from the pool since this report');
    expect((await jsonExport(after)).sources[id]).toMatchObject({ removedFromPool: true, url: original.url });
  }, 60_000);

  it('document passages are frozen too: a later edit of the document is marked changed and the passage keeps its title and link', async () => {
    const input = await finishedRun(handle, 'findebate', 'tesla', 'en');
    const run = await getRun({ db: handle.db, id: input.view.id });
    const passage = run!.citedEvidence!.find((s: CitedEvidenceSnapshot) => s.kind === 'passage');
    expect(passage, 'the FinDebate specialists cite Tesla 10-K passages').toBeDefined();
    expect(passage!.documentId).toBeTruthy();
    const original = input.sources[passage!.id];
    await handle.db.update(documents).set({ title: 'Renamed later', sourceUrl: 'https://edited.example/doc' }).where(eq(documents.id, passage!.documentId!));

    const after = await loadReportInput({ db: handle.db, runId: input.view.id });
    expect(after.sources[passage!.id]).toMatchObject({ kind: 'passage', title: original.title, url: original.url, changedSincePublished: true });
  }, 60_000);

  it('a run cancelled from another process freezes what it cites then; running again reads live, and finishing again rewrites the snapshot', async () => {
    const input = await finishedRun(handle, 'nas', 'samsung-electronics', 'en');
    const runId = input.view.id;
    const id = reportCitedId(input);
    const original = input.sources[id];

    // Back to running (a retry), then cancelled by the queue from another process.
    await setRunStatus({ db: handle.db, id: runId, status: 'running' });
    await handle.db.update(evidenceItems).set({ title: 'Edited while running' }).where(eq(evidenceItems.id, id));
    const running = await loadReportInput({ db: handle.db, runId });
    expect(running.sourcesState).toBe('live');
    expect(running.sources[id].title).toBe('Edited while running');
    expect(allCitations(buildReportDoc(running, 'en')).every((c) => !c.poolNote)).toBe(true);

    expect(await cancelActiveRun({ db: handle.db, id: runId })).toBe(true);
    await handle.db.update(evidenceItems).set({ title: original.title, sourceUrl: EDITED.sourceUrl }).where(eq(evidenceItems.id, id));
    const cancelled = await loadReportInput({ db: handle.db, runId });
    expect(cancelled.view.status).toBe('cancelled');
    // As it read when the run was cancelled: the title of that moment, the link of that moment.
    expect(cancelled.sources[id]).toMatchObject({ title: 'Edited while running', url: original.url, changedSincePublished: true });
  }, 60_000);

  it('a run finished before snapshots reads the live pool and says its cited evidence is not frozen', async () => {
    const input = await finishedRun(handle, 'nas', 'samsung-electronics', 'en');
    const id = reportCitedId(input);
    await handle.db.update(runs).set({ citedEvidence: null }).where(eq(runs.id, input.view.id));
    await handle.db.update(evidenceItems).set({ sourceUrl: 'https://edited.example/old-run' }).where(eq(evidenceItems.id, id));

    const old = await loadReportInput({ db: handle.db, runId: input.view.id });
    expect(old.sourcesState).toBe('not-frozen');
    const doc = buildReportDoc(old, 'en');
    expect(doc.sourcesNote).toMatch(/finished before Crosscheck kept a copy/);
    const cites = allCitations(doc).filter((c) => c.evidenceId === id);
    for (const c of cites) expect(c).toMatchObject({ url: 'https://edited.example/old-run', poolNote: 'notFrozen' });
    const md = (await renderExport(old, 'md', 'en')).body as string;
    expect(md).toContain('cited evidence not frozen (run finished before snapshots)');
    const json = await jsonExport(old);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(json.sourcesState).toBe('not-frozen');
    expect(json.sources[id]).toMatchObject({ frozen: false });
    const live = await loadLiveState({ db: handle.db, runId: input.view.id });
    expect(live.evidence[id]).toMatchObject({ url: 'https://edited.example/old-run', poolNote: 'notFrozen' });
  }, 60_000);
});
