// The knowledge pool's records as the app handles them, whatever they came from: an import
// file, a connector (OpenDART, EDGAR) or web search. Field names follow lib/db/schema.ts.
import type { StoredWebResult } from '@/lib/domain/stored';

export type PoolCompany = {
  id: string;
  name: string;
  nameEn: string | null;
  country: string;
  identifiers: Record<string, string>;
  industry: string | null;
  description: string | null;
  /** Set by an import that names it (companies.json `sole_proprietor`); absent, a new company is not one. */
  soleProprietor?: boolean;
};

/**
 * One evidence record as the pool reads and imports it: the same fields a run stores for a web
 * result (lib/domain/stored.ts), with `retrievedAt` as the Date it is in memory.
 */
export type PoolEvidence = Omit<StoredWebResult, 'retrievedAt'> & {
  /** When the record was fetched from its source (connectors, web search); null for files. */
  retrievedAt?: Date | null;
};

export type PoolDocument = {
  /** The file name without `.md`, e.g. `tesla--10k-fy2024-item-1c-cybersecurity`. */
  id: string;
  companyId: string;
  title: string;
  kind: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  license: string | null;
  upstream: string | null;
  /** Front-matter fields we keep but do not model (note, call_date, date_note, …). */
  meta: Record<string, unknown>;
  /** The Markdown after the front matter; chunk offsets refer to this string. */
  body: string;
};

export type PoolData = { companies: PoolCompany[]; evidence: PoolEvidence[]; documents: PoolDocument[] };
