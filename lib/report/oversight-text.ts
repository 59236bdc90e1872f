// The exports' short blocks on oversight (docs/oversight.md): the analysis is AI-assisted, by
// which system and models, and who decided, what they confirmed and what they overrode. Pure:
// the run's case and decision are read by lib/db/queries/oversight.ts loadRunOversight.
import type { VoteView } from '@/lib/domain/oversight';
import type { DecisionOutcome } from '@/lib/domain/vocabulary';
import { translator, type Locale } from '@/lib/i18n';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { reviewMessages } from '@/lib/i18n/messages/review';

/** The decision a run's export reports: the case's latest, with the votes that made it. */
export type RunOversight = { caseId: string | null; decision: { outcome: DecisionOutcome; createdAt: Date; votes: VoteView[]; deciderName: string } | null };

/** Who decided: the members whose agreeing votes made the decision; the decider alone for one recorded before votes. */
const decidersOf = (d: NonNullable<RunOversight['decision']>) => (d.votes.length ? d.votes.map((v) => v.voterName) : [d.deciderName]);

/** The exports' statement: AI-assisted, by which system and models, and who decided (docs/oversight.md). */
export function aiAssistedLines(
  run: { protocolName: string; provider: string; model: string | null },
  oversight: RunOversight | undefined,
  locale: Locale,
): { title: string; lines: string[]; system: string; models: string; decidedBy: string[] } {
  const t = translator(oversightMessages, locale);
  const models = run.provider === 'offline' ? t('aiOffline') : t('aiModel', { model: run.model ?? run.provider });
  const lines = [t('aiStatement', { system: run.protocolName, models })];
  const decidedBy = oversight?.decision ? decidersOf(oversight.decision) : [];
  if (!oversight) {
    /* An export outside the app (a test, the CLI) says nothing about a decision it did not read. */
  } else if (!oversight.caseId) lines.push(t('aiNoCase'));
  else if (!oversight.decision) lines.push(t('aiNotDecided'));
  else
    lines.push(
      t('aiDecidedBy', {
        names: decidedBy.join(', '),
        outcome: translator(reviewMessages, locale)(`outcome_${oversight.decision.outcome}`),
        date: oversight.decision.createdAt.toISOString().slice(0, 10),
      }),
    );
  return { title: t('aiTitle'), lines, system: run.protocolName, models, decidedBy };
}

/** The "Human oversight" block of the exports: who decided, what they confirmed, what they overrode. */
export function humanOversightLines(oversight: RunOversight | undefined, locale: Locale): { title: string; lines: string[] } | null {
  const decision = oversight?.decision;
  if (!decision) return null;
  const votes = decision.votes;
  const t = translator(oversightMessages, locale);
  const lines = [t('decidedByVotes', { names: decidersOf(decision).join(', ') })];
  for (const v of votes) lines.push(t('confirmedLine', { name: v.voterName, checks: t('confirmedChecks', { n: v.confirmed.failedChecks.length }) }));
  const overrides = votes.flatMap((v) => v.overrides.map((o) => t('overrideLine', { name: v.voterName, label: o.label, reason: o.reason })));
  if (votes.length) lines.push(...(overrides.length ? overrides : [t('noOverrides')]));
  return { title: t('oversightHeading'), lines };
}
