// A study on real offline runs, on a throwaway database: what an evaluator is given is blind,
// assignments are theirs alone, and a submitted rating is locked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getReport } from '@/lib/db/queries/runs';
import {
  getAssignmentForEvaluator,
  insertStudy,
  listAssignmentsForEvaluator,
  saveAssignmentAnswers,
  setStudyStatus,
  submitAssignment,
} from '@/lib/db/queries/studies';
import { insertUser } from '@/lib/db/queries/users';
import type { RunView } from '@/lib/report/run-view';
import { OFFLINE_MODEL } from '@/lib/llm/offline';
import { loadBlindReport } from '@/lib/eval/study-blind-load';
import { redactor } from '@/lib/eval/study-blind';
import { ALL_ITEMS } from '@/lib/domain/study';
import { planAssignments } from '@/lib/eval/study-design';
import { loadStudyData } from '@/lib/eval/study-data';
import { offlineRun, seededDatabase } from '@/lib/eval/test-runs';
import { testBackends } from '@/lib/db/test-db';

/** Everything that would tell an evaluator which system wrote a report. */
function leaks(text: string, view: RunView, reportId: string) {
  const patterns = [/kpd-mads/i, /\bnas\b/i, /\bsas\b/i, /three-round/i, /findebate/i, /\b(D10|D[1-9]|AG)\b/, /single agent/i];
  return [
    ...patterns.filter((p) => p.test(text)).map((p) => `${p} → …${text.slice(Math.max(0, text.search(p) - 40), text.search(p) + 40)}…`),
    ...[view.id, reportId, OFFLINE_MODEL, view.model].filter((s) => text.includes(s)),
  ];
}

describe.each(testBackends())('a blinded study over offline runs (%s)', (backend) => {
  let handle: DatabaseHandle;
  const runs: { view: RunView; reportId: string }[] = [];

  beforeAll(async () => {
    handle = await seededDatabase(backend);
    for (const [protocol, language] of [
      ['kpd-mads', 'en'],
      ['nas', 'en'],
      ['kpd-mads', 'ko'],
    ] as const) {
      const view = await offlineRun(handle, { protocol, companyId: 'tesla', params: { language } });
      runs.push({ view, reportId: (await getReport({ db: handle.db, runId: view.id }))!.id });
    }
  }, 180_000);
  afterAll(async () => handle?.close());

  it('renders the report and its sources without protocol, step ids, run, report or model', async () => {
    for (const { view, reportId } of runs) {
      const { report } = await loadBlindReport({ db: handle.db, runId: view.id, locale: 'en' });
      const text = JSON.stringify(report);
      expect(leaks(text, view, reportId), `${view.protocol} ${String(view.params.language)}`).toEqual([]);
      expect(report.companyName).toBe('Tesla, Inc.');
      expect(report.sections.length).toBeGreaterThan(2);
      expect(report.sources.length).toBeGreaterThan(0);
    }
    // The debate's report refers to its turns; the references survive as neutral turn numbers.
    const kpd = await loadBlindReport({ db: handle.db, runId: runs[0].view.id, locale: 'en' });
    expect(JSON.stringify(kpd.report.sections)).toMatch(/Turn \d+/);
    const ko = await loadBlindReport({ db: handle.db, runId: runs[2].view.id, locale: 'ko' });
    expect(JSON.stringify(ko.report)).toMatch(/발언 \d+/);
  });

  it('masks ids as whole words only', () => {
    const r = redactor({ stepIds: ['D1', 'D10', 'AG', 'NAS'], model: 'gpt-4o', turnWord: 'Turn' });
    expect(r("D10 answers D1's claim D1-c2; AGM, Nasdaq, D100 stay; gpt-4o and KPD-MADS and Single agent (NAS) go")).toBe(
      "Turn 2 answers Turn 1's claim Turn 1-c2; AGM, Nasdaq, D100 stay; — and — and — go",
    );
    expect(redactor({ stepIds: ['D1', 'D2', 'D3'], model: 'm1', turnWord: '발언' })('D3의 근거와 KPD-MADS의 결론')).toBe('발언 3의 근거와 —의 결론');
  });

  it('keeps each assignment to its evaluator, hides drafts, and locks a submission', async () => {
    const db = handle.db;
    const admin = await insertUser({ db, email: 'admin@study.test', name: 'Admin', role: 'admin', passwordHash: null });
    const e1 = await insertUser({ db, email: 'e1@study.test', name: 'E1', role: 'evaluator', passwordHash: null });
    const e2 = await insertUser({ db, email: 'e2@study.test', name: 'E2', role: 'evaluator', passwordHash: null });
    const reportIds = runs.slice(0, 2).map((r) => r.reportId);
    const study = await insertStudy({
      db,
      name: 'S',
      seed: 5,
      createdById: admin.id,
      assignments: planAssignments({ seed: 5, evaluatorIds: [e1.id, e2.id], reportIds }),
    });
    const [mine] = await listAssignmentsForEvaluator({ db, evaluatorId: e1.id });
    expect(mine).toBeUndefined(); // draft: not yet visible

    await setStudyStatus({ db, id: study.id, status: 'open' });
    const list = await listAssignmentsForEvaluator({ db, evaluatorId: e1.id });
    expect(list.map((a) => a.position)).toEqual([1, 2]);
    expect(JSON.stringify(list)).not.toMatch(new RegExp(reportIds.join('|')));
    const first = list[0];
    expect(await getAssignmentForEvaluator({ db, id: first.id, evaluatorId: e2.id })).toBeUndefined();
    expect(await getAssignmentForEvaluator({ db, id: first.id, evaluatorId: e1.id })).toMatchObject({ position: 1, total: 2 });

    const full = Object.fromEntries(ALL_ITEMS.map((k) => [k, 4]));
    expect(await saveAssignmentAnswers({ db, id: first.id, answers: { trustworthiness: 2 } })).toBe(true);
    expect(await submitAssignment({ db, id: first.id, answers: full })).toBe(true);
    expect(await submitAssignment({ db, id: first.id, answers: { ...full, trustworthiness: 1 } })).toBe(false);
    expect(await saveAssignmentAnswers({ db, id: first.id, answers: { trustworthiness: 1 } })).toBe(false);
    expect((await getAssignmentForEvaluator({ db, id: first.id, evaluatorId: e1.id }))!.answers).toEqual(full);

    const data = await loadStudyData({ db, studyId: study.id });
    expect(data.ratings).toHaveLength(1);
    expect(data.ratings[0]).toMatchObject({ evaluatorId: e1.id, companyId: 'tesla', answers: full });
    const kpd = data.runs.find((r) => r.protocol === 'kpd-mads')!;
    const nas = data.runs.find((r) => r.protocol === 'nas')!;
    expect(kpd.rei).toBe(kpd.depths.reduce((a, b) => a + b, 0));
    expect(Math.max(...kpd.depths)).toBeGreaterThan(1);
    expect(nas.depths.every((d) => d === 1)).toBe(true);
    expect(kpd.latencyMs).toBeGreaterThan(0);
  });
});
