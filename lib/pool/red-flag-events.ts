// One event, one flag. The same filing can reach a pool more than once — the connector's item
// for a DART disclosure and the sentence an RM accepted from its uploaded original document, an
// EDGAR item and a candidate from the 10-K page — and each copy reports the same event. The flags
// are grouped by event: the source's identity (lib/pool/source-identity.ts: DART receipt number,
// SEC accession number or the normalised link), the kind, and the event's date, so a periodic
// report that lists four sanctions on four dates still gives four flags. An item that states no
// event date joins the one dated event of its filing and kind, when there is exactly one.
import type { RedFlag } from '@/lib/domain/red-flags';
import { sourceIdentity } from '@/lib/pool/source-identity';

/** What the grouping reads of a flagged item. */
export type EventSource = { id: string; sourceUrl?: string; eventDate: string | null };

/**
 * The flags with those of one event merged into one: the flag of a dated item that sorts first by
 * `compare` stands for the event (an undated copy's flag carries its publication date, not the
 * event's), and `alsoEvidenceIds` names the other items reporting it. Items without a source link
 * are never merged.
 */
export function oneFlagPerEvent(flags: readonly RedFlag[], items: readonly EventSource[], compare: (a: RedFlag, b: RedFlag) => number): RedFlag[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const buckets = new Map<string, RedFlag[]>();
  for (const flag of flags) {
    const item = byId.get(flag.evidenceId);
    const key = item?.sourceUrl ? `${sourceIdentity(item.sourceUrl)}\u0000${flag.kind}` : `item:${flag.evidenceId}\u0000${flag.kind}`;
    const bucket = buckets.get(key);
    if (bucket) bucket.push(flag);
    else buckets.set(key, [flag]);
  }
  const out: RedFlag[] = [];
  for (const bucket of buckets.values()) {
    if (bucket.length === 1) {
      out.push(bucket[0]);
      continue;
    }
    const events = new Map<string, RedFlag[]>();
    const undated: RedFlag[] = [];
    for (const flag of bucket) {
      const date = byId.get(flag.evidenceId)?.eventDate;
      if (!date) undated.push(flag);
      else if (events.has(date)) events.get(date)!.push(flag);
      else events.set(date, [flag]);
    }
    const groups = [...events.values()];
    if (undated.length && groups.length === 1) groups[0].push(...undated);
    else if (undated.length) groups.push(undated);
    for (const group of groups) {
      const dated = (f: RedFlag) => (byId.get(f.evidenceId)?.eventDate ? 0 : 1);
      const [first, ...rest] = [...group].sort((a, b) => dated(a) - dated(b) || compare(a, b));
      const also = [...new Set(rest.map((f) => f.evidenceId).filter((id) => id !== first.evidenceId))].sort();
      out.push(also.length ? { ...first, alsoEvidenceIds: also } : first);
    }
  }
  return out;
}
