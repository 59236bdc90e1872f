// The reasoning tree and the Reasoning Elaboration Index (docs/protocols.md), built from a run's
// step outputs. Root: the final claim (the report step). Branches: the factor-level topics the
// analysis covered. A branch's depth counts argumentation levels along the links the agents
// drew themselves — an argument (1), a question or rebuttal aimed at it (2), a reply to that
// (3) … — so a flat report scores 1 per topic and a debate scores what it actually engaged.
// REI = Σ depths. Evaluators correct links the way the paper's researchers corrected the
// model-drawn trees; the corrections are an input here, never an edit of the outputs.
import type { Team } from '@/lib/domain/protocol';
import { FACTORS, isFactorId } from '@/lib/domain/factors';

export type TreeTurn = { stepId: string; team: Team; act: string; output: unknown };

export type NodeKind = 'claim' | 'question' | 'argument' | 'response' | 'topic';

export type TreeNode = {
  /** `<stepId>/<id>`: unique in a run even when two steps both number their claims c1, c2, … */
  key: string;
  /** The id the agent gave it (synthetic `r1`, `t1` for responses and report topics). */
  id: string;
  stepId: string;
  team: Team;
  kind: NodeKind;
  text: string;
  factor: string;
  level: number;
  children: TreeNode[];
};

export type Branch = { topic: string; factor: string; depth: number; nodes: TreeNode[] };

export type ReasoningTree = {
  root: { stepId: string; text: string } | null;
  branches: Branch[];
  breadth: number;
  depths: number[];
  rei: number;
  /** Keys of questions and responses whose target could not be found: they join no branch. */
  unlinked: string[];
};

/**
 * An evaluator's corrections: node key → the key of the node it really answers, or null for
 * "an argument of its own". A target that is unknown or not earlier is ignored, so a stale
 * correction can never make the tree cyclic or unbuildable.
 */
export type LinkCorrections = Record<string, string | null>;

type Raw = Omit<TreeNode, 'level' | 'children'> & { turn: number; link?: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Factor ids as written, labels (English or Korean) mapped to ids; empty means `other`. */
export function normaliseFactor(value: string): string {
  const v = value.trim();
  if (!v) return 'other';
  if (isFactorId(v)) return v;
  const lower = v.toLowerCase();
  const byLabel = FACTORS.find((f) => f.label.toLowerCase() === lower || f.labelKo === v);
  return byLabel?.id ?? lower;
}

/** Everything in one output that can sit in the tree, whatever the protocol's output shape. */
function nodesOf(turn: TreeTurn, index: number): Raw[] {
  const out = isObj(turn.output) ? turn.output : {};
  const base = { stepId: turn.stepId, team: turn.team, turn: index };
  const make = (kind: NodeKind, id: string, text: string, factor: string, link?: string): Raw => ({
    ...base,
    key: `${turn.stepId}/${id}`,
    id,
    kind,
    text,
    factor: normaliseFactor(factor),
    link: link || undefined,
  });
  return [
    ...list(out.claims).map((c) => make('claim', str(c.id), str(c.text), str(c.factor), str(c.respondsTo))),
    ...list(out.questions).map((q) => make('question', str(q.id), str(q.text), '', str(q.targetClaimId))),
    ...list(out.arguments).map((a) => make('argument', str(a.id), str(a.claim), str(a.factor))),
    ...list(out.responses).map((r, i) => make('response', `r${i + 1}`, `${str(r.kind)}: ${str(r.reasoning)}`, '', str(r.targetId))),
    ...list(out.topics).map((t, i) =>
      make('topic', `t${i + 1}`, [str(t.topic), str(t.affirmative), str(t.adverse)].filter(Boolean).join(' — '), str(t.factor)),
    ),
  ];
}

/** What the report step concluded, read from whichever shape it has. */
function rootText(output: unknown): string {
  if (!isObj(output)) return '';
  const overall = isObj(output.overall) ? output.overall : {};
  const report = isObj(output.report) ? output.report : {};
  return str(output.objective) || str(output.executiveSummary) || str(overall.recommendation) || str(report.text) || str(output.text);
}

/**
 * The node a reference names, among nodes of earlier turns. Agents are asked for step-prefixed
 * ids, but when two earlier steps both used `c1` (or `1`), the opposing team's node is meant —
 * questions, rebuttals and answers all go across the table — and then the nearest turn.
 */
function resolve(reference: string, node: Raw, earlier: Raw[]): Raw | undefined {
  const candidates = earlier.filter((e) => e.id === reference || e.key === reference || `${e.stepId}-${e.id}` === reference);
  if (candidates.length <= 1) return candidates[0];
  const across = node.team === 'neutral' ? candidates : candidates.filter((c) => c.team !== node.team);
  const pool = across.length ? across : candidates;
  return pool.reduce((best, c) => (c.turn > best.turn ? c : best));
}

/**
 * The order of topics everywhere a reader meets them (the tree's branches, the report's topics
 * and summary groups): the guideline's order of factors, unknown ones after, `other` last.
 */
export function branchOrder(a: string, b: string): number {
  const rank = (f: string) => (f === 'other' ? FACTORS.length + 1 : isFactorId(f) ? FACTORS.findIndex((x) => x.id === f) : FACTORS.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function topicLabel(factor: string): string {
  return isFactorId(factor) ? FACTORS.find((f) => f.id === factor)!.label : factor;
}

export function buildReasoningTree(turns: TreeTurn[], corrections: LinkCorrections = {}): ReasoningTree {
  if (!turns.length) return { root: null, branches: [], breadth: 0, depths: [], rei: 0, unlinked: [] };
  const last = turns.length - 1;
  const root = { stepId: turns[last].stepId, text: rootText(turns[last].output) };

  // The report restates the debate; it is the root, not a branch — unless it is all there is
  // (a single-agent report), and then its topics are the arguments.
  let raws = turns.slice(0, last).flatMap(nodesOf);
  if (!raws.length) raws = nodesOf(turns[last], last);

  const placed = new Map<string, TreeNode>();
  const branchOf = new Map<string, string>();
  const roots = new Map<string, TreeNode[]>();
  const unlinked: string[] = [];

  for (const raw of raws) {
    const earlier = raws.filter((r) => r.turn < raw.turn && placed.has(r.key));
    let parent: Raw | undefined;
    const corrected = Object.hasOwn(corrections, raw.key) ? corrections[raw.key] : undefined;
    if (corrected === null) parent = undefined;
    else if (corrected !== undefined && earlier.some((e) => e.key === corrected)) parent = earlier.find((e) => e.key === corrected);
    else if (raw.link) parent = resolve(raw.link, raw, earlier);

    const { turn: _turn, link: _link, ...fields } = raw;
    if (parent) {
      const up = placed.get(parent.key)!;
      const node: TreeNode = {
        ...fields,
        factor: raw.kind === 'question' || raw.kind === 'response' ? up.factor : raw.factor,
        level: up.level + 1,
        children: [],
      };
      up.children.push(node);
      placed.set(raw.key, node);
      branchOf.set(raw.key, branchOf.get(parent.key)!);
    } else if (raw.kind === 'question' || raw.kind === 'response') {
      // A challenge aimed at nothing we can find has no place in any branch.
      unlinked.push(raw.key);
    } else {
      const node: TreeNode = { ...fields, level: 1, children: [] };
      placed.set(raw.key, node);
      branchOf.set(raw.key, raw.factor);
      roots.set(raw.factor, [...(roots.get(raw.factor) ?? []), node]);
    }
  }

  const depthOf = (node: TreeNode): number => Math.max(node.level, ...node.children.map(depthOf));
  const branches: Branch[] = [...roots.keys()].sort(branchOrder).map((factor) => {
    const nodes = roots.get(factor)!;
    return { topic: topicLabel(factor), factor, depth: Math.max(...nodes.map(depthOf)), nodes };
  });
  const depths = branches.map((b) => b.depth);
  return { root, branches, breadth: branches.length, depths, rei: depths.reduce((a, b) => a + b, 0), unlinked };
}

/**
 * Resolved citations / all citations. Null when there were none: "cited nothing" is a
 * different finding from "cited nothing that resolves", and averaging a 0 or 1 in would hide it.
 */
export function citationGrounding(resolved: number, total: number): number | null {
  if (!Number.isInteger(resolved) || !Number.isInteger(total) || resolved < 0 || total < 0 || resolved > total) {
    throw new RangeError(`citation counts must be whole numbers with 0 ≤ resolved ≤ total (got ${resolved} of ${total}).`);
  }
  return total === 0 ? null : resolved / total;
}
