// Amounts, counts and times in the interface language's conventions (Intl, ko-KR / en-US).
// Times are shown in UTC and say so: the team and the audit log may sit in different zones.
import type { Locale } from '@/lib/i18n';

const INTL_LOCALE: Record<Locale, string> = { en: 'en-US', ko: 'ko-KR' };

export function intlLocale(locale: Locale = 'en') {
  return INTL_LOCALE[locale];
}

export function formatAmount(amount: string | number, currency: string, locale: Locale = 'en') {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  try {
    return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);
  } catch {
    return `${value.toLocaleString(intlLocale(locale))} ${currency}`;
  }
}

export function formatNumber(value: number, locale: Locale = 'en') {
  return new Intl.NumberFormat(intlLocale(locale)).format(value);
}

export function formatDateTime(date: Date | null | undefined, locale: Locale = 'en') {
  if (!date) return '—';
  const text = new Intl.DateTimeFormat(intlLocale(locale), {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(date);
  return `${text} UTC`;
}
