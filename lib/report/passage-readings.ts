// A cited document passage's reading, for the reading check (lib/eval/reading-consistency.ts): the
// tag of its section, read as the offline analyst reads it (lib/pool/factors.ts tagPassage). A
// passage has no stored tag, and the snapshot keeps none (its fingerprint would change), so it is
// read here, off the document title and heading the source carries, for a finished run and a run
// still going alike. Without it a claim arguing a 10-K risk factor as a strength went unchecked.
import type { CitedSource } from '@/lib/domain/cited-source';
import { tagPassage } from '@/lib/pool/factors';

export function withPassageReadings<S extends Record<string, CitedSource>>(sources: S): S {
  const out: Record<string, CitedSource> = {};
  for (const [id, s] of Object.entries(sources)) {
    out[id] =
      s.kind === 'passage' && !s.polarity
        ? { ...s, polarity: tagPassage({ documentTitle: s.documentTitle ?? s.title, heading: s.heading ?? null, text: '' }).polarity }
        : s;
  }
  return out as S;
}
