// Which filing or page an item came from, whatever link form the writer used. The same DART
// disclosure arrives as the connector's viewer link, an RM's pasted OpenDART API link and an
// uploaded original document's link; the same SEC filing as a primary-document link or its index
// page; the same article with and without a trailing slash or tracking parameters. One function
// names them all, so the import's duplicate rule (lib/pool/import/plan.ts) and the red-flag
// grouping (lib/pool/red-flags.ts) agree on what "the same source" is. It is derived from
// `source_url` when read, never stored: a stored key would go stale whenever these rules change.

/** DART's receipt number: 14 digits, the receipt date then a serial. */
const DART_PARAM = /^(?:rcpno|rcept_no)$/i;
const DART_RECEIPT = /^\d{14}$/;
/** An SEC accession number, written with dashes (0001628280-25-003063). */
const ACCESSION_DASHED = /\b(\d{10})-(\d{2})-(\d{6})\b/;
/** The same number in an EDGAR archive path, without dashes: /Archives/edgar/data/<cik>/<18 digits>/. */
const ACCESSION_IN_PATH = /\/archives\/edgar\/data\/\d+\/(\d{10})(\d{2})(\d{6})(?:\/|$)/i;

/**
 * Query parameters that say how a reader reached the page, not which page it is: dropped before
 * two links are compared. `utm_*` and the click ids of the large ad and mail networks.
 */
const TRACKING = /^(?:utm_\w+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|igshid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok)$/i;

const isSecHost = (host: string) => host === 'sec.gov' || host.endsWith('.sec.gov');

/**
 * A source's identity: `dart:<receipt number>`, `sec:<accession number>` (dashed), or
 * `url:<normalised link>` — scheme and host in lower case, no default port, no fragment, no
 * tracking parameters, the rest of the query sorted, no trailing slash on the path. Text that is
 * not a link is its own identity (`text:` and the trimmed text).
 */
export function sourceIdentity(sourceUrl: string): string {
  const raw = sourceUrl.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `text:${raw}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `text:${raw}`;

  for (const [name, value] of url.searchParams) {
    if (DART_PARAM.test(name) && DART_RECEIPT.test(value.trim())) return `dart:${value.trim()}`;
  }
  const host = url.hostname.toLowerCase();
  if (isSecHost(host)) {
    const dashed = ACCESSION_DASHED.exec(url.pathname + url.search);
    if (dashed) return `sec:${dashed[1]}-${dashed[2]}-${dashed[3]}`;
    const inPath = ACCESSION_IN_PATH.exec(url.pathname);
    if (inPath) return `sec:${inPath[1]}-${inPath[2]}-${inPath[3]}`;
  }

  // URL already lower-cases the scheme and host and drops a default port.
  const params = [...url.searchParams]
    .filter(([name]) => !TRACKING.test(name))
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  const port = url.port ? `:${url.port}` : '';
  return `url:${url.protocol}//${host}${port}${path}${query}`;
}
