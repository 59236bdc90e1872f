// Every export of a run says the analysis is AI-assisted, by which system and models, and who
// decided; once decided, a "Human oversight" block names what each member confirmed and overrode
// (docs/oversight.md). The JSON stays valid against docs/run-export.schema.json.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { castVote } from '@/lib/db/queries/oversight';
import { users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { exportRun } from '@/lib/report/export';
import { extractPdfText } from '@/lib/report/pdf-text';
import { oversightOptions, resolveOverrides } from '@/lib/report/oversight';

const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));

describe.each(testBackends())('oversight in the exports on %s', (backend) => {
  let handle: DatabaseHandle;
  let committeeId: string;
  const text = (body: Uint8Array | string) => (typeof body === 'string' ? body : new TextDecoder().decode(body));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    await seedDemo(handle.db, { accounts: true });
    [{ id: committeeId }] = await handle.db.select({ id: users.id }).from(users).where(eq(users.role, 'committee'));
  }, 90_000);
  afterAll(() => handle?.close());

  it('says AI-assisted, the system and the offline analyst before a decision, and no one decided yet', async () => {
    const md = text((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'md', locale: 'en' })).body);
    expect(md).toContain('## AI-assisted analysis');
    expect(md).toContain('KPD-MADS produced it with the built-in offline analyst (rules over the evidence pool, not an LLM)');
    expect(md).toContain('No committee decision has been recorded on this case yet.');
    expect(md).not.toContain('## Human oversight');
    const json = JSON.parse(text((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'json' })).body));
    expect(json.aiAssisted).toMatchObject({ system: 'KPD-MADS', provider: 'offline', model: null, decidedBy: [] });
    expect(json.humanOversight).toBeNull();
  });

  it('after a decision names who decided, what they confirmed and what they overrode, in every format', async () => {
    const options = await oversightOptions({ db: handle.db, caseId: DEMO_IDS.submittedCase, locale: 'en' });
    expect(options.map((o) => o.runId)).toEqual([DEMO_IDS.run]);
    const claim = options[0].targets.find((x) => x.kind === 'claim')!;
    const topic = options[0].targets.find((x) => x.kind === 'topic')!;
    expect(claim.ref).toMatch(new RegExp(`^claim:${DEMO_IDS.run}:D1:`));
    expect(topic.label).toMatch(/^Topic 1: /);
    expect(resolveOverrides(options, [{ ref: `claim:${DEMO_IDS.run}:D1:nope`, reason: 'x' }])).toBeNull();
    const overrides = resolveOverrides(options, [{ ref: claim.ref, reason: ' The 2024 board change is not weighed. ' }])!;
    expect(overrides).toEqual([{ ref: claim.ref, kind: 'claim', runId: DEMO_IDS.run, label: claim.label, reason: 'The 2024 board change is not weighed.' }]);
    const result = await handle.db.transaction((tx) =>
      castVote({
        db: tx,
        caseId: DEMO_IDS.submittedCase,
        voterId: committeeId,
        vote: {
          outcome: 'decline',
          rationale: 'Governance risk.',
          conditions: null,
          confirmed: { report: true, failedChecks: options[0].failedChecksEn },
          overrides,
        },
      }),
    );
    expect(result.kind === 'recorded' && result.decision?.outcome).toBe('decline');

    const md = text((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'md', locale: 'en' })).body);
    const today = new Date().toISOString().slice(0, 10);
    expect(md).toContain(`Decided by Demo Committee Member: Decline, ${today}.`);
    expect(md).toContain('## Human oversight');
    expect(md).toContain(`Demo Committee Member overrode ${claim.label.replace(/[_*[\]]/g, (c) => `\\${c}`)} — The 2024 board change is not weighed.`);
    const n = options[0].failedChecksEn.length;
    expect(md).toContain(n ? 'Demo Committee Member confirmed reading the report and the' : 'that no final check failed');

    const json = JSON.parse(text((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'json' })).body));
    expect(json.aiAssisted.decidedBy).toEqual(['Demo Committee Member']);
    expect(json.humanOversight).toMatchObject({
      outcome: 'decline',
      votes: [{ member: 'Demo Committee Member', outcome: 'decline', confirmedReport: true, overrides: [{ ref: claim.ref }] }],
    });
    expect(json.humanOversight.votes[0].confirmedFailedChecks).toHaveLength(n);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const valid = ajv.validate(schema, json);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);

    const pdf = (
      await extractPdfText((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'pdf', locale: 'en' })).body as Uint8Array)
    ).join('\n');
    expect(pdf).toContain('AI-assisted analysis');
    expect(pdf).toContain('Human oversight');
    expect(pdf).toContain('Decided by Demo Committee Member.');

    // In Korean too.
    const ko = text((await exportRun({ db: handle.db, actorId: committeeId, runId: DEMO_IDS.run, format: 'md', locale: 'ko' })).body);
    expect(ko).toContain('## AI 보조 분석');
    expect(ko).toContain('## 사람의 감독');
  });
});
