// Every message of every table formats as ICU in both languages: an apostrophe before a brace, a
// stray brace or a `<…>` read as a tag would make next-intl fail (and the page show the
// fallback), so each message is formatted with a value for each of its arguments.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALES, translator, type Dictionary, type Messages } from '@/lib/i18n';

const dir = path.join(__dirname, 'messages');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
/** Argument names: `{name}`, `{n, plural, …}`, `{d, date}`. */
const argumentsOf = (s: string) => [...new Set([...s.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]))];

describe('ICU messages', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const file of files) {
    it(`${file}: every message formats in English and Korean, with no placeholder left`, async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const mod = (await import(/* @vite-ignore */ path.join(dir, file))) as Record<string, unknown>;
      const tables = Object.values(mod).filter((v): v is Messages<Dictionary> => !!v && typeof v === 'object' && 'en' in v && 'ko' in v);
      expect(tables.length, file).toBeGreaterThan(0);
      for (const table of tables) {
        for (const locale of LOCALES) {
          const t = translator(table, locale);
          for (const [key, text] of Object.entries(table[locale])) {
            const values = Object.fromEntries(argumentsOf(text).map((name) => [name, 2]));
            const out = t(key, values);
            expect(errors, `${file} ${locale}.${key}`).not.toHaveBeenCalled();
            expect(out, `${file} ${locale}.${key}`).not.toMatch(/\{\s*\w+\s*[,}]/);
            if (text !== key) expect(out, `${file} ${locale}.${key}`).not.toBe(key);
          }
        }
      }
    });
  }
});
