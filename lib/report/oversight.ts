// What the decision form offers for oversight (docs/oversight.md): each finished run's failed
// final checks (lib/report/failed-checks.ts), which the member confirms having read, and the
// run's report topics and turn claims, which the member may record as overridden.
import type { Db, Executor } from '@/lib/db/client';
import { listCaseRunsWithReports } from '@/lib/db/queries/acknowledgements';
import { isProtocolId, PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { caseQuorum, listCommitteeMembers, listRoundVotes } from '@/lib/db/queries/oversight';
import { votesStillNeeded, type ConfirmedCheck, type VoteOverride } from '@/lib/domain/oversight';
import { COMPLETED_RUN_STATUSES } from '@/lib/domain/vocabulary';
import { translator, type Locale } from '@/lib/i18n';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { failedCheckLines, reportCheckRows } from '@/lib/report/failed-checks';
import { loadReportInput } from '@/lib/report/load';

export type OverrideTarget = { ref: string; kind: 'topic' | 'claim'; label: string };
export type OversightRun = {
  runId: string;
  protocolName: string;
  createdAt: string;
  /** In the reader's language, for the form. */
  failedChecks: { checkId: string; count: number; text: string }[];
  /** In English, as stored with a vote. */
  failedChecksEn: ConfirmedCheck[];
  targets: OverrideTarget[];
};

const clip = (s: string, n = 140) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

/** Each finished run of the case with its failed checks and what may be overridden, oldest run first. */
export async function oversightOptions({ db, caseId, locale }: { db: Executor; caseId: string; locale: Locale }): Promise<OversightRun[]> {
  const t = translator(oversightMessages, locale);
  const runs = (await listCaseRunsWithReports({ db, caseId })).filter((r) => COMPLETED_RUN_STATUSES.includes(r.status) && r.reportContent);
  const out: OversightRun[] = [];
  for (const run of runs) {
    const input = await loadReportInput({ db: db as Db, runId: run.id });
    const rows = (l: Locale) => failedCheckLines(reportCheckRows(input.view, input.sources, l), l);
    const targets: OverrideTarget[] = [];
    const topics = (input.view.report?.content as { topics?: { topic?: unknown }[] } | undefined)?.topics;
    if (Array.isArray(topics))
      topics.forEach((topic, i) => {
        if (typeof topic?.topic === 'string')
          targets.push({ ref: `topic:${run.id}:${i}`, kind: 'topic', label: t('topicLabel', { n: i + 1, title: clip(topic.topic.trim()) }) });
      });
    for (const turn of input.view.turns)
      for (const claim of turn.claims)
        targets.push({
          ref: `claim:${run.id}:${turn.step}:${claim.id}`,
          kind: 'claim',
          label: t('claimLabel', { step: turn.step, id: claim.id, text: clip(claim.text.trim()) }),
        });
    out.push({
      runId: run.id,
      protocolName: isProtocolId(run.protocol) ? PROTOCOLS_BY_ID[run.protocol].name : run.protocol,
      createdAt: run.createdAt.toISOString(),
      failedChecks: rows(locale).map((l) => ({ checkId: l.id, count: l.count, text: l.text })),
      failedChecksEn: rows('en').map((l) => ({ runId: run.id, checkId: l.id, count: l.count, text: l.text })),
      targets,
    });
  }
  return out;
}

/** The overrides as stored: each ref must name a target of `options`; null when one does not. */
export function resolveOverrides(options: readonly OversightRun[], given: readonly { ref: string; reason: string }[]): VoteOverride[] | null {
  const byRef = new Map(options.flatMap((r) => r.targets.map((x) => [x.ref, { ...x, runId: r.runId }] as const)));
  const out: VoteOverride[] = [];
  for (const g of given) {
    const target = byRef.get(g.ref);
    if (!target) return null;
    out.push({ ref: g.ref, kind: target.kind, runId: target.runId, label: target.label, reason: g.reason.trim() });
  }
  return out;
}

/** The open round as the case page shows it to the committee: quorum, votes, who has not voted, and the form's options. */
export async function roundOversight({
  db,
  caseId,
  submittedAt,
  userId,
  locale,
}: {
  db: Executor;
  caseId: string;
  submittedAt: Date;
  userId: string;
  locale: Locale;
}) {
  const t = translator(oversightMessages, locale);
  const [{ quorum }, votes, members, options] = await Promise.all([
    caseQuorum({ db, caseId }),
    listRoundVotes({ db, caseId, submittedAt }),
    listCommitteeMembers({ db }),
    oversightOptions({ db, caseId, locale }),
  ]);
  return {
    quorum,
    votes,
    stillNeeded: votesStillNeeded(votes, quorum),
    notVoted: members.filter((m) => !votes.some((v) => v.voterId === m.id)).map((m) => m.name),
    myOutcome: votes.find((v) => v.voterId === userId)?.outcome ?? null,
    runs: options.map((o) => ({
      runId: o.runId,
      group: t('runGroup', { protocol: o.protocolName, date: o.createdAt.slice(0, 10) }),
      failedChecks: o.failedChecks,
      targets: o.targets.map(({ ref, label }) => ({ ref, label })),
    })),
  };
}
