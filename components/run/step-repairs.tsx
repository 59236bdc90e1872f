'use client';
// What the engine changed to take a step's answer in (docs/protocols.md, "Taking answers in"): a
// small disclosure on the step card, closed by default, so a reviewer can see every repair — the
// wrapping removed, the JSON mended, fields filled or dropped, dates rewritten, citations matched
// or left unverified, a cut-off answer asked again — without it crowding the turn.
import type { StepRepair } from '@/lib/domain/stored';
import { useT } from '@/lib/i18n/client';
import { repairMessages } from '@/lib/i18n/messages/repairs';

export function StepRepairs({ repairs }: { repairs: StepRepair[] | undefined }) {
  const t = useT(repairMessages);
  if (!repairs?.length) return null;
  return (
    <details className="mt-2 text-xs text-zinc-700 dark:text-zinc-300" data-testid="step-repairs" data-count={repairs.length}>
      <summary className="cursor-pointer select-none">{repairs.length === 1 ? t('takenInOne') : t('takenIn', { n: repairs.length })}</summary>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t('repairsHint')}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {repairs.map((r, i) => (
          <li key={i} data-testid="step-repair" data-kind={r.kind}>
            <span className="font-semibold">{t(`kind_${r.kind}`)}</span>
            {r.attempt > 1 ? <span className="text-zinc-600 dark:text-zinc-400"> ({t('attempt', { n: r.attempt })})</span> : null}
            {': '}
            {/* As the engine recorded it: model text and ids, in English like its other reasons. */}
            <span className="break-words">{r.detail}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
