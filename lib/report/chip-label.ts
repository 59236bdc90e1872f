// What a citation chip says (components/run/citation-chip.tsx): the cited item's own title, cut
// short, rather than the source's name. Items of one filing share a long source name ("SEC EDGAR —
// Tesla, Inc. Form 10-K for fiscal year 2024 (accession …)"), so chips that showed it read all
// alike; the source stays in the chip's popover.

/** About this many characters on a chip: its row holds the date and a mark beside it. */
export const CHIP_LABEL_CHARS = 44;

/**
 * The title in at most `max` characters: whole words where the title has spaces to cut at (Korean
 * titles too), a trailing "(event 2022-09-25)"-style tag dropped first, an ellipsis when cut.
 */
export function chipLabel(title: string, max = CHIP_LABEL_CHARS): string {
  const flat = title.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // A closing tag in brackets repeats what the chip's date already says: dropped before any word.
  const untagged = flat.replace(/\s*[([][^()[\]]{1,40}[)\]]$/, '');
  if (untagged.length <= max && untagged.length >= max / 2) return untagged;
  const room = untagged.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  const cut = space >= max / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:·—–-]+$/, '')}…`;
}
