// The system card's data (/about): the models as the provider factory would pick them, and the
// evaluation results and owner as they stand in the database, on both backends.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { setSystemOwner, SYSTEM_OWNER_KEY } from '@/lib/db/queries/settings';
import { auditLog, companies, documents, evidenceItems, judgments, reports, runs, studies, studyAssignments, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import type { Answers } from '@/lib/domain/study';
import type { StepOutput } from '@/lib/domain/outputs';
import { env, type Env } from '@/lib/env';
import { loadSystemCard, modelSetup } from '@/lib/report/system-card';

const none = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, OPENAI_MODEL: undefined };

describe('modelSetup', () => {
  it('is the offline analyst, by its name, when no endpoint is configured', () => {
    expect(modelSetup(none, [])).toEqual({ kind: 'offline', model: 'offline-analyst-1' });
  });

  it('names the endpoint by its host only, the configured model and the per-role models', () => {
    const roles = [{ variable: 'OPENAI_MODEL_AGGREGATOR', model: 'gpt-4o' }];
    expect(modelSetup({ ...none, OPENAI_BASE_URL: 'http://svc:secret@llm.bank.internal:8000/v1', OPENAI_MODEL: 'qwen2.5-72b' }, roles)).toEqual({
      kind: 'openai',
      endpoint: 'llm.bank.internal:8000',
      model: 'qwen2.5-72b',
      roleModels: roles,
    });
  });

  it('with a key alone is api.openai.com and the default model, as lib/llm/index.ts picks them', () => {
    expect(modelSetup({ ...none, OPENAI_API_KEY: 'sk-test' }, [])).toEqual({
      kind: 'openai',
      endpoint: 'api.openai.com',
      model: 'gpt-4o-mini',
      roleModels: [],
    });
  });
});

const likert = (t: number, e: number, p: number): Answers => ({ trustworthiness: t, explanatoryAdequacy: e, practicalApplicability: p });

describe.each(testBackends())('loadSystemCard on %s', (backend) => {
  let handle: DatabaseHandle;
  const offline: Env = { ...env(), ...none, OPENDART_API_KEY: undefined, SEC_USER_AGENT: undefined, WEB_SEARCH_PROVIDER: undefined };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(() => handle?.close());

  it('says "none yet" with nothing in the database: no studies, no judgments, no owner, an empty pool', async () => {
    const card = await loadSystemCard({ db: handle.db, e: { ...offline, OPENDART_API_KEY: 'key' } });
    expect(card.models).toEqual({ kind: 'offline', model: 'offline-analyst-1' });
    expect(card.sources).toEqual({ pool: { companies: 0, evidence: 0, documents: 0 }, openDart: true, secEdgar: false, webSearch: null });
    expect(card.threshold).toEqual({ minItems: 3, minFactors: 2 });
    expect(card.protocols).toEqual(['kpd-mads', 'nas', 'sas', 'three-round', 'findebate']);
    expect(card.studies).toEqual([]);
    expect(card.judges).toEqual([]);
    expect(card.owner).toBeNull();
  });

  it('shows each study with its dates and counts, the medians of a closed one only, the judges by model, and the owner with its audit trail', async () => {
    const { db } = handle;
    const [admin, e1, e2] = await db
      .insert(users)
      .values([
        { email: 'admin@bank.example', name: 'Ada Admin', role: 'admin' },
        { email: 'e1@bank.example', name: 'Eve One', role: 'evaluator' },
        { email: 'e2@bank.example', name: 'Eve Two', role: 'evaluator' },
      ])
      .returning();
    await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    await db.insert(evidenceItems).values({
      id: 'acme-1',
      companyId: 'acme',
      category: 'litigation',
      title: 'A suit',
      text: 'Filed.',
      publishedDate: '2025-01-02',
      sourceName: 'Court',
      sourceUrl: 'https://court.example/1',
      language: 'en',
    });
    const [kpd, nas] = await db
      .insert(runs)
      .values([
        { companyId: 'acme', protocol: 'kpd-mads', provider: 'offline', model: 'offline-analyst-1', status: 'succeeded' },
        { companyId: 'acme', protocol: 'nas', provider: 'offline', model: 'offline-analyst-1', status: 'succeeded' },
      ])
      .returning();
    const [rk, rn] = await db
      .insert(reports)
      .values([
        { runId: kpd.id, content: {} as StepOutput },
        { runId: nas.id, content: {} as StepOutput },
      ])
      .returning();
    const opened = new Date('2026-03-02T09:00:00Z');
    const closed = new Date('2026-03-20T17:00:00Z');
    const [pilot, second] = await db
      .insert(studies)
      .values([
        { name: 'Pilot', status: 'closed', createdById: admin.id, openedAt: opened, closedAt: closed, createdAt: new Date('2026-03-01T00:00:00Z') },
        { name: 'Second', status: 'open', createdById: admin.id, openedAt: new Date('2026-04-01T00:00:00Z'), createdAt: new Date('2026-04-01T00:00:00Z') },
      ])
      .returning();
    await db.insert(studies).values({ name: 'Draft', status: 'draft', createdById: admin.id });
    const at = new Date('2026-03-10T00:00:00Z');
    await db.insert(studyAssignments).values([
      { studyId: pilot.id, evaluatorId: e1.id, reportId: rk.id, position: 1, answers: likert(5, 4, 4), submittedAt: at },
      { studyId: pilot.id, evaluatorId: e1.id, reportId: rn.id, position: 2, answers: likert(3, 2, 2), submittedAt: at },
      { studyId: pilot.id, evaluatorId: e2.id, reportId: rk.id, position: 1, answers: likert(4, 4, 5), submittedAt: at },
      // Saved but not submitted: not a rating.
      { studyId: pilot.id, evaluatorId: e2.id, reportId: rn.id, position: 2, answers: likert(1, 1, 1) },
      { studyId: second.id, evaluatorId: e1.id, reportId: rk.id, position: 1, answers: likert(1, 1, 1), submittedAt: at },
      { studyId: second.id, evaluatorId: e2.id, reportId: rk.id, position: 1 },
    ]);
    const pair = (consistent: boolean) => ({
      comparisons: [],
      wins: { a: 2, b: 0 },
      ties: 0,
      winRate: { a: 1, b: 0 },
      consistent,
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    await db.insert(judgments).values([
      {
        kind: 'pairwise',
        runId: kpd.id,
        otherRunId: nas.id,
        result: pair(true),
        provider: 'openai',
        model: 'gpt-4o',
        createdById: admin.id,
        createdAt: new Date('2026-03-05T00:00:00Z'),
      },
      {
        kind: 'pairwise',
        runId: nas.id,
        otherRunId: kpd.id,
        result: pair(false),
        provider: 'openai',
        model: 'gpt-4o',
        createdById: admin.id,
        createdAt: new Date('2026-03-07T00:00:00Z'),
      },
      {
        kind: 'rubric',
        runId: kpd.id,
        result: { judgment: {}, arguments: [], usage: { promptTokens: 1, completionTokens: 1 } } as never,
        provider: 'offline',
        model: 'offline-analyst-1',
        createdById: admin.id,
        createdAt: new Date('2026-03-06T00:00:00Z'),
      },
    ]);

    await setSystemOwner({ db, actorId: admin.id, owner: { name: 'Kim Min-ji', title: 'Head of Credit Model Risk', contact: '' } });
    await setSystemOwner({ db, actorId: admin.id, owner: { name: 'Lee Jun-ho', title: 'Chief Risk Officer', contact: 'cro@bank.example' } });

    const card = await loadSystemCard({ db, e: offline });
    expect(card.sources.pool).toEqual({ companies: 1, evidence: 1, documents: await db.$count(documents) });

    // Drafts are left out; oldest first.
    expect(card.studies.map((s) => [s.name, s.status, s.assignments, s.submitted, s.evaluators])).toEqual([
      ['Pilot', 'closed', 4, 3, 2],
      ['Second', 'open', 2, 1, 2],
    ]);
    expect(card.studies[0].openedAt?.toISOString()).toBe(opened.toISOString());
    expect(card.studies[0].closedAt?.toISOString()).toBe(closed.toISOString());
    // The closed study's medians from its submitted ratings only: KPD-MADS rated 5 and 4, NAS 3.
    const median = (measure: string, protocol: string) => card.studies[0].medians.find((m) => m.measure === measure && m.protocol === protocol);
    expect(median('trustworthiness', 'kpd-mads')).toEqual({ measure: 'trustworthiness', protocol: 'kpd-mads', n: 2, median: 4.5 });
    expect(median('trustworthiness', 'nas')).toEqual({ measure: 'trustworthiness', protocol: 'nas', n: 1, median: 3 });
    expect(median('practicalApplicability', 'kpd-mads')?.median).toBe(4.5);
    expect(median('sus', 'kpd-mads')).toEqual({ measure: 'sus', protocol: 'kpd-mads', n: 0, median: null });
    // The open study shows no results yet, so an evaluator reading /about is not told which system leads.
    expect(card.studies[1].medians).toEqual([]);

    expect(card.judges.map((j) => ({ ...j, first: j.first.toISOString(), last: j.last.toISOString() }))).toEqual([
      {
        kind: 'pairwise',
        provider: 'openai',
        model: 'gpt-4o',
        judgments: 2,
        consistent: 1,
        first: '2026-03-05T00:00:00.000Z',
        last: '2026-03-07T00:00:00.000Z',
      },
      {
        kind: 'rubric',
        provider: 'offline',
        model: 'offline-analyst-1',
        judgments: 1,
        consistent: 0,
        first: '2026-03-06T00:00:00.000Z',
        last: '2026-03-06T00:00:00.000Z',
      },
    ]);

    expect(card.owner).toMatchObject({ name: 'Lee Jun-ho', title: 'Chief Risk Officer', contact: 'cro@bank.example', updatedByName: 'Ada Admin' });
    const trail = await db.select().from(auditLog).where(eq(auditLog.action, 'settings.owner')).orderBy(auditLog.seq);
    expect(trail.map((a) => [a.actorId, a.entityType, a.entityId, a.detail])).toEqual([
      [admin.id, 'setting', SYSTEM_OWNER_KEY, { before: null, after: { name: 'Kim Min-ji', title: 'Head of Credit Model Risk', contact: '' } }],
      [
        admin.id,
        'setting',
        SYSTEM_OWNER_KEY,
        {
          before: { name: 'Kim Min-ji', title: 'Head of Credit Model Risk', contact: '' },
          after: { name: 'Lee Jun-ho', title: 'Chief Risk Officer', contact: 'cro@bank.example' },
        },
      ],
    ]);
  });
});
