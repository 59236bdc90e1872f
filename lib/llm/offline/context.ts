// Reading the turns a step was given. Context outputs arrive as `unknown` (validated by the
// engine, but possibly written by another provider), so every shape is parsed again here and
// anything that does not parse is simply not used.
import { z } from 'zod';
import { claim as claimSchema, question as questionSchema, type Claim, type Question } from '@/lib/domain/outputs';
import type { Act, StepDef, StepRole, Team } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';

export type Turn = {
  stepId: string;
  agent: string;
  /** The role its step declares in the request's protocol; absent for a step the protocol lacks. */
  role?: StepRole;
  team: Team;
  act: Act;
  text: string;
  claims: Claim[];
  questions: Question[];
  output: unknown;
};

const withClaims = z.object({ claims: z.array(z.unknown()) });
const withQuestions = z.object({ questions: z.array(z.unknown()) });

function parseList<T>(schema: z.ZodType<T>, list: unknown[]): T[] {
  return list.flatMap((x) => {
    const parsed = schema.safeParse(x);
    return parsed.success ? [parsed.data] : [];
  });
}

export function readTurn(turn: ContextTurn, role?: StepRole): Turn {
  const c = withClaims.safeParse(turn.output);
  const q = withQuestions.safeParse(turn.output);
  return {
    stepId: turn.stepId,
    agent: turn.agent,
    ...(role ? { role } : {}),
    team: turn.team,
    act: turn.act,
    text: turn.text,
    claims: c.success ? parseList(claimSchema, c.data.claims) : [],
    questions: q.success ? parseList(questionSchema, q.data.questions) : [],
    output: turn.output,
  };
}

export class Debate {
  readonly turns: Turn[];
  /** `steps`: the protocol's steps, where each turn's role is read. */
  constructor(context: ContextTurn[], steps: readonly StepDef[] = []) {
    const roles = new Map(steps.map((s) => [s.id, s.role]));
    this.turns = context.map((turn) => readTurn(turn, roles.get(turn.stepId)));
  }
  get(stepId: string): Turn | undefined {
    return this.turns.find((t) => t.stepId === stepId);
  }
  /** Every claim in the context, in protocol order. */
  claims(filter?: (t: Turn) => boolean): Claim[] {
    return this.turns.filter((t) => !filter || filter(t)).flatMap((t) => t.claims);
  }
  questions(filter?: (t: Turn) => boolean): Question[] {
    return this.turns.filter((t) => !filter || filter(t)).flatMap((t) => t.questions);
  }
  claimById(id: string): Claim | undefined {
    return this.claims().find((c) => c.id === id);
  }
  turnOfClaim(id: string): Turn | undefined {
    return this.turns.find((t) => t.claims.some((c) => c.id === id));
  }
  turnOfQuestion(id: string): Turn | undefined {
    return this.turns.find((t) => t.questions.some((q) => q.id === id));
  }
  /** Parsed output of a step, or undefined when absent or of another shape. */
  output<T>(stepId: string, schema: z.ZodType<T>): T | undefined {
    const turn = this.get(stepId);
    if (!turn) return undefined;
    const parsed = schema.safeParse(turn.output);
    return parsed.success ? parsed.data : undefined;
  }
  /** The first context turn whose output parses with the schema. */
  first<T>(schema: z.ZodType<T>, filter?: (t: Turn) => boolean): { turn: Turn; output: T } | undefined {
    for (const turn of this.turns) {
      if (filter && !filter(turn)) continue;
      const parsed = schema.safeParse(turn.output);
      if (parsed.success) return { turn, output: parsed.data };
    }
    return undefined;
  }
}

export function opposite(team: Team): Team {
  return team === 'affirmative' ? 'negative' : team === 'negative' ? 'affirmative' : 'neutral';
}
