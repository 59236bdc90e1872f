import { describe, expect, it } from 'vitest';
import { defineMessages, format, isLocale, translator } from '@/lib/i18n';

const messages = defineMessages({
  en: { greeting: 'Hello {name}', steps: '{done} of {total} steps' },
  ko: { greeting: '{name}님 안녕하세요', steps: '{total}단계 중 {done}단계' },
});

describe('i18n', () => {
  it('picks the table of the locale and fills placeholders', () => {
    expect(translator(messages, 'ko')('steps', { done: 3, total: 11 })).toBe('11단계 중 3단계');
    expect(translator(messages, 'en')('greeting', { name: 'Kim' })).toBe('Hello Kim');
  });
  it('leaves a placeholder without a value visible instead of printing undefined', () => {
    expect(format('Hello {name}', {})).toBe('Hello {name}');
  });
  it('accepts only the two interface languages', () => {
    expect(isLocale('ko')).toBe(true);
    expect(isLocale('de')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
