// Which earlier turns a step receives: its declared `context`, in that order, except that a step
// with `onlyWinnerOf` (SAS's stress test) receives, of the sided turns, only those of the side
// the named verdict upheld — the winning case, not the whole debate. Neutral turns it declares
// (the verdict itself) stay. Shared by the engine and the offline analyst's test runner.
import type { StepDef } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';

/** The side a verdict step's output upheld (`sasJudgment.winner`), if it names one. */
export function winnerOf(output: unknown): 'affirmative' | 'negative' | undefined {
  const winner = (output as { winner?: unknown } | null)?.winner;
  return winner === 'affirmative' || winner === 'negative' ? winner : undefined;
}

/** The step's context turns, from every declared turn (in declared order). */
export function contextFor(step: Pick<StepDef, 'onlyWinnerOf'>, declared: ContextTurn[]): ContextTurn[] {
  if (!step.onlyWinnerOf) return declared;
  const winner = winnerOf(declared.find((t) => t.stepId === step.onlyWinnerOf)?.output);
  // A verdict that names no side leaves the context as declared (the schema requires one).
  if (!winner) return declared;
  return declared.filter((t) => t.team === 'neutral' || t.team === winner);
}
