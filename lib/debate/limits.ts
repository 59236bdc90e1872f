// What one run and one user may spend (issue 7): a run stops cleanly at its token or cost
// budget (inside a step as well as between steps: lib/debate/budget.ts), and a user has at most
// RUNS_PER_USER_LIMIT runs queued or running at once. Both are decided from the database, so
// they hold whichever process executes the run.
import type { Executor } from '@/lib/db/client';
import { countActiveRunsOfUser } from '@/lib/db/queries/runs';
import type { RunParams } from '@/lib/domain/protocol';
import { env as readEnv, type Env } from '@/lib/env';
import { english, say } from '@/lib/i18n';
import { ReasonError, stopPhrase } from '@/lib/i18n/failures';
import type { Phrase } from '@/lib/i18n';
import { runMessages } from '@/lib/i18n/messages/run';

export type Budget = Pick<RunParams, 'maxTokens' | 'maxCostUsd'>;

/** The budgets a new run gets when its launcher leaves them empty: RUN_MAX_TOKENS, RUN_MAX_COST_USD. */
export function defaultBudget(e: Pick<Env, 'RUN_MAX_TOKENS' | 'RUN_MAX_COST_USD'> = readEnv()): Budget {
  return {
    ...(e.RUN_MAX_TOKENS !== undefined ? { maxTokens: e.RUN_MAX_TOKENS } : {}),
    ...(e.RUN_MAX_COST_USD !== undefined ? { maxCostUsd: e.RUN_MAX_COST_USD } : {}),
  };
}

/** The run's totals as the runs table keeps them (cost is numeric, so it may come as a string). */
export type RunTotals = { promptTokens: number; completionTokens: number; costUsd: number | string };

/**
 * Why the run is at its budget, as a phrase of the run-failure table; null while it is below both. With
 * `past`, only a run that went beyond a budget counts (one that used exactly all of it may end).
 */
export function budgetOverrun(budget: Budget, totals: RunTotals, { past = false }: { past?: boolean } = {}): Phrase | null {
  const tokens = totals.promptTokens + totals.completionTokens;
  const cost = Number(totals.costUsd);
  const over = (used: number, limit: number) => (past ? used > limit : used >= limit);
  if (budget.maxTokens != null && over(tokens, budget.maxTokens)) {
    return stopPhrase('tokenBudget', { budget: budget.maxTokens, used: tokens });
  }
  if (budget.maxCostUsd != null && over(cost, budget.maxCostUsd)) {
    return stopPhrase('costBudget', { budget: budget.maxCostUsd.toFixed(4), used: cost.toFixed(4) });
  }
  return null;
}

/** Stops a run at its budget: the abort reason that tells the engine it was not a cancellation. */
export class BudgetExceeded extends ReasonError {}

export class RunLimitReached extends Error {
  constructor(readonly limit: number) {
    super(english(runMessages, 'errRunLimit', { n: limit }));
  }

  /** The refusal as the screen shows it, in the reader's language. */
  get said() {
    return say(runMessages, 'errRunLimit', { n: this.limit });
  }
}

/**
 * Checks that the user may start one more run, inside the transaction that inserts it. The
 * user's row is locked first, so two quick clicks wait for each other instead of both counting
 * the same runs and both passing.
 */
export async function claimRunSlot({ db, userId, limit = readEnv().RUNS_PER_USER_LIMIT }: { db: Executor; userId: string; limit?: number }) {
  const active = await countActiveRunsOfUser({ db, userId, lock: true });
  if (active >= limit) throw new RunLimitReached(limit);
}
