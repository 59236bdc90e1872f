'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { getCompanyById } from '@/lib/db/queries/companies';
import { deleteEvidenceItem, getEvidenceById, setEvidenceTag, updateEvidenceItem } from '@/lib/db/queries/evidence';
import { getCaseById } from '@/lib/db/queries/cases';
import { setSoleProprietor } from '@/lib/db/queries/oversight';
import { deleteWatchEntry, getWatchEntry, makeWatchEntriesDue, upsertWatchEntry } from '@/lib/db/queries/watch';
import { POLARITIES, WATCH_FREQUENCIES } from '@/lib/domain/vocabulary';
import { watchPass } from '@/lib/jobs/watch';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { watchMessages } from '@/lib/i18n/messages/watch';
import { AppError, type FieldErrors } from '@/lib/errors';
import { phraseMessage, say, type Dictionary, type Messages } from '@/lib/i18n';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { fetchFilings, filingSourceConfigured } from '@/lib/pool/connectors/fetch-filings';
import { FACTOR_IDS } from '@/lib/domain/factors';
import { tagByCategory } from '@/lib/pool/factors';
import { importPool } from '@/lib/pool/import';
import { dedupKeyTooLong, evidenceRow } from '@/lib/pool/import/schemas';
import { searchTokens } from '@/lib/pool/search-text';
import { isoToday } from '@/lib/util/dates';

const EVIDENCE_FIELDS = ['category', 'title', 'text', 'value', 'event_date', 'published_date', 'source_name', 'source_url', 'language'] as const;
const evidenceFields = evidenceRow.pick(Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, true])) as { [K in (typeof EVIDENCE_FIELDS)[number]]: true });
// The evidence form's problems are phrases of these tables (the import's checks, then the form's own).
const messages = [importMessages, poolMessages] as Messages<Dictionary>[];

// A field-level check, so it is reported together with any other field's problem.
const evidenceForm = evidenceFields.extend({
  published_date: evidenceRow.shape.published_date.superRefine((date, ctx) => {
    if (date > isoToday()) ctx.addIssue({ code: 'custom', message: phraseMessage('errFuture', { date }) });
  }),
});

function refresh(companyId: string) {
  revalidatePath(`/companies/${companyId}`);
}

export const addEvidence = action(
  { permission: 'pool:write', messages, input: evidenceForm.extend({ company_id: z.string().min(1) }) },
  async (input, user) => {
    // One row through the import: the same checks, duplicate rule, tagging and tag corrections.
    const report = await importPool({
      db: await getDb(),
      sources: [{ name: 'form.json', bytes: new TextEncoder().encode(JSON.stringify([input])) }],
      actorId: user.id,
      origin: 'manual',
      auditAction: 'evidence.create',
      label: 'added by hand',
    });
    if (report.rejected.length) {
      const fieldErrors: FieldErrors = {};
      for (const r of report.rejected) (fieldErrors[r.field ?? 'title'] ??= []).push(r.phrase ?? r.message);
      throw new AppError('bad_request', undefined, fieldErrors);
    }
    if (report.skippedDuplicates) throw new AppError('conflict', say(poolMessages, 'errDuplicate'));
    if (report.imported.evidence !== 1) throw new AppError('internal');
    refresh(input.company_id);
    return { added: report.imported.evidence };
  },
);

export const updateEvidence = action(
  { permission: 'pool:write', messages, input: evidenceForm.extend({ id: z.string().min(1) }) },
  async ({ id, ...input }, user) => {
    const db = await getDb();
    const existing = await getEvidenceById({ db, id });
    if (!existing) throw new AppError('not_found', say(poolMessages, 'errGone'));
    // The duplicate index holds company, source and title together: too long a pair is the form's error, not the database's.
    const keyTooLong = dedupKeyTooLong({ company_id: existing.companyId, source_url: input.source_url, title: input.title });
    if (keyTooLong) throw new AppError('bad_request', undefined, { title: [keyTooLong.phrase] });
    const values = {
      category: input.category,
      title: input.title,
      text: input.text,
      value: input.value,
      eventDate: input.event_date,
      publishedDate: input.published_date,
      sourceName: input.source_name,
      sourceUrl: input.source_url,
      language: input.language,
      searchTokens: searchTokens(input.title, input.text),
      updatedAt: new Date(),
      // An RM's own tag stays; a rule tag follows the new category and wording.
      ...(existing.factorSource === 'rm' ? {} : { ...tagByCategory(input), factorSource: 'rule' as const }),
    };
    const changed = Object.keys(values).filter(
      (k) => !['searchTokens', 'updatedAt'].includes(k) && (values as Record<string, unknown>)[k] !== (existing as Record<string, unknown>)[k],
    );
    try {
      await db.transaction(async (tx) => {
        await updateEvidenceItem({ db: tx, id, values });
        await appendAudit({
          tx,
          actorId: user.id,
          action: 'evidence.update',
          entityType: 'evidence',
          entityId: id,
          detail: { companyId: existing.companyId, changed },
        });
      });
    } catch (err) {
      if ((err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505') {
        throw new AppError('conflict', say(poolMessages, 'errSameAsOther'));
      }
      throw err;
    }
    refresh(existing.companyId);
    return { id, changed };
  },
);

export const deleteEvidence = action({ permission: 'pool:write', input: z.object({ id: z.string().min(1) }) }, async ({ id }, user) => {
  const db = await getDb();
  const existing = await getEvidenceById({ db, id });
  if (!existing) throw new AppError('not_found', say(poolMessages, 'errGone'));
  await db.transaction(async (tx) => {
    await deleteEvidenceItem({ db: tx, id });
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'evidence.delete',
      entityType: 'evidence',
      entityId: id,
      detail: { companyId: existing.companyId, title: existing.title, publishedDate: existing.publishedDate, sourceUrl: existing.sourceUrl },
    });
  });
  refresh(existing.companyId);
  return { id };
});

export const tagEvidence = action(
  { permission: 'pool:write', input: z.object({ id: z.string().min(1), factor: z.enum(FACTOR_IDS as [string, ...string[]]), polarity: z.enum(POLARITIES) }) },
  async ({ id, factor, polarity }, user) => {
    const db = await getDb();
    const existing = await getEvidenceById({ db, id });
    if (!existing) throw new AppError('not_found', say(poolMessages, 'errGone'));
    await db.transaction(async (tx) => {
      await setEvidenceTag({ db: tx, id, factor, polarity, userId: user.id });
      await appendAudit({
        tx,
        actorId: user.id,
        action: 'evidence.tag',
        entityType: 'evidence',
        entityId: id,
        detail: { companyId: existing.companyId, from: { factor: existing.factor, polarity: existing.polarity }, to: { factor, polarity } },
      });
    });
    refresh(existing.companyId);
    return { id, factor, polarity };
  },
);

export const fetchCompanyFilings = action(
  { permission: 'pool:write', input: z.object({ companyId: z.string().min(1), source: z.enum(['dart', 'edgar']) }) },
  async ({ companyId, source }, user) => {
    const db = await getDb();
    const company = await getCompanyById({ db, id: companyId });
    if (!company) throw new AppError('not_found', say(poolMessages, 'errNoCompany'));
    if (!filingSourceConfigured(source)) {
      throw new AppError('unavailable', source === 'dart' ? say(poolMessages, 'errDart') : say(poolMessages, 'errEdgar'));
    }
    const report = await fetchFilings({ db, company, source, actorId: user.id });
    refresh(companyId);
    return {
      fetched: report.fetched,
      added: report.imported.evidence,
      alreadyInPool: report.skippedDuplicates,
      invalid: report.rejected.length,
      warnings: report.warnings,
    };
  },
);

// --- The portfolio watch (lib/jobs/watch.ts) ------------------------------------------------

// Field messages are keys of lib/i18n/messages/watch.ts.
const watchInput = z.object({
  company_id: z.string().min(1).max(200),
  frequency: z.enum(WATCH_FREQUENCIES),
  case_id: z.preprocess((v) => (v === '' ? undefined : v), z.uuid('errCase').optional()),
  adverse_threshold: z.coerce.number('errThreshold').int('errThreshold').min(1, 'errThreshold').max(100, 'errThreshold'),
  auto_rescreen: z.preprocess((v) => v === 'on' || v === true || v === 'true', z.boolean()),
});

export const watchCompany = action({ permission: 'watch:write', input: watchInput, messages: [watchMessages as Messages<Dictionary>] }, async (input, user) => {
  const db = await getDb();
  const company = await getCompanyById({ db, id: input.company_id });
  if (!company) throw new AppError('not_found', say(watchMessages, 'errNoCompany'));
  if (input.case_id) {
    // Only the RM's own case on this borrower: a re-screen copies it.
    const kase = await getCaseById({ db, id: input.case_id });
    if (!kase || kase.ownerId !== user.id || kase.companyId !== company.id) throw new AppError('bad_request', undefined, { case_id: ['errCase'] });
  }
  const settings = {
    frequency: input.frequency,
    caseId: input.case_id ?? null,
    adverseThreshold: input.adverse_threshold,
    autoRescreen: input.auto_rescreen && Boolean(input.case_id),
  };
  const entry = await db.transaction(async (tx) => {
    const before = await getWatchEntry({ db: tx, ownerId: user.id, companyId: company.id });
    const row = await upsertWatchEntry({ db: tx, ownerId: user.id, companyId: company.id, settings, now: new Date() });
    await appendAudit({
      tx,
      actorId: user.id,
      action: before ? 'watch.update' : 'watch.add',
      entityType: 'company',
      entityId: company.id,
      detail: { entryId: row.id, ...settings },
    });
    return row;
  });
  refresh(company.id);
  return { id: entry.id };
});

export const unwatchCompany = action({ permission: 'watch:write', input: z.object({ id: z.uuid() }) }, async ({ id }, user) => {
  const db = await getDb();
  const removed = await db.transaction(async (tx) => {
    // Matched on the owner too: someone else's entry is "not found", and nothing is written.
    const row = await deleteWatchEntry({ db: tx, ownerId: user.id, id });
    if (!row) throw new AppError('not_found');
    await appendAudit({ tx, actorId: user.id, action: 'watch.remove', entityType: 'company', entityId: row.companyId, detail: { entryId: row.id } });
    return row;
  });
  refresh(removed.companyId);
  return { removed: true };
});

export const checkWatchNow = action(
  { permission: 'watch:check', input: z.object({ company_id: z.string().min(1).max(200) }) },
  async ({ company_id }, user) => {
    const db = await getDb();
    const company = await getCompanyById({ db, id: company_id });
    if (!company) throw new AppError('not_found', say(watchMessages, 'errNoCompany'));
    const now = new Date();
    await db.transaction(async (tx) => {
      await makeWatchEntriesDue({ db: tx, companyId: company.id, now });
      await appendAudit({ tx, actorId: user.id, action: 'watch.check', entityType: 'company', entityId: company.id });
    });
    // The same pass the scheduler runs: it claims what is due, this borrower's entries included.
    const checks = await watchPass({ db, now });
    refresh(company.id);
    return { checks: checks.length, alerts: checks.filter((c) => c.alertId).length };
  },
);

/**
 * Marks a borrower as a sole proprietor, an individual in business, or clears the mark: its cases
 * then warn and need two agreeing committee votes (docs/oversight.md). Audited in the same transaction.
 */
export const markSoleProprietor = action(
  { permission: 'pool:write', input: z.object({ company_id: z.string().min(1).max(200), value: z.enum(['on', 'off']) }) },
  async ({ company_id: companyId, value }, user) => {
    const db = await getDb();
    const soleProprietor = value === 'on';
    const found = await db.transaction(async (tx) => {
      const ok = await setSoleProprietor({ db: tx, companyId, value: soleProprietor });
      if (ok)
        await appendAudit({ tx, actorId: user.id, action: 'company.sole_proprietor', entityType: 'company', entityId: companyId, detail: { soleProprietor } });
      return ok;
    });
    if (!found) throw new AppError('not_found', say(errorMessages, 'not_found'));
    revalidatePath(`/companies/${companyId}`);
    return { soleProprietor };
  },
);
