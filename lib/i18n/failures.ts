// Why a step or a run stopped, written once in English by the engine and read in the reader's
// language on the run page (lib/i18n/messages/run-failures.ts). The English text is the stored
// form, so the page shows the same reason live and after a reload, and a reason from before
// these templates, or one they do not cover, is shown as it was written.
import { english, translator, type Locale } from '@/lib/i18n';
import { runFailureMessages, type RunFailureKey } from '@/lib/i18n/messages/run-failures';

/** The English reason, as the engine stores and sends it. */
export function stopReason(key: RunFailureKey, values?: Record<string, string | number>): string {
  return english(runFailureMessages, key, values);
}

type Template = { key: RunFailureKey; pattern: RegExp; names: string[] };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let templates: Template[] | undefined;
function templatesOf(): Template[] {
  return (templates ??= (Object.entries(runFailureMessages.en) as [RunFailureKey, string][]).map(([key, text]) => ({
    key,
    names: [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
    pattern: new RegExp(`^${text.split(/\{\w+\}/).map(escape).join('(.*?)')}$`, 's'),
  })));
}

/** Nested reasons (an error inside a step's reason inside a retry note) go at most this deep. */
const MAX_DEPTH = 4;

/**
 * A stored reason in `locale`: the first template it matches, its values translated in turn
 * (a provider's error inside "Stopped by an error: …"); text no template matches, as it is.
 */
export function failureText(text: string, locale: Locale): string {
  if (locale === 'en') return text;
  const translate = (s: string, depth: number): string => {
    if (depth > MAX_DEPTH) return s;
    for (const t of templatesOf()) {
      const m = t.pattern.exec(s);
      if (!m) continue;
      const values = Object.fromEntries(t.names.map((name, i) => [name, translate(m[i + 1], depth + 1)]));
      return translator(runFailureMessages, locale)(t.key, values);
    }
    return s;
  };
  return translate(text, 0);
}
