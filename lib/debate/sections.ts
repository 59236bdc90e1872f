// What viewers see of a sectioned step while its calls run at the same time (docs/protocols.md,
// "Sections"): one partial answer, the calls' answers so far joined as the finished sections are
// (joinSections), so the report card fills in the report's order whichever call writes first.
// A call that is done counts with its taken-in output; one still writing with the entries of it
// that output will keep.
import { PARTIAL_EVERY_MS } from '@/lib/debate/live-step';
import { proseSoFar, type OutputKind } from '@/lib/domain/outputs';
import type { RunEvent } from '@/lib/domain/protocol';
import { joinSections, liveSectionOf, type SectionCall } from '@/lib/domain/sections';

export type LiveSections = {
  /** An event of call `i`'s stream. */
  publish: (i: number, event: RunEvent) => void;
  /** Call `i` is done with this output: the joined answer goes out at once. */
  done: (i: number, output: Record<string, unknown>) => void;
};

export function liveSections(options: {
  kind: OutputKind;
  calls: readonly Pick<SectionCall, 'fields' | 'factors'>[];
  runId: string;
  stepId: string;
  publish: (event: RunEvent) => void;
  now?: () => number;
}): LiveSections {
  const { kind, calls, runId, stepId, publish, now = Date.now } = options;
  const outputs: (Record<string, unknown> | undefined)[] = calls.map(() => undefined);
  // Calls waiting for quota or a retry: while one waits the step waits, and its notice stays up
  // (a partial clears it), so the others' answers are held until it streams again.
  const waiting = new Set<number>();
  let sentAt = -Infinity;
  const send = () => {
    sentAt = now();
    const output = joinSections(
      kind,
      calls.flatMap((call, i) => (outputs[i] ? [{ fields: call.fields, output: outputs[i] }] : [])),
    );
    publish({ type: 'step-partial', runId, stepId, text: proseSoFar(kind, output), output });
  };
  return {
    publish: (i, event) => {
      if (event.type === 'step-partial') {
        // Only what the call's finished answer keeps (liveSectionOf): no entry shows and then goes.
        outputs[i] = liveSectionOf(kind, event.output, calls[i]);
        const resumed = waiting.delete(i);
        if (!waiting.size && (resumed || now() - sentAt >= PARTIAL_EVERY_MS)) send();
        return;
      }
      // A wait drops what that call had written (the provider starts its answer again); the
      // spend is the step's, every call's.
      if (event.type === 'step-waiting') {
        outputs[i] = undefined;
        waiting.add(i);
      }
      publish(event);
    },
    done: (i, output) => {
      outputs[i] = output;
      waiting.delete(i);
      if (!waiting.size) send();
    },
  };
}
