// The pools the reading agreement is measured on (lib/eval/reading-agreement.ts): every demo
// company from data/demo, and fresh imports of real filings that are not in the demo pool, built
// by the app's own importers — the EDGAR connector on the recorded Tesla submissions, the document
// reader on the recorded 10-K page and DART original document, its candidates accepted as the RM
// would accept them. Read from the repository's files; no database.
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import type { Language, RunParams } from '@/lib/domain/protocol';
import type { CompanyBrief } from '@/lib/llm/types';
import { isStale, recencyCutoff, type EvidenceAsOf } from '@/lib/pool/as-of';
import { chunkDocument } from '@/lib/pool/chunk';
import { mapEdgarFilings } from '@/lib/pool/connectors/edgar';
import { proposeCandidates } from '@/lib/pool/documents/candidates';
import { extractDocument } from '@/lib/pool/documents/extract';
import { tagByCategory } from '@/lib/pool/factors';
import type { RetrievedItem } from '@/lib/pool/retrieve';
import type { PoolEvidence } from '@/lib/pool/types';
import type { ReadingCase } from './reading-agreement';

const ROOT = process.cwd();
const DEMO = path.join(ROOT, 'data/demo');
const FIXTURES = path.join(ROOT, 'data/fixtures');
const RECENCY_DAYS = 365;

type Row = Record<string, string | null>;

const demoRows = (): Row[] =>
  fs
    .readFileSync(path.join(DEMO, 'evidence.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);

function brief(id: string): CompanyBrief {
  const c = (JSON.parse(fs.readFileSync(path.join(DEMO, 'companies.json'), 'utf8')) as Row[]).find((x) => x.id === id);
  if (!c) throw new Error(`no demo company ${id}`);
  return { id, name: c.name!, nameEn: c.name_en ?? null, country: c.country!, industry: c.industry ?? null };
}

const params = (language: Language, asOf: string): RunParams => ({ language, asOf, recencyDays: RECENCY_DAYS, maxWebResults: 5, maxConcurrency: 4 });

/** Items as the import writes them (rule tag) and readEvidence returns them: as of the date, newest first. */
function asOfItems(items: PoolEvidence[], asOf: string): EvidenceAsOf[] {
  const cutoff = recencyCutoff(asOf, RECENCY_DAYS);
  return items
    .filter((e) => e.publishedDate <= asOf)
    .map((e) => {
      const { upstream: _u, license: _l, retrievedAt: _r, ...rest } = e;
      return { ...rest, ...tagByCategory(e), factorSource: 'rule' as const, stale: isStale(e.publishedDate, cutoff) };
    })
    .sort((a, b) => (a.publishedDate === b.publishedDate ? (a.id < b.id ? -1 : 1) : a.publishedDate > b.publishedDate ? -1 : 1));
}

const fromRow = (r: Row): PoolEvidence => ({
  id: r.id!,
  companyId: r.company_id!,
  category: r.category!,
  title: r.title!,
  text: r.text!,
  value: r.value,
  eventDate: r.event_date,
  publishedDate: r.published_date!,
  sourceName: r.source_name!,
  sourceUrl: r.source_url!,
  language: r.language!,
  upstream: r.upstream,
  license: r.license,
});

type Doc = { id: string; title: string; body: string; publishedDate: string; sourceName: string; sourceUrl: string };

/** Every chunk of the documents as a passage, its snippet the chunk's start (retrieval would centre it on a query). */
function passagesOf(docs: Doc[], asOf: string): RetrievedItem[] {
  const cutoff = recencyCutoff(asOf, RECENCY_DAYS);
  return docs
    .filter((d) => d.publishedDate <= asOf)
    .flatMap((d) =>
      chunkDocument(d.body).map((c) => ({
        kind: 'chunk' as const,
        id: `${d.id}#${c.ordinal}`,
        documentId: d.id,
        heading: c.heading,
        charStart: c.charStart,
        charEnd: c.charEnd,
        title: d.title,
        snippet: c.text.replace(/\s+/g, ' ').trim().slice(0, 240),
        publishedDate: d.publishedDate,
        sourceName: d.sourceName,
        sourceUrl: d.sourceUrl,
        score: 1,
        stale: isStale(d.publishedDate, cutoff),
      })),
    );
}

function demoDocs(companyId: string): Doc[] {
  return fs
    .readdirSync(path.join(DEMO, 'documents'))
    .filter((f) => f.startsWith(`${companyId}--`))
    .sort()
    .map((f) => {
      const doc = matter(fs.readFileSync(path.join(DEMO, 'documents', f), 'utf8'), {});
      return {
        id: f.replace(/\.md$/, ''),
        title: String(doc.data.title),
        body: doc.content,
        publishedDate: String(doc.data.published_date),
        sourceName: String(doc.data.source_name),
        sourceUrl: String(doc.data.source_url),
      };
    });
}

/** Each demo company at a date that sees all its items, in the language of its sources, then those that can run in the other. */
export const DEMO_CASES: { companyId: string; language: Language; asOf: string }[] = [
  { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31' },
  { companyId: 'taeyoung-engineering-construction', language: 'ko', asOf: '2025-06-30' },
  { companyId: 'tesla', language: 'en', asOf: '2025-12-31' },
  { companyId: 'wintec-automation', language: 'ko', asOf: '2024-12-31' },
  { companyId: 'monro-inc', language: 'en', asOf: '2021-06-30' },
  { companyId: 'travelers-companies', language: 'en', asOf: '2020-12-31' },
  { companyId: 'samsung-electronics', language: 'en', asOf: '2024-12-31' },
  { companyId: 'tesla', language: 'ko', asOf: '2025-12-31' },
  { companyId: 'travelers-companies', language: 'ko', asOf: '2020-12-31' },
];

/** A demo company's pool: its items and every chunk of its documents. */
export function demoCase(companyId: string, language: Language, asOf: string): ReadingCase {
  const rows = demoRows().filter((r) => r.company_id === companyId);
  return {
    label: `${companyId} (${language}, demo pool)`,
    company: brief(companyId),
    params: params(language, asOf),
    evidence: asOfItems(rows.map(fromRow), asOf),
    passages: passagesOf(demoDocs(companyId), asOf),
  };
}

/** A document read as an upload is read (lib/pool/documents/extract.ts), its candidates accepted as items. */
async function uploaded(file: string, companyId: string, publishedDate: string, sourceName: string, sourceUrl: string) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'documents', file)));
  const extracted = await extractDocument({ name: file, bytes });
  const doc: Doc = { id: `upload-${file}`, title: extracted.title ?? file, body: extracted.text, publishedDate, sourceName, sourceUrl };
  const items: PoolEvidence[] = proposeCandidates({ body: extracted.text, pages: extracted.pages, publishedDate }).map((c, i) => ({
    id: `${doc.id}-c${i + 1}`,
    companyId,
    category: c.category,
    title: c.title,
    text: c.text,
    value: null,
    eventDate: c.eventDate,
    publishedDate,
    sourceName,
    sourceUrl,
    language: /[가-힣]/.test(c.text) ? 'ko' : 'en',
    upstream: null,
    license: null,
  }));
  return { doc, items };
}

/** Tesla's recorded EDGAR submissions (2026-02-03) mapped by the connector. */
function teslaEdgar(): PoolEvidence[] {
  const recorded = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'edgar/CIK0001318605.recorded-2026-02-03.json'), 'utf8'));
  return mapEdgarFilings(recorded.filings.recent, { companyId: 'tesla', cik: recorded.cik, companyName: recorded.name, since: '2025-01-01' });
}

/**
 * Fresh imports of real filings the demo pool does not hold: Tesla's EDGAR filings of 2025 with
 * the 10-K legal-proceedings page uploaded and its candidates accepted; the same items with the
 * FY2024 10-K's sections (data/demo/documents) uploaded as one document named by its file (as an RM uploading the whole 10-K would, its title
 * naming no section); Samsung's DART original document (contingencies and sanctions) uploaded.
 */
export async function freshImportCases(): Promise<ReadingCase[]> {
  const teslaUrl = 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';
  const legal = await uploaded('tesla-10k-fy2024-legal-proceedings.htm', 'tesla', '2025-01-30', 'SEC EDGAR — Tesla, Inc. Form 10-K (FY2024)', teslaUrl);
  const edgar = teslaEdgar();
  const asOf = '2026-02-03';
  const whole: Doc = {
    id: 'upload-tsla-20241231',
    title: 'tsla-20241231',
    body: demoDocs('tesla')
      .filter((d) => d.id.startsWith('tesla--10k-fy2024'))
      .map((d) => d.body)
      .join('\n\n'),
    publishedDate: '2025-01-30',
    sourceName: 'SEC EDGAR — Tesla, Inc. Form 10-K (FY2024)',
    sourceUrl: teslaUrl,
  };
  const dart = await uploaded(
    '20220816001711.zip',
    'samsung-electronics',
    '2022-08-16',
    'DART 반기보고서(2022.06) — 삼성전자',
    'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20220816001711',
  );
  return [
    {
      label: 'tesla (en, fresh import: EDGAR 2025-26 filings + 10-K legal-proceedings page uploaded)',
      company: brief('tesla'),
      params: params('en', asOf),
      evidence: asOfItems([...edgar, ...legal.items], asOf),
      passages: passagesOf([legal.doc], asOf),
    },
    {
      label: 'tesla (en, fresh import: as above, passages from the FY2024 10-K sections uploaded as one file)',
      company: brief('tesla'),
      params: params('en', asOf),
      evidence: asOfItems([...edgar, ...legal.items], asOf),
      passages: passagesOf([whole], asOf),
    },
    {
      label: 'samsung-electronics (ko, fresh import: DART original document 20220816001711 uploaded)',
      company: brief('samsung-electronics'),
      params: params('ko', '2022-09-30'),
      evidence: asOfItems(dart.items, '2022-09-30'),
      passages: passagesOf([dart.doc], '2022-09-30'),
    },
  ];
}
