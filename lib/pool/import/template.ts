// What the Import page lists as the evidence format, and the template files it offers
// (GET /api/import/template), both read off the schema the import checks rows with
// (evidenceRow in schemas.ts): the columns are its fields, a column is required when the schema
// refuses a row without it, and the categories are the ones its category field accepts. A field
// added to the schema appears here, and TypeScript asks for its description on the page.
import { stringify } from 'csv-stringify/sync';
import { EVIDENCE_CATEGORIES, type EvidenceCategory } from '@/lib/domain/factors';
import { evidenceRow, LIMITS } from '@/lib/pool/import/schemas';

export type EvidenceColumn = keyof typeof evidenceRow.shape;

/** How each column's value is written (the page's words for each are in lib/i18n/messages/import.ts). */
export type ColumnFormat = 'text' | 'slug' | 'category' | 'date' | 'url' | 'language' | 'timestamp';

const FORMATS: Record<EvidenceColumn, ColumnFormat> = {
  id: 'text',
  company_id: 'slug',
  category: 'category',
  title: 'text',
  text: 'text',
  value: 'text',
  event_date: 'date',
  published_date: 'date',
  source_name: 'text',
  source_url: 'url',
  language: 'language',
  upstream: 'text',
  license: 'text',
  retrieved_at: 'timestamp',
};

export type ColumnSpec = { name: EvidenceColumn; required: boolean; format: ColumnFormat; maxChars: number | null };

const maxOf = (name: EvidenceColumn): number | null => (name in LIMITS.evidence ? LIMITS.evidence[name as keyof typeof LIMITS.evidence] : null);

/** The evidence columns in the schema's order: required when a row without the field is refused. */
export const EVIDENCE_COLUMNS: readonly ColumnSpec[] = (Object.keys(evidenceRow.shape) as EvidenceColumn[]).map((name) => ({
  name,
  required: !evidenceRow.shape[name].safeParse(undefined).success,
  format: FORMATS[name],
  maxChars: maxOf(name),
}));

/** The categories an evidence row may carry: exactly what the schema's category field accepts. */
export const IMPORT_CATEGORIES: readonly EvidenceCategory[] = EVIDENCE_CATEGORIES.filter((c) => evidenceRow.shape.category.safeParse(c).success);

/**
 * The template's example rows: two items of a demo borrower, as the demo pool has them (one with
 * every column, one with the required ones only). Imported unchanged into the demo pool they are
 * duplicates and add nothing; elsewhere they need the company samsung-electronics.
 */
export const TEMPLATE_ROWS: Partial<Record<EvidenceColumn, string>>[] = [
  {
    company_id: 'samsung-electronics',
    category: 'patent',
    title: '특허 보유 현황: 전세계 누적 223,121건 (2022년 반기말)',
    text: '당사는 세계적으로 총 223,121건의 특허를 보유(2022년 반기말 누적, 연결 기준)하고 있으며, 미국에서 가장 많은 특허를 보유. 국가별 등록건수: 한국 50,043 / 미국 86,870.',
    value: '223,121',
    event_date: '2022-06-30',
    published_date: '2022-08-16',
    source_name: 'DART 반기보고서(2022.06) — 삼성전자',
    source_url: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20220816001711',
    language: 'ko',
    license: 'DART 공시 원문(공공 공시정보)',
  },
  {
    company_id: 'samsung-electronics',
    category: 'legal_proceedings',
    title: 'Apple과 소취하 계약: 양사 간 미국 내 모든 소송 취하 (2018.06.26)',
    text: '경영상의 주요 계약으로 Apple과 소취하 계약 체결(체결시기 2018.06.26). 목적 및 내용: 양사 간 미국에서 진행 중인 모든 소송 취하.',
    published_date: '2022-08-16',
    source_name: 'DART 반기보고서(2022.06) — 삼성전자',
    source_url: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20220816001711',
  },
];

export type TemplateFormat = 'csv' | 'jsonl';
export const isTemplateFormat = (value: unknown): value is TemplateFormat => value === 'csv' || value === 'jsonl';

/** The template file: a CSV with every column as its header row, or JSONL with one item per line. */
export function evidenceTemplate(format: TemplateFormat): { filename: string; contentType: string; body: string } {
  const names = EVIDENCE_COLUMNS.map((c) => c.name);
  if (format === 'csv') {
    const rows = TEMPLATE_ROWS.map((r) => names.map((n) => r[n] ?? ''));
    // A byte-order mark so spreadsheet programs read the Korean text as UTF-8.
    return { filename: 'evidence-template.csv', contentType: 'text/csv; charset=utf-8', body: `\uFEFF${stringify([names, ...rows])}` };
  }
  const lines = TEMPLATE_ROWS.map((r) => JSON.stringify(Object.fromEntries(names.filter((n) => r[n] !== undefined).map((n) => [n, r[n]]))));
  return { filename: 'evidence-template.jsonl', contentType: 'application/x-ndjson; charset=utf-8', body: `${lines.join('\n')}\n` };
}
