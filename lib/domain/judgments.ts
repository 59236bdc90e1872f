// What the automated judges (lib/eval/judges.ts) return, as stored in `judgments.result` and
// shown on the compare and run pages: a pairwise verdict on two runs, or a rubric judgment of one.
import type { z } from 'zod';
import type { rubricJudgment } from '@/lib/domain/outputs';

export type JudgeUsage = { promptTokens: number; completionTokens: number };

export type PairwiseOutcome = 'a' | 'b' | 'tie';
export type PairwiseComparison = { order: 'a-first' | 'b-first'; label: 'A' | 'B' | 'tie'; winner: PairwiseOutcome; reason: string };
export type PairwiseResult = {
  comparisons: PairwiseComparison[];
  wins: { a: number; b: number };
  ties: number;
  /** Wins / comparisons; a tie counts as a comparison that neither side won. */
  winRate: { a: number; b: number };
  /** Both orders named the same run (or both a tie): the verdict did not follow the position. */
  consistent: boolean;
  usage: JudgeUsage;
};

export type RubricJudgment = z.infer<typeof rubricJudgment>;
export type RubricResult = {
  judgment: RubricJudgment;
  /** The arguments the transcript named, with their side. */
  arguments: { id: string; team: string }[];
  usage: JudgeUsage;
};

/** A stored pairwise judgment as a reader sees it (lib/db/queries/judgments.ts), seen from run `a`'s side. */
export type PairwiseJudgmentRow = { id: string; provider: string; model: string; createdAt: Date; createdByName: string | null; result: PairwiseResult };
export type RubricJudgmentRow = Omit<PairwiseJudgmentRow, 'result'> & { result: RubricResult };
