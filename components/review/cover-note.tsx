// The RM's cover note to the committee, sent with the latest submission (cases.submission_note),
// on the case page. Plain text: line breaks kept, nothing interpreted as markup.
import { Card } from '@/components/ui/layout';

export function CoverNoteCard({ note, title }: { note: string | null; title: string }) {
  if (!note) return null;
  return (
    <Card title={title}>
      <p className="whitespace-pre-line text-sm text-zinc-800 dark:text-zinc-200" data-testid="cover-note">
        {note}
      </p>
    </Card>
  );
}

/** The note's first line or so, for the committee's queue: whole words, an ellipsis when cut. */
export function shortNote(note: string, max = 140) {
  const flat = note.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
