// After a run: every citation resolved to pool evidence or this run's web results (the rest
// flagged unverified), and the final checks the report carries (docs/protocols.md).
import { citationsOf, claimsOf } from '@/lib/domain/output-parts';
import type { Citation } from '@/lib/domain/outputs';
import type { Language } from '@/lib/domain/protocol';

export type KnownEvidence = { id: string; sourceName: string; publishedDate: string; stale?: boolean };
export type ResolvedCitation = Citation & { verified: boolean };

/** Marks each citation of an output verified or not, in place, and returns the counts. */
export function resolveCitations(output: unknown, known: Map<string, KnownEvidence>) {
  let resolved = 0;
  let total = 0;
  for (const c of citationsOf(output) as ResolvedCitation[]) {
    total++;
    let item = c.evidenceId ? known.get(c.evidenceId) : undefined;
    // A citation without an id still resolves when its source and date name exactly one item.
    if (!item && !c.evidenceId) {
      const matches = [...known.values()].filter((k) => k.sourceName === c.source && k.publishedDate === c.date);
      if (matches.length === 1) {
        item = matches[0];
        c.evidenceId = item.id;
      }
    }
    c.verified = Boolean(item);
    if (item) resolved++;
  }
  return { resolved, total };
}

export type FinalCheck = { id: string; ok: boolean; message: string; items: string[] };

const HANGUL = /[\uac00-\ud7af]/g;
const LETTER = /[\p{L}]/gu;

function hangulShare(text: string) {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters ? (text.match(HANGUL)?.length ?? 0) / letters : 0;
}

export function finalChecks({
  steps,
  known,
  language,
}: {
  steps: { stepId: string; text: string; output: unknown }[];
  known: Map<string, KnownEvidence>;
  language: Language;
}): FinalCheck[] {
  const all = steps.flatMap((s) => (citationsOf(s.output) as ResolvedCitation[]).map((c) => ({ step: s.stepId, c })));
  const undated = all.filter(({ c }) => !c.date?.trim() || !c.source?.trim()).map(({ step, c }) => `${step}: ${c.source || '(no source)'} ${c.date || '(no date)'}`);
  const unverified = all.filter(({ c }) => !c.verified).map(({ step, c }) => `${step}: ${c.evidenceId ?? c.source}`);
  const stale = [...new Set(all.filter(({ c }) => c.evidenceId && known.get(c.evidenceId)?.stale).map(({ step, c }) => `${step}: ${c.evidenceId}`))];
  const reused = steps.flatMap((s) => {
    const seen = new Map<string, number>();
    for (const claim of claimsOf(s.output)) seen.set(claim.factor, (seen.get(claim.factor) ?? 0) + 1);
    return [...seen].filter(([factor, n]) => n > 1 && factor !== 'other').map(([factor, n]) => `${s.stepId}: ${factor} ×${n}`);
  });
  const text = steps.map((s) => s.text).join(' ');
  const share = hangulShare(text);
  const languageOk = language === 'ko' ? share >= 0.3 : share <= 0.1;
  return [
    { id: 'undated-or-unsourced', ok: undated.length === 0, message: 'Every citation has a date and a source.', items: undated },
    { id: 'unverified-citations', ok: unverified.length === 0, message: 'Every citation resolves to pool evidence or a web result of this run.', items: unverified },
    { id: 'stale-evidence', ok: stale.length === 0, message: 'No cited evidence is older than the recency window.', items: stale },
    { id: 'reused-factors', ok: reused.length === 0, message: 'No turn reuses a factor (a reviewer check, not a stop).', items: reused },
    {
      id: 'output-language',
      ok: languageOk,
      message: language === 'ko' ? 'The output is in Korean.' : 'The output is in English.',
      items: languageOk ? [] : [`Hangul share of letters: ${Math.round(share * 100)}%`],
    },
  ];
}
