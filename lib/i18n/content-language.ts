// The language of a run's own content — what the model (or the offline analyst) wrote, and every
// label that names a piece of it: the factor a topic, a tree branch, a panel or a claim belongs to,
// and the borrower's overview. It is the run's output language (params.language), not the reader's
// interface language (lib/i18n/index.ts), which keeps the page's chrome: headings, buttons, notes.
// A Korean run read in the English interface has English headings over Korean topics, each under
// its Korean factor name, never "경기 민감도 · Cyclicality" or an English company description.
import { FACTORS } from '@/lib/domain/factors';
import type { Locale } from '@/lib/i18n';

/** A run's output language from its params; a run without one was written in Korean (the default). */
export function contentLanguageOf(params: unknown): Locale {
  return (params as { language?: unknown } | null)?.language === 'en' ? 'en' : 'ko';
}

/** The factor's full label in `language` ("Certifications (e.g. ISO)"); an unknown id as it is. */
export function factorName(id: string, language: Locale): string {
  const f = FACTORS.find((x) => x.id === id);
  return f ? (language === 'ko' ? f.labelKo : f.label) : id;
}

const HANGUL = /[\uac00-\ud7a3]/g;
const LATIN = /[A-Za-z]/g;

/**
 * Whether a text is written in `language`, by its letters: Korean when Hangul makes up at least a
 * third of its letters (a Korean sentence keeps "KOSPI" or "R&D" in Latin), English when it has
 * no Hangul at all. A text with no letters is in either.
 */
export function isWrittenIn(text: string, language: Locale): boolean {
  const hangul = text.match(HANGUL)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  if (hangul + latin === 0) return true;
  return language === 'ko' ? hangul * 3 >= hangul + latin : hangul === 0;
}
