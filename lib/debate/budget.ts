// A run's token and cost budget enforced inside its steps, not only between them (docs/security.md):
// one meter per execution counts what the run's saved steps used (the database's totals) plus
// what its unsaved calls have spent so far — prompts when they are sent, completions as they
// stream. A call may ask for at most what is left (its `max_tokens`); the moment the count goes
// past the budget the meter aborts the run, which stops every step's stream at once.
//
// Steps that run at the same time share what is left: each call is bounded by the remainder when
// it starts, not by a share of it (a share would cut answers that fit), and the first stream to
// push the total past the budget stops them all. So a run ends at most one streamed chunk per
// running step past its budget, and that overshoot is counted in its totals.
import { budgetOverrun, BudgetExceeded, type Budget, type RunTotals } from '@/lib/debate/limits';
import { stopPhrase } from '@/lib/i18n/failures';
import type { Phrase } from '@/lib/i18n';
import { roomFor } from '@/lib/llm/output-caps';
import { costOf as pricedCost, priceOf } from '@/lib/llm/prices';
import type { CallBudget } from '@/lib/llm/types';
import type { Usage } from '@/lib/domain/protocol';
import type { KeptSection } from '@/lib/domain/stored';

export type Spend = { promptTokens: number; completionTokens: number; costUsd: number };

const ZERO: Spend = { promptTokens: 0, completionTokens: 0, costUsd: 0 };

const add = (a: Spend, b: Spend): Spend => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  costUsd: a.costUsd + b.costUsd,
});

// Not lib/llm/prices.ts's costOf: that one rounds to micro-dollars, which would count a cheap
// model's one-token chunks as nothing; the meter sums unrounded figures.
const costOf = (model: string, promptTokens: number, completionTokens: number) => {
  const price = priceOf(model);
  return (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1_000_000;
};

/** Tokens as a step or a kept section saves them; `cachedTokens`: of the prompt, what the provider's cache served. */
export type Tokens = KeptSection['usage'];
export const NO_TOKENS: Tokens = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
export const addTokens = (a: Tokens, b: { promptTokens: number; completionTokens: number; cachedTokens?: number }): Tokens => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  cachedTokens: a.cachedTokens + (b.cachedTokens ?? 0),
});

/** One model call of a step: what `allow` and `spend` counted, until `settle` gives its real usage. */
export type MeteredCall = CallBudget & {
  /** The call returned: its usage as the provider reported it replaces the estimates. */
  settle(usage: { promptTokens: number; completionTokens: number }): void;
};

export class RunBudgetMeter {
  private saved: Spend;
  /** Per step not saved yet: every call it made (attempts, repairs), estimated or settled. */
  private open = new Map<string, Spend>();

  constructor(
    private readonly budget: Budget,
    totals: RunTotals,
    /** Aborts the run; called once, with why. */
    private readonly stop: (reason: BudgetExceeded) => void,
  ) {
    this.saved = { promptTokens: totals.promptTokens, completionTokens: totals.completionTokens, costUsd: Number(totals.costUsd) };
  }

  get limited() {
    return this.budget.maxTokens != null || this.budget.maxCostUsd != null;
  }

  /** The run's totals so far: saved steps and every call since. */
  totals(): Spend {
    let sum = this.saved;
    for (const s of this.open.values()) sum = add(sum, s);
    return sum;
  }

  /** What one step's calls not saved yet have spent, estimated while they stream: the live figure viewers see. */
  stepSpend(stepId: string): Spend {
    return this.open.get(stepId) ?? ZERO;
  }

  /** Why the run went past its budget (not merely reached it), or null. */
  crossed(): Phrase | null {
    return budgetOverrun(this.budget, this.totals(), { past: true });
  }

  private charge(stepId: string, spend: Spend) {
    this.open.set(stepId, add(this.open.get(stepId) ?? ZERO, spend));
    const crossed = this.crossed();
    if (crossed) this.stop(new BudgetExceeded(crossed));
  }

  /** The budget one call of `stepId` on `model` sees. */
  call(stepId: string, model: string): MeteredCall {
    let estimate: Spend = ZERO;
    let settled = false;
    const charge = (promptTokens: number, completionTokens: number) => {
      if (settled) return;
      const spend = { promptTokens, completionTokens, costUsd: costOf(model, promptTokens, completionTokens) };
      estimate = add(estimate, spend);
      this.charge(stepId, spend);
    };
    return {
      allow: (promptTokens) => {
        const allowance = this.allowance(model, promptTokens);
        if (allowance !== undefined && allowance < 1) {
          const reason = new BudgetExceeded(this.crossed() ?? stopPhrase('promptOverBudget', { left: this.leftWords(), step: stepId, tokens: promptTokens }));
          this.stop(reason);
          throw reason;
        }
        charge(promptTokens, 0);
        return allowance;
      },
      spend: (completionTokens) => charge(0, completionTokens),
      exhausted: () => {
        const reason = new BudgetExceeded(this.crossed() ?? stopPhrase('usedAllLeft', { step: stepId, left: this.leftWords() }));
        this.stop(reason);
      },
      settle: (usage) => {
        if (settled) return;
        settled = true;
        const real = { ...usage, costUsd: costOf(model, usage.promptTokens, usage.completionTokens) };
        const open = this.open.get(stepId) ?? ZERO;
        const corrected = add(open, {
          promptTokens: real.promptTokens - estimate.promptTokens,
          completionTokens: real.completionTokens - estimate.completionTokens,
          costUsd: real.costUsd - estimate.costUsd,
        });
        this.open.set(stepId, corrected);
        const crossed = this.crossed();
        if (crossed) this.stop(new BudgetExceeded(crossed));
      },
    };
  }

  /**
   * The completion tokens to ask for when an answer on `model` was cut off after `cut` of them,
   * with a prompt of `promptTokens`: the model's whole output cap (lib/llm/output-caps.ts) within
   * what the budget leaves; undefined when that is no more than the answer already had.
   */
  moreRoom(model: string, cut: number, promptTokens: number): number | undefined {
    const room = roomFor(model, this.allowance(model, promptTokens));
    return room > cut ? room : undefined;
  }

  /**
   * Budgets checked between steps (lib/debate/limits.ts), besides the meter inside the calls: past
   * the budget, or at it with other work left (`workLeft`), the run stops like a cancellation and
   * keeps what is done.
   */
  stopIfOver(workLeft: boolean) {
    const overrun = this.crossed() ?? (workLeft ? budgetOverrun(this.budget, this.totals()) : null);
    if (overrun) this.stop(new BudgetExceeded(overrun));
  }

  /** What a step's unsaved calls spent (every attempt), rounded and priced at its model as a step's usage is saved. */
  stepUsage(stepId: string, model: string): Usage {
    const spent = this.stepSpend(stepId);
    const tokens = { promptTokens: Math.round(spent.promptTokens), completionTokens: Math.round(spent.completionTokens) };
    return { ...tokens, costUsd: pricedCost(model, tokens) };
  }

  /**
   * Completion tokens a call with this prompt may ask for: the tokens left after the prompt, and
   * the dollars left after the prompt's cost at the model's output price. Undefined without a budget.
   */
  private allowance(model: string, promptTokens: number): number | undefined {
    if (!this.limited) return undefined;
    const used = this.totals();
    let allowed = Infinity;
    if (this.budget.maxTokens != null) allowed = this.budget.maxTokens - used.promptTokens - used.completionTokens - promptTokens;
    if (this.budget.maxCostUsd != null) {
      const price = priceOf(model);
      const left = this.budget.maxCostUsd - used.costUsd - (promptTokens * price.inputPerMTok) / 1_000_000;
      // A model without a known price costs nothing here, as in the run's totals (lib/llm/prices.ts).
      const byCost = left <= 0 ? 0 : price.outputPerMTok > 0 ? (left * 1_000_000) / price.outputPerMTok : Infinity;
      allowed = Math.min(allowed, byCost);
    }
    return allowed === Infinity ? undefined : Math.max(0, Math.floor(allowed));
  }

  /** What is left of the budgets, as a phrase the reader's language writes ("1,234 tokens, $0.0100"). */
  private leftWords(): Phrase {
    const used = this.totals();
    const tokens = this.budget.maxTokens != null ? Math.max(0, this.budget.maxTokens - used.promptTokens - used.completionTokens) : null;
    const cost = this.budget.maxCostUsd != null ? Math.max(0, this.budget.maxCostUsd - used.costUsd).toFixed(4) : null;
    if (tokens !== null && cost !== null) return stopPhrase('leftBoth', { tokens, cost });
    if (cost !== null) return stopPhrase('leftCost', { cost });
    return stopPhrase('leftTokens', { tokens: tokens ?? 0 });
  }

  /**
   * A call of `stepId` made by an execution that stopped before the step was saved (a section kept
   * as it finished), now part of this step's answer: its spend counts as this execution's own
   * unsaved spend, saved with the step.
   */
  adopt(stepId: string, model: string, usage: { promptTokens: number; completionTokens: number }) {
    this.charge(stepId, {
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      costUsd: costOf(model, usage.promptTokens, usage.completionTokens),
    });
  }

  /** The step was saved with the usage its calls settled: it moves from unsaved to saved. */
  stepSaved(stepId: string) {
    this.saved = add(this.saved, this.open.get(stepId) ?? ZERO);
    this.open.delete(stepId);
  }

  /** What the steps that were not saved (stopped, failed) spent: the run's totals must include it. */
  unsaved(): Spend {
    let sum = ZERO;
    for (const s of this.open.values()) sum = add(sum, s);
    return sum;
  }

  /** The unsaved spend was added to the run's totals. */
  flushed() {
    this.saved = this.totals();
    this.open.clear();
  }
}
