// Part of the fake model server (a test and benchmark utility, never a product path): the
// `realistic` mode. Instead of replaying a script or filling the schema with stock sentences, it
// reads the step's prompt the way a model would — the evidence block, the passages, web results
// and the turns it receives, the checked rules (lib/debate/prompts.ts writes them) — and answers
// with JSON built from the requested schema that cites those items and follows those rules. Then,
// each at its own seeded rate, it answers the way real models get it wrong: a ```json fence, a
// sentence around the JSON, keys in another order, an extra or a missing field, dates written
// `2024.11.01` or `Nov 1, 2024`, a shortened source name, a citation of an item it never saw or of
// one dated after the as-of date, an answer cut off at the token limit, an empty answer, a
// refusal, HTTP 429 and HTTP 500. What it did to each answer is recorded, so tests and the
// benchmark can check how the engine took it in.
import { GUIDELINE_FACTORS } from '@/lib/domain/factors';
import { addDays } from '@/lib/util/dates';
import { hashString, seededRandom, type Random } from '@/lib/util/random';
import { jsonFromSchema, type JsonSchema } from './json-from-schema';
import { messageText, schemaInMessages, tokenize, type ChatRequest } from './reply';

/** The ways a realistic answer departs from a clean one, each drawn at its own rate. */
export const BEHAVIOURS = [
  'fence',
  'proseAround',
  'reorderKeys',
  'extraField',
  'missingOptional',
  'dateFormat',
  'shortSource',
  'inventedCitation',
  'afterAsOfCitation',
  'cutOff',
  'empty',
  'refusal',
  'http429',
  'http500',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];
export type Rates = Record<Behaviour, number>;

/**
 * Modest rates: most answers are clean, and a KPD-MADS run of eleven steps meets a few quirks.
 * An empty answer and a refusal fail their step outright, so they are rarer, as with real models.
 */
export const DEFAULT_RATES: Rates = {
  fence: 0.08,
  proseAround: 0.08,
  reorderKeys: 0.08,
  extraField: 0.06,
  missingOptional: 0.06,
  dateFormat: 0.06,
  shortSource: 0.06,
  inventedCitation: 0.05,
  afterAsOfCitation: 0.05,
  cutOff: 0.05,
  empty: 0.01,
  refusal: 0.01,
  http429: 0.05,
  http500: 0.03,
};

/** Every rate at zero: a base for tests and scripts that switch on only the behaviours they probe. */
export const NO_QUIRKS: Rates = Object.fromEntries(BEHAVIOURS.map((b) => [b, 0])) as Rates;

/** A pool item the prompt does not show: what a post-as-of citation may name (the benchmark passes the pool's later items). */
export type LaterItem = { id: string; sourceName: string; publishedDate: string };

export type RealisticSettings = {
  rates: Rates;
  /** Retry-After of an injected 429, in seconds. */
  retryAfter: number;
  /** Real items dated after some as-of date; one sharing the prompt's id prefix is cited when a post-as-of citation is drawn. */
  laterItems: LaterItem[];
  /** Rough length of the top-level prose fields. */
  textChars: number;
  /** How many entries lists without a rule get (summaries, topics, arguments). */
  arrayItems: { min: number; max: number };
};

export const DEFAULT_REALISTIC: RealisticSettings = { rates: DEFAULT_RATES, retryAfter: 1, laterItems: [], textChars: 420, arrayItems: { min: 1, max: 3 } };

/** A citation planted on purpose: it must never be shown as verified. */
export type PlantedCitation = { kind: 'invented' | 'after-as-of'; evidenceId: string; source: string; date: string };

export type RealisticAnswer =
  | { kind: 'http'; status: 429 | 500; retryAfter?: number; behaviours: Behaviour[]; stepId?: string }
  | { kind: 'content'; content: string; refusal: boolean; cutAt?: number; behaviours: Behaviour[]; planted: PlantedCitation[]; stepId?: string };

// ---------------------------------------------------------------- reading the prompt

/** An item the step was shown (evidence, passage or web result), or one a turn it receives cites. */
export type PromptItem = { id: string; date: string; source: string; title: string; text: string; factor?: string; polarity?: string; value?: string };
export type ContextClaim = { id: string; step: string; factor: string; polarity: string; text: string; cites: PromptItem[] };

export type StepRules = {
  minClaims?: number;
  minFactors?: number;
  citationsRequired: boolean;
  polarity?: string[];
  avoidFactors: string[];
  exactQuestions?: number;
  questionFactors?: number;
  allowedFactors?: string[];
  allowedEvidence?: string[];
  maxChars?: number;
  /** Three-round round 1: how many numbered arguments ("3 to 5 numbered arguments."). */
  arguments?: { min: number; max: number };
  /** The steps whose arguments every answer must cover ("Answer every argument of R1-N: …"). */
  coverSteps?: string[];
};

export type StepPrompt = {
  stepId?: string;
  team?: string;
  act?: string;
  asOf?: string;
  korean: boolean;
  /** What the prompt shows: the evidence block, passages and web results. */
  items: PromptItem[];
  /** What the turns it receives cite (a step without the evidence block cites these). */
  cited: PromptItem[];
  contextSteps: string[];
  contextClaims: ContextClaim[];
  /** Ids of three-round arguments in the turns it receives, by step, in the order the prompt gives them. */
  contextArguments: { step: string; ids: string[] }[];
  rules: StepRules;
  /** A report section's factors (lib/debate/protocols/report-sections.ts), which its topics keep to as a model told so would. */
  sectionFactors?: string[];
};

const ITEM_HEAD = /^\[([^\]\n]+)\](?: \|)? published (\d{4}-\d{2}-\d{2})(.*)$/;

function block(text: string, tag: string): string | undefined {
  const start = text.indexOf(`<${tag}>\n`);
  if (start < 0) return undefined;
  const end = text.indexOf(`\n</${tag}>`, start);
  return end < 0 ? undefined : text.slice(start + tag.length + 3, end);
}

/** The items of an evidence, passages or web-results block, as lib/debate/prompts.ts writes them. */
export function readItems(body: string): PromptItem[] {
  const items: PromptItem[] = [];
  let current: PromptItem | undefined;
  for (const line of body.split('\n')) {
    const head = ITEM_HEAD.exec(line);
    if (head) {
      const parts = head[3].split(' | ').map((s) => s.trim());
      const factor = /^factor: (\S+)(?: \((\w+)\))?/.exec(parts.find((s) => s.startsWith('factor: ')) ?? '');
      current = {
        id: head[1],
        date: head[2],
        source: parts.find((s) => s.startsWith('source: '))?.slice('source: '.length) ?? '',
        title: '',
        text: '',
        ...(factor && factor[1] !== 'untagged' ? { factor: factor[1] } : {}),
        ...(factor?.[2] ? { polarity: factor[2] } : {}),
      };
      items.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('title: ') && !current.title) current.title = line.slice('title: '.length);
    else if (line.startsWith('value: ') && !current.value && !current.text) current.value = line.slice('value: '.length);
    else if (line.trim()) current.text += `${current.text ? ' ' : ''}${line.trim()}`;
  }
  return items;
}

/** Web results as the provider hands them back from a web_search call (lib/llm/openai.ts). */
function readToolResults(text: string): PromptItem[] {
  const body = block(text, 'web_results');
  if (!body) return [];
  try {
    const rows = JSON.parse(body) as { id?: unknown; date?: unknown; source?: unknown; title?: unknown; snippet?: unknown }[];
    return rows
      .filter((r) => typeof r.id === 'string' && typeof r.date === 'string')
      .map((r) => ({ id: String(r.id), date: String(r.date), source: String(r.source ?? ''), title: String(r.title ?? ''), text: String(r.snippet ?? '') }));
  } catch {
    return [];
  }
}

/** The text inside the parentheses that open at `open`, allowing nested ones. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** `id date source (value)` — one citation as a rendered turn lists it. */
function readCite(raw: string, factor: string): PromptItem | undefined {
  let rest = raw.trim();
  let id: string | undefined;
  if (rest.startsWith('no id ')) rest = rest.slice('no id '.length);
  else {
    const space = rest.indexOf(' ');
    if (space < 0) return undefined;
    id = rest.slice(0, space);
    rest = rest.slice(space + 1);
  }
  const space = rest.indexOf(' ');
  if (!id || space < 0) return undefined;
  const date = rest.slice(0, space);
  let source = rest.slice(space + 1);
  let value: string | undefined;
  if (source.endsWith(')')) {
    const open = source.lastIndexOf(' (');
    if (open > 0) {
      value = source.slice(open + 2, -1);
      source = source.slice(0, open);
    }
  }
  return { id, date, source, title: '', text: '', factor, ...(value ? { value } : {}) };
}

const CLAIM_LINE = /^- (\S+) \[([^,\]]+), (favorable|adverse|context)\] (.*)$/;

function readTurns(user: string) {
  const claims: ContextClaim[] = [];
  const steps: string[] = [];
  const args: { step: string; ids: string[] }[] = [];
  const cited: PromptItem[] = [];
  for (const m of user.matchAll(/<turn step="([^"]+)"[^>]*>\n([\s\S]*?)\n<\/turn>/g)) {
    const step = m[1];
    steps.push(step);
    for (const line of m[2].split('\n')) {
      const claim = CLAIM_LINE.exec(line);
      if (claim) {
        const rest = claim[4];
        const at = rest.lastIndexOf('(cites: ');
        const cites =
          at < 0
            ? []
            : balanced(rest, at)
                .slice('cites: '.length)
                .split('; ')
                .map((c) => readCite(c, claim[2]))
                .filter((c): c is PromptItem => Boolean(c));
        const text = at < 0 ? rest : rest.slice(0, at).trim();
        for (const c of cites) c.text = text;
        claims.push({ id: claim[1], step, factor: claim[2], polarity: claim[3], text, cites });
        cited.push(...cites);
      } else if (line.startsWith('data: ')) {
        // Other shapes travel as compact JSON: three-round arguments and everything that cites.
        try {
          const data = JSON.parse(line.slice('data: '.length)) as { arguments?: { id?: unknown; factor?: unknown }[] };
          if (Array.isArray(data.arguments)) args.push({ step, ids: data.arguments.map((a) => String(a.id ?? '')).filter(Boolean) });
          walkCitations(data, (c, factor) => {
            if (typeof c.evidenceId === 'string' && typeof c.date === 'string')
              cited.push({ id: c.evidenceId, date: c.date, source: String(c.source ?? ''), title: '', text: '', factor });
          });
        } catch {
          // Not JSON: nothing to cite from it.
        }
      }
    }
  }
  return { claims, steps, args, cited };
}

type LooseCitation = { evidenceId?: unknown; source?: unknown; date?: unknown };

function walkCitations(value: unknown, visit: (c: LooseCitation, factor?: string) => void, factor?: string) {
  if (Array.isArray(value)) for (const v of value) walkCitations(v, visit, factor);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const f = typeof o.factor === 'string' ? o.factor : factor;
    if ('source' in o && 'date' in o) visit(o as LooseCitation, f);
    else for (const v of Object.values(o)) walkCitations(v, visit, f);
  }
}

const list = (s: string | undefined) =>
  s && s !== 'none'
    ? s
        .split(', ')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

/** The checked rules, read back from the "# Checked rules" section of the step's part. */
export function readRules(user: string): StepRules {
  const rules: StepRules = { citationsRequired: false, avoidFactors: [] };
  const start = user.indexOf('# Checked rules');
  if (start < 0) return rules;
  const end = user.indexOf('\n\n#', start);
  for (const raw of user
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .slice(1)) {
    const line = raw.replace(/^- /, '');
    let m: RegExpExecArray | null;
    if ((m = /^At least (\d+) claims\./.exec(line))) rules.minClaims = Number(m[1]);
    else if ((m = /^Claims cover at least (\d+) different factors\./.exec(line))) rules.minFactors = Number(m[1]);
    else if (line.startsWith('Every claim cites at least one item.') || line.startsWith('Every argument cites at least one evidence item.'))
      rules.citationsRequired = true;
    else if ((m = /^(\d+) to (\d+) numbered arguments\./.exec(line))) rules.arguments = { min: Number(m[1]), max: Number(m[2]) };
    else if (line.startsWith("Every claim's polarity is ")) rules.polarity = [...line.matchAll(/"(\w+)"/g)].map((x) => x[1]);
    else if ((m = /^Do not use the factors .*? used(?:: (.*))?\.$/.exec(line))) rules.avoidFactors = list(m[1]);
    else if ((m = /^Exactly (\d+) questions/.exec(line))) rules.exactQuestions = Number(m[1]);
    else if ((m = /^Your questions target claims of at least (\d+) different factors\./.exec(line))) rules.questionFactors = Number(m[1]);
    else if ((m = /^No new material\. Factors you may use: (.*?)\. Evidence you may cite: (.*)\.$/.exec(line))) {
      rules.allowedFactors = list(m[1]);
      rules.allowedEvidence = list(m[2]);
    } else if ((m = /^`text` is at most (\d+) characters\./.exec(line))) rules.maxChars = Number(m[1]);
    else if ((m = /^(?:Answer|Score) every argument of (.+?)(?::|\.$)/.exec(line))) rules.coverSteps = m[1].split(' and ');
  }
  return rules;
}

/** What a model would take from the step's prompt: the first system and user messages, and any tool results. */
export function readStepPrompt(body: ChatRequest): StepPrompt {
  const system = messageText(body.messages.find((m) => m.role === 'system') ?? { role: 'system' });
  const user = messageText(body.messages.find((m) => m.role === 'user') ?? { role: 'user' });
  const step = /Step (\S+) \(\d+ of \d+\)/.exec(user);
  const role = /Role: [^,\n]+, (affirmative|negative|neutral) team/.exec(user);
  const act = /^Act: ([^.\n]+)\./m.exec(user);
  const asOf = /As-of date: (\d{4}-\d{2}-\d{2})/.exec(system);
  // The evidence block opens the user message (lib/debate/prompts.ts); older prompts carried it in the system message.
  const items = [...readItems(block(user, 'evidence') ?? block(system, 'evidence') ?? ''), ...readItems(block(user, 'passages') ?? '')];
  for (const m of body.messages) if (m.role === 'tool') items.push(...readToolResults(messageText(m)));
  const turns = readTurns(user);
  return {
    stepId: step?.[1],
    team: role?.[1],
    act: act?.[1],
    asOf: asOf?.[1],
    korean: /Write every free-text field in Korean/.test(user),
    items,
    cited: turns.cited,
    contextSteps: turns.steps,
    contextClaims: turns.claims,
    contextArguments: turns.args,
    rules: readRules(user),
    sectionFactors: readSectionFactors(user),
  };
}

// ---------------------------------------------------------------- writing the answer

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string' && s.$ref.startsWith('#'); i++) {
    let node: unknown = root;
    for (const part of s.$ref.slice(1).split('/').filter(Boolean)) node = (node as JsonSchema)?.[part];
    s = { ...(node as JsonSchema), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options)) {
      const pick = (options as JsonSchema[]).find((o) => o.type !== 'null') ?? (options[0] as JsonSchema);
      return resolveRef(pick, root);
    }
  }
  return s;
}

const propertiesOf = (s: JsonSchema) => (s.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (s: JsonSchema) => new Set((s.required as string[] | undefined) ?? []);

/** Keys in the schema's order, keeping only those the schema declares. */
function ordered(values: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(propertiesOf(schema))) if (values[key] !== undefined) out[key] = values[key];
  return out;
}

// Prose must read as prose: braces, brackets and straight quotes from the sources would look like JSON.
const clean = (s: string) =>
  s
    .replace(/[{}[\]]/g, '')
    .replace(/"/g, '”')
    .replace(/\s+/g, ' ')
    .trim();

function firstSentence(text: string, max = 170): string {
  const t = clean(text);
  const end = t.search(/[.!?。](\s|$)/);
  const s = end > 20 ? t.slice(0, end + 1) : t;
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 40))}…`;
}

const LEADS = {
  en: ['According to', 'As reported by', 'Per', 'In the item from'],
  ko: ['자료에 따르면', '보고에 의하면', '공시 기준으로', '기사에 따르면'],
};
const LINKS = {
  en: [
    'This bears on repayment capacity.',
    'The evidence is recent and dated.',
    'Taken together, the picture is consistent.',
    'This matters for the next 12 months.',
  ],
  ko: ['이는 상환 능력에 영향을 줍니다.', '최근 날짜의 근거입니다.', '종합하면 흐름이 일관됩니다.', '향후 12개월에 중요한 요소입니다.'],
};

const FACTORS = GUIDELINE_FACTORS.map((f) => f.id);

/** The factor ids a section call's part names in its "Write the `topics` entries on …" line, if it has one. */
function readSectionFactors(user: string): string[] | undefined {
  const line = /^Write the `topics` entries on (.*)$/m.exec(user);
  if (!line) return undefined;
  const ids = [...line[1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).filter((id) => id === 'other' || (FACTORS as readonly string[]).includes(id));
  return ids.length ? ids : undefined;
}

class Writer {
  private readonly citable: PromptItem[];
  private readonly factors: string[];
  private factorCursor = 0;
  private itemCursor = 0;
  private readonly lang: 'en' | 'ko';

  constructor(
    private readonly p: StepPrompt,
    private readonly rng: Random,
    private readonly root: JsonSchema,
    private readonly textChars: number,
  ) {
    this.lang = p.korean ? 'ko' : 'en';
    const allowed = p.rules.allowedEvidence;
    const pool = dedupe([...p.items, ...p.cited]);
    // A step cites what it was shown; one without the evidence block, what its turns cite.
    this.citable = allowed ? pool.filter((i) => allowed.includes(i.id)) : p.items.length ? dedupe(p.items) : dedupe(p.cited);
    const avoid = new Set(p.rules.avoidFactors);
    const fromItems = [...new Set(this.citable.map((i) => i.factor).filter((f): f is string => Boolean(f) && !avoid.has(f!)))];
    const fromClaims = [...new Set(p.contextClaims.map((c) => c.factor).filter((f) => !avoid.has(f)))];
    const inSection = (list: string[]) => (p.sectionFactors ? list.filter((f) => p.sectionFactors!.includes(f)) : list);
    const sectionItems = inSection(fromItems);
    const scoped = sectionItems.length ? sectionItems : inSection(fromClaims);
    const candidates = p.rules.allowedFactors ?? (scoped.length ? scoped : (p.sectionFactors ?? []));
    this.factors = candidates.length ? candidates : avoid.size ? FACTORS.filter((f) => !avoid.has(f)).slice(0, 3) : ['other'];
    // Start somewhere different each answer, as a model would not always lead with the same factor.
    this.factorCursor = Math.floor(rng() * this.factors.length);
  }

  private pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.rng() * values.length)];
  }

  nextFactor(): string {
    return this.factors[this.factorCursor++ % this.factors.length];
  }

  itemsFor(factor: string | undefined, n: number): PromptItem[] {
    if (!this.citable.length) return [];
    const matching = factor ? this.citable.filter((i) => i.factor === factor) : [];
    const from = matching.length ? matching : this.citable;
    return Array.from({ length: Math.min(n, from.length) }, () => from[this.itemCursor++ % from.length]).filter((v, i, a) => a.indexOf(v) === i);
  }

  /** About `chars` of prose from these items: each named once with its source and date, then a linking sentence or two. */
  prose(chars: number, items: PromptItem[] = this.itemsFor(undefined, 4)): string {
    const sentences: string[] = [];
    for (const item of dedupe(items)) {
      const title = firstSentence(item.title || item.text);
      sentences.push(
        this.lang === 'ko'
          ? `${this.pick(LEADS.ko)} ${item.source} (${item.date}): ${title}`
          : `${this.pick(LEADS.en)} ${item.source} (${item.date}): ${title}`,
      );
      const detail = item.title && item.text ? firstSentence(item.text) : '';
      if (detail && detail !== title) sentences.push(detail);
    }
    // Then what a writer adds: a sentence or two that ties the items to repayment.
    const links = [...LINKS[this.lang]].sort(() => this.rng() - 0.5).slice(0, sentences.length ? 2 : 3);
    const parts: string[] = [];
    let length = 0;
    for (const raw of [...sentences, ...links]) {
      const s = /[.!?…。]$/.test(raw) ? raw : `${raw}.`;
      if (parts.length && length + s.length + 1 > chars) break;
      parts.push(s);
      length += s.length + 1;
    }
    const text = parts.join(' ');
    return text.length > chars ? `${text.slice(0, Math.max(0, chars - 1)).replace(/\s+\S*$/, '')}…` : text;
  }

  citation(item: PromptItem, schema: JsonSchema): Record<string, unknown> {
    return ordered({ evidenceId: item.id, source: item.source, date: item.date, value: item.value }, schema);
  }

  citations(factor: string | undefined, schema: JsonSchema, n = 1 + Math.floor(this.rng() * 2)) {
    return this.itemsFor(factor, n).map((i) => this.citation(i, schema));
  }

  polarityFor(item: PromptItem | undefined): string {
    const allowed = this.p.rules.polarity;
    if (allowed?.length) return item?.polarity && allowed.includes(item.polarity) ? item.polarity : allowed[0];
    if (this.p.team === 'affirmative') return 'favorable';
    if (this.p.team === 'negative') return 'adverse';
    return item?.polarity ?? 'context';
  }

  claims(schema: JsonSchema): Record<string, unknown>[] {
    const item = resolveRef((schema.items ?? {}) as JsonSchema, this.root);
    const props = propertiesOf(item);
    const citationSchema = resolveRef((((props.citations ?? {}) as JsonSchema).items as JsonSchema) ?? {}, this.root);
    const r = this.p.rules;
    // A cross-examination asks rather than argues, and a closing with no factors to reuse has nothing to claim.
    const silent = (/examin/i.test(this.p.act ?? '') || (r.allowedFactors !== undefined && r.allowedFactors.length === 0)) && !r.minClaims;
    // With nothing to cite where every claim must cite, a careful model claims nothing rather than invent support
    // (the engine lowers the step's minimums to what its evidence allows: lib/debate/rules.ts).
    if (r.citationsRequired && !this.citable.length) return [];
    const n = silent ? 0 : Math.max(r.minClaims ?? 0, r.minFactors ?? 0, 2 + Math.floor(this.rng() * 2));
    const responding = this.p.contextClaims;
    return Array.from({ length: n }, (_, i) => {
      const factor = this.nextFactor();
      const cites = this.citations(factor, citationSchema);
      const polarity = this.polarityFor(this.citable.find((c) => c.id === (cites[0]?.evidenceId as string | undefined)));
      const text = cites.length ? this.prose(200, this.itemsFor(factor, 1)) : this.pick(LINKS[this.lang]);
      return ordered(
        {
          id: `${this.p.stepId ?? 'S'}-c${i + 1}`,
          text,
          factor,
          polarity,
          citations: cites,
          respondsTo: responding.length && this.rng() < 0.7 ? responding[i % responding.length].id : undefined,
          assumptions: this.rng() < 0.4 ? [this.pick(LINKS[this.lang])] : undefined,
        },
        item,
      );
    });
  }

  questions(schema: JsonSchema): Record<string, unknown>[] {
    const item = resolveRef((schema.items ?? {}) as JsonSchema, this.root);
    const claims = this.p.contextClaims;
    const interrogates = /examin|challenge|question/i.test(this.p.act ?? '');
    const n = this.p.rules.exactQuestions ?? (interrogates && (claims.length || this.p.contextSteps.length) ? 2 : 0);
    // Spread over the examined turn's factors first: the questionFactors rule looks for that.
    const byFactor = [...new Map(claims.map((c) => [c.factor, c])).values()];
    const targets = [...byFactor, ...claims.filter((c) => !byFactor.includes(c))].map((c) => c.id);
    if (!targets.length) targets.push(...this.p.contextSteps);
    if (!targets.length) return [];
    const kinds = ['interpretation', 'reliability', 'counterexample', 'alternative', 'boundary'];
    return Array.from({ length: n }, (_, i) => {
      const target = targets[i % targets.length];
      const cite = claims.find((c) => c.id === target)?.cites[0];
      const named = cite ? `${cite.source} (${cite.date})` : this.lang === 'ko' ? '인용된 자료' : 'the item cited';
      const kind = kinds[i % kinds.length];
      const text =
        this.lang === 'ko'
          ? `${named}가 ${target}의 결론을 실제로 뒷받침합니까?`
          : {
              interpretation: `Does ${named} really say what ${target} reads into it?`,
              reliability: `How current and complete is ${named} as support for ${target}?`,
              counterexample: `Is there dated evidence that points the other way from ${target}?`,
              alternative: `Could something other than what ${target} says explain ${named}?`,
              boundary: `Over what horizon does ${target} hold, given ${named}?`,
            }[kind]!;
      return ordered({ id: `${this.p.stepId ?? 'S'}-q${i + 1}`, targetClaimId: target, text, kind: this.rng() < 0.8 ? kind : undefined }, item);
    });
  }

  /** Ids an answer to three-round arguments names: those of the steps its rules name (the other side's), or all of them. */
  argumentTargets(all: boolean): string[] {
    const groups = this.p.contextArguments;
    const covered = this.p.rules.coverSteps;
    const named = covered ? groups.filter((g) => covered.includes(g.step)) : groups.slice(0, 1);
    return all ? groups.flatMap((g) => g.ids) : named.flatMap((g) => g.ids);
  }

  /** The schema-shaped skeleton, made about this step's evidence and turns. `depth` 1 is a top-level field. */
  realise(value: unknown, input: JsonSchema, key: string, depth: number, index = 0, factor?: string): unknown {
    const schema = resolveRef(input, this.root);
    if (Array.isArray(value)) {
      const itemSchema = resolveRef((schema.items ?? {}) as JsonSchema, this.root);
      const itemProps = propertiesOf(itemSchema);
      if (key === 'claims' && itemProps.polarity) return this.claims(schema);
      if (key === 'questions' && itemProps.targetClaimId) return this.questions(schema);
      if (itemProps.source && itemProps.date) return this.citations(factor, itemSchema);
      // A safety check's rewordings of claims of the version it keeps: none, as its task says is
      // usual (a made-up claim id would only be set aside by the engine).
      if (key === 'edits' && itemProps.claimId) return [];
      const targetKey = itemProps.targetId ? 'targetId' : itemProps.argumentId ? 'argumentId' : undefined;
      const targets = targetKey ? this.argumentTargets(targetKey === 'argumentId') : [];
      if (targetKey && targets.length && value.length) {
        // One entry per argument answered or scored; fallacies only where the skeleton found some.
        const count = itemProps.fallacy ? Math.min(value.length, targets.length) : Math.min(targets.length, 6);
        return targets
          .slice(0, count)
          .map((t, i) => ({ ...(this.realise(value[i % value.length], itemSchema, key.replace(/s$/, ''), depth + 1, i, factor) as object), [targetKey]: t }));
      }
      // As many numbered arguments as the checked rules ask for, the skeleton's repeated.
      const wanted =
        key === 'arguments' && this.p.rules.arguments && value.length
          ? Math.min(Math.max(value.length, this.p.rules.arguments.min), this.p.rules.arguments.max)
          : value.length;
      return Array.from({ length: wanted }, (_, i) => this.realise(value[i % value.length], itemSchema, key.replace(/s$/, ''), depth + 1, i, factor));
    }
    if (value && typeof value === 'object') {
      const props = propertiesOf(schema);
      const own = 'factor' in (value as object) ? this.nextFactor() : factor;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (k === 'factor') out[k] = own;
        else if (k === 'id' && key === 'argument') out[k] = `${this.p.stepId ?? 'S'}-${index + 1}`;
        else out[k] = this.realise(v, props[k] ?? {}, k, depth + 1, index, own);
      }
      // A briefing's explicit "nothing in the material" (lib/domain/outputs.ts): said exactly when
      // the briefing has no finding, as its checked rules ask.
      if (depth === 0 && 'nothingInMaterial' in props && Array.isArray(out.claims)) out.nothingInMaterial = out.claims.length === 0;
      return out;
    }
    if (typeof value === 'string') {
      if (schema.enum || schema.const !== undefined || schema.format) return value;
      const max = depth === 1 && key === 'text' && this.p.rules.maxChars ? this.p.rules.maxChars - 40 : Infinity;
      if (depth === 1 && value.length >= 60) return this.prose(Math.min(max, this.textChars), this.itemsFor(undefined, 4));
      if (value.length >= 100) return this.prose(Math.min(240, Math.max(140, Math.round(value.length * 0.6))), this.itemsFor(factor, 2));
      if (value.length >= 40 && /summary|takeaway|concession|unrebutted|unresolved|assumption/i.test(key)) return this.prose(150, this.itemsFor(undefined, 1));
      return value;
    }
    return value;
  }
}

function dedupe(items: PromptItem[]): PromptItem[] {
  const seen = new Map<string, PromptItem>();
  for (const i of items) if (!seen.has(i.id)) seen.set(i.id, i);
  return [...seen.values()];
}

/** A clean answer: the requested schema filled from the step's own evidence and turns, following its checked rules. */
export function realisticDocument(
  schema: JsonSchema,
  prompt: StepPrompt,
  rng: Random,
  textChars = DEFAULT_REALISTIC.textChars,
  arrayItems = DEFAULT_REALISTIC.arrayItems,
): unknown {
  const skeleton = jsonFromSchema(schema, { seed: Math.floor(rng() * 2 ** 31), textChars, arrayItems });
  return new Writer(prompt, rng, schema, textChars).realise(skeleton, schema, '', 0);
}

// ---------------------------------------------------------------- getting it wrong

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2024-11-01` as `2024.11.01` or `Nov 1, 2024`. */
export function otherDateFormat(iso: string, long: boolean): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return long ? `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${m[1]}` : `${m[1]}.${m[2]}.${m[3]}`;
}

/** A source name as a model abbreviates it: its first word, or the initials of a long name. */
export function shortened(source: string): string | undefined {
  const words = source.split(/\s+/).filter(Boolean);
  if (words.length < 2) return source.length > 8 ? source.slice(0, 6) : undefined;
  const capitals = words.filter((w) => /^[A-Z]/.test(w));
  if (capitals.length >= 3) return capitals.map((w) => w[0]).join('');
  return words[0].length >= 3 ? words[0].replace(/[,.:;]$/, '') : words.slice(0, 2).join(' ');
}

type Doc = Record<string, unknown>;
type CitationRecord = { evidenceId?: unknown; source?: unknown; date?: unknown };

function citationArrays(doc: unknown, out: CitationRecord[][] = [], key = ''): CitationRecord[][] {
  if (Array.isArray(doc)) {
    if ((key === 'citations' || key === 'evidence') && doc.every((c) => c && typeof c === 'object' && 'source' in c)) out.push(doc as CitationRecord[]);
    else for (const v of doc) citationArrays(v, out);
  } else if (doc && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) citationArrays(v, out, k);
  return out;
}

/** The id prefix the prompt's items share (`tesla-` of `tesla-014`), for ids that look like them. */
function idPrefix(items: PromptItem[]): string {
  const ids = items.map((i) => i.id).filter((id) => /-\d+$/.test(id));
  if (!ids.length) return 'ev-';
  const counts = new Map<string, number>();
  for (const id of ids) {
    const p = id.replace(/\d+$/, '');
    counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

const OUTSIDE_SOURCES = ['Reuters', 'Bloomberg', 'Financial Times', 'Maeil Business Newspaper', 'The Korea Economic Daily'];

function plant(doc: unknown, citation: Record<string, unknown>, rng: Random): boolean {
  const arrays = citationArrays(doc);
  if (!arrays.length) return false;
  arrays[Math.floor(rng() * arrays.length)].push(citation);
  return true;
}

/** Applies the drawn content behaviours to a clean document; returns what it applied and planted. */
function misbehave(doc: Doc, schema: JsonSchema, prompt: StepPrompt, drawn: Set<Behaviour>, rng: Random, settings: RealisticSettings) {
  const applied: Behaviour[] = [];
  const planted: PlantedCitation[] = [];
  const shown = dedupe([...prompt.items, ...prompt.cited]);
  const asOf = prompt.asOf ?? '2024-12-31';
  const known = new Set(shown.map((i) => i.id));
  const props = propertiesOf(schema);

  if (drawn.has('inventedCitation')) {
    const prefix = idPrefix(shown);
    let id = `${prefix}${9000 + Math.floor(rng() * 900)}`;
    while (known.has(id)) id += '0';
    const dates = new Set(shown.map((i) => i.date));
    let date = addDays(asOf, -(20 + Math.floor(rng() * 300)));
    while (dates.has(date)) date = addDays(date, -1);
    const c = { evidenceId: id, source: OUTSIDE_SOURCES[Math.floor(rng() * OUTSIDE_SOURCES.length)], date };
    if (plant(doc, c, rng)) {
      applied.push('inventedCitation');
      planted.push({ kind: 'invented', ...c });
    }
  }
  if (drawn.has('afterAsOfCitation')) {
    // A real pool item the step never saw, when the caller named some: what the engine must not resolve by id alone.
    const prefix = idPrefix(shown);
    const later = settings.laterItems.filter((i) => i.publishedDate > asOf && !known.has(i.id) && i.id.startsWith(prefix));
    const real = later.length ? later[Math.floor(rng() * later.length)] : undefined;
    const source = real?.sourceName ?? shown[Math.floor(rng() * Math.max(1, shown.length))]?.source ?? 'Company IR release';
    const c = {
      evidenceId: real?.id ?? `${prefix}${8000 + Math.floor(rng() * 900)}`,
      source,
      date: real?.publishedDate ?? addDays(asOf, 10 + Math.floor(rng() * 120)),
    };
    if (!known.has(c.evidenceId) && plant(doc, c, rng)) {
      applied.push('afterAsOfCitation');
      planted.push({ kind: 'after-as-of', ...c });
    }
  }
  if (drawn.has('shortSource')) {
    let changed = false;
    for (const arr of citationArrays(doc)) {
      for (const c of arr) {
        // Every one the model abbreviates, as it would throughout an answer; planted ones keep their names.
        const short = typeof c.source === 'string' && !planted.some((p) => p.evidenceId === c.evidenceId) ? shortened(c.source) : undefined;
        if (short && short !== c.source) {
          c.source = short;
          changed = true;
        }
      }
    }
    if (changed) applied.push('shortSource');
  }
  if (drawn.has('dateFormat')) {
    const long = rng() < 0.5;
    let changed = false;
    for (const arr of citationArrays(doc)) {
      for (const c of arr) {
        if (typeof c.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(c.date)) {
          c.date = otherDateFormat(c.date, long);
          changed = true;
        }
      }
    }
    if (changed) applied.push('dateFormat');
  }
  if (drawn.has('missingOptional')) {
    // Left out: an optional field, or a list the model had nothing to put in.
    const required = requiredOf(schema);
    const candidates: [Doc, string][] = Object.keys(doc)
      .filter((k) => !required.has(k) || (Array.isArray(doc[k]) && (doc[k] as unknown[]).length === 0))
      .map((k) => [doc, k]);
    const claims = Array.isArray(doc.claims) ? (doc.claims as Doc[]) : [];
    const claimSchema = resolveRef((((props.claims ?? {}) as JsonSchema).items as JsonSchema) ?? {}, schema);
    const claimRequired = requiredOf(claimSchema);
    for (const c of claims) for (const k of Object.keys(c)) if (!claimRequired.has(k)) candidates.push([c, k]);
    if (candidates.length) {
      const [owner, k] = candidates[Math.floor(rng() * candidates.length)];
      delete owner[k];
      applied.push('missingOptional');
    }
  }
  if (drawn.has('extraField')) {
    const claims = Array.isArray(doc.claims) ? (doc.claims as Doc[]) : [];
    if (claims.length && rng() < 0.5) claims[0].strength = 'moderate';
    else doc[props.confidence ? 'notes' : 'confidence'] = props.confidence ? 'Based on the evidence provided.' : 0.7;
    applied.push('extraField');
  }
  let out = doc;
  if (drawn.has('reorderKeys')) {
    // The lists first, as models often write them, so the prose comes after them.
    const keys = Object.keys(doc);
    const lists = keys.filter((k) => Array.isArray(doc[k]));
    const order = [...lists, ...keys.filter((k) => !Array.isArray(doc[k]))];
    if (order.some((k, i) => k !== keys[i])) {
      out = Object.fromEntries(order.map((k) => [k, doc[k]]));
      applied.push('reorderKeys');
    }
  }
  return { doc: out, applied, planted };
}

const BEFORE = [
  'Here is the analysis for this step as JSON:',
  'Sure. Based on the evidence provided, here is my answer.',
  'Below is the requested JSON object.',
];
const AFTER = [
  'Let me know if you would like more detail on any factor.',
  'Note: all figures are taken from the evidence items cited above.',
  'I hope this helps the committee.',
];
const REFUSALS = {
  en: "I'm sorry, but I can't help with assessing this borrower.",
  ko: '죄송하지만 이 차주에 대한 평가는 도와드릴 수 없습니다.',
};

/** The request's schema: the json_schema format's, the one its prompt carries, or a bare `{text}`. */
function requestedSchema(body: ChatRequest): JsonSchema {
  const format = body.response_format;
  if (format?.type === 'json_schema' && format.json_schema?.schema) return format.json_schema.schema;
  return schemaInMessages(body.messages) ?? { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
}

/**
 * One realistic answer. Every behaviour gets its own draw, in a fixed order, so changing one rate
 * does not move the others. An HTTP error wins over everything; an empty answer or a refusal over
 * the content quirks, which may come together (a fenced answer with reordered keys).
 */
export function realisticAnswer(body: ChatRequest, settings: RealisticSettings, asked: Random, fixed?: Random): RealisticAnswer {
  const draws = Object.fromEntries(BEHAVIOURS.map((b) => [b, asked()])) as Record<Behaviour, number>;
  // At temperature 0 (`fixed`: drawn from the request alone) the model's part of the answer is the
  // same every time it is asked; only the server's HTTP errors are drawn afresh.
  if (fixed) for (const b of BEHAVIOURS) if (b !== 'http429' && b !== 'http500') draws[b] = fixed();
  const rng = fixed ?? asked;
  const drawn = new Set(BEHAVIOURS.filter((b) => draws[b] < settings.rates[b]));
  const prompt = readStepPrompt(body);
  const stepId = prompt.stepId;
  if (drawn.has('http429')) return { kind: 'http', status: 429, retryAfter: settings.retryAfter, behaviours: ['http429'], stepId };
  if (drawn.has('http500')) return { kind: 'http', status: 500, behaviours: ['http500'], stepId };
  if (drawn.has('empty')) return { kind: 'content', content: '', refusal: false, behaviours: ['empty'], planted: [], stepId };
  if (drawn.has('refusal'))
    return { kind: 'content', content: REFUSALS[prompt.korean ? 'ko' : 'en'], refusal: true, behaviours: ['refusal'], planted: [], stepId };

  const schema = requestedSchema(body);
  const clean = realisticDocument(schema, prompt, rng, settings.textChars, settings.arrayItems);
  const isObject = clean && typeof clean === 'object' && !Array.isArray(clean);
  const { doc, applied, planted } = isObject
    ? misbehave(clean as Doc, schema, prompt, drawn, rng, settings)
    : { doc: clean, applied: [] as Behaviour[], planted: [] };
  let content = JSON.stringify(doc);
  if (drawn.has('fence')) {
    content = `\`\`\`json\n${content}\n\`\`\``;
    applied.push('fence');
  }
  if (drawn.has('proseAround')) {
    content = rng() < 0.5 ? `${BEFORE[Math.floor(rng() * BEFORE.length)]}\n\n${content}` : `${content}\n\n${AFTER[Math.floor(rng() * AFTER.length)]}`;
    applied.push('proseAround');
  }
  let cutAt: number | undefined;
  const n = tokenize(content).length;
  const room = body.max_completion_tokens ?? body.max_tokens;
  // The model runs past its limit and stops somewhere in the second half. Given room for the whole
  // answer (as when asked again with more), it fits; given less, max_tokens cuts it anyway.
  if (drawn.has('cutOff') && (room === undefined || room < n)) {
    cutAt = Math.max(1, Math.floor(n * (0.45 + 0.45 * rng())));
    applied.push('cutOff');
  }
  const order = BEHAVIOURS.filter((b) => applied.includes(b));
  return { kind: 'content', content, refusal: false, ...(cutAt !== undefined ? { cutAt } : {}), behaviours: order, planted, stepId };
}

/**
 * The draws for one request: seeded by the server's seed, the conversation and how many times it
 * has been asked before, so a retry of the same conversation draws afresh and a run's answers do
 * not depend on the order concurrent steps reach the server.
 */
export function requestRandom(seed: number, conversation: string, asked: number): Random {
  return seededRandom(hashString(`${seed}:${asked}:${hashString(conversation)}`));
}

/**
 * The draws of a request that must give the same answer each time it is asked (temperature 0),
 * or undefined when answers vary (any other temperature, or none given): seeded by the request's
 * own seed (the server's when it sends none) and the conversation, never by how often it was asked.
 */
export function fixedRandom(body: Pick<ChatRequest, 'temperature' | 'seed'>, serverSeed: number, conversation: string): Random | undefined {
  if (body.temperature !== 0) return undefined;
  const seed = typeof body.seed === 'number' ? body.seed : serverSeed;
  return seededRandom(hashString(`fixed:${seed}:${hashString(conversation)}`));
}

/** Rates over a base, by behaviour name (`all` sets every one first); a name it does not know is an error. */
export function withRates(base: Rates, changes: { [behaviour: string]: number | undefined } = {}, label = 'rates'): Rates {
  const rates = { ...base };
  const entries = Object.entries(changes).filter((e): e is [string, number] => e[1] !== undefined);
  for (const [name, value] of [...entries.filter(([n]) => n === 'all'), ...entries.filter(([n]) => n !== 'all')]) {
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${label}: ${name}=${value} needs a rate between 0 and 1`);
    if (name === 'all') for (const b of BEHAVIOURS) rates[b] = value;
    else if ((BEHAVIOURS as readonly string[]).includes(name)) rates[name as Behaviour] = value;
    else throw new Error(`${label}: unknown behaviour "${name}"; choose from ${BEHAVIOURS.join(', ')} (or all)`);
  }
  return rates;
}

/** `fence=0.2,cutOff=0` → rates over a base; `all=0` sets every one first. */
export function parseRates(text: string, base: Rates = DEFAULT_RATES): Rates {
  const changes: { [behaviour: string]: number } = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, raw] = part.split('=');
    changes[name] = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  }
  return withRates(base, changes, '--rates');
}
