// The data of the system card (/about; docs/system-card.md says what each part means): the
// models this server is configured with, read from the same settings the provider factory reads
// (lib/llm/index.ts), the data sources, the limits the code enforces, the evaluation results so
// far from the database, and the owner an admin set. Secrets never appear: only whether a
// connector is set up, and the endpoint's host.
import 'server-only';
import type { Executor } from '@/lib/db/client';
import { getSystemOwner, type SystemOwnerSetting } from '@/lib/db/queries/settings';
import { listStudyAssignments } from '@/lib/db/queries/studies';
import { listStudiesForCard, poolSize, summarizeJudgments, type JudgeSummary, type PoolSize, type StudyRow } from '@/lib/db/queries/system-card';
import { EVIDENCE_THRESHOLD } from '@/lib/debate/sufficiency';
import { PROTOCOLS, type Protocol } from '@/lib/domain/vocabulary';
import { env as readEnv, roleModelEnvs, type Env } from '@/lib/env';
import { studyResults } from '@/lib/eval/study-results';
import { DEFAULT_OPENAI_MODEL, openAiConfigured } from '@/lib/llm';
import { OFFLINE_MODEL } from '@/lib/llm/offline';
import { getWebSearch } from '@/lib/pool/search';

export type ModelSetup =
  | { kind: 'offline'; model: string }
  | {
      kind: 'openai';
      /** The endpoint's host only (a URL may carry more than a reader needs). */
      endpoint: string;
      model: string;
      /** Per-role overrides (OPENAI_MODEL_<ROLE>), e.g. the aggregator on a larger model. */
      roleModels: { variable: string; model: string }[];
    };

/** The models a new run gets on this server, from the same settings lib/llm/index.ts reads. */
export function modelSetup(e: Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'> = readEnv(), roles = roleModelEnvs()): ModelSetup {
  if (!openAiConfigured(e)) return { kind: 'offline', model: OFFLINE_MODEL };
  let endpoint = 'api.openai.com';
  if (e.OPENAI_BASE_URL) endpoint = new URL(e.OPENAI_BASE_URL).host;
  return { kind: 'openai', endpoint, model: e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL, roleModels: roles };
}

export type DataSources = {
  pool: PoolSize;
  openDart: boolean;
  secEdgar: boolean;
  /** The web search provider's name, or null when none is set up. */
  webSearch: string | null;
};

function webSearchName(e: Env): string | null {
  try {
    const search = getWebSearch(e);
    return search.configured ? search.provider.name : null;
  } catch {
    // A half-configured provider cannot search; the settings page names what is missing.
    return null;
  }
}

/** Medians of one closed study, per measure and system. */
export type StudyMedian = { measure: string; protocol: Protocol; n: number; median: number | null };
export type StudyOnCard = StudyRow & { medians: StudyMedian[] };

export type SystemCard = {
  models: ModelSetup;
  /** The built-in offline analyst's name, which can be chosen for any run. */
  offlineModel: string;
  protocols: readonly Protocol[];
  sources: DataSources;
  threshold: { minItems: number; minFactors: number };
  studies: StudyOnCard[];
  judges: JudgeSummary[];
  owner: SystemOwnerSetting | null;
};

/**
 * The whole card. A study's results are shown only once it is closed: while it is open an
 * evaluator reading /about would learn which system scores higher before rating it.
 */
export async function loadSystemCard({ db, e = readEnv() }: { db: Executor; e?: Env }): Promise<SystemCard> {
  const [pool, studyRows, judges, owner] = await Promise.all([
    poolSize({ db }),
    listStudiesForCard({ db }),
    summarizeJudgments({ db }),
    getSystemOwner({ db }),
  ]);
  const studies: StudyOnCard[] = [];
  for (const s of studyRows) {
    if (s.status !== 'closed') {
      studies.push({ ...s, medians: [] });
      continue;
    }
    const rows = await listStudyAssignments({ db, studyId: s.id });
    const ratings = rows
      .filter((r) => r.submittedAt)
      .map((r) => ({ evaluatorId: r.evaluatorId, companyId: r.companyId, protocol: r.protocol, answers: r.answers }));
    const medians = studyResults(ratings).summaries.map(({ measure, protocol, n, median }) => ({ measure, protocol, n, median }));
    studies.push({ ...s, medians });
  }
  return {
    models: modelSetup(e),
    offlineModel: OFFLINE_MODEL,
    protocols: PROTOCOLS,
    sources: { pool, openDart: Boolean(e.OPENDART_API_KEY), secEdgar: Boolean(e.SEC_USER_AGENT), webSearch: webSearchName(e) },
    threshold: { minItems: EVIDENCE_THRESHOLD.minItems, minFactors: EVIDENCE_THRESHOLD.minFactors },
    studies,
    judges,
    owner,
  };
}
