// In-process publish/subscribe for run events: what this process's own code wants to hear as a
// run it executes goes (the command line's progress, the benchmarks' timings). Viewers do not
// listen here: they follow the run's event log in the database (lib/debate/event-log.ts), which
// the engine writes before it publishes here, so they see the same events from any process.
import type { RunEvent } from '@/lib/domain/protocol';
import { log } from '@/lib/ops/log';

type Listener = (event: RunEvent) => void;

const busLog = log.child({ component: 'bus' });

export class RunBus {
  private listeners = new Map<string, Set<Listener>>();

  publish(event: RunEvent) {
    const set = this.listeners.get(event.runId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (err) {
        // One broken listener must not stop the run or the others.
        busLog.error('a listener threw', { runId: event.runId, err });
      }
    }
  }

  /** Every later event of the run, until the returned function is called. */
  subscribe(runId: string, listener: Listener): { unsubscribe: () => void } {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return {
      unsubscribe: () => {
        set!.delete(listener);
        if (set!.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
      },
    };
  }
}

const globalForBus = globalThis as typeof globalThis & { __crosscheckRunBus?: RunBus };

export function runBus(): RunBus {
  globalForBus.__crosscheckRunBus ??= new RunBus();
  return globalForBus.__crosscheckRunBus;
}
