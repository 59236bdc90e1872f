// A run's report as plain text, for the automated judges and the readability formulas.
// Every protocol's report has its own shape (the KPD-MADS/NAS report, the SAS
// lead analyst's report, the three-round judgment, FinDebate's kept draft), so this walks the
// JSON generically instead of knowing each: a new report field shows up without a code change.
//
// Two modes: `labelled` keeps field names as headings and compact citations (what a judge
// reads); `prose` keeps only the sentences people wrote (what readability should measure —
// labels, factor ids, enum values and citations are not prose).

/** Identifiers and bookkeeping: never shown in either mode. */
const HIDDEN = new Set(['evidenceId', 'verified', 'id', 'targetId', 'targetClaimId', 'respondsTo', 'argumentId', 'stepId', 'runId']);
/** Short machine values (factor ids, enums, citations): shown in `labelled`, left out of `prose`. */
const NOT_PROSE = new Set([
  'factor',
  'polarity',
  'stance',
  'outlook',
  'standing',
  'winner',
  'kept',
  'kind',
  'fallacy',
  'citations',
  'evidence',
  'horizon',
  'confidence',
]);

export type ReportTextMode = 'labelled' | 'prose';

/** "favorableSummary" → "Favorable summary". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isCitation(v: unknown): v is { source: string; date: string; value?: string } {
  return typeof v === 'object' && v !== null && typeof (v as { source?: unknown }).source === 'string' && typeof (v as { date?: unknown }).date === 'string';
}

function citationText(c: { source: string; date: string; value?: string }) {
  return `${c.source}, ${c.date}${c.value ? ` (${c.value})` : ''}`;
}

function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function labelled(value: unknown, indent: string, out: string[]) {
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = scalar(item) ?? (isCitation(item) ? citationText(item) : null);
      if (s !== null) out.push(`${indent}- ${s}`);
      else if (item && typeof item === 'object') {
        const inner: string[] = [];
        labelled(item, `${indent}  `, inner);
        if (inner.length) out.push(`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1));
      }
    }
    return;
  }
  if (!value || typeof value !== 'object') {
    const s = scalar(value);
    if (s !== null) out.push(`${indent}${s}`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (HIDDEN.has(key) || v === undefined || v === null) continue;
    const label = humanizeKey(key);
    const s = scalar(v);
    if (s !== null) out.push(`${indent}${label}: ${s}`);
    else if (Array.isArray(v) && v.length && v.every(isCitation)) out.push(`${indent}${label}: ${v.map(citationText).join('; ')}`);
    else if (Array.isArray(v) ? v.length : typeof v === 'object') {
      out.push(`${indent}${label}:`);
      labelled(v, `${indent}  `, out);
    }
  }
}

function prose(value: unknown, out: string[]) {
  if (typeof value === 'string') {
    if (value.trim()) out.push(value.trim());
    return;
  }
  if (Array.isArray(value)) return value.forEach((v) => prose(v, out));
  if (!value || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value)) if (!HIDDEN.has(key) && !NOT_PROSE.has(key)) prose(v, out);
}

/** The report content (`RunView['report']['content']`) as text, one field or item a line. */
export function reportText(content: unknown, mode: ReportTextMode = 'labelled'): string {
  const out: string[] = [];
  if (mode === 'prose') prose(content, out);
  else labelled(content, '', out);
  return out.join('\n');
}
