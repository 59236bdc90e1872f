// The address of a passage in a pool document: the document's page with the characters
// [start, end) of its body highlighted. Pure, so pages, chips and query modules share it.

export type PassagePlace = { companyId: string; documentId: string; charStart: number; charEnd: number };

export const passageHref = (p: PassagePlace) =>
  `/companies/${encodeURIComponent(p.companyId)}/documents/${encodeURIComponent(p.documentId)}?at=${p.charStart}-${p.charEnd}#passage`;

/** The highlighted range of a document page's `at` parameter ("120-348"), or null when it is not one. */
export function parsePassageRange(at: unknown, bodyLength: number): { start: number; end: number } | null {
  if (typeof at !== 'string') return null;
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(at);
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return start < end && end <= bodyLength ? { start, end } : null;
}

/** What a candidate evidence item states and where: what the rules propose (lib/pool/documents/candidates.ts). */
export type CandidateStatement = {
  /** The cue that proposed it: `red-flag:<kind>`, a factor cue's name, or `model:<id>`. */
  reason: string;
  title: string;
  /** Exactly the document body's characters [charStart, charEnd). */
  text: string;
  eventDate: string | null;
  publishedDate: string;
  page: number | null;
  charStart: number;
  charEnd: number;
};

/** A candidate evidence item as the document page shows it (lib/db/queries/documents.ts). */
export type CandidateView = CandidateStatement & {
  id: string;
  status: 'proposed' | 'accepted' | 'rejected';
  proposedBy: 'rule' | 'model';
  category: string;
  factor: string | null;
  evidenceId: string | null;
  /** The model's words on a candidate it proposed: shown beside it, never part of the item. */
  reading: string | null;
};
