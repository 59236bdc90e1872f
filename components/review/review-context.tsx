'use client';
// The review state a run page hands to its turn cards (components/run/transcript.tsx mounts
// <TurnComments>), so the live run components need no review props of their own. Without a
// provider (runs outside a case) the turn cards show no comments.
import { createContext, useContext, type ReactNode } from 'react';
import type { CommentRight } from '@/lib/domain/views';
import type { ThreadComment } from './threads';

export type ReviewState = { caseId: string; runId: string | null; comments: ThreadComment[]; right: CommentRight };

const ReviewContext = createContext<ReviewState | null>(null);

export function ReviewProvider({ value, children }: { value: ReviewState; children: ReactNode }) {
  return <ReviewContext.Provider value={value}>{children}</ReviewContext.Provider>;
}

export function useReview() {
  return useContext(ReviewContext);
}
