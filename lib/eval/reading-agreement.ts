// How well the offline analyst's claims agree with the readings of the items they cite, measured
// on any pool (docs/protocols.md, "Readings"): every protocol is run on the pool as the engine
// would run it, and each claim (and each three-round argument) is checked the way the engine's
// reading check checks it (lib/eval/reading-consistency.ts) — the cited pool item's stored tag,
// a cited passage's section reading (lib/pool/factors.ts tagPassage). A second, cruder count asks
// whether a claim's wording is carried by the item it cites (see `unsupportedWording`).
// Deterministic and database-free: the same pool gives the same figures.
import { contextFor } from '@/lib/debate/context-scope';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { evidenceShortfall } from '@/lib/debate/sufficiency';
import { claimsOf } from '@/lib/domain/output-parts';
import { stepOutputSchema, toStoredShape } from '@/lib/domain/step-output';
import type { ProtocolDef, ProtocolId, RunParams } from '@/lib/domain/protocol';
import type { Polarity } from '@/lib/domain/vocabulary';
import { readsAgainst, teamPolarity, type ReadingOf } from '@/lib/eval/reading-consistency';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { CompanyBrief, ContextTurn, GenerateRequest } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { tagPassage } from '@/lib/pool/factors';
import type { RetrievedItem } from '@/lib/pool/retrieve';

/** One pool to measure on: a company's items as of a date and the document passages it holds. */
export type ReadingCase = {
  label: string;
  company: CompanyBrief;
  params: RunParams;
  evidence: EvidenceAsOf[];
  passages: RetrievedItem[];
};

/** One finished step of a measured run, shaped as the engine stores turns. */
export type MeasuredTurn = { step: string; team: string; status: 'done'; output: Record<string, unknown> };

/** One claim (or argument) whose polarity reads against an item it cites. */
export type Disagreement = { protocol: ProtocolId; step: string; claimId: string; polarity: Polarity; text: string; evidenceId: string; reading: Polarity };

/** One claim whose wording asserts what none of its cited items says (`unsupportedWording`). */
export type Unsupported = { protocol: ProtocolId; step: string; claimId: string; phrase: string; evidenceIds: string };

export type AgreementCount = {
  /** Claims and arguments that cite at least one item. */
  claims: number;
  /** Of those: favorable or adverse, citing at least one item read favorable or adverse. */
  judged: number;
  agree: number;
  disagree: number;
  /** Claims read against a cited item's words by the wording proxy. */
  unsupported: number;
};

export type CaseResult = {
  label: string;
  /** Set when the pool is below the evidence threshold: the engine would not run, nor do we. */
  skipped?: string;
  byProtocol: Partial<Record<ProtocolId, AgreementCount>>;
  total: AgreementCount;
  disagreements: Disagreement[];
  unsupported: Unsupported[];
};

type Readable = { title: string; text: string; reading: Polarity };

/**
 * Each citable id of the case with its reading as the engine's check sees it: a pool item's
 * stored tag, a passage's section reading. Title and text are what the wording proxy reads.
 */
export function readingsOf(c: Pick<ReadingCase, 'evidence' | 'passages'>): Map<string, Readable> {
  const out = new Map<string, Readable>();
  for (const e of c.evidence) out.set(e.id, { title: e.title, text: e.text, reading: e.polarity ?? 'context' });
  for (const p of c.passages) {
    if (out.has(p.id)) continue;
    const reading =
      p.kind === 'evidence'
        ? ((p.polarity as Polarity | null | undefined) ?? 'context')
        : tagPassage({ documentTitle: p.title, heading: p.heading ?? null, text: p.snippet }).polarity;
    out.set(p.id, { title: p.heading ?? p.title, text: p.snippet, reading });
  }
  return out;
}

/** Steps that read documents get the pool's items as retrieval hands them over, beside the passages. */
function asRetrieved(e: EvidenceAsOf): RetrievedItem {
  return {
    kind: 'evidence',
    id: e.id,
    title: e.title,
    snippet: e.text.slice(0, 240),
    publishedDate: e.publishedDate,
    sourceName: e.sourceName,
    sourceUrl: e.sourceUrl,
    score: 1,
    stale: e.stale,
    category: e.category,
    factor: e.factor,
    polarity: e.polarity,
    factorSource: e.factorSource,
  };
}

/** Runs one protocol's steps in order with the offline analyst, each with its declared context, as the engine does. */
export async function runOffline(c: ReadingCase, protocol: ProtocolDef): Promise<MeasuredTurn[]> {
  const analyst = createOfflineAnalyst();
  const done = new Map<string, { team: string; agent: string; act: string; text: string; output: Record<string, unknown> }>();
  const turns: MeasuredTurn[] = [];
  const documents = [...c.evidence.map(asRetrieved), ...c.passages];
  for (const s of protocol.steps) {
    const context: ContextTurn[] = contextFor(
      s,
      s.context.map((id) => {
        const d = done.get(id)!;
        return { stepId: id, agent: d.agent, team: d.team as ContextTurn['team'], act: d.act as ContextTurn['act'], text: d.text, output: d.output };
      }),
    );
    const request: GenerateRequest = {
      runId: 'reading-agreement',
      protocol,
      step: s,
      params: c.params,
      company: c.company,
      evidence: s.evidence === 'documents' ? [] : visibleEvidence(s, c.evidence, context),
      passages: s.evidence === 'documents' ? documents : [],
      context,
      prompt: { system: '', user: '' },
      schema: stepOutputSchema(s),
      jsonSchema: {},
      tools: {},
      signal: new AbortController().signal,
      onToken: () => {},
    };
    const result = await analyst.generate(request);
    // The step's answer, in the stored shape of its kind (lib/domain/step-output.ts), as the engine keeps it.
    const output = toStoredShape(s, stepOutputSchema(s).parse(JSON.parse(result.raw))) as Record<string, unknown>;
    done.set(s.id, { team: s.team, agent: s.agent, act: s.act, text: typeof output.text === 'string' ? output.text : '', output });
    turns.push({ step: s.id, team: s.team, status: 'done', output });
  }
  return turns;
}

type Said = { step: string; id: string; polarity: unknown; text: string; citations: unknown };

/** Every claim and argument of the turns, once per step and id (a safety check repeats the leader's). */
export function claimsSaid(turns: MeasuredTurn[]): Said[] {
  const out: Said[] = [];
  const seen = new Set<string>();
  const add = (s: Said) => {
    const key = `${s.step}/${s.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(s);
  };
  for (const t of turns) {
    for (const c of claimsOf(t.output)) add({ step: t.step, id: c.id, polarity: c.polarity, text: c.text, citations: c.citations });
    // A report's topics (KPD-MADS, NAS) state both sides and carry no polarity: their wording is checked, not their reading.
    if (Array.isArray(t.output.topics)) {
      for (const [i, x] of (t.output.topics as Record<string, unknown>[]).entries())
        add({
          step: t.step,
          id: `topic-${i + 1}`,
          polarity: 'context',
          text: `${String(x.affirmative ?? '')} ${String(x.adverse ?? '')}`,
          citations: x.citations,
        });
    }
    if (Array.isArray(t.output.arguments)) {
      for (const a of t.output.arguments as Record<string, unknown>[])
        add({ step: t.step, id: String(a.id ?? ''), polarity: teamPolarity(t.team), text: String(a.claim ?? ''), citations: a.evidence });
    }
  }
  return out;
}

const citedIds = (citations: unknown): string[] => [
  ...new Set(
    (Array.isArray(citations) ? citations : [])
      .map((c) => (c && typeof c === 'object' ? (c as { evidenceId?: unknown }).evidenceId : undefined))
      .filter((id): id is string => typeof id === 'string'),
  ),
];

/**
 * Stock phrases that assert a fact, and what the cited item must say for the phrase to be true
 * of it. Written here, apart from the analyst's own gate (lib/llm/offline/lexicon.ts FACT_TERMS),
 * from the phrases' key nouns: a crude proxy that a claim's wording is carried by its item. It
 * catches a stock reading pinned on an item that does not say so; it cannot judge free wording.
 */
const ASSERTIONS: { phrase: RegExp; needs: RegExp }[] = [
  {
    phrase: /leading market position|높은 시장 지위/,
    needs: /\b(lead\w*|largest|no\. ?1|market share|pricing power)\b|1위|점유율|선도|최고|가격 결정력|시장 지위/i,
  },
  {
    phrase: /clean audit and governance findings|감사·지배구조상 문제가 없으면/,
    needs: /\b(unqualified|effective|no material weakness|clean)\b|(?<!부)적정|효과적|지적사항\s?없음/i,
  },
  { phrase: /strong patent and R&D base|특허와 연구개발 기반이 탄탄할수록/, needs: /\b(patents?|r&d|research)\b|특허|연구개발/i },
  { phrase: /exposure to technological change|기술 변화에 노출되면/, needs: /\b(technolog\w*|obsole\w*|disrupt\w*|innovat\w*)\b|기술|진부/i },
  {
    phrase: /business activity that can support cash flow|현금흐름을 뒷받침할 수 있는 사업 활동/,
    needs: /\b(contracts?|agreements?|orders?|invest\w*|supply|licen\w*|revenue|sales)\b|계약|수주|투자|공급|라이선스|매출/i,
  },
  {
    phrase: /a cost or obligation that can weigh on cash flow|현금흐름에 부담이 될 수 있는 비용이나 의무/,
    needs: /\b(costs?|obligat\w*|liabilit\w*|expens\w*|fines?|emissions?|debt)\b|비용|의무|부채|배출|증가|채무/i,
  },
  { phrase: /a growing market widens|시장이 커지면/, needs: /\b(grow\w*|expan\w*|recover\w*|increas\w*)\b|성장|증가|확대|회복/i },
  { phrase: /a shrinking market squeezes|시장이 줄면/, needs: /\b(declin\w*|contract\w*|shrink\w*|fall\w*)\b|역성장|감소|둔화|위축/i },
  { phrase: /intense competition erodes|경쟁이 치열하면/, needs: /\b(compet\w*|rivals?|price war)\b|경쟁|저가/i },
  { phrase: /resilience to the cycle|경기 변동에 덜 흔들릴수록/, needs: /\b(resilien\w*|held up|despite|steady)\b|견조|방어/i },
  {
    phrase: /cyclical exposure can cut cash flow|경기 민감도가 높으면/,
    needs:
      /\b(cycl\w*|macro\w*|recession\w*|inflation|interest rates?|economic|downturn|weather|demand|catastroph\w*)\b|경기|거시|인플레이션|금리|침체|시황|수요/i,
  },
  {
    phrase: /public support lowers costs|정부 지원은 비용 부담을/,
    needs: /\b(subsid\w*|grants?|incentives?|support|tax credits?|land-use)\b|보조금|지원|세액공제/i,
  },
  { phrase: /a stable leadership keeps strategy|경영진이 안정적이면/, needs: /\b(tenure|promoted internally|reappoint\w*|bench)\b|재직|연임|근속|유임/i },
  {
    phrase: /leadership turnover or dependence on one person|경영진 교체나 한 사람에 대한 의존/,
    needs: /\b(depart\w*|resign\w*|dismiss\w*|step(?:s|ped)? down|dependent|key[- ]person|turnover)\b|사임|해임|퇴임|교체|사퇴|의존|변동/i,
  },
  { phrase: /a stable, experienced workforce|숙련 인력이 안정적으로/, needs: /\b(tenure|years of service)\b|근속/i },
  {
    phrase: /labour disputes or cuts can disrupt|노사 갈등이나 인력 감축/,
    needs: /\b(unions?|strikes?|layoffs?|walkouts?|job cuts?|disputes?)\b|노조|노동조합|파업|감원|구조조정|임금피크|해고|희망퇴직/i,
  },
  { phrase: /held certifications show processes|인증 보유는 외부 기준을/, needs: /\b(certif\w*|iso|accredit\w*)\b|인증|지정/i },
  {
    phrase: /a revoked or lapsed certification|인증 취소나 상실은/,
    needs: /\b(revok\w*|cancel\w*|withdrawn|suspend\w*|expired|lapsed)\b|취소|철회|만료|정지|상실/i,
  },
];

/** The first stock phrase of `text` that none of the cited `items` carries, if any. */
export function unsupportedWording(text: string, items: { title: string; text: string }[]): string | null {
  for (const a of ASSERTIONS) {
    const m = a.phrase.exec(text);
    if (m && !items.some((item) => a.needs.test(`${item.title}\n${item.text}`))) return m[0];
  }
  return null;
}

const zero = (): AgreementCount => ({ claims: 0, judged: 0, agree: 0, disagree: 0, unsupported: 0 });

function add(into: AgreementCount, from: AgreementCount) {
  for (const k of Object.keys(into) as (keyof AgreementCount)[]) into[k] += from[k];
}

/**
 * Counts one run's claims against the readings. A claim is judged when it is favorable or adverse
 * and cites an item read favorable or adverse; it agrees when no such item reads the other way.
 * Its wording is checked against the items it cites that the case holds: a stock phrase must be
 * carried by at least one of them.
 */
export function countRun(protocol: ProtocolId, turns: MeasuredTurn[], readings: Map<string, Readable>) {
  const count = zero();
  const disagreements: Disagreement[] = [];
  const unsupported: Unsupported[] = [];
  const readingOf: ReadingOf = (id) => readings.get(id)?.reading;
  for (const s of claimsSaid(turns)) {
    const ids = citedIds(s.citations).filter((id) => readings.has(id));
    if (!ids.length) continue;
    count.claims++;
    const polarity = s.polarity as Polarity;
    const against = readsAgainst({ polarity, citations: s.citations }, readingOf);
    const judged = (polarity === 'favorable' || polarity === 'adverse') && ids.some((id) => readings.get(id)!.reading !== 'context');
    if (judged) {
      count.judged++;
      if (against.length) count.disagree++;
      else count.agree++;
    }
    for (const a of against)
      disagreements.push({ protocol, step: s.step, claimId: s.id, polarity, text: s.text, evidenceId: a.evidenceId, reading: a.reading });
    const phrase = unsupportedWording(
      s.text,
      ids.map((id) => readings.get(id)!),
    );
    if (phrase) {
      count.unsupported++;
      unsupported.push({ protocol, step: s.step, claimId: s.id, phrase, evidenceIds: ids.join(', ') });
    }
  }
  return { count, disagreements, unsupported };
}

/** Every protocol on one pool; a pool below the evidence threshold is skipped, as the engine skips it. */
export async function measureCase(c: ReadingCase, protocols: ProtocolDef[] = Object.values(PROTOCOLS_BY_ID)): Promise<CaseResult> {
  const result: CaseResult = { label: c.label, byProtocol: {}, total: zero(), disagreements: [], unsupported: [] };
  const short = evidenceShortfall(c.evidence);
  if (short) return { ...result, skipped: `${short.items} items on ${short.factors} guideline factors (needs ${short.minItems} on ${short.minFactors})` };
  const readings = readingsOf(c);
  for (const protocol of protocols) {
    const run = countRun(protocol.id, await runOffline(c, protocol), readings);
    result.byProtocol[protocol.id] = run.count;
    add(result.total, run.count);
    result.disagreements.push(...run.disagreements);
    result.unsupported.push(...run.unsupported);
  }
  return result;
}
