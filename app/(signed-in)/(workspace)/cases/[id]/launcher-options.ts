// What the run launcher offers and its estimates: the median wall time and tokens of recent
// succeeded runs of each system on each available model, priced by lib/llm/prices.ts; and what a
// run of the case will give (lib/debate/outlook.ts), so a run that cannot debate is said before
// it starts instead of being estimated like a debate.
import { median } from '@/components/run/live-format';
import type { LauncherOptions, RunEstimate } from '@/components/case/run-launcher';
import type { Db } from '@/lib/db/client';
import { listRecentRunStats } from '@/lib/db/queries/cases';
import { DEFAULT_RUN_PARAMS } from '@/lib/debate/engine';
import { readRunOutlook } from '@/lib/debate/outlook';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { env } from '@/lib/env';
import { DEFAULT_OPENAI_MODEL, openAiConfigured } from '@/lib/llm';
import { OFFLINE_MODEL } from '@/lib/llm/offline';
import { costOf, priceOf } from '@/lib/llm/prices';
import { getWebSearch } from '@/lib/pool/search';

export async function launcherOptions({ db, kase }: { db: Db; kase: { companyId: string; asOfDate: string } }): Promise<LauncherOptions> {
  const e = env();
  const openaiModel = openAiConfigured(e) ? (e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL) : null;
  const providers = [{ id: 'offline', model: OFFLINE_MODEL }, ...(openaiModel ? [{ id: 'openai', model: openaiModel }] : [])];
  const protocols = Object.values(PROTOCOLS_BY_ID);
  const estimates: Record<string, RunEstimate> = {};
  await Promise.all(
    protocols.flatMap((p) =>
      providers.map(async (provider) => {
        const stats = await listRecentRunStats({ db, protocol: p.id, provider: provider.id, model: provider.model });
        const prompt = median(stats.map((s) => s.promptTokens));
        const completion = median(stats.map((s) => s.completionTokens));
        const priceKnown = priceOf(provider.model).known;
        estimates[`${p.id}:${provider.id}`] = {
          n: stats.length,
          medianMs: median(stats.map((s) => Number(s.ms))),
          costUsd: priceKnown && prompt !== null && completion !== null ? costOf(provider.model, { promptTokens: prompt, completionTokens: completion }) : null,
          priceKnown,
        };
      }),
    ),
  );
  const outlook = await readRunOutlook({ db, companyId: kase.companyId, asOf: kase.asOfDate });
  return {
    protocols: protocols.map((p) => ({ id: p.id, name: p.name })),
    outlook: { ...outlook, asOf: kase.asOfDate, companyId: kase.companyId },
    openaiModel,
    webSearch: getWebSearch(e).configured,
    estimates,
    defaults: {
      language: DEFAULT_RUN_PARAMS.language,
      recencyDays: DEFAULT_RUN_PARAMS.recencyDays,
      maxWebResults: DEFAULT_RUN_PARAMS.maxWebResults,
      maxTokens: e.RUN_MAX_TOKENS ?? null,
      maxCostUsd: e.RUN_MAX_COST_USD ?? null,
    },
  };
}
