// What viewers see of a sectioned step while its calls run at the same time (docs/protocols.md,
// "Sections"): each call's stream goes out as it comes only while every call before it is done;
// a later call's parts wait and follow in order, so the report card fills in the report's order
// whichever section finishes first.
import type { RunEvent } from '@/lib/domain/protocol';

export type InOrder = {
  /** An event of call `i`'s stream. */
  publish: (i: number, event: RunEvent) => void;
  /** Call `i` returned: what the calls after it held back goes out, up to the next one still writing. */
  done: (i: number) => void;
};

export function inOrder(calls: number, publish: (event: RunEvent) => void): InOrder {
  const held: RunEvent[][] = Array.from({ length: calls }, () => []);
  const finished = new Array<boolean>(calls).fill(false);
  // The first call not done: its stream goes out live.
  let head = 0;
  return {
    publish: (i, event) => {
      // The spend is the step's (every call's), and a wait is said at once; a wait drops what
      // that call had written, as the provider starts its answer again.
      if (event.type === 'step-usage') return publish(event);
      if (event.type === 'step-waiting') {
        held[i] = [];
        return publish(event);
      }
      if (i === head) return publish(event);
      // A held draft would be stale by the time it goes out: its part replaces it anyway.
      if (event.type !== 'step-part-draft') held[i].push(event);
    },
    done: (i) => {
      finished[i] = true;
      while (head < calls && finished[head]) {
        head++;
        if (head < calls) {
          for (const event of held[head]) publish(event);
          held[head] = [];
        }
      }
    },
  };
}
