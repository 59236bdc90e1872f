// Small formatters the case page and the live run page share.
import type { Locale } from '@/lib/i18n';

// A duration's units as each language writes them: "1 min 15 s", "1분 15초".
const UNITS: Record<Locale, { s: (n: number) => string; min: (n: number) => string; h: (n: number) => string }> = {
  en: { s: (n) => `${n} s`, min: (n) => `${n} min`, h: (n) => `${n} h` },
  ko: { s: (n) => `${n}초`, min: (n) => `${n}분`, h: (n) => `${n}시간` },
};

export function formatDuration(ms: number | null | undefined, locale: Locale = 'en'): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '—';
  const u = UNITS[locale];
  const s = Math.round(ms / 1000);
  if (s < 60) return u.s(s);
  const m = Math.floor(s / 60);
  if (m < 60) return `${u.min(m)} ${u.s(s % 60)}`;
  return `${u.h(Math.floor(m / 60))} ${u.min(m % 60)}`;
}

/**
 * The values of the run-time estimate's message (run.ts `estimateTime`): a median under a second
 * reads "Under 1 s" rather than rounding to "About 0 s".
 */
export function estimateValues(medianMs: number, n: number, locale: Locale = 'en') {
  return { short: String(medianMs < 1000), time: formatDuration(medianMs, locale), n };
}

/**
 * Decimals for durations shown side by side, so that neither the figures nor their difference
 * round to the same or to zero: three (milliseconds) when any is under a second, two under ten
 * seconds, one under a hundred, none above.
 */
export function secondsDigits(...ms: (number | null)[]): number {
  const shown = ms.filter((x): x is number => x !== null && Number.isFinite(x) && x !== 0).map((x) => Math.abs(x) / 1000);
  if (!shown.length) return 0;
  const s = Math.min(...shown);
  return s < 1 ? 3 : s < 10 ? 2 : s < 100 ? 1 : 0;
}

/** Milliseconds as seconds with `digits` decimals (secondsDigits), without a unit. */
export function secondsFigure(ms: number, digits: number): string {
  return ms === 0 ? '0' : (ms / 1000).toFixed(digits);
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

export function median(values: number[]): number | null {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
