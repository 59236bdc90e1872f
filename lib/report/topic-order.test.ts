// One order for topics (lib/report/sections.ts): a report's topics and its summary groups follow
// the reasoning tree's order of factors, whatever order the report's parts were written in; the
// topics that answer a red flag come first, as the red flags lead the report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import { branchOrder } from '@/lib/eval/tree';
import { buildReportDoc, type ReportInput } from '@/lib/report/model';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';
import { FACTORS } from '@/lib/domain/factors';

const sortedBy = (xs: string[]) => [...xs].sort(branchOrder);

describe.each(testBackends())('topics in the tree’s order on %s', (backend) => {
  let handle: DatabaseHandle;
  let input: ReportInput;
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
    input = await finishedRun(handle, 'kpd-mads', 'samsung-electronics', 'en');
  }, 120_000);
  afterAll(() => handle?.close());

  it('orders the topics as the tree orders its branches, after those that answer a red flag, even when the parts came in reverse', () => {
    const content = input.view.report!.content as { topics: { factor: string; citations: { evidenceId?: string }[] }[] };
    const report = input.view.report!;
    const reversed: ReportInput = {
      ...input,
      view: { ...input.view, report: { ...report, content: { ...content, topics: [...content.topics].reverse() } as unknown as typeof report.content } },
    };
    const flagged = new Set(input.view.redFlags.map((f) => f.evidenceId));
    for (const run of [input, reversed]) {
      const doc = buildReportDoc(run, 'en');
      const groups = doc.sections.find((s) => s.id === 'topics')!.blocks.filter((b) => b.kind === 'group');
      const factors = groups.map((g) =>
        g.kind === 'group'
          ? (FACTORS.find(
              (f) => g.title.endsWith(f.label.replace(/\s*\([^)]*\)/g, '').trim()) || g.title.startsWith(f.label.replace(/\s*\([^)]*\)/g, '').trim()),
            )?.id ?? 'other')
          : 'other',
      );
      const answering = content.topics.filter((t) => t.citations.some((c) => c.evidenceId && flagged.has(c.evidenceId))).length;
      expect(answering, 'Samsung’s sanctions are answered by some topic').toBeGreaterThan(0);
      const rest = factors.slice(answering);
      expect(rest).toEqual(sortedBy(rest));
      expect(groups.length).toBe(content.topics.length);
    }
    // The summary groups too.
    const doc = buildReportDoc(reversed, 'en');
    const favorable = doc.sections.find((s) => s.id === 'favorable')!.blocks.map((b) => (b.kind === 'group' ? b.title : ''));
    const ids = favorable.map((title) => FACTORS.find((f) => f.label.replace(/\s*\([^)]*\)/g, '').trim() === title)?.id ?? 'other');
    expect(ids).toEqual(sortedBy(ids));
  });
});
