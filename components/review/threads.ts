// Comments as the browser gets them, and grouped into one-level threads. Pure, so the server
// page, the client components and the tests share one grouping.
import type { CaseComment } from '@/lib/domain/views';

export type ThreadComment = Omit<CaseComment, 'createdAt' | 'authorId'> & { createdAt: string };

export type Thread = { root: ThreadComment; replies: ThreadComment[] };

export function toThreadComments(rows: CaseComment[]): ThreadComment[] {
  return rows.map(({ authorId: _authorId, ...c }) => ({ ...c, createdAt: c.createdAt.toISOString() }));
}

/** Roots in the order they were written, each with its replies; orphans (should not exist) are dropped. */
export function groupThreads(comments: ThreadComment[]): Thread[] {
  const threads = new Map<string, Thread>();
  for (const c of comments) if (!c.parentId) threads.set(c.id, { root: c, replies: [] });
  for (const c of comments) if (c.parentId) threads.get(c.parentId)?.replies.push(c);
  return [...threads.values()];
}
