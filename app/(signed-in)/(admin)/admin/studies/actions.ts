'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { notifyStudyOpened } from '@/lib/db/queries/notifications';
import { getStudy, insertStudy, listActiveEvaluators, listRunsOfReports, setStudyStatus } from '@/lib/db/queries/studies';
import { newStudySeed, planAssignments } from '@/lib/eval/study-design';
import { hasPickProblems, pickProblems } from '@/lib/eval/study-pairing';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { studiesMessages } from '@/lib/i18n/messages/studies';

/** A checkbox group arrives as a string (one ticked), an array (several) or nothing. */
const idList = (message: string, min: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(z.uuid(message)).min(min, message));

// Field messages are keys of lib/i18n/messages/studies.ts, translated in the form.
const createInput = z.object({
  name: z.string().trim().min(1, 'errName').max(200, 'errName'),
  reportIds: idList('errReports', 1),
  evaluatorIds: idList('errEvaluators', 1),
  seed: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : v),
    z.coerce.number('errSeed').int('errSeed').min(0, 'errSeed').max(2147483647, 'errSeed').optional(),
  ),
  /** The explicit "create anyway" tick for unpaired reports or mixed output languages. */
  createAnyway: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
});

export const createStudy = action({ permission: 'studies:manage', input: createInput }, async (input, admin) => {
  const db = await getDb();
  const reportIds = [...new Set(input.reportIds)];
  const evaluatorIds = [...new Set(input.evaluatorIds)];
  const found = await listRunsOfReports({ db, reportIds });
  if (found.length !== reportIds.length || found.some((r) => r.status !== 'succeeded')) {
    throw new AppError('bad_request', say(studiesMessages, 'errUnknownReport'), { reportIds: ['errUnknownReport'] });
  }
  // Unpaired reports and pairs in two output languages mislead the results: refused unless the
  // admin ticked "create anyway", and then recorded with the study (lib/eval/study-pairing.ts).
  const problems = pickProblems(found.map((r) => ({ reportId: r.reportId, companyId: r.companyId, protocol: r.protocol, language: r.language })));
  if (hasPickProblems(problems) && !input.createAnyway) {
    throw new AppError('bad_request', say(studiesMessages, 'errPicksRefused'), { createAnyway: ['errCreateAnyway'] });
  }
  const evaluators = new Set((await listActiveEvaluators({ db })).map((e) => e.id));
  if (evaluatorIds.some((id) => !evaluators.has(id)))
    throw new AppError('bad_request', say(studiesMessages, 'errUnknownEvaluator'), { evaluatorIds: ['errUnknownEvaluator'] });
  const seed = input.seed ?? newStudySeed();
  const assignments = planAssignments({ seed, evaluatorIds, reportIds });
  const study = await db.transaction(async (tx) => {
    const created = await insertStudy({ db: tx, name: input.name, seed, createdById: admin.id, assignments });
    await appendAudit({
      tx,
      actorId: admin.id,
      action: 'study.create',
      entityType: 'study',
      entityId: created.id,
      detail: {
        name: input.name,
        seed,
        reportIds: [...reportIds].sort(),
        evaluatorIds: [...evaluatorIds].sort(),
        assignments: assignments.length,
        ...(hasPickProblems(problems)
          ? { createdAnyway: true, unpairedReports: problems.unpaired.length, mixedLanguageCompanies: problems.mixedLanguages.map((c) => c.companyId) }
          : {}),
      },
    });
    return created;
  });
  revalidatePath('/admin/studies');
  redirect(`/admin/studies/${study.id}`);
});

export const changeStudyStatus = action(
  { permission: 'studies:manage', input: z.object({ studyId: z.uuid(), status: z.enum(['open', 'closed']) }) },
  async ({ studyId, status }, admin) => {
    const db = await getDb();
    const study = await getStudy({ db, id: studyId });
    if (!study) throw new AppError('not_found');
    const allowed = (study.status === 'draft' && status === 'open') || (study.status === 'open' && status === 'closed');
    if (!allowed) throw new AppError('conflict', say(studiesMessages, 'errTransition'));
    await db.transaction(async (tx) => {
      await setStudyStatus({ db: tx, id: studyId, status });
      if (status === 'open') await notifyStudyOpened({ db: tx, studyId, actorId: admin.id });
      await appendAudit({
        tx,
        actorId: admin.id,
        action: status === 'open' ? 'study.open' : 'study.close',
        entityType: 'study',
        entityId: studyId,
        detail: { from: study.status },
      });
    });
    revalidatePath(`/admin/studies/${studyId}`);
    revalidatePath('/admin/studies');
    return { status };
  },
);
