// Every feature's table: Korean has exactly the English keys, nothing empty, and the same
// arguments (a Korean sentence that drops {n} would silently lose the number). An argument is
// `{name}` or an ICU one, `{n, plural, …}`, `{n, number}`, `{d, date}`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAV } from '@/lib/auth/permissions';
import type { Dictionary } from '@/lib/i18n';
import { NAV_KEYS } from '@/lib/i18n/messages/shell';

const dir = path.join(__dirname, 'messages');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]))].sort();

describe('message tables', () => {
  it('finds the feature files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    it(`${file}: Korean has every English key, with text and the same placeholders`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(dir, file))) as Record<string, unknown>;
      const tables = Object.values(mod).filter((v): v is { en: Dictionary; ko: Dictionary } => !!v && typeof v === 'object' && 'en' in v && 'ko' in v);
      expect(tables.length, file).toBeGreaterThan(0);
      for (const { en, ko } of tables) {
        expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
        for (const key of Object.keys(en)) {
          expect(en[key].trim(), `${file} en.${key}`).not.toBe('');
          expect(ko[key].trim(), `${file} ko.${key}`).not.toBe('');
          // `{plural}` is an English-only suffix of the stored run-failure reasons (lib/i18n/failures.ts).
          expect(placeholders(ko[key]), `${file} ko.${key}`).toEqual(placeholders(en[key]).filter((p) => p !== 'plural'));
        }
      }
    });
  }

  it('every navigation entry has a translated label', () => {
    for (const items of Object.values(NAV)) for (const item of items) expect(NAV_KEYS[item.href], item.href).toBeDefined();
  });
});
