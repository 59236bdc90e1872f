// An RM's "fetch the latest filings" for one company: OpenDART for Korean companies (by
// corp_code), SEC EDGAR for US ones (by CIK). The records go through the import like any file,
// so the same validation, duplicate rule, tagging and audit apply.
import type { Db } from '@/lib/db/client';
import type { Company } from '@/lib/db/schema';
import { env, type Env } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { dartClientFromEnv, DartError, fetchDartEvidence } from '@/lib/pool/connectors/dart';
import { edgarClientFromEnv, EdgarError, fetchEdgarEvidence } from '@/lib/pool/connectors/edgar';
import { importPool, type ImportReport } from '@/lib/pool/import';
import type { PoolEvidence } from '@/lib/pool/types';
import { addMonths, isoDay } from '@/lib/util/dates';

export type FilingSource = 'dart' | 'edgar';

export function filingSourcesFor(company: Pick<Company, 'corpCode' | 'cik'>): FilingSource[] {
  return [...(company.corpCode ? (['dart'] as const) : []), ...(company.cik ? (['edgar'] as const) : [])];
}

export function filingSourceConfigured(source: FilingSource, e: Env = env()) {
  return source === 'dart' ? Boolean(e.OPENDART_API_KEY) : Boolean(e.SEC_USER_AGENT);
}

const LOOKBACK_YEARS = 3;

function toRow(e: PoolEvidence) {
  return {
    id: e.id,
    company_id: e.companyId,
    category: e.category,
    title: e.title,
    text: e.text,
    value: e.value,
    event_date: e.eventDate,
    published_date: e.publishedDate,
    source_name: e.sourceName,
    source_url: e.sourceUrl,
    language: e.language,
    upstream: e.upstream,
    license: e.license,
    retrieved_at: e.retrievedAt?.toISOString(),
  };
}

export async function fetchFilings({
  db,
  company,
  source,
  actorId,
  now = new Date(),
}: {
  db: Db;
  company: Company;
  source: FilingSource;
  actorId: string | null;
  now?: Date;
}): Promise<ImportReport & { fetched: number; warnings: string[]; evidenceIds: string[] }> {
  const to = isoDay(now);
  // By months, so 29 February looks back to the 28th rather than to a day that does not exist.
  const from = addMonths(to, -12 * LOOKBACK_YEARS);
  let result: { evidence: PoolEvidence[]; warnings: string[] };
  try {
    if (source === 'dart') {
      if (!company.corpCode) throw new AppError('bad_request', 'This company has no OpenDART corp_code.');
      result = await fetchDartEvidence(dartClientFromEnv(), { companyId: company.id, corpCode: company.corpCode, from, to });
    } else {
      if (!company.cik) throw new AppError('bad_request', 'This company has no SEC CIK.');
      result = await fetchEdgarEvidence(edgarClientFromEnv(), { companyId: company.id, cik: company.cik, since: from });
    }
  } catch (err) {
    // Connector errors are written for users and never contain the key. The connector's error
    // stays as the cause, for callers that tell its kinds apart (the portfolio watch).
    if (err instanceof DartError || err instanceof EdgarError) throw Object.assign(new AppError('unavailable', err.message), { cause: err });
    throw err;
  }
  const report = await importPool({
    db,
    sources: [{ name: `${source}.json`, bytes: new TextEncoder().encode(JSON.stringify(result.evidence.map(toRow))) }],
    actorId,
    validOnly: true,
    origin: source,
    label: source === 'dart' ? `OpenDART ${company.corpCode}` : `SEC EDGAR CIK ${company.cik}`,
    // "Dated in the future" is judged by the caller's clock, as the fetch window is.
    today: to,
  });
  // The ids the source gave, whether new or already in the pool: the watch (lib/jobs/watch.ts)
  // decides what is news to each of its entries.
  return { ...report, fetched: result.evidence.length, warnings: result.warnings, evidenceIds: result.evidence.map((e) => e.id) };
}
