// What an evaluator may see of a report: the report's sections and the turns' text, with every
// trace of the system that wrote it removed, in HTML and API responses alike (docs/security.md).
// Step ids (D1–D10, AG, NAS, …) name the protocol, so references to them in the model's own
// text become "Turn n"; speakers become neutral roles; no run id, model, provider or protocol.
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { Block, CitationRef, ReportDoc } from '@/lib/report/model';

export type BlindSpeaker = 'affirmative' | 'negative' | 'analyst';
export type BlindTurn = { n: number; speaker: BlindSpeaker; text: string; questions: string[]; citations: CitationRef[] };
export type BlindReport = {
  companyName: string;
  asOf: string;
  contentLanguage: ReportDoc['contentLanguage'];
  sections: { title: string; blocks: Block[] }[];
  turns: BlindTurn[];
};

/** Display names of the protocols and their short forms ("Single agent (NAS)" and "NAS"). */
const PROTOCOL_NAMES: string[] = Object.values(PROTOCOLS_BY_ID).flatMap((p) => {
  const inner = /\(([^)]+)\)/.exec(p.name)?.[1];
  return inner ? [p.name, inner] : [p.name];
});

// Word edges in Latin letters only: Korean particles attach to an id ("D3의"), and the id must go.
const EDGE_BEFORE = '(?<![A-Za-z0-9_])';
const EDGE_AFTER = '(?![A-Za-z0-9_])';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function that rewrites step ids to "Turn n" and masks protocol and model names. Ids of one
 * letter (SAS's `C`) are left alone: as a word they are ordinary text and name nothing.
 */
export function redactor({ stepIds, model, turnWord }: { stepIds: string[]; model: string; turnWord: string }) {
  const turnOf = new Map(stepIds.map((id, i) => [id, i + 1]));
  const ids = stepIds.filter((id) => id.length > 1).sort((a, b) => b.length - a.length);
  const stepRe = ids.length ? new RegExp(`${EDGE_BEFORE}(${ids.map(escape).join('|')})${EDGE_AFTER}`, 'g') : null;
  const names = [...PROTOCOLS, ...PROTOCOL_NAMES, model].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
  const nameRe = new RegExp(`${EDGE_BEFORE}(${names.map(escape).join('|')})${EDGE_AFTER}`, 'gi');
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
  return { source: r(c.source), date: c.date, value: c.value ? r(c.value) : undefined, verified: c.verified, url: c.url, title: c.title ? r(c.title) : undefined, poolNote: c.poolNote };
}

const SPEAKER: Record<string, BlindSpeaker> = { affirmative: 'affirmative', negative: 'negative' };

/**
 * The blinded report. `teams` are the raw teams of the turns (the doc's are translated), in
 * transcript order; `turnWord` is "Turn" in the report's own language.
 */
export function blindReport({ doc, teams, model, turnWord }: { doc: ReportDoc; teams: string[]; model: string; turnWord: string }): BlindReport {
  const r = redactor({ stepIds: doc.transcript.map((t) => t.step), model, turnWord });
  return {
    companyName: doc.companyName,
    asOf: doc.asOf,
    contentLanguage: doc.contentLanguage,
    sections: doc.sections.map((s) => ({ title: r(s.title), blocks: s.blocks.map((b) => blindBlock(b, r)) })),
    turns: doc.transcript
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.status === 'done')
      .map(({ t, i }) => ({
        n: i + 1,
        speaker: SPEAKER[teams[i]] ?? 'analyst',
        text: r(t.text),
        questions: t.questions.map(r),
        citations: t.citations.map((c) => blindCitation(c, r)),
      })),
  };
}
