// Text that came from the server (an action's message, a field error, an import problem) in the
// reader's language. Server code speaks English or message keys; the screen translates at the
// point of display, so logs, the CLI and the JSON API stay in one language.
import { format, type Dictionary, type Locale, type Messages } from '@/lib/i18n';

type Index = { exact: Map<string, string>; templates: { pattern: RegExp; names: string[]; key: string }[] };
const indexes = new WeakMap<object, Index>();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** English text → key, and English templates as patterns that give back their placeholders' values. */
function indexOf(messages: Messages<Dictionary>): Index {
  let index = indexes.get(messages);
  if (index) return index;
  index = { exact: new Map(), templates: [] };
  for (const [key, text] of Object.entries(messages.en)) {
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (!names.length) {
      index.exact.set(text, key);
      continue;
    }
    const source = text
      .split(/\{\w+\}/)
      .map(escape)
      .join('(.*?)');
    index.templates.push({ pattern: new RegExp(`^${source}$`, 's'), names, key });
  }
  indexes.set(messages, index);
  return index;
}

/**
 * A translator for server text: a key of one of the tables, or the English text itself — also
 * an English template with its placeholders filled, so messages of shared libraries that speak
 * English translate without changing them.
 * Anything else is shown as it came rather than hidden.
 */
export function localizer(tables: Messages<Dictionary>[], locale: Locale) {
  return (text: string): string => {
    for (const table of tables) {
      const target = table[locale] as Dictionary;
      if (/^\w+$/.test(text) && Object.hasOwn(table.en, text)) return target[text] ?? table.en[text];
      const index = indexOf(table);
      const exact = index.exact.get(text);
      if (exact) return target[exact];
      for (const t of index.templates) {
        const m = t.pattern.exec(text);
        if (m) return format(target[t.key], Object.fromEntries(t.names.map((n, i) => [n, m[i + 1]])));
      }
    }
    return text;
  };
}
