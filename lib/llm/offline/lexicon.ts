// The factor vocabulary the offline analyst argues with, per language. Labels come from the
// guideline table in lib/domain/factors.ts; the readings from lexicon-en.ts and lexicon-ko.ts.
import type { Language } from '@/lib/domain/protocol';
import { FACTORS, isFactorId, type FactorId } from '@/lib/domain/factors';
import type { FactorWords } from './factor-words';
import { CATEGORY_EN, LEXICON_EN, SIGNAL_EN } from './lexicon-en';
import { CATEGORY_KO, LEXICON_KO, SIGNAL_KO } from './lexicon-ko';
import type { Signal } from './reading';

export type { FactorWords };

/**
 * What the analyst says about an item: its factor's words, made specific by its category and by
 * the kind of signal its own words make it (reading.ts), so a suit won, a workout and a clean
 * audit — all internal control — are each read for what they are.
 */
export function words(lang: Language, factor: string, category?: string, signal?: Signal | null): FactorWords {
  const id: FactorId = isFactorId(factor) ? factor : 'other';
  const base = (lang === 'ko' ? LEXICON_KO : LEXICON_EN)[id];
  const byCategory = category ? (lang === 'ko' ? CATEGORY_KO : CATEGORY_EN)[category] : undefined;
  const bySignal = signal ? (lang === 'ko' ? SIGNAL_KO : SIGNAL_EN)[signal] : undefined;
  return { ...base, ...byCategory, ...bySignal };
}

/** The factor's label without its parenthetical example: "Certifications", "인증 보유". */
export function factorLabel(lang: Language, factor: string): string {
  const f = FACTORS.find((x) => x.id === factor) ?? FACTORS.find((x) => x.id === 'other')!;
  return (lang === 'ko' ? f.labelKo : f.label).replace(/\s*\([^)]*\)/g, '').trim();
}

/** True for the ten guideline factors, false for `other` and anything unknown. */
export function isGuideline(factor: string): boolean {
  return isFactorId(factor) && factor !== 'other';
}
