// The case page's stability card (docs/stability.md): the case's stability sets, each linking to
// its view, and for the owning RM of an open case "Run N times" on the configured model. The
// offline analyst gives the same analysis every run, so without a model the card says so instead.
import Link from 'next/link';
import { StabilityLauncher } from '@/components/case/stability-launcher';
import { formatDateTime } from '@/components/lists/format';
import { Card } from '@/components/ui/layout';
import { DEFAULT_RUN_PARAMS } from '@/lib/debate/engine';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { env } from '@/lib/env';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { getLocale, getT } from '@/lib/i18n/server';
import { DEFAULT_OPENAI_MODEL, openAiConfigured } from '@/lib/llm';

/** `sets`: the case's stability sets (lib/db/queries/stability.ts listStabilitySets). */
export async function StabilityCard({
  caseId,
  canStart,
  sets,
}: {
  caseId: string;
  canStart: boolean;
  sets: readonly { id: string; protocol: string; runs: number; createdAt: Date }[];
}) {
  const [t, locale] = await Promise.all([getT(stabilityMessages), getLocale()]);
  if (!canStart && !sets.length) return null;
  const e = env();
  const model = openAiConfigured(e) ? (e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL) : null;
  const protocols = Object.values(PROTOCOLS_BY_ID).map((p) => ({ id: p.id, name: p.name }));
  return (
    <Card title={t('cardTitle')}>
      <div className="space-y-4" data-testid="stability-card">
        {canStart ? (
          <>
            <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('cardLead')}</p>
            {model ? (
              <StabilityLauncher caseId={caseId} model={model} protocols={protocols} language={DEFAULT_RUN_PARAMS.language} />
            ) : (
              <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="stability-offline">
                {t('offlineNote')}
              </p>
            )}
          </>
        ) : null}
        {sets.length ? (
          <div>
            <h3 className="text-sm font-semibold">{t('setsTitle')}</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {sets.map((s) => (
                <li key={s.id}>
                  <Link
                    href={`/cases/${caseId}/stability/${s.id}`}
                    className="text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300"
                    data-testid="stability-set-link"
                  >
                    {t('setLink', {
                      protocol: PROTOCOLS_BY_ID[s.protocol as keyof typeof PROTOCOLS_BY_ID]?.name ?? s.protocol,
                      n: s.runs,
                      date: formatDateTime(s.createdAt, locale),
                    })}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
