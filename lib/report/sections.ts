// The body of the report per protocol (docs/protocols.md), chosen by the shape of the protocol's
// report step, from that step's output and, for SAS and FinDebate, the judge, stress and draft
// turns that a credit reader needs next to it (found by their steps' roles, never their ids).
// Shapes are checked with the step schemas, but citations are read from the stored output
// itself: the schemas would strip the `verified` flag the engine added.
import type { z } from 'zod';
import { getProtocol, getStep, isProtocolId } from '@/lib/debate/protocols';
import {
  argumentsRound,
  horizonCode,
  report as reportSchema,
  rubricJudgment,
  sasJudgment,
  sasReport,
  sasStress,
  storedSafetyCheck,
  storedStanceDraft,
  type OutputKind,
} from '@/lib/domain/outputs';
import type { ProtocolDef, StepRole } from '@/lib/domain/protocol';
import type { Block, BuildContext, Section } from '@/lib/report/doc';
import { FACTORS } from '@/lib/domain/factors';
import { branchOrder } from '@/lib/eval/tree';

/** The shape a schema describes, or null: the raw value is returned so extra fields survive. */
function shaped<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> | null {
  return schema.safeParse(value).success ? (value as z.infer<S>) : null;
}

const para = (text: string | undefined): Block[] => (text?.trim() ? [{ kind: 'paragraph', text: text.trim() }] : []);

/** The finished turn of the protocol's first step with this role. */
function turnOf(protocol: ProtocolDef, role: StepRole, ctx: BuildContext) {
  return protocol.steps
    .filter((s) => s.role === role)
    .map((s) => ctx.turn(s.id))
    .find(Boolean);
}

/** Every way a factor may be named at the start of a summary line, longest first. */
const FACTOR_PREFIXES = FACTORS.flatMap((f) =>
  [f.label, f.labelKo, f.label.replace(/\s*\([^)]*\)/g, ''), f.labelKo.replace(/\s*\([^)]*\)/g, '')].map((label) => ({
    id: f.id,
    label: label.trim().toLowerCase(),
  })),
).sort((a, b) => b.label.length - a.label.length);

/** Summary lines grouped by the factor each one opens with ("경기 민감도(2022-08-16): …"); the rest under "Other". */
export function groupByFactor(lines: string[]): { factor: string; items: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const line of lines) {
    const lower = line.trim().toLowerCase();
    const hit = FACTOR_PREFIXES.find((p) => lower.startsWith(p.label) && /^[\s(:：—–-]/.test(lower.slice(p.label.length) || ' '));
    const factor = hit?.id ?? 'other';
    groups.set(factor, [...(groups.get(factor) ?? []), line]);
  }
  // In the reasoning tree's order of factors, "Other" last, whatever the order the lines came in.
  return [...groups].sort(([a], [b]) => branchOrder(a, b)).map(([factor, items]) => ({ factor, items }));
}

/** Whether a topic cites the item of one of the run's red flags. */
function answersFlag(topic: { citations: unknown }, ctx: BuildContext): boolean {
  const flagged = new Set(ctx.view.redFlags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]));
  return (
    Array.isArray(topic.citations) &&
    topic.citations.some((c) => typeof c === 'object' && c !== null && flagged.has(String((c as { evidenceId?: unknown }).evidenceId)))
  );
}

function debateReport(content: unknown, ctx: BuildContext): Section[] {
  const { t } = ctx;
  const r = shaped(reportSchema.partial({ objective: true, overview: true }), content);
  if (!r) return unexpected(content, ctx);
  const summary = (lines: string[]): Block[] =>
    lines.length
      ? groupByFactor(lines).map((g) => ({ kind: 'group', title: ctx.factorLabel(g.factor), blocks: [{ kind: 'list', items: g.items }] }))
      : [{ kind: 'paragraph', text: t('noItems') }];
  const sections: Section[] = [];
  if (r.objective?.trim()) sections.push({ id: 'objective', title: t('objective'), blocks: para(r.objective) });
  if (r.overview?.trim()) sections.push({ id: 'overview', title: t('overview'), blocks: para(r.overview) });
  sections.push({ id: 'favorable', title: t('favorable'), blocks: summary(r.favorableSummary) });
  sections.push({ id: 'adverse', title: t('adverse'), blocks: summary(r.adverseSummary) });
  sections.push({
    id: 'topics',
    title: t('topics'),
    // Topics that answer a red flag first, as the red flags lead the report; then the reasoning
    // tree's order of factors, not the order the report's parts were written in.
    blocks: r.topics.length
      ? [...r.topics]
          .sort((a, b) => Number(answersFlag(b, ctx)) - Number(answersFlag(a, ctx)) || branchOrder(a.factor, b.factor))
          .map((topic) => ({
            kind: 'group',
            // The factor is named once, in the run's language: a topic that opens with it ("경기 민감도 (2022-08-16)") is left alone.
            title: topic.topic.trim().startsWith(ctx.factorLabel(topic.factor))
              ? topic.topic.trim()
              : `${topic.topic.trim()} · ${ctx.factorLabel(topic.factor)}`,
            blocks: [
              { kind: 'fields', items: [{ label: t('affirmativeReading'), value: topic.affirmative.trim() || t('nothingSaid') }] },
              { kind: 'fields', items: [{ label: t('adverseReading'), value: topic.adverse.trim() || t('nothingSaid') }] },
              { kind: 'citations', items: ctx.cite(topic.citations) },
            ],
          }))
      : [{ kind: 'paragraph', text: t('noItems') }],
  });
  return sections;
}

function sasSections(content: unknown, ctx: BuildContext, protocol: ProtocolDef): Section[] {
  const { t } = ctx;
  const r = shaped(sasReport, content);
  if (!r) return unexpected(content, ctx);
  const sections: Section[] = [];
  const judge = shaped(sasJudgment, turnOf(protocol, 'judge', ctx)?.output);
  if (judge) {
    sections.push({
      id: 'judge',
      title: t('judge'),
      blocks: [
        {
          kind: 'fields',
          items: [
            { label: t('winner'), value: judge.winner === 'affirmative' ? t('affirmativeSide') : t('negativeSide') },
            { label: t('justification'), value: judge.justification },
          ],
        },
      ],
    });
  }
  const stress = shaped(sasStress, turnOf(protocol, 'stress-analyst', ctx)?.output);
  if (stress) {
    sections.push({
      id: 'stress',
      title: t('stress'),
      blocks: [
        {
          kind: 'fields',
          items: [
            { label: t('assumption'), value: stress.assumption },
            { label: t('critique'), value: stress.critique },
          ],
        },
      ],
    });
  }
  sections.push({
    id: 'final-report',
    title: t('finalReport'),
    blocks: [
      { kind: 'group', title: t('executiveSummary'), blocks: para(r.executiveSummary) },
      { kind: 'group', title: t('evidenceReview'), blocks: para(r.evidenceReview) },
      { kind: 'group', title: t('keyTakeaways'), blocks: [{ kind: 'list', items: r.keyTakeaways }] },
      { kind: 'group', title: t('primaryRisk'), blocks: para(r.primaryRisk) },
      { kind: 'group', title: t('mitigation'), blocks: para(r.mitigation) },
      { kind: 'group', title: t('outlook'), blocks: para(r.outlook) },
    ],
  });
  return sections;
}

function threeRoundSections(content: unknown, ctx: BuildContext, protocol: ProtocolDef): Section[] {
  const { t } = ctx;
  const j = shaped(rubricJudgment, content);
  if (!j) return unexpected(content, ctx);
  // The claims behind the argument ids, from the rounds that put arguments forward.
  const claims = new Map<string, string>();
  for (const step of protocol.steps.filter((s) => s.output === 'argumentsRound')) {
    for (const a of shaped(argumentsRound, ctx.turn(step.id)?.output)?.arguments ?? []) claims.set(a.id, a.claim);
  }
  const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
  const standing = new Map(j.trace.map((x) => [x.argumentId, x]));
  return [
    {
      id: 'scores',
      title: t('scores'),
      blocks: [
        {
          kind: 'table',
          caption: t('scoresCaption'),
          head: [t('argument'), t('logic'), t('evidence'), t('responsiveness'), t('honesty'), t('weighted')],
          rows: j.scores.map((s) => [s.argumentId, num(s.logic), num(s.evidence), num(s.responsiveness), num(s.honesty), num(s.weighted)]),
        },
      ],
    },
    {
      id: 'fallacies',
      title: t('fallacies'),
      blocks: j.fallacies.length
        ? [
            {
              kind: 'table',
              caption: t('fallacies'),
              head: [t('argument'), t('fallacy'), t('explanation')],
              rows: j.fallacies.map((f) => [f.argumentId, f.fallacy.replaceAll('_', ' '), f.explanation]),
            },
          ]
        : [{ kind: 'paragraph', text: t('noFallacies') }],
    },
    {
      id: 'trace',
      title: t('trace'),
      blocks: [
        {
          kind: 'table',
          caption: t('trace'),
          head: [t('argument'), t('claim'), t('standing'), t('note')],
          rows: [...standing.values()].map((x) => [x.argumentId, claims.get(x.argumentId) ?? '', x.standing, x.note]),
        },
      ],
    },
    {
      id: 'overall',
      title: t('overall'),
      blocks: [
        {
          kind: 'fields',
          items: [
            { label: t('affirmativeTotal'), value: num(j.overall.affirmativeTotal) },
            { label: t('negativeTotal'), value: num(j.overall.negativeTotal) },
            { label: t('keyInsight'), value: j.overall.keyInsight },
            { label: t('recommendation'), value: j.overall.recommendation },
          ],
        },
        { kind: 'group', title: t('unresolved'), blocks: j.overall.unresolved.length ? [{ kind: 'list', items: j.overall.unresolved }] : para(t('noItems')) },
      ],
    },
  ];
}

function stanceBlocks(draft: z.infer<typeof storedStanceDraft>, ctx: BuildContext): Block[] {
  const { t } = ctx;
  // A horizon's code in the report's language; an older run's free-text label that names no code, as written.
  const horizon = (label: string) => {
    const code = horizonCode(label);
    return code ? t(`horizon_${code}`) : label;
  };
  const stance = (s: string) => (s === 'favorable' ? t('stanceFavorable') : s === 'adverse' ? t('stanceAdverse') : t('stanceNeutral'));
  return [
    { kind: 'fields', items: [{ label: t('stance'), value: stance(draft.stance) }] },
    ...para(draft.text),
    {
      kind: 'table',
      caption: t('horizons'),
      head: [t('horizon'), t('outlookCol'), t('confidence')],
      rows: draft.horizons.map((h) => [horizon(h.horizon), stance(h.outlook), h.confidence.toFixed(2)]),
    },
    { kind: 'group', title: t('signals'), blocks: [{ kind: 'list', items: draft.claims.map((c) => c.text) }] },
    { kind: 'citations', items: ctx.cite(draft.claims.flatMap((c) => c.citations)) },
  ];
}

function finDebateSections(content: unknown, ctx: BuildContext, protocol: ProtocolDef): Section[] {
  const { t } = ctx;
  const s = shaped(storedSafetyCheck, content);
  if (!s) return unexpected(content, ctx);
  const sections: Section[] = [
    {
      id: 'safety',
      title: t('safety'),
      blocks: [
        {
          kind: 'fields',
          items: [
            { label: t('kept'), value: s.kept === 'draft' ? t('keptDraft') : t('keptFinal') },
            { label: t('stanceChanged'), value: s.stanceChanged ? t('yes') : t('no') },
            { label: t('horizonsChanged'), value: s.horizonsChanged ? t('yes') : t('no') },
            { label: t('reason'), value: s.reason },
          ],
        },
      ],
    },
  ];
  const draft = shaped(storedStanceDraft, turnOf(protocol, 'draft-writer', ctx)?.output);
  const final = shaped(storedStanceDraft, turnOf(protocol, 'leader', ctx)?.output);
  if (draft) sections.push({ id: 'draft', title: t('draft'), blocks: stanceBlocks(draft, ctx) });
  if (final) sections.push({ id: 'final', title: t('final'), blocks: stanceBlocks(final, ctx) });
  // Without the turns (an edited run), the kept version inside the safety check still shows.
  if (!draft && !final) sections.push({ id: 'kept', title: t('kept'), blocks: stanceBlocks(s.report, ctx) });
  return sections;
}

/** A report whose shape this page does not know is still shown, as text, rather than hidden. */
function unexpected(content: unknown, ctx: BuildContext): Section[] {
  return [{ id: 'report', title: ctx.t('reportSection'), blocks: [{ kind: 'paragraph', text: JSON.stringify(content, null, 2) }] }];
}

/** The body for each shape a report step may answer in. */
const BODIES: Partial<Record<OutputKind, (content: unknown, ctx: BuildContext, protocol: ProtocolDef) => Section[]>> = {
  report: debateReport,
  sasReport: sasSections,
  rubricJudgment: threeRoundSections,
  safetyCheck: finDebateSections,
};

/** The report's body, by the output kind of the protocol's report step. */
export function protocolSections(protocol: string, content: unknown, ctx: BuildContext): Section[] {
  if (!isProtocolId(protocol)) return unexpected(content, ctx);
  const def = getProtocol(protocol);
  const body = BODIES[getStep(def, def.reportStep).output];
  return body ? body(content, ctx, def) : unexpected(content, ctx);
}
