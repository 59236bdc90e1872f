// A cited document passage carries a reading for the engine's reading check (issue 26): the tag
// of its section (lib/report/passage-readings.ts), given to the sources of a finished run (its
// snapshot) and of a run still going (the live pool) alike. Before, a passage had none, so a
// favorable claim citing a 10-K risk factor passed the check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getRun } from '@/lib/db/queries/runs';
import { resolveCitedSources } from '@/lib/db/queries/sources';
import { testBackends } from '@/lib/db/test-db';
import { readingMismatches } from '@/lib/eval/reading-consistency';
import { withPassageReadings } from '@/lib/report/passage-readings';
import { finishedRun, openReportTestDb } from '@/lib/report/test-runs';

describe.each(testBackends())('the readings of cited passages (%s)', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openReportTestDb(backend);
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('reads each cited 10-K passage by its section, frozen and live the same, and the check flags a strength argued from a risk factor', async () => {
    const input = await finishedRun(handle, 'findebate', 'tesla', 'en');
    expect(input.sourcesState).toBe('frozen');
    const passages = Object.entries(input.sources).filter(([, s]) => s.kind === 'passage');
    expect(passages.length).toBeGreaterThan(0);
    for (const [id, s] of passages) expect(s.polarity, `${id} ${s.title}`).toMatch(/^(favorable|adverse|context)$/);
    const risk = passages.find(([, s]) => /Item 1A\. Risk Factors/.test(s.title));
    expect(risk, 'a cited 1A passage').toBeDefined();
    expect(risk![1].polarity).toBe('adverse');

    // The same ids read live, as for a run still going.
    const run = (await getRun({ db: handle.db, id: input.view.id }))!;
    const ids = passages.map(([id]) => id);
    const live = await resolveCitedSources({ db: handle.db, run: { ...run, status: 'running', citedEvidence: null }, ids, verifiedIds: ids });
    expect(live.state).toBe('live');
    const liveRead = withPassageReadings(live.sources);
    for (const [id, s] of passages) expect(liveRead[id].polarity, id).toBe(s.polarity);

    // The run as written reads with its passages; a favorable claim on the risk factor does not.
    const turns = input.view.turns.map((t) => ({ step: t.step, team: t.team, status: t.status, output: t.output }));
    const readingOf = (id: string) => input.sources[id]?.polarity;
    expect(readingMismatches(turns, readingOf)).toEqual([]);
    const planted = {
      id: 'X-c1',
      factor: 'industry_competition_intensity',
      polarity: 'favorable',
      text: 'A leading market position gives pricing power.',
      citations: [{ evidenceId: risk![0], source: 's', date: '2025-01-30' }],
    };
    const flagged = readingMismatches(
      [...turns, { step: 'X', team: 'affirmative', status: 'done', output: { text: '', claims: [planted], questions: [] } }],
      readingOf,
    );
    expect(flagged.map((m) => [m.step, m.claimId, m.against])).toEqual([['X', 'X-c1', [{ evidenceId: risk![0], reading: 'adverse' }]]]);
  }, 60_000);

  it.each([
    ['sas', 'samsung-electronics', 'ko'],
    ['findebate', 'samsung-electronics', 'ko'],
    ['sas', 'tesla', 'en'],
  ] as const)(
    'a %s run on %s, whose document readers get passages, reads with everything it cites',
    async (protocol, companyId, language) => {
      const input = await finishedRun(handle, protocol, companyId, language);
      const turns = input.view.turns.map((t) => ({ step: t.step, team: t.team, status: t.status, output: t.output }));
      expect(readingMismatches(turns, (id) => input.sources[id]?.polarity)).toEqual([]);
    },
    60_000,
  );
});
