// What an evaluator may see of a report: the report's sections and the sources its run cited,
// with every trace of the system that wrote it removed, in HTML and API responses alike
// (docs/security.md). Step ids (D1–D10, AG, NAS, …) name the protocol, so references to them in
// the model's own text become "Turn n"; no run id, model, provider or protocol.
// Every system's report is laid out under the same four neutral headings (BLIND_SECTIONS), so
// no heading ("Judge", "Stress test", a rubric's "Scores") tells one system from another.
// The transcript is not shown: its shape alone (one analyst's turn, eleven alternating turns,
// sixteen) names the system, and the study's instrument asks about the report only. What the
// turns rest on reaches the evaluator as one list of sources, the same for every system: each
// source once, by date and name, whichever turn cited it.
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { translator } from '@/lib/i18n';
import { reportMessages, type ReportMessages } from '@/lib/i18n/messages/report';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { Block, CitationRef, ReportDoc } from '@/lib/report/model';
import { escapeRegExp } from '@/lib/util/regexp';

/** The neutral headings every blinded report has, in this order, whatever system wrote it. */
export const BLIND_SECTIONS = ['conclusion', 'favourable', 'adverse', 'analysis'] as const;
export type BlindSectionId = (typeof BLIND_SECTIONS)[number];
/** The headings in the reader's language, and the line an empty one shows. */
export type BlindHeadings = Record<BlindSectionId, string> & { empty: string };

export type BlindReport = {
  companyName: string;
  asOf: string;
  contentLanguage: ReportDoc['contentLanguage'];
  /** Always the four BLIND_SECTIONS, in order, none with a heading inside it. */
  sections: { id: BlindSectionId; title: string; blocks: Block[] }[];
  /** Every source the run's finished turns cited, each once, by date then name: no turn, speaker or order of turns. */
  sources: CitationRef[];
};

/** Display names of the protocols and their short forms ("Single agent (NAS)" and "NAS"). */
const PROTOCOL_NAMES: string[] = Object.values(PROTOCOLS_BY_ID).flatMap((p) => {
  const inner = /\(([^)]+)\)/.exec(p.name)?.[1];
  return inner ? [p.name, inner] : [p.name];
});

// Word edges in Latin letters only: Korean particles attach to an id ("D3의"), and the id must go.
const EDGE_BEFORE = '(?<![A-Za-z0-9_])';
const EDGE_AFTER = '(?![A-Za-z0-9_])';

/**
 * A function that rewrites step ids to "Turn n" and masks protocol and model names. Ids of one
 * letter (SAS's `C`) are left alone: as a word they are ordinary text and name nothing.
 */
export function redactor({ stepIds, model, turnWord }: { stepIds: string[]; model: string; turnWord: string }) {
  const turnOf = new Map(stepIds.map((id, i) => [id, i + 1]));
  const ids = stepIds.filter((id) => id.length > 1).sort((a, b) => b.length - a.length);
  const stepRe = ids.length ? new RegExp(`${EDGE_BEFORE}(${ids.map(escapeRegExp).join('|')})${EDGE_AFTER}`, 'g') : null;
  const names = [...PROTOCOLS, ...PROTOCOL_NAMES, model].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
  const nameRe = new RegExp(`${EDGE_BEFORE}(${names.map(escapeRegExp).join('|')})${EDGE_AFTER}`, 'gi');
  // Names first, so "Single agent (NAS)" goes as a whole rather than as "Single agent (Turn 1)".
  return (text: string) => {
    const named = text.replace(nameRe, (name) => (turnOf.has(name) ? name : '—'));
    return stepRe ? named.replace(stepRe, (id) => `${turnWord} ${turnOf.get(id)}`) : named;
  };
}

function blindBlock(b: Block, r: (s: string) => string): Block {
  switch (b.kind) {
    case 'paragraph':
    case 'note':
      return { ...b, text: r(b.text) };
    case 'list':
      return { ...b, items: b.items.map(r) };
    case 'fields':
      return { ...b, items: b.items.map((f) => ({ label: r(f.label), value: r(f.value) })) };
    case 'citations':
      return { ...b, items: b.items.map((c) => blindCitation(c, r)) };
    case 'table':
      return { ...b, caption: r(b.caption), head: b.head.map(r), rows: b.rows.map((row) => row.map(r)) };
    case 'group':
      return { ...b, title: r(b.title), blocks: b.blocks.map((x) => blindBlock(x, r)) };
  }
}

function blindCitation(c: CitationRef, r: (s: string) => string): CitationRef {
  return {
    source: r(c.source),
    date: c.date,
    value: c.value ? r(c.value) : undefined,
    verified: c.verified,
    url: c.url,
    title: c.title ? r(c.title) : undefined,
    poolNote: c.poolNote,
  };
}

/** Where each section of the report model (lib/report/sections.ts, by id) goes; anything else: analysis. */
const SECTION_TARGET: Record<string, BlindSectionId> = {
  // KPD-MADS and NAS
  objective: 'conclusion',
  overview: 'conclusion',
  favorable: 'favourable',
  adverse: 'adverse',
  topics: 'analysis',
  // SAS: the final report is split by its parts below; the judge's ruling and the stress test are analysis and risk
  'final-report': 'conclusion',
  judge: 'analysis',
  stress: 'adverse',
  // Three-round: the overall assessment concludes; scores, fallacies and the trace are the analysis
  overall: 'conclusion',
  scores: 'analysis',
  fallacies: 'analysis',
  trace: 'analysis',
  // FinDebate: the kept report concludes; the draft and the safety check are analysis
  final: 'conclusion',
  kept: 'conclusion',
  draft: 'analysis',
  safety: 'analysis',
  report: 'conclusion',
};

/** Parts of a section that belong under another heading, by the group's title key. */
const GROUP_TARGET: Partial<Record<keyof ReportMessages, BlindSectionId>> = {
  executiveSummary: 'conclusion',
  keyTakeaways: 'conclusion',
  outlook: 'conclusion',
  mitigation: 'favourable',
  primaryRisk: 'adverse',
  evidenceReview: 'analysis',
  unresolved: 'adverse',
};

/** Every heading and label the report model can print: a group titled with one is structure, not content. */
const STRUCTURAL_TITLES = new Set([...Object.values(reportMessages.en), ...Object.values(reportMessages.ko)]);

/**
 * The report's sections regrouped under the neutral headings, with no group (sub-heading) left:
 * a group titled by the report's structure ("Executive summary", "Signals") loses its title; one
 * titled by its content (a topic) keeps it as a plain line. Favourable and adverse lines already
 * open with their factor, so their factor groups lose theirs.
 */
export function neutralSections(doc: Pick<ReportDoc, 'locale' | 'sections'>, headings: BlindHeadings): BlindReport['sections'] {
  const t = translator(reportMessages, doc.locale);
  const groupTarget = new Map(Object.entries(GROUP_TARGET).map(([key, target]) => [t(key as keyof ReportMessages), target]));
  const out: Record<BlindSectionId, Block[]> = { conclusion: [], favourable: [], adverse: [], analysis: [] };
  const place = (blocks: Block[], target: BlindSectionId, keepTitles: boolean) => {
    for (const b of blocks) {
      if (b.kind !== 'group') {
        out[target].push(b);
        continue;
      }
      const into = groupTarget.get(b.title) ?? target;
      if (keepTitles && !STRUCTURAL_TITLES.has(b.title)) out[into].push({ kind: 'paragraph', text: b.title });
      place(b.blocks, into, keepTitles);
    }
  };
  for (const section of doc.sections) {
    place(section.blocks, SECTION_TARGET[section.id] ?? 'analysis', section.id !== 'favorable' && section.id !== 'adverse');
  }
  return BLIND_SECTIONS.map((id) => ({ id, title: headings[id], blocks: out[id].length ? out[id] : [{ kind: 'paragraph', text: headings.empty }] }));
}

/** The run's sources, each once (a quoted value belongs to one claim, so it is not kept), by date then name. */
export function blindSources(citations: CitationRef[]): CitationRef[] {
  const byKey = new Map<string, CitationRef>();
  for (const { value: _value, ...c } of citations) {
    const key = [c.date, c.source, c.url ?? '', c.title ?? '', c.verified ? 1 : 0, c.poolNote ?? ''].join('\n');
    if (!byKey.has(key)) byKey.set(key, c);
  }
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/**
 * The blinded report. `turnWord` is "Turn" in the report's own language; `headings` are the
 * neutral section headings in the reader's language.
 */
export function blindReport({ doc, model, turnWord, headings }: { doc: ReportDoc; model: string; turnWord: string; headings: BlindHeadings }): BlindReport {
  const r = redactor({ stepIds: doc.transcript.map((t) => t.step), model, turnWord });
  return {
    companyName: doc.companyName,
    asOf: doc.asOf,
    contentLanguage: doc.contentLanguage,
    sections: neutralSections(doc, headings).map((s) => ({ ...s, blocks: s.blocks.map((b) => blindBlock(b, r)) })),
    sources: blindSources(doc.transcript.filter((t) => t.status === 'done').flatMap((t) => t.citations.map((c) => blindCitation(c, r)))),
  };
}
