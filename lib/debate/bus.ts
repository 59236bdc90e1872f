// In-process publish/subscribe for run events. Any number of viewers follow one run; a viewer
// that arrives late first gets a snapshot (each step's text so far) and then the live events.
// One bus per process (globalThis), so route handlers and the engine share it.
import type { RunEvent } from '@/lib/debate/types';

type Listener = (event: RunEvent) => void;

type StepState = { status: 'pending' | 'running' | 'done' | 'failed'; text: string };
type RunState = { steps: Map<string, StepState>; finished: boolean };

export type RunSnapshot = { steps: Record<string, StepState>; finished: boolean };

// Finished runs' state is dropped after this long; their text is in the database by then.
export const RETAIN_FINISHED_MS = 60_000;

class RunBus {
  private listeners = new Map<string, Set<Listener>>();
  private states = new Map<string, RunState>();

  publish(event: RunEvent) {
    this.apply(event);
    const listeners = this.listeners.get(event.runId);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        // One broken viewer must not stop the run or the other viewers.
        console.error('[bus] a subscriber threw:', (err as Error).message);
      }
    }
  }

  /** The text so far, then every later event: subscribe and snapshot are taken together. */
  subscribe(runId: string, listener: Listener): { snapshot: RunSnapshot; unsubscribe: () => void } {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return {
      snapshot: this.snapshot(runId),
      unsubscribe: () => {
        set!.delete(listener);
        if (set!.size === 0) this.listeners.delete(runId);
      },
    };
  }

  snapshot(runId: string): RunSnapshot {
    const state = this.states.get(runId);
    return { steps: Object.fromEntries([...(state?.steps ?? [])].map(([id, s]) => [id, { ...s }])), finished: state?.finished ?? false };
  }

  private apply(event: RunEvent) {
    let state = this.states.get(event.runId);
    if (!state) this.states.set(event.runId, (state = { steps: new Map(), finished: false }));
    switch (event.type) {
      case 'run-started':
        // A finished run starting again (a retry) gets a fresh state: the old one's removal timer
        // must not take the new execution's text with it.
        if (state.finished) {
          state = { steps: new Map(state.steps), finished: false };
          this.states.set(event.runId, state);
        }
        for (const s of event.steps) if (!state.steps.has(s.id)) state.steps.set(s.id, { status: 'pending', text: '' });
        break;
      case 'step-started':
        state.steps.set(event.stepId, { status: 'running', text: '' });
        break;
      case 'token': {
        const step = state.steps.get(event.stepId) ?? { status: 'running', text: '' };
        step.text += event.text;
        state.steps.set(event.stepId, step);
        break;
      }
      case 'step-done':
        state.steps.set(event.stepId, { status: 'done', text: event.text });
        break;
      case 'step-failed':
        state.steps.set(event.stepId, { status: 'failed', text: state.steps.get(event.stepId)?.text ?? '' });
        break;
      case 'run-finished': {
        state.finished = true;
        const finished = state;
        setTimeout(() => {
          if (this.states.get(event.runId) === finished) this.states.delete(event.runId);
        }, RETAIN_FINISHED_MS).unref?.();
        break;
      }
    }
  }
}

const globalForBus = globalThis as typeof globalThis & { __crosscheckRunBus?: RunBus };

export function runBus(): RunBus {
  globalForBus.__crosscheckRunBus ??= new RunBus();
  return globalForBus.__crosscheckRunBus;
}
