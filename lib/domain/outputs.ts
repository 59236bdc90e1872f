// What every step returns (docs/protocols.md): validated with zod, and turned into JSON Schema for
// providers that support structured output. Step outputs are keyed by `OutputKind`, which a
// protocol step names; the engine, the providers and the UI all read these same shapes.
//
// Keys are declared in the order a model writes them, because the JSON Schema sent to models and
// the offline analyst's answers follow it: the prose (PROSE below) comes first, so the live page
// can show the words a reader reads while the rest of the answer is still being written
// (lib/debate/live-step.ts). outputs.test.ts keeps every kind that way.
import { z } from 'zod';

export const FACTOR_OR_OTHER = z.string().min(1);

/** A source behind a claim. `evidenceId` names a pool item or a web result of this run. */
export const citation = z.object({
  evidenceId: z.string().optional(),
  source: z.string(),
  date: z.string(),
  value: z.string().optional(),
});

export const claim = z.object({
  id: z.string(),
  text: z.string(),
  factor: FACTOR_OR_OTHER,
  polarity: z.enum(['favorable', 'adverse', 'context']),
  citations: z.array(citation),
  /** The claim (or question) this one answers, for the reasoning tree. */
  respondsTo: z.string().optional(),
  /** Stated assumptions behind the claim. */
  assumptions: z.array(z.string()).optional(),
});

export const question = z.object({
  id: z.string(),
  targetClaimId: z.string(),
  text: z.string(),
  /** interpretation | reliability | counterexample | alternative | boundary | measurement | … */
  kind: z.string().optional(),
  /**
   * The items the question points to (a counterexample's dated evidence): cited like a claim's,
   * so the closing that answers the question may cite them too (lib/debate/rules.ts).
   */
  citations: z.array(citation).optional(),
});

/** A debate turn: the prose an RM reads, plus its claims and questions. */
export const turn = z.object({
  text: z.string(),
  claims: z.array(claim),
  questions: z.array(question),
  /** What would refute the turn's core claim (constructive speeches). */
  falsifiability: z.string().optional(),
});

const topic = z.object({
  topic: z.string(),
  factor: FACTOR_OR_OTHER,
  affirmative: z.string(),
  adverse: z.string(),
  citations: z.array(citation),
});

/** KPD-MADS aggregator and NAS: both sides kept, no winner picked. */
export const report = z.object({
  overview: z.string(),
  objective: z.string(),
  favorableSummary: z.array(z.string()),
  adverseSummary: z.array(z.string()),
  topics: z.array(topic),
});

/** SAS: the judge names the side whose case held; the stress analyst its weakest assumption. */
export const sasJudgment = z.object({
  winner: z.enum(['affirmative', 'negative']),
  justification: z.string(),
});
export const sasStress = z.object({ assumption: z.string(), critique: z.string() });
export const sasReport = z.object({
  executiveSummary: z.string(),
  evidenceReview: z.string(),
  keyTakeaways: z.array(z.string()),
  primaryRisk: z.string(),
  mitigation: z.string(),
  outlook: z.string(),
});

/** Three-round debate: numbered arguments, point-by-point responses, and the rubric judge. */
export const argumentsRound = z.object({
  text: z.string(),
  arguments: z.array(z.object({ id: z.string(), claim: z.string(), reasoning: z.string(), factor: FACTOR_OR_OTHER, evidence: z.array(citation) })),
});
export const responsesRound = z.object({
  text: z.string(),
  responses: z.array(
    z.object({ targetId: z.string(), kind: z.enum(['refute', 'challenge', 'concede', 'partial']), reasoning: z.string(), followUp: z.string() }),
  ),
});
export const closingRound = z.object({ text: z.string(), concessions: z.array(z.string()), unrebutted: z.array(z.string()), finalPosition: z.string() });
export const FALLACIES = [
  'straw_man',
  'appeal_to_authority',
  'slippery_slope',
  'false_dilemma',
  'anecdotal_evidence',
  'circular_reasoning',
  'ad_hominem',
] as const;
export const rubricJudgment = z.object({
  overall: z.object({
    keyInsight: z.string(),
    affirmativeTotal: z.number(),
    negativeTotal: z.number(),
    unresolved: z.array(z.string()),
    recommendation: z.string(),
  }),
  scores: z.array(
    z.object({
      argumentId: z.string(),
      logic: z.number().min(1).max(10),
      evidence: z.number().min(1).max(10),
      responsiveness: z.number().min(1).max(10),
      honesty: z.number().min(1).max(10),
      /** 0.30 logic + 0.30 evidence + 0.25 responsiveness + 0.15 honesty. */
      weighted: z.number(),
    }),
  ),
  fallacies: z.array(z.object({ argumentId: z.string(), fallacy: z.enum(FALLACIES), explanation: z.string() })),
  trace: z.array(z.object({ argumentId: z.string(), standing: z.enum(['UPHELD', 'PARTIALLY_UPHELD', 'REFUTED', 'UNCERTAIN']), note: z.string() })),
});

/** FinDebate: specialists, a stance-taking draft, one safe debate round and the safety check. */
/**
 * A specialist's briefing: its findings, or `nothingInMaterial: true` (with no claims) when the
 * material holds nothing on its topic — a field, so the steps after it are told so in plain words
 * (lib/debate/prompts.ts) and the engine can tell it from a briefing that merely came back empty.
 */
export const briefing = z.object({ text: z.string(), nothingInMaterial: z.boolean().optional(), claims: z.array(claim) });
/**
 * FinDebate's horizons: fixed codes, the same in every language, so that the draft and the leader
 * name a horizon alike and a Korean run cannot write "12개월" where an English one writes
 * "12 months". A reader sees a label made from the code (the report, the offline analyst).
 */
export const HORIZONS = ['12m', '24m', '36m'] as const;
export type Horizon = (typeof HORIZONS)[number];
export const HORIZON_MONTHS: Record<Horizon, number> = { '12m': 12, '24m': 24, '36m': 36 };

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, 일: 1, 이: 2, 삼: 3, 한: 1, 두: 2, 세: 3 };

/**
 * The code of a horizon as stored: a code as it is, or a label an older run wrote in free text
 * ("12 months", "3 years", "12개월", "3년", "36-Month") as the code of the same length.
 * Undefined for a label of no fixed horizon ("near term") or one of another length.
 */
export function horizonCode(label: string): Horizon | undefined {
  const s = label.normalize('NFKC').trim().toLowerCase();
  if ((HORIZONS as readonly string[]).includes(s)) return s as Horizon;
  const m = /^(\d+(?:\.\d+)?|one|two|three|일|이|삼|한|두|세)\s*-?\s*(months?|mos?|m|개월|달|years?|yrs?|y|년)(?![a-z])/u.exec(s);
  if (!m) return undefined;
  const n = NUMBER_WORDS[m[1]] ?? Number(m[1]);
  const months = /^(years?|yrs?|y|년)$/.test(m[2]) ? n * 12 : n;
  return HORIZONS.find((h) => HORIZON_MONTHS[h] === months);
}

const horizonOutlook = z.object({
  // Tolerant intake, strict meaning: a label of a fixed horizon ("12 months", "12개월") is taken as
  // its code, as a date is normalised; anything else ("near term") is not a horizon.
  horizon: z.preprocess((v) => (typeof v === 'string' ? (horizonCode(v) ?? v) : v), z.enum(HORIZONS)),
  outlook: z.enum(['favorable', 'neutral', 'adverse']),
  confidence: z.number().min(0).max(1),
});
export const stanceDraft = z.object({
  text: z.string(),
  stance: z.enum(['favorable', 'neutral', 'adverse']),
  horizons: z.array(horizonOutlook),
  claims: z.array(claim),
});
/**
 * A stance draft as stored: a run stored before the horizons were fixed codes (HORIZONS) has
 * free-text labels ("12 months", "12개월"); they read as they are, and horizonCode maps them.
 * For reading stored outputs only; a model is held to `stanceDraft`.
 */
export const storedStanceDraft = stanceDraft.extend({ horizons: z.array(horizonOutlook.extend({ horizon: z.string() })) });

/** A rewording of one claim of the version kept: the claim's id and its new wording, nothing else. */
export const safetyEdit = z.object({ claimId: z.string(), wording: z.string() });
/**
 * The safety checker's answer: its decision and its edits, not a copy of the version it keeps.
 * The engine assembles the kept `report` from the draft's or the leader's output and the edits
 * (lib/debate/enforce.ts), and stores the answer with it (`storedSafetyCheck`).
 */
export const safetyCheck = z.object({
  reason: z.string(),
  stanceChanged: z.boolean(),
  horizonsChanged: z.boolean(),
  kept: z.enum(['draft', 'final']),
  edits: z.array(safetyEdit),
});
/**
 * The safety check as stored: the decision, and the version kept — the leader's merge, or the
 * draft when the debate moved stance or horizons — as `report`, with the edits applied. The same
 * shape as runs stored before the edits were asked for, so every reader of a stored report (the
 * report page, the export, the final checks) reads old and new runs alike.
 */
export const storedSafetyCheck = safetyCheck.omit({ edits: true }).extend({ report: storedStanceDraft });
export type StoredStanceDraft = z.infer<typeof storedStanceDraft>;
export type StoredSafetyCheck = z.infer<typeof storedSafetyCheck>;

export const OUTPUT_SCHEMAS = {
  turn,
  report,
  briefing,
  sasJudgment,
  sasStress,
  sasReport,
  argumentsRound,
  responsesRound,
  closingRound,
  rubricJudgment,
  stanceDraft,
  safetyCheck,
} as const;

export type OutputKind = keyof typeof OUTPUT_SCHEMAS;
export type Citation = z.infer<typeof citation>;
export type Claim = z.infer<typeof claim>;
export type Question = z.infer<typeof question>;
export type Turn = z.infer<typeof turn>;
export type Report = z.infer<typeof report>;
export type StepOutput<K extends OutputKind = OutputKind> = z.infer<(typeof OUTPUT_SCHEMAS)[K]>;

/** A field of an output, as a path from the top: `['text']`, `['overall', 'keyInsight']`. */
type ProsePath<K extends OutputKind> = readonly [keyof StepOutput<K> & string, ...string[]];

/**
 * Where each output keeps its prose: the words a reader sees first, which the engine stores as the
 * step's `text` (the transcript, the live view of a finished step, the turn later steps receive).
 * One definition for every reader: the prose is the fields at `parts`, joined with `join`, and a
 * kind whose prose is one field (`parts` of one) can be followed in an answer as it streams.
 */
export const PROSE: { readonly [K in OutputKind]: { readonly parts: readonly ProsePath<K>[]; readonly join: string } } = {
  turn: { parts: [['text']], join: '' },
  report: { parts: [['overview']], join: '' },
  briefing: { parts: [['text']], join: '' },
  sasJudgment: { parts: [['winner'], ['justification']], join: ': ' },
  sasStress: { parts: [['assumption'], ['critique']], join: ' — ' },
  sasReport: { parts: [['executiveSummary']], join: '' },
  argumentsRound: { parts: [['text']], join: '' },
  responsesRound: { parts: [['text']], join: '' },
  closingRound: { parts: [['text']], join: '' },
  rubricJudgment: { parts: [['overall', 'keyInsight']], join: '' },
  stanceDraft: { parts: [['text']], join: '' },
  safetyCheck: { parts: [['reason']], join: '' },
};

/**
 * An output as JSON with its keys in the schema's order, the prose first: what the offline analyst
 * streams and the fake model replays. Fields outside the schema are left out, as the engine drops
 * them; an output that does not fit its schema is written as it is, for the engine to reject.
 */
export function outputJson(kind: OutputKind, output: unknown): string {
  const parsed = OUTPUT_SCHEMAS[kind].safeParse(output);
  return JSON.stringify(parsed.success ? parsed.data : output);
}

/** The values of an output's prose fields (see PROSE), in order, and what joins them. */
function proseValues(kind: OutputKind, output: unknown): { values: unknown[]; join: string } {
  const { parts, join } = PROSE[kind] as { parts: readonly (readonly string[])[]; join: string };
  const at = (path: readonly string[]) =>
    path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), output);
  return { values: parts.map(at), join };
}

/** The prose of an output of this kind (see PROSE); a missing field reads as empty. */
export function proseOf(kind: OutputKind, output: unknown): string {
  const { values, join } = proseValues(kind, output);
  return values.map((v) => String(v ?? '')).join(join);
}

/** The prose of a partial answer: its prose fields written so far, those not yet begun left out with their separator. */
export function proseSoFar(kind: OutputKind, output: unknown): string {
  const { values, join } = proseValues(kind, output);
  return values.filter((v): v is string => typeof v === 'string' && v !== '').join(join);
}
