import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { createRun } from '@/lib/debate/engine';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { contentDisposition, exportFilename, EXPORT_SCHEMA_VERSION, exportJson, isExportFormat, renderExport } from '@/lib/report/export';
import { loadReportInput } from '@/lib/report/load';
import type { ReportInput } from '@/lib/report/model';
import { extractPdfText } from '@/lib/report/pdf-text';
import { AS_OF, finishedRun, openReportTestDb } from '@/lib/report/test-runs';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The export as a client receives it: serialized, then parsed. */
async function exportedJson(input: ReportInput) {
  const { body } = await renderExport(input, 'json');
  return JSON.parse(body as string) as Record<string, unknown>;
}

describe.each(testBackends())('run exports on %s', (backend) => {
  let handle: DatabaseHandle;
  const runs: Record<string, ReportInput> = {};

  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    for (const p of ['kpd-mads', 'nas', 'three-round', 'sas', 'findebate'] as const) runs[p] = await finishedRun(handle, p);
    runs['kpd-mads-en'] = await finishedRun(handle, 'kpd-mads', 'tesla', 'en');
  }, 120_000);
  afterAll(() => handle?.close());

  it('JSON of every protocol, and of a run not yet started, validates against docs/run-export.schema.json', async () => {
    for (const [name, input] of Object.entries(runs)) {
      const json = await exportedJson(input);
      expect(validate(json), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(json.schemaVersion).toBe(EXPORT_SCHEMA_VERSION);
      expect(json.turns).toEqual(JSON.parse(JSON.stringify(input.view.turns)));
    }
    const provider = createOfflineAnalyst();
    const queued = await createRun({ db: handle.db, protocolId: 'nas', companyId: 'samsung-electronics', provider, params: { asOf: AS_OF } });
    const pending = await exportedJson(await loadReportInput({ db: handle.db, runId: queued.id }));
    expect(validate(pending), ajv.errorsText(validate.errors)).toBe(true);
    expect(pending.report).toBeNull();
  });

  it('the schema is a real check: a document missing turns, or with a wrong status, fails', async () => {
    const json = await exportedJson(runs.nas);
    const { turns: _turns, ...withoutTurns } = json;
    expect(validate(withoutTurns)).toBe(false);
    expect(validate({ ...json, status: 'done' })).toBe(false);
    expect(validate({ ...json, sources: { x: { title: 'no url' } } })).toBe(false);
  });

  it('JSON names the company and resolves every cited evidence id to a title and link', async () => {
    const json = await exportedJson(runs['kpd-mads']);
    expect(json.company).toMatchObject({ id: 'samsung-electronics', name: '삼성전자' });
    const cited = new Set((json.turns as { citations: { evidenceId?: string }[] }[]).flatMap((t) => t.citations.map((c) => c.evidenceId!)));
    expect(Object.keys(json.sources as object).sort()).toEqual([...cited].sort());
  });

  it('PDF: a real file with the company in its title metadata and text, several pages, every section and the transcript', async () => {
    const input = runs['kpd-mads'];
    const { body } = await renderExport(input, 'pdf');
    const bytes = body as Uint8Array;
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeLessThan(400_000); // the font is subset, not embedded whole (≈ 2.7 MB)

    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe('Crosscheck 보고서 — 삼성전자');
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);

    const pages = await extractPdfText(bytes);
    expect(pages).toHaveLength(pdf.getPageCount());
    const all = pages.join('\n');
    expect(pages[0]).toContain('삼성전자');
    expect(pages[0]).toContain('KPD-MADS');
    expect(pages[0]).toContain(AS_OF);
    expect(pages[0]).toContain('LLM 아님');
    for (const heading of ['심사 목적', '기업 개요', '긍정 신호', '부정 신호', '요인별 쟁점', '최종 점검', '부록: 전체 발언록']) expect(all).toContain(heading);
    // Long text is wrapped, not cut: the words of a whole turn come back in order.
    const d1 = input.view.turns[0].text.replace(/\s+/g, '');
    expect(all.replace(/\s+/g, '')).toContain(d1);
    expect(pages.at(-1)).toContain(`${pages.length}쪽 중 ${pages.length}쪽`);
  });

  it('PDF of an English run uses English headings; the other protocols render too', async () => {
    const en = await renderExport(runs['kpd-mads-en'], 'pdf');
    const text = (await extractPdfText(en.body as Uint8Array)).join('\n');
    expect(text).toContain('Crosscheck report — Tesla');
    expect(text).toContain('Appendix: full transcript');
    expect(text).toContain('Built-in offline analyst');
    for (const [p, heading] of [
      ['three-round', '논거 추적표'],
      ['sas', '스트레스 분석'],
      ['findebate', '안전성 점검'],
    ] as const) {
      const { body } = await renderExport(runs[p], 'pdf');
      expect((await extractPdfText(body as Uint8Array)).join('\n'), p).toContain(heading);
    }
  }, 60_000);

  it('file names: ASCII fallback plus the Korean name in filename*', () => {
    const name = exportFilename(runs['kpd-mads'], 'pdf');
    expect(name).toEqual({ readable: `crosscheck-삼성전자-kpd-mads-${AS_OF}.pdf`, ascii: `crosscheck-samsung-electronics-kpd-mads-${AS_OF}.pdf` });
    expect(contentDisposition(name)).toBe(
      `attachment; filename="crosscheck-samsung-electronics-kpd-mads-${AS_OF}.pdf"; filename*=UTF-8''crosscheck-${encodeURIComponent('삼성전자')}-kpd-mads-${AS_OF}.pdf`,
    );
    expect(exportFilename(runs['kpd-mads-en'], 'md')).toEqual({
      readable: `crosscheck-Tesla-Inc-kpd-mads-${AS_OF}.md`,
      ascii: `crosscheck-tesla-inc-kpd-mads-${AS_OF}.md`,
    });
    expect(['pdf', 'md', 'json'].every(isExportFormat)).toBe(true);
    expect(['html', 'PDF', '', 'toString', null].some(isExportFormat)).toBe(false);
  });

  it('exportJson is the run document plus schemaVersion, exportedAt and sources', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const json = exportJson(runs.nas, at);
    expect(json).toMatchObject({ schemaVersion: 1, exportedAt: '2026-01-02T03:04:05.000Z', id: runs.nas.view.id, protocol: 'nas', status: 'succeeded' });
  });
});
