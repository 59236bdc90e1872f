// Which step runs when, and nothing about what a step does. In `dag` mode every step whose context
// steps are done starts, up to the run's concurrency; in `sequential` mode one at a time, in
// protocol order. The scheduler stops starting steps the moment the run is aborted (cancelled,
// over budget, handed to another worker) and waits for those already running to end.
import type { RunMode } from '@/lib/domain/protocol';

/** What the scheduler needs of a step: its id and the steps it reads. */
export type Schedulable = { id: string; context: readonly string[] };

export class StepScheduler<S extends Schedulable> {
  /** Steps not started yet, in protocol order: what is left here when the run stops could not start. */
  readonly pending: S[];
  private readonly running = new Map<string, Promise<void>>();
  private readonly maxConcurrency: number;

  constructor(
    pending: S[],
    private readonly options: { mode: RunMode; maxConcurrency?: number; isDone: (stepId: string) => boolean },
  ) {
    this.pending = pending;
    this.maxConcurrency = options.mode === 'sequential' ? 1 : Math.max(1, options.maxConcurrency ?? 8);
  }

  /**
   * Whether work is left besides one step that is finishing: a step still to start, or another
   * one running. A budget that is reached exactly stops the run only then.
   */
  workLeft(): boolean {
    return this.pending.length > 0 || this.running.size > 1;
  }

  /**
   * Starts every ready step up to the concurrency and waits for any to end, until nothing is left
   * that can start or `signal` aborts; then waits for the running ones. `start` records a step's
   * own failure itself; a rejection of it is unexpected and ends the scheduling with that error.
   */
  async run(signal: AbortSignal, start: (step: S) => Promise<void>): Promise<void> {
    const isReady = (s: S) => s.context.every((id) => this.options.isDone(id));
    while (!signal.aborted) {
      const candidates = this.options.mode === 'sequential' ? this.pending.slice(0, 1) : this.pending;
      for (const step of candidates.filter(isReady)) {
        if (this.running.size >= this.maxConcurrency) break;
        this.pending.splice(this.pending.indexOf(step), 1);
        const task = start(step).finally(() => this.running.delete(step.id));
        this.running.set(step.id, task);
      }
      if (this.running.size === 0) break;
      await Promise.race(this.running.values());
    }
    await Promise.allSettled(this.running.values());
  }
}
