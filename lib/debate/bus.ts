// In-process publish/subscribe for run events. Any number of viewers follow one run; a viewer
// that arrives late first gets a snapshot (each step's answer so far) and then the live events.
// One bus per process (globalThis), so route handlers and the engine share it. With PostgreSQL,
// lib/debate/relay.ts links the buses of all processes: it sees local publishes through
// onLocalPublish and hands in other processes' events through receive(); on PGlite nothing
// hooks in and the bus is the whole story.
import type { RunEvent, StepWait, Usage } from '@/lib/domain/protocol';
import { log } from '@/lib/ops/log';

type Listener = (event: RunEvent) => void;
type Subscriber = { listener: Listener; onResync?: () => void };

/**
 * `waiting`: the step waits for quota or a retry (until its answer streams again), so a late
 * viewer sees why. While it runs, `text` and `output` are its answer so far as last sent (a
 * `step-partial`: the prose and the partial object), and `usage` its spend as last estimated.
 */
type StepState = { status: 'pending' | 'running' | 'done' | 'failed'; text: string; output?: unknown; waiting?: StepWait; usage?: Usage };
type RunState = { steps: Map<string, StepState>; finished: boolean };

/**
 * `version` changes whenever this process's bus learns anything about the run (an event, a
 * restore, a resync), so two snapshots with the same version were taken with no event between
 * them: the SSE route shares one database read among them (lib/report/live-snapshot.ts).
 */
export type RunSnapshot = { steps: Record<string, StepState>; finished: boolean; version?: number };

// Finished runs' state is dropped after this long; their text is in the database by then.
export const RETAIN_FINISHED_MS = 60_000;

const busLog = log.child({ component: 'bus' });

export class RunBus {
  private subscribers = new Map<string, Set<Subscriber>>();
  private states = new Map<string, RunState>();
  private localHooks = new Set<Listener>();
  // Kept when a finished run's state is dropped, so a version never comes round again.
  private versions = new Map<string, number>();
  private clock = 0;

  private touch(runId: string) {
    this.versions.set(runId, ++this.clock);
  }

  /** An event of a run this process executes (or changes): subscribers get it, the relay forwards it. */
  publish(event: RunEvent) {
    this.apply(event);
    // Hooks first: a subscriber that publishes in turn must not get its event forwarded ahead of this one.
    for (const hook of this.localHooks) {
      try {
        hook(event);
      } catch (err) {
        busLog.error('a publish hook threw', { runId: event.runId, eventType: event.type, err });
      }
    }
    this.notify(event.runId, (s) => s.listener(event));
  }

  /** An event that happened in another process: subscribers get it, nobody forwards it again. */
  receive(event: RunEvent) {
    this.apply(event);
    this.notify(event.runId, (s) => s.listener(event));
  }

  /** Sees every local publish, before the local subscribers do; returns its removal. */
  onLocalPublish(hook: Listener): () => void {
    this.localHooks.add(hook);
    return () => this.localHooks.delete(hook);
  }

  /**
   * Events of these runs (all subscribed runs when omitted) may have been lost, e.g. while the
   * relay was reconnecting: subscribers that passed onResync should load a fresh snapshot.
   */
  resync(runIds?: Iterable<string>) {
    for (const runId of runIds ?? [...this.subscribers.keys()]) {
      this.touch(runId);
      this.notify(runId, (s) => s.onResync?.());
    }
  }

  /** Replaces a live run's state with the executing process's snapshot (see relay.ts). */
  restore(runId: string, steps: RunSnapshot['steps']) {
    this.touch(runId);
    this.states.set(runId, { steps: new Map(Object.entries(steps).map(([id, s]) => [id, { ...s }])), finished: false });
  }

  /** Each step's answer so far, then every later event: subscribe and snapshot are taken together. */
  subscribe(runId: string, listener: Listener, options: { onResync?: () => void } = {}): { snapshot: RunSnapshot; unsubscribe: () => void } {
    let set = this.subscribers.get(runId);
    if (!set) this.subscribers.set(runId, (set = new Set()));
    const subscriber: Subscriber = { listener, onResync: options.onResync };
    set.add(subscriber);
    return {
      snapshot: this.snapshot(runId),
      unsubscribe: () => {
        set!.delete(subscriber);
        if (set!.size === 0 && this.subscribers.get(runId) === set) this.subscribers.delete(runId);
      },
    };
  }

  snapshot(runId: string): RunSnapshot {
    const state = this.states.get(runId);
    return {
      steps: Object.fromEntries([...(state?.steps ?? [])].map(([id, s]) => [id, { ...s }])),
      finished: state?.finished ?? false,
      version: this.versions.get(runId) ?? 0,
    };
  }

  private notify(runId: string, call: (s: Subscriber) => void) {
    const set = this.subscribers.get(runId);
    if (!set) return;
    for (const subscriber of [...set]) {
      try {
        call(subscriber);
      } catch (err) {
        // One broken viewer must not stop the run or the other viewers.
        busLog.error('a subscriber threw', { runId, err });
      }
    }
  }

  private apply(event: RunEvent) {
    this.touch(event.runId);
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
        // A new execution meters its steps afresh: an earlier one's estimates are in the run's totals.
        for (const s of state.steps.values()) delete s.usage;
        break;
      case 'step-started': {
        // Another attempt writes its answer anew; its spend adds to the attempts before it.
        const usage = state.steps.get(event.stepId)?.usage;
        state.steps.set(event.stepId, { status: 'running', text: '', ...(usage ? { usage } : {}) });
        break;
      }
      case 'step-waiting': {
        const step = state.steps.get(event.stepId) ?? { status: 'running', text: '' };
        step.waiting = { reason: event.reason, until: event.until };
        // After the wait the answer starts again from its beginning.
        step.text = '';
        delete step.output;
        state.steps.set(event.stepId, step);
        break;
      }
      case 'step-usage': {
        const step = state.steps.get(event.stepId) ?? { status: 'running', text: '' };
        step.usage = event.usage;
        state.steps.set(event.stepId, step);
        break;
      }
      case 'step-partial': {
        // Each replaces the one before (a snapshot already handed out keeps its own); the answer
        // streams again, so any wait is over.
        const step = state.steps.get(event.stepId) ?? { status: 'running', text: '' };
        step.text = event.text;
        step.output = event.output;
        delete step.waiting;
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
          if (this.states.get(event.runId) === finished) {
            this.states.delete(event.runId);
            // Versions only key snapshot reads in flight; a finished run's need not outlive it.
            this.versions.delete(event.runId);
          }
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
