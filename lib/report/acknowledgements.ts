// What submitting a case asks the RM to acknowledge, computed on the server from the stored runs
// (docs/architecture.md, "Submitting a case"): for each finished run of the case (COMPLETED_RUN_STATUSES),
// each final check that failed, the reading-consistency check included (lib/report/failed-checks.ts);
// then each decisive red flag any run of the case found that no finished run addresses. A red-flag
// screening addresses every flag it holds by construction; a debate run addresses a flag when its
// report does (unaddressedRedFlags, the rule of its own red-flags-addressed check).
import type { Db, Executor } from '@/lib/db/client';
import { listCaseRunsWithReports } from '@/lib/db/queries/acknowledgements';
import { unaddressedRedFlags } from '@/lib/debate/checks';
import { checkAckKey, flagAckKey, type AckDetail, type AckItem, type AckKind, type AcknowledgementView } from '@/lib/domain/acknowledgements';
import type { RedFlag } from '@/lib/domain/red-flags';
import { COMPLETED_RUN_STATUSES } from '@/lib/domain/vocabulary';
import { translator, type Locale } from '@/lib/i18n';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { isProtocolId, PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { failedCheckText, reportCheckRows } from '@/lib/report/failed-checks';
import { loadReportInput } from '@/lib/report/load';

const idsOf = (f: RedFlag) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])];
const sameEvent = (a: RedFlag, b: RedFlag) => idsOf(a).some((id) => idsOf(b).includes(id));

/**
 * The items to acknowledge, in the order the form lists them: checks run by run (oldest first), in
 * the order each run recorded them, then red flags newest first. Empty when every check passed and
 * every flag is addressed. Reads with `db`, which may be the submission's transaction.
 */
export async function itemsToAcknowledge({ db, caseId }: { db: Executor; caseId: string }): Promise<AckItem[]> {
  const runs = await listCaseRunsWithReports({ db, caseId });
  const completed = runs.filter((r) => COMPLETED_RUN_STATUSES.includes(r.status));
  const items: AckItem[] = [];
  for (const run of completed) {
    if (!run.reportContent) continue;
    // The report's checks as its page shows them: the stored ones and the reading-consistency check.
    const input = await loadReportInput({ db: db as Db, runId: run.id });
    for (const c of reportCheckRows(input.view, input.sources, 'en')) {
      if (c.ok) continue;
      items.push({
        key: checkAckKey(run.id, c.id),
        kind: 'check',
        runId: run.id,
        protocol: run.protocol,
        runCreatedAt: run.createdAt.toISOString(),
        checkId: c.id,
        count: c.items.length,
        label: c.label,
      });
    }
  }
  // One flag per event, whichever runs found it.
  const flags: RedFlag[] = [];
  for (const run of runs) for (const f of run.redFlags ?? []) if (!flags.some((g) => sameEvent(f, g))) flags.push(f);
  const addressed = (f: RedFlag) =>
    completed.some((run) =>
      run.status === 'red_flag_screening'
        ? (run.redFlags ?? []).some((g) => sameEvent(f, g))
        : run.reportContent !== null && unaddressedRedFlags(run.reportContent, [f]).length === 0,
    );
  const open = flags.filter((f) => !addressed(f)).sort((a, b) => b.date.localeCompare(a.date));
  for (const f of open)
    items.push({ key: flagAckKey(f.evidenceId), kind: 'red_flag', evidenceId: f.evidenceId, flagKind: f.kind, title: f.title, date: f.date });
  return items;
}

/**
 * An item in the reader's words, for the submit form (an AckItem) and the committee's view (a
 * stored row's kind, ids and detail): the run and the finding, or the red flag, and where to read it.
 */
export function ackText(
  item: { kind: AckKind; runId: string | null; checkId: string | null; evidenceId: string | null; detail: AckDetail },
  locale: Locale,
): { text: string; hint: string | null; href: string | null } {
  const t = translator(acknowledgementMessages, locale);
  const d = item.detail;
  if (item.kind === 'red_flag')
    return { text: t('itemFlag', { title: d.title ?? item.evidenceId ?? '', date: d.date ?? '' }), hint: t('itemFlagHint'), href: null };
  const protocol = d.protocol && isProtocolId(d.protocol) ? PROTOCOLS_BY_ID[d.protocol].name : (d.protocol ?? '');
  const run = t('runRef', { protocol, date: (d.runCreatedAt ?? '').slice(0, 10) });
  return {
    text: t('itemCheck', { run, summary: failedCheckText(item.checkId ?? '', d.count ?? 0, d.label ?? item.checkId ?? '', locale) }),
    hint: null,
    href: item.runId ? `/runs/${item.runId}/report` : null,
  };
}

/** An AckItem as ackText reads it. */
export function ackItemFields(item: AckItem) {
  return item.kind === 'check'
    ? {
        kind: item.kind,
        runId: item.runId,
        checkId: item.checkId,
        evidenceId: null,
        detail: { count: item.count, label: item.label, protocol: item.protocol, runCreatedAt: item.runCreatedAt },
      }
    : { kind: item.kind, runId: null, checkId: null, evidenceId: item.evidenceId, detail: { title: item.title, date: item.date, flagKind: item.flagKind } };
}

/**
 * The stored acknowledgements of a round as the committee reads them, in the reader's language
 * (`time` writes a moment as the page writes times); `only` keeps those about one run (its checks)
 * and the red flags, for that run's report.
 */
export function ackRows(acks: readonly AcknowledgementView[], locale: Locale, time: (d: Date) => string, only?: { runId: string }) {
  const t = translator(acknowledgementMessages, locale);
  return acks
    .filter((a) => !only || a.kind === 'red_flag' || a.runId === only.runId)
    .map((a) => {
      const { text, href } = ackText(a, locale);
      return { id: a.id, text, href: only ? null : href, reason: a.reason, by: t('byWhom', { name: a.acknowledgedByName, at: time(new Date(a.createdAt)) }) };
    });
}

/** The lead line of the committee's card: when the round was submitted. */
export function ackLead(submittedAt: Date, time: (d: Date) => string, locale: Locale) {
  return translator(acknowledgementMessages, locale)('cardLead', { at: time(submittedAt) });
}
