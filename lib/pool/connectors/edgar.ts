// SEC EDGAR client (the submissions API) and the mapping of a company's recent 8-K, 10-K and
// 10-Q filings to pool evidence. The submissions index carries form types and 8-K item codes,
// not the filings' text: evidence items say what was reported and link the filing itself.
import { z } from 'zod';
import { env, type Env } from '@/lib/env';
import type { EvidenceCategory } from '@/lib/domain/factors';
import type { PoolEvidence } from '@/lib/pool/types';
import { isIsoDay } from '@/lib/util/dates';
import type { FetchLike } from '@/lib/util/http';
import { fetchJson, HttpError, type RetryNotice, type Sleep } from './http';

export type EdgarErrorStatus = 'config' | 'input' | 'not-found' | 'forbidden' | 'http' | 'invalid-response';

export class EdgarError extends Error {
  constructor(
    readonly status: EdgarErrorStatus,
    message: string,
  ) {
    super(message);
    this.name = 'EdgarError';
  }
}

export const EDGAR_LICENSE = 'SEC EDGAR (U.S. public record)';

/** The 8-K items (Form 8-K General Instructions B); `short` replaces a title where the official
 * one would mislead the keyword tagger (5.02 names "Departure" even for an appointment). */
export const EIGHT_K_ITEMS: Record<string, { title: string; short?: string; category?: EvidenceCategory }> = {
  '1.01': { title: 'Entry into a Material Definitive Agreement', category: 'supply_contract' },
  '1.02': { title: 'Termination of a Material Definitive Agreement', category: 'supply_contract' },
  '1.03': { title: 'Bankruptcy or Receivership', category: 'distress_rehabilitation' },
  '1.04': { title: 'Mine Safety — Reporting of Shutdowns and Patterns of Violations' },
  '1.05': { title: 'Material Cybersecurity Incidents', category: 'risk_factor' },
  '2.01': { title: 'Completion of Acquisition or Disposition of Assets' },
  '2.02': { title: 'Results of Operations and Financial Condition' },
  '2.03': { title: 'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant' },
  '2.04': {
    title: 'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement',
    short: 'Triggering events that accelerate a financial obligation',
    category: 'distress_default',
  },
  // Exit and disposal costs are mostly workforce reductions and site closures: employment stability.
  '2.05': { title: 'Costs Associated with Exit or Disposal Activities', category: 'employment' },
  '2.06': { title: 'Material Impairments', category: 'risk_factor' },
  '3.01': { title: 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing', category: 'trading_halt' },
  '3.02': { title: 'Unregistered Sales of Equity Securities' },
  '3.03': { title: 'Material Modification to Rights of Security Holders', category: 'governance_ownership' },
  '4.01': { title: "Changes in Registrant's Certifying Accountant", category: 'governance_ownership' },
  '4.02': {
    title: 'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review',
    short: 'Non-reliance on previously issued financial statements',
    category: 'governance_ownership',
  },
  '5.01': { title: 'Changes in Control of Registrant', category: 'governance_ownership' },
  '5.02': {
    title: 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers',
    short: 'Director/officer changes or compensatory arrangements',
    category: 'management_change',
  },
  '5.03': { title: 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year' },
  '5.04': { title: "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans" },
  '5.05': { title: "Amendment to Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics", category: 'governance_ownership' },
  '5.06': { title: 'Change in Shell Company Status' },
  '5.07': { title: 'Submission of Matters to a Vote of Security Holders' },
  '5.08': { title: 'Shareholder Director Nominations' },
  '6.01': { title: 'ABS Informational and Computational Material' },
  '6.02': { title: 'Change of Servicer or Trustee' },
  '6.03': { title: 'Change in Credit Enhancement or Other External Support' },
  '6.04': { title: 'Failure to Make a Required Distribution' },
  '6.05': { title: 'Securities Act Updating Disclosure' },
  '7.01': { title: 'Regulation FD Disclosure' },
  '8.01': { title: 'Other Events' },
  '9.01': { title: 'Financial Statements and Exhibits' },
};

// When one 8-K reports several items, the gravest decides the category.
const ITEM_PRIORITY = ['1.03', '2.04', '3.01', '4.02', '1.05', '2.06', '5.01', '4.01', '5.02', '2.05', '1.01', '1.02', '3.03', '5.05'];

export function categoryFor8kItems(items: readonly string[]): { category: EvidenceCategory; primary: string | null } {
  const decisive = ITEM_PRIORITY.find((code) => items.includes(code));
  if (decisive) return { category: EIGHT_K_ITEMS[decisive].category!, primary: decisive };
  // Otherwise name the first substantive item; 9.01 (exhibits) only accompanies others.
  return { category: 'disclosure_other', primary: items.find((i) => i !== '9.01') ?? items[0] ?? null };
}

const col = <T extends z.ZodType>(t: T) => z.array(t.nullable());
const columnsSchema = z.object({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  form: z.array(z.string()),
  reportDate: col(z.string()).optional(),
  items: col(z.string()).optional(),
  primaryDocument: col(z.string()).optional(),
  primaryDocDescription: col(z.string()).optional(),
});
const submissionsSchema = z.object({
  cik: z.union([z.string(), z.number()]),
  name: z.string(),
  filings: z.object({
    recent: columnsSchema,
    files: z.array(z.object({ name: z.string(), filingFrom: z.string().optional(), filingTo: z.string().optional() })).default([]),
  }),
});

export type EdgarFilingColumns = z.infer<typeof columnsSchema>;
export type EdgarSubmissions = z.infer<typeof submissionsSchema>;

/** `320193`, `0000320193` or `CIK0000320193` → `0000320193`. */
export function normalizeCik(cik: string | number): string {
  const digits = String(cik).trim().replace(/^CIK/i, '');
  if (!/^\d{1,10}$/.test(digits)) throw new EdgarError('input', `A CIK is up to 10 digits (got "${cik}").`);
  return digits.padStart(10, '0');
}

export type EdgarClientOptions = {
  userAgent: string | undefined;
  baseUrl?: string;
  fetchImpl?: FetchLike;
  sleep?: Sleep;
  timeoutMs?: number;
  retries?: number;
  onRetry?: (notice: RetryNotice) => void;
};

export type EdgarClient = ReturnType<typeof createEdgarClient>;

export function createEdgarClient(options: EdgarClientOptions) {
  const userAgent = options.userAgent?.trim();
  // The SEC answers 403 to requests without a descriptive User-Agent; fail before sending one.
  if (!userAgent) {
    throw new EdgarError(
      'config',
      'SEC EDGAR requires a User-Agent naming your organisation and a contact e-mail. Set SEC_USER_AGENT, e.g. "Example Bank ops@bank.example".',
    );
  }
  const baseUrl = (options.baseUrl ?? 'https://data.sec.gov').replace(/\/+$/, '');

  async function get<T extends z.ZodType>(path: string, schema: T, what: string): Promise<z.infer<T>> {
    let body: unknown;
    try {
      body = await fetchJson(`${baseUrl}${path}`, {
        headers: { 'User-Agent': userAgent! },
        retries: options.retries,
        timeoutMs: options.timeoutMs,
        fetchImpl: options.fetchImpl,
        sleep: options.sleep,
        onRetry: options.onRetry,
      });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (err.status === 404) throw new EdgarError('not-found', `SEC EDGAR has no ${what} (HTTP 404). Check the CIK.`);
      if (err.status === 403) {
        throw new EdgarError(
          'forbidden',
          `SEC EDGAR refused the request (HTTP 403). The SEC blocks clients without a descriptive User-Agent or above 10 requests a second; check SEC_USER_AGENT.`,
        );
      }
      throw new EdgarError('http', `SEC EDGAR ${what} could not be read: ${err.message}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new EdgarError('invalid-response', `SEC EDGAR returned an unexpected ${what} document.`);
    return parsed.data;
  }

  return {
    userAgent,
    /** The submissions index (`/submissions/CIK##########.json`): company facts and the ~1,000 latest filings. */
    getSubmissions: (cik: string | number) => {
      const padded = normalizeCik(cik);
      return get(`/submissions/CIK${padded}.json`, submissionsSchema, `submissions for CIK ${padded}`);
    },
    /** An older page listed in `filings.files` (same columns, at the top level). */
    getSubmissionsPage: (name: string) => {
      if (!/^CIK\d{10}-submissions-\d{3}\.json$/.test(name)) throw new EdgarError('input', `Not an EDGAR submissions page name: "${name}".`);
      return get(`/submissions/${name}`, columnsSchema, `submissions page ${name}`);
    },
  };
}

/** A client from the validated env; throws EdgarError status 'config' naming SEC_USER_AGENT when it is unset. */
export function edgarClientFromEnv(e: Env = env(), overrides: Omit<EdgarClientOptions, 'userAgent' | 'baseUrl'> = {}): EdgarClient {
  return createEdgarClient({ userAgent: e.SEC_USER_AGENT, baseUrl: e.SEC_EDGAR_BASE_URL, ...overrides });
}

export const DEFAULT_EDGAR_FORMS = ['8-K', '10-K', '10-Q'] as const;

export type EdgarMapOptions = {
  companyId: string;
  cik: string | number;
  companyName: string;
  /** `YYYY-MM-DD`: keep filings filed on or after it. */
  since?: string;
  /** Base forms to keep; their amendments (`8-K/A`) come along. */
  forms?: readonly string[];
  retrievedAt?: Date | null;
};

export function edgarFilingUrl(cik: string | number, accession: string, primaryDocument: string | null | undefined) {
  const folder = `https://www.sec.gov/Archives/edgar/data/${Number(normalizeCik(cik))}/${accession.replaceAll('-', '')}`;
  return primaryDocument ? `${folder}/${primaryDocument}` : `${folder}/${accession}-index.htm`;
}

const PERIODIC: Record<string, string> = { '10-K': 'Annual report', '10-Q': 'Quarterly report' };

/** The column arrays of `filings.recent` (or an older page) → one evidence item per kept filing. */
export function mapEdgarFilings(columns: EdgarFilingColumns, options: EdgarMapOptions): PoolEvidence[] {
  const forms = new Set(options.forms ?? DEFAULT_EDGAR_FORMS);
  const out: PoolEvidence[] = [];
  columns.accessionNumber.forEach((accession, i) => {
    const form = columns.form[i];
    const baseForm = form.replace(/\/A$/, '');
    const filingDate = columns.filingDate[i];
    if (!forms.has(baseForm) || !isIsoDay(filingDate)) return;
    if (options.since && filingDate < options.since) return;
    const reportDate = isIsoDay(columns.reportDate?.[i]) ? columns.reportDate![i]! : null;
    const amended = form !== baseForm ? 'Amended ' : '';
    const items = (columns.items?.[i] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

    let category: EvidenceCategory = 'disclosure_other';
    let headline: string;
    let itemText = '';
    if (baseForm === '8-K') {
      const decided = categoryFor8kItems(items);
      category = decided.category;
      const known = decided.primary ? EIGHT_K_ITEMS[decided.primary] : undefined;
      headline = decided.primary
        ? `Item ${decided.primary} — ${known?.short ?? known?.title ?? 'item not in the current Form 8-K list'}`
        : `${amended}Current report`;
      if (items.length)
        itemText = ` Items reported: ${items.map((code) => `${code} ${EIGHT_K_ITEMS[code]?.title ?? '(item code not in the current Form 8-K list)'}`).join('; ')}.`;
    } else {
      const kind = PERIODIC[baseForm];
      headline = kind
        ? `${amended}${amended ? kind.toLowerCase() : kind}${reportDate ? ` for the period ended ${reportDate}` : ''}`
        : `${amended}${baseForm} filing`;
    }
    const date = baseForm === '8-K' ? (reportDate ?? filingDate) : filingDate;
    const event = reportDate ? ` (${baseForm === '8-K' ? 'event date' : 'period ended'} ${reportDate})` : '';
    const description = columns.primaryDocDescription?.[i];

    out.push({
      id: `edgar-${accession}`,
      companyId: options.companyId,
      category,
      title: `${form}: ${headline} (${date})`,
      text:
        `${options.companyName} filed Form ${form} with the SEC on ${filingDate}${event}.${itemText}` +
        `${description && description !== form ? ` Document: ${description}.` : ''}` +
        (baseForm === '8-K' ? " EDGAR's index gives item codes only; the details are in the linked filing." : '') +
        ` Accession ${accession}.`,
      value: items.length ? items.join(', ') : null,
      eventDate: reportDate,
      publishedDate: filingDate,
      sourceName: `SEC EDGAR — Form ${form} (${options.companyName})`,
      sourceUrl: edgarFilingUrl(options.cik, accession, columns.primaryDocument?.[i]),
      language: 'en',
      upstream: 'edgar:submissions',
      license: EDGAR_LICENSE,
      retrievedAt: options.retrievedAt ?? null,
    });
  });
  return out;
}

export type FetchEdgarEvidenceOptions = {
  cik: string | number;
  companyId: string;
  since?: string;
  forms?: readonly string[];
  /** Older pages (each ~1,000+ filings of all forms) to read when `since` predates the recent list. */
  maxOlderPages?: number;
  now?: () => Date;
};

export async function fetchEdgarEvidence(client: EdgarClient, options: FetchEdgarEvidenceOptions): Promise<{ evidence: PoolEvidence[]; warnings: string[] }> {
  const { since, maxOlderPages = 2 } = options;
  if (since !== undefined && !isIsoDay(since)) throw new EdgarError('input', `since must be YYYY-MM-DD (got "${since}").`);
  const submissions = await client.getSubmissions(options.cik);
  const mapOptions: EdgarMapOptions = { ...options, companyName: submissions.name, retrievedAt: (options.now ?? (() => new Date()))() };
  const byId = new Map(mapEdgarFilings(submissions.filings.recent, mapOptions).map((e) => [e.id, e]));
  const warnings: string[] = [];

  // The recent list stops at ~1,000 filings of every form; older ones sit in paged files.
  const older = submissions.filings.files.filter((f) => !since || !f.filingTo || f.filingTo >= since);
  if (since && older.length) {
    for (const page of older.slice(0, maxOlderPages)) {
      try {
        for (const e of mapEdgarFilings(await client.getSubmissionsPage(page.name), mapOptions)) if (!byId.has(e.id)) byId.set(e.id, e);
      } catch (err) {
        if (!(err instanceof EdgarError)) throw err;
        warnings.push(`Older EDGAR filings (${page.name}, ${page.filingFrom ?? '?'} – ${page.filingTo ?? '?'}) were not read: ${err.message}`);
      }
    }
    if (older.length > maxOlderPages)
      warnings.push(`Only ${maxOlderPages} of ${older.length} older EDGAR pages were read; filings before those pages are missing.`);
  }
  const evidence = [...byId.values()].sort((a, b) => b.publishedDate.localeCompare(a.publishedDate) || a.id.localeCompare(b.id));
  return { evidence, warnings };
}
