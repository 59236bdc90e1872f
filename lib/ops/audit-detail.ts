// The audit log in words for the admin's page (app/(signed-in)/(admin)/admin/audit): an action's
// name and an entry's detail as labelled fields in the reader's language, never raw JSON. The
// detail is whatever the writer recorded (lib/db/queries/audit.ts appendAudit callers), so
// anything without a label here is shown as recorded, and every value is cut to a readable length.
import { translator, type Locale } from '@/lib/i18n';
import { auditDetailMessages } from '@/lib/i18n/messages/audit-detail';

type Key = keyof typeof auditDetailMessages.en;
const KEYS = new Set(Object.keys(auditDetailMessages.en));

/** The most characters one field's value shows; the entry itself keeps all of it. */
export const MAX_VALUE_CHARS = 300;
/** The most elements of a list one field shows, with a count of the rest. */
export const MAX_LIST_ITEMS = 10;

export type AuditField = { key: string; label: string; value: string };

const clip = (text: string) => {
  const chars = [...text];
  return chars.length > MAX_VALUE_CHARS ? `${chars.slice(0, MAX_VALUE_CHARS - 1).join('')}…` : text;
};

/** A detail key in words when it has no label: `skippedDuplicates` → "Skipped duplicates". */
function humanize(key: string) {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase()
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/** The action's name in the reader's language; an action without one is shown as recorded. */
export function auditActionLabel(action: string, locale: Locale) {
  const key = `action_${action.replaceAll('.', '_')}`;
  return KEYS.has(key) ? translator(auditDetailMessages, locale)(key as Key) : action;
}

/** The kind of record an entry is about, in the reader's language; one without a label is shown as recorded. */
export function auditEntityLabel(entityType: string, locale: Locale) {
  const key = `entity_${entityType}`;
  return KEYS.has(key) ? translator(auditDetailMessages, locale)(key as Key) : entityType;
}

/** An entry's detail as labelled fields, in the order it was recorded. */
export function auditDetailFields(detail: Record<string, unknown> | null | undefined, locale: Locale): AuditField[] {
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return [];
  const t = translator(auditDetailMessages, locale);
  const number = new Intl.NumberFormat(locale === 'ko' ? 'ko-KR' : 'en-US');
  const word = (key: string): string | null => (KEYS.has(key) ? t(key as Key) : null);

  const scalar = (field: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return t('none');
    if (typeof v === 'boolean') return t(v ? 'yes' : 'no');
    if (typeof v === 'number') return Number.isFinite(v) ? number.format(v) : String(v);
    return word(`value_${field}_${String(v)}`) ?? String(v);
  };

  // A list's record in one line: its first value, the rest in brackets ("evidence.csv (3)",
  // "guard-co (name, country)").
  const item = (field: string, v: Record<string, unknown>): string => {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return t('none');
    const [[, first], ...rest] = entries;
    const tail = rest.map(([k, x]) => render(k, x)).join('; ');
    return tail ? `${render(field, first)} (${tail})` : render(field, first);
  };

  const render = (field: string, v: unknown): string => {
    if (Array.isArray(v)) {
      if (v.length === 0) return t('none');
      const shown = v
        .slice(0, MAX_LIST_ITEMS)
        .map((x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? item(field, x as Record<string, unknown>) : render(field, x)));
      const rest = v.length - shown.length;
      return shown.join(', ') + (rest > 0 ? ` +${number.format(rest)}` : '');
    }
    if (v !== null && typeof v === 'object') {
      // A record of named values (a rating's answers): "name: value; name: value".
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
      return entries.length ? entries.map(([k, x]) => `${k}: ${render(k, x)}`).join('; ') : t('none');
    }
    return scalar(field, v);
  };

  return Object.entries(detail)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => ({ key, label: word(`field_${key}`) ?? humanize(key), value: clip(render(key, v)) }));
}
