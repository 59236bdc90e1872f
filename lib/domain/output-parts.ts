// The claims, questions and citations of any step output, wherever its shape keeps them (turns,
// briefings, drafts, reports, three-round arguments). Pure, so the engine, the live page and the
// queries that check an anchor or snapshot cited evidence read outputs the same way.
import type { Citation, Claim, Question } from '@/lib/domain/outputs';

type Shaped = { claims?: Claim[]; questions?: Question[] };

/** Claims and questions of any output shape (turns, briefings, drafts). */
export function claimsOf(output: unknown): Claim[] {
  return ((output as Shaped | null)?.claims ?? []) as Claim[];
}
export function questionsOf(output: unknown): Question[] {
  return ((output as Shaped | null)?.questions ?? []) as Question[];
}

/** Every list of citations in an output (the arrays themselves, to change in place), wherever the shape keeps them. */
export function citationListsOf(output: unknown): unknown[][] {
  const out: unknown[][] = [];
  const walk = (value: unknown, key?: string) => {
    if (Array.isArray(value)) {
      if (key === 'citations' || key === 'evidence') out.push(value);
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(output);
  return out;
}

/** Whether a list's element is a citation (not, say, a bare id). */
export const isCitation = (c: unknown): c is Citation => Boolean(c) && typeof c === 'object' && 'source' in (c as object);

/** Every citation in an output, wherever the shape keeps them. */
export function citationsOf(output: unknown): Citation[] {
  return citationListsOf(output).flatMap((list) => list.filter(isCitation));
}
