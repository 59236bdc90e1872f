// The report as Markdown. Everything that came from a model, an evidence item or a user is
// escaped: it renders as the text it is, can neither open HTML nor links, and cannot break a
// table or a list, whatever Markdown viewer the RM opens it in.
import type { Block, CitationRef, ReportDoc } from '@/lib/report/model';
import { BIDI_CONTROLS } from '@/lib/pool/import/schemas';
import { POOL_NOTE_LABEL } from '@/lib/domain/cited-source';

/**
 * Inline text: HTML and Markdown punctuation neutralised, newlines kept as `<br>` or hard breaks.
 * `<` and `>` become entities (a tag or an autolink cannot open in any viewer); an ampersand is
 * literal in Markdown, so it is left as it is ("Engineering & Construction", not "&amp;") unless it
 * would start a character reference ("&amp;" in the source text stays visible as such).
 */
export function escapeInline(text: string): string {
  return (
    text
      .replace(/&(?=#?[A-Za-z0-9]+;)|[<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
      .replace(/[\\`*_[\]{}|~#!]/g, (c) => `\\${c}`)
      // Invisible direction controls are shown as their code points.
      .replace(BIDI_CONTROLS, (c) => `&lt;U+${c.charCodeAt(0).toString(16).toUpperCase()}&gt;`)
      .replace(/\r\n?/g, '\n')
  );
}

/** A line of text that may start a block: a leading `-`, `+`, `=` or `1.` would make a list or heading. */
function escapeLineStart(line: string): string {
  return line.replace(/^(\s*)([-+=]|\d+[.)])/, (_, space: string, mark: string) => `${space}${mark.replace(/([-+=.)])$/, '\\$1')}`);
}

function paragraph(text: string): string {
  return escapeInline(text.trim())
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((line) => escapeLineStart(line.trim()))
        .join('  \n'),
    )
    .join('\n\n');
}

/** Text inside a list item or a table cell: one physical line. */
function cell(text: string): string {
  return escapeInline(text.trim()).replace(/\n+/g, '<br>') || ' ';
}

/** Only http(s) links, percent-encoded so the URL cannot end the link early. */
export function safeUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.href.replace(/[()<>\s[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  } catch {
    return null;
  }
}

/** A finished run's citation names the pool item as the run cited it; it says when the pool has changed since. */
type CitationLabels = Pick<ReportDoc['labels'], 'unverified' | 'afterAsOfLong' | 'changedInPool' | 'removedFromPool' | 'notFrozen'>;

export function citationLine(c: CitationRef, labels: CitationLabels): string {
  const parts = [c.date || '—', c.source || '—'];
  if (c.value) parts.push(c.value);
  let line = parts.map(cell).join(' — ');
  const url = safeUrl(c.url);
  if (url) line += ` — [${cell(c.title ?? url)}](${url})`;
  if (c.afterAsOf) line += ` — **⚠ ${escapeInline(labels.afterAsOfLong)}**`;
  else if (!c.verified) line += ` — **⚠ ${escapeInline(labels.unverified)}**`;
  if (c.poolNote) line += ` — **⚠ ${escapeInline(labels[POOL_NOTE_LABEL[c.poolNote]])}**`;
  return line;
}

/** A red flag as one list line: kind, date, the item's title and, when known, a link to its source. */
export function redFlagLine(f: ReportDoc['redFlags'][number], alsoIn?: string): string {
  let line = `**${escapeInline(f.label)}** — ${cell(f.date)} — ${cell(f.title)}`;
  const url = safeUrl(f.url);
  if (url) line += ` — [${cell(f.source ?? url)}](${url})`;
  else if (f.source) line += ` — ${cell(f.source)}`;
  // One event reported by more items is one flag that names each of them.
  if (alsoIn && f.alsoEvidenceIds?.length) line += ` — ${escapeInline(alsoIn)}: ${f.alsoEvidenceIds.map(cell).join(', ')}`;
  return line;
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `|${head.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}

function blocks(list: Block[], doc: ReportDoc, level: number): string[] {
  return list.flatMap((b): string[] => {
    switch (b.kind) {
      case 'paragraph':
        return [paragraph(b.text)];
      case 'list':
        return [b.items.map((item) => `- ${cell(item)}`).join('\n')];
      case 'fields':
        return b.items.map((f) => `**${escapeInline(f.label)}:** ${paragraph(f.value)}`);
      case 'citations':
        return [
          `**${escapeInline(doc.labels.citations)}**`,
          b.items.length ? b.items.map((c, i) => `${i + 1}. ${citationLine(c, doc.labels)}`).join('\n') : escapeInline(doc.labels.noCitations),
        ];
      case 'table':
        return [table(b.head, b.rows)];
      case 'note':
        return [`> ${paragraph(b.text).replace(/\n/g, '\n> ')}`];
      case 'group':
        return [`${'#'.repeat(Math.min(level, 6))} ${escapeInline(b.title)}`, ...blocks(b.blocks, doc, level + 1)];
    }
  });
}

export function renderMarkdown(doc: ReportDoc): string {
  const out: string[] = [];
  out.push(`# ${escapeInline(doc.title)}`, `_${escapeInline(doc.subtitle)}_`);
  // Decisive credit events before anything else; no heading at all when there are none.
  if (doc.redFlags.length) {
    out.push(
      `## ⚠ ${escapeInline(doc.redFlagLabels.heading)} (${doc.redFlags.length})`,
      paragraph(doc.redFlagLabels.intro),
      doc.redFlags.map((f) => `- ${redFlagLine(f, doc.redFlagLabels.alsoIn)}`).join('\n'),
    );
  }
  // Failed final checks next, with their counts, so nobody reads the report as clean by mistake.
  if (doc.failedChecks) {
    out.push(
      `## ⚠ ${escapeInline(doc.failedChecks.title)}`,
      paragraph(doc.failedChecks.text),
      doc.failedChecks.lines.map((l) => `- ${cell(l.text)}`).join('\n'),
    );
  }
  out.push(
    table(
      ['', ''],
      doc.header.map((f) => [f.label, f.value]),
    ),
  );
  // Who and what produced the analysis, and who decided on it (docs/oversight.md): one short block each.
  for (const block of [doc.aiAssisted, doc.humanOversight]) {
    if (block) out.push(`## ${escapeInline(block.title)}`, block.lines.map((l) => `- ${cell(l)}`).join('\n'));
  }
  out.push(
    `## ${escapeInline(doc.labels.metrics)}`,
    table(
      ['', ''],
      doc.metrics.map((f) => [f.label, f.value]),
    ),
  );
  if (doc.notice) out.push(`> **${escapeInline(doc.notice.title ?? doc.labels.reportSection)}** — ${cell(doc.notice.text)}`);
  if (doc.sourcesNote) out.push(`> **⚠ ${escapeInline(doc.labels.notFrozen)}** — ${cell(doc.sourcesNote)}`);

  if (doc.sections.length === 0) out.push(`## ${escapeInline(doc.labels.reportSection)}`, escapeInline(doc.labels.noReport));
  for (const section of doc.sections) out.push(`## ${escapeInline(section.title)}`, ...blocks(section.blocks, doc, 3));

  out.push(`## ${escapeInline(doc.labels.checks)}`);
  if (doc.checks.length === 0) out.push(escapeInline(doc.labels.noChecks));
  else {
    out.push(
      doc.checks
        .map((c) => {
          const head = `- **${escapeInline(c.ok ? doc.labels.checkPassed : doc.labels.checkFlagged)}** — ${cell(c.label)}`;
          return [head, ...c.items.map((item) => `  - ${cell(item)}`)].join('\n');
        })
        .join('\n'),
    );
  }

  // A red-flag screening has no debate, so no transcript.
  if (doc.transcript.length) out.push(`## ${escapeInline(doc.labels.transcript)}`, escapeInline(doc.labels.transcriptNote));
  for (const turn of doc.transcript) {
    const heading = turn.title === turn.step ? [turn.step, turn.speaker, turn.team, turn.act] : [turn.title, turn.speaker];
    out.push(`### ${heading.map(escapeInline).join(' · ')}`, paragraph(turn.text));
    if (turn.flags.length) out.push(turn.flags.map((line) => `- **⚠** ${cell(line)}`).join('\n'));
    if (turn.questions.length) out.push(`**${escapeInline(doc.labels.questionsLabel)}**`, turn.questions.map((q) => `- ${cell(q)}`).join('\n'));
    if (turn.citations.length) {
      out.push(`**${escapeInline(doc.labels.citations)}**`, turn.citations.map((c, i) => `${i + 1}. ${citationLine(c, doc.labels)}`).join('\n'));
    }
  }
  return `${out.filter((s) => s.trim()).join('\n\n')}\n`;
}
