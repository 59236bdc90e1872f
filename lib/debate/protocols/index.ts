// The five protocols by id, and the graph questions the engine, the benchmark and the tests
// ask of any of them: in which order may steps run, and how long is the longest chain of
// calls that no amount of concurrency can shorten.
import type { ProtocolDef, ProtocolId, StepDef } from '@/lib/domain/protocol';
import { sectionProblems } from '@/lib/domain/sections';
import { FINDEBATE } from '@/lib/debate/protocols/findebate';
import { KPD_MADS } from '@/lib/debate/protocols/kpd-mads';
import { NAS } from '@/lib/debate/protocols/nas';
import { SAS } from '@/lib/debate/protocols/sas';
import { THREE_ROUND } from '@/lib/debate/protocols/three-round';

export { FINDEBATE, KPD_MADS, NAS, SAS, THREE_ROUND };

export const PROTOCOLS_BY_ID: Readonly<Record<ProtocolId, ProtocolDef>> = {
  'kpd-mads': KPD_MADS,
  nas: NAS,
  sas: SAS,
  'three-round': THREE_ROUND,
  findebate: FINDEBATE,
};

export class UnknownProtocolError extends Error {}

export function isProtocolId(id: string): id is ProtocolId {
  return Object.hasOwn(PROTOCOLS_BY_ID, id);
}

/** The protocol with this id; throws for ids that come from outside (CLI, forms) and are wrong. */
export function getProtocol(id: string): ProtocolDef {
  if (!isProtocolId(id)) {
    throw new UnknownProtocolError(`Unknown protocol "${id}". Known: ${Object.keys(PROTOCOLS_BY_ID).join(', ')}.`);
  }
  return PROTOCOLS_BY_ID[id];
}

export function getStep(protocol: ProtocolDef, stepId: string): StepDef {
  const step = protocol.steps.find((s) => s.id === stepId);
  if (!step) throw new UnknownProtocolError(`Protocol ${protocol.id} has no step "${stepId}".`);
  return step;
}

/**
 * Everything wrong with a protocol's shape, empty when it is sound: duplicate ids, context
 * that names an unknown or a later step (which would make protocol order disagree with
 * dependency order, or form a cycle), and a report step that does not exist.
 */
export function protocolProblems(protocol: ProtocolDef): string[] {
  const problems: string[] = [];
  const position = new Map<string, number>();
  protocol.steps.forEach((step, i) => {
    if (position.has(step.id)) problems.push(`duplicate step id ${step.id}`);
    else position.set(step.id, i);
  });
  protocol.steps.forEach((step, i) => {
    for (const dep of step.context) {
      const at = position.get(dep);
      if (at === undefined) problems.push(`${step.id}: context names unknown step ${dep}`);
      else if (at >= i) problems.push(`${step.id}: context names ${dep}, which is not earlier in protocol order`);
    }
    if (new Set(step.context).size !== step.context.length) problems.push(`${step.id}: context repeats a step`);
    if (step.sections)
      for (const p of sectionProblems(step.output, step.sections, Boolean(step.rules && Object.keys(step.rules).length))) problems.push(`${step.id}: ${p}`);
  });
  if (!position.has(protocol.reportStep)) problems.push(`report step ${protocol.reportStep} does not exist`);
  return problems;
}

/**
 * Step ids in an order where every step comes after its context. Among steps that are ready at
 * the same time protocol order decides, so a sound protocol comes back in its own order and the
 * sequential mode and the transcript agree.
 */
export function topologicalOrder(protocol: ProtocolDef): string[] {
  const ids = new Set(protocol.steps.map((s) => s.id));
  for (const step of protocol.steps) {
    const unknown = step.context.find((dep) => !ids.has(dep));
    if (unknown) throw new UnknownProtocolError(`${protocol.id}/${step.id}: context names unknown step ${unknown}.`);
  }
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < protocol.steps.length) {
    const next = protocol.steps.find((s) => !done.has(s.id) && s.context.every((dep) => done.has(dep)));
    if (!next) {
      const stuck = protocol.steps.filter((s) => !done.has(s.id)).map((s) => s.id);
      throw new UnknownProtocolError(`${protocol.id}: context forms a cycle among ${stuck.join(', ')}.`);
    }
    done.add(next.id);
    order.push(next.id);
  }
  return order;
}

/**
 * The longest chain of steps linked by context, first step to last: the calls a run must make
 * one after another even with unlimited concurrency (KPD-MADS: 6 of 11). Ties go to the
 * earliest step in protocol order, and a chain ending at the report step wins a tie at the end,
 * so the answer is stable and reads like docs/protocols.md.
 */
export function criticalPath(protocol: ProtocolDef): string[] {
  const byId = new Map(protocol.steps.map((s) => [s.id, s]));
  const position = new Map(protocol.steps.map((s, i) => [s.id, i]));
  const length = new Map<string, number>();
  const previous = new Map<string, string | undefined>();
  for (const id of topologicalOrder(protocol)) {
    let best: string | undefined;
    for (const dep of byId.get(id)!.context) {
      const longer = best === undefined || length.get(dep)! > length.get(best)!;
      const earlierTie = best !== undefined && length.get(dep) === length.get(best) && position.get(dep)! < position.get(best)!;
      if (longer || earlierTie) best = dep;
    }
    length.set(id, best === undefined ? 1 : length.get(best)! + 1);
    previous.set(id, best);
  }
  let end: string | undefined;
  for (const step of protocol.steps) {
    const better = end === undefined || length.get(step.id)! > length.get(end)!;
    const tieAtReport = end !== undefined && length.get(step.id) === length.get(end) && step.id === protocol.reportStep;
    if (better || tieAtReport) end = step.id;
  }
  const path: string[] = [];
  for (let id = end; id !== undefined; id = previous.get(id)) path.unshift(id);
  return path;
}
