// The knowledge pool's records as the app handles them, whatever they came from: an import
// file, a connector (OpenDART, EDGAR) or web search. Field names follow lib/db/schema.ts.

export type PoolCompany = {
  id: string;
  name: string;
  nameEn: string | null;
  country: string;
  identifiers: Record<string, string>;
  industry: string | null;
  description: string | null;
};

export type PoolEvidence = {
  id: string;
  companyId: string;
  category: string;
  title: string;
  text: string;
  value: string | null;
  eventDate: string | null;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  upstream: string | null;
  license: string | null;
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
