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

/** Every citation in an output, wherever the shape keeps them. */
export function citationsOf(output: unknown): Citation[] {
  const out: Citation[] = [];
  const walk = (value: unknown, key?: string) => {
    if (Array.isArray(value)) {
      if (key === 'citations' || key === 'evidence') for (const c of value) if (c && typeof c === 'object' && 'source' in c) out.push(c as Citation);
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(output);
  return out;
}
