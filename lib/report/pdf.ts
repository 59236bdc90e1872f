// The report as a PDF built on the server: a title page, the report sections, the final
// checks and the transcript appendix, with page numbers. The embedded font (Pretendard, OFL,
// lib/report/fonts/) covers Hangul and Latin; only the glyphs used are embedded.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { paddedFontkit } from '@/lib/report/fontkit-padded';
import type { Block, CitationRef, ReportDoc } from '@/lib/report/model';
import { POOL_NOTE_LABEL } from '@/lib/domain/cited-source';
import { A4, COLORS, Flow, MARGIN } from '@/lib/report/pdf-layout';

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | null = null;

function loadFonts() {
  fontBytes ??= (async () => {
    const dir = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib', 'report', 'fonts');
    const [regular, bold] = await Promise.all([fs.readFile(path.join(dir, 'Pretendard-Regular.ttf')), fs.readFile(path.join(dir, 'Pretendard-Bold.ttf'))]);
    return { regular, bold };
  })().catch((err) => {
    fontBytes = null;
    throw err;
  });
  return fontBytes;
}

function citationText(c: CitationRef, labels: ReportDoc['labels']) {
  return [
    c.date || '—',
    c.source || '—',
    c.value,
    c.title && c.url ? `${c.title} <${c.url}>` : c.url,
    c.afterAsOf ? `⚠ ${labels.afterAsOfLong}` : c.verified ? null : `⚠ ${labels.unverified}`,
    // A finished run's source is as the run cited it; the pool may read differently now.
    c.poolNote ? `⚠ ${labels[POOL_NOTE_LABEL[c.poolNote]]}` : null,
  ]
    .filter(Boolean)
    .join(' — ');
}

function drawBlocks(flow: Flow, blocks: Block[], doc: ReportDoc, depth: number) {
  for (const b of blocks) {
    switch (b.kind) {
      case 'paragraph':
        flow.text(b.text);
        break;
      case 'list':
        for (const item of b.items) flow.text(`• ${item}`, { indent: 8, after: 3 });
        flow.space(3);
        break;
      case 'fields':
        for (const f of b.items) {
          flow.text(f.label, { bold: true, size: 9.5, after: 1, keepWithNext: true });
          flow.text(f.value, { indent: 8, after: 5 });
        }
        break;
      case 'citations':
        flow.text(doc.labels.citations, { bold: true, size: 9, color: COLORS.muted, after: 2, keepWithNext: true });
        if (b.items.length === 0) flow.text(doc.labels.noCitations, { size: 8.5, color: COLORS.muted });
        b.items.forEach((c, i) =>
          flow.text(`${i + 1}. ${citationText(c, doc.labels)}`, {
            size: 8.5,
            indent: 8,
            after: 2,
            color: c.verified && !c.poolNote ? COLORS.muted : COLORS.warn,
          }),
        );
        flow.space(4);
        break;
      case 'table':
        flow.table(
          b.head,
          b.rows,
          b.head.map((h, i) => (b.rows.some((r) => (r[i] ?? '').length > 40) ? 4 : 1)),
        );
        break;
      case 'note':
        flow.text(b.text, { color: b.tone === 'error' ? COLORS.error : COLORS.warn });
        break;
      case 'group':
        flow.heading(b.title, depth >= 3 ? 3 : 2);
        drawBlocks(flow, b.blocks, doc, depth + 1);
        break;
    }
  }
}

export async function renderPdf(doc: ReportDoc, { now = new Date() }: { now?: Date } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(paddedFontkit);
  const bytes = await loadFonts();
  const fonts = { regular: await pdf.embedFont(bytes.regular, { subset: true }), bold: await pdf.embedFont(bytes.bold, { subset: true }) };
  pdf.setTitle(doc.title, { showInWindowTitleBar: true });
  pdf.setSubject(`${doc.protocolName} — ${doc.companyName} — ${doc.asOf}`);
  pdf.setAuthor('Crosscheck');
  pdf.setCreator('Crosscheck');
  pdf.setProducer('Crosscheck (pdf-lib)');
  pdf.setLanguage(doc.locale === 'ko' ? 'ko-KR' : 'en-US');
  pdf.setCreationDate(now);
  pdf.setModificationDate(now);

  const flow = new Flow(pdf, fonts);
  // Title page.
  flow.space(120);
  flow.text(doc.title, { size: 24, bold: true, after: 10 });
  flow.text(doc.subtitle, { size: 12, color: COLORS.muted, after: 28 });
  // Decisive credit events before anything else; nothing when there are none.
  if (doc.redFlags.length) {
    flow.text(`⚠ ${doc.redFlagLabels.heading} (${doc.redFlags.length})`, { size: 14, bold: true, color: COLORS.error, after: 4, keepWithNext: true });
    flow.text(doc.redFlagLabels.intro, { size: 9.5, color: COLORS.error, after: 6 });
    for (const f of doc.redFlags) {
      flow.text(`• ${f.label} — ${f.date}`, { bold: true, size: 10.5, color: COLORS.error, after: 1, keepWithNext: true });
      flow.text([f.title, f.source && f.url ? `${f.source} <${f.url}>` : (f.url ?? f.source)].filter(Boolean).join(' — '), {
        size: 9.5,
        indent: 10,
        after: f.alsoEvidenceIds?.length ? 1 : 5,
      });
      if (f.alsoEvidenceIds?.length) flow.text(`${doc.redFlagLabels.alsoIn}: ${f.alsoEvidenceIds.join(', ')}`, { size: 9.5, indent: 10, after: 5 });
    }
    flow.space(18);
  }
  // Failed final checks next, with their counts, on the cover where nobody misses them.
  if (doc.failedChecks) {
    flow.text(`⚠ ${doc.failedChecks.title}`, { size: 14, bold: true, color: COLORS.error, after: 4, keepWithNext: true });
    flow.text(doc.failedChecks.text, { size: 9.5, color: COLORS.error, after: 6 });
    for (const l of doc.failedChecks.lines) flow.text(`• ${l.text}`, { size: 10.5, color: COLORS.error, after: 3 });
    flow.space(18);
  }
  flow.text(doc.companyName, { size: 16, bold: true, after: 4 });
  flow.text(`${doc.protocolName} · ${doc.asOf}`, { size: 12, after: 28 });
  flow.rule();
  for (const f of doc.header) flow.text(`${f.label}: ${f.value}`, { size: 10, after: 3 });
  // Who and what produced the analysis, and who decided on it (docs/oversight.md).
  for (const block of [doc.aiAssisted, doc.humanOversight]) {
    if (!block) continue;
    flow.space(10);
    flow.text(block.title, { bold: true, size: 11, after: 4 });
    for (const line of block.lines) flow.text(`• ${line}`, { size: 10, after: 3 });
  }
  flow.space(10);
  flow.text(doc.labels.metrics, { bold: true, size: 11, after: 4, keepWithNext: true });
  for (const f of doc.metrics) flow.text(`${f.label}: ${f.value}`, { size: 10, after: 3 });
  if (doc.notice) {
    flow.space(12);
    if (doc.notice.title)
      flow.text(doc.notice.title, { bold: true, color: doc.notice.tone === 'error' ? COLORS.error : COLORS.text, after: 2, keepWithNext: true });
    flow.text(doc.notice.text, { color: doc.notice.tone === 'error' ? COLORS.error : COLORS.text });
  }
  if (doc.sourcesNote) {
    flow.space(12);
    flow.text(`⚠ ${doc.labels.notFrozen}`, { bold: true, color: COLORS.warn, after: 2, keepWithNext: true });
    flow.text(doc.sourcesNote, { color: COLORS.warn });
  }

  // The report.
  flow.newPage();
  if (doc.sections.length === 0) {
    flow.heading(doc.labels.reportSection, 1);
    flow.text(doc.labels.noReport);
  }
  for (const section of doc.sections) {
    flow.heading(section.title, 1);
    drawBlocks(flow, section.blocks, doc, 2);
  }

  flow.heading(doc.labels.checks, 1);
  if (doc.checks.length === 0) flow.text(doc.labels.noChecks);
  for (const c of doc.checks) {
    flow.text(`${c.ok ? '✓' : '⚠'} ${c.ok ? doc.labels.checkPassed : doc.labels.checkFlagged} — ${c.label}`, {
      bold: true,
      size: 10,
      color: c.ok ? COLORS.ok : COLORS.warn,
      after: 2,
      keepWithNext: c.items.length > 0,
    });
    for (const item of c.items) flow.text(`• ${item}`, { size: 9, indent: 12, after: 1 });
    flow.space(4);
  }

  // Appendix: the transcript (a red-flag screening has none).
  if (doc.transcript.length) {
    flow.newPage();
    flow.heading(doc.labels.transcript, 1);
    flow.text(doc.labels.transcriptNote, { color: COLORS.muted });
  }
  for (const turn of doc.transcript) {
    flow.heading((turn.title === turn.step ? [turn.step, turn.speaker, turn.team, turn.act] : [turn.title, turn.speaker]).join(' · '), 3);
    flow.text(turn.text, { size: 9.5, color: turn.status === 'failed' ? COLORS.error : COLORS.text });
    for (const line of turn.flags) flow.text(`⚠ ${line}`, { size: 9, color: COLORS.warn, after: 2 });
    if (turn.questions.length) {
      flow.text(doc.labels.questionsLabel, { bold: true, size: 9, color: COLORS.muted, after: 2, keepWithNext: true });
      for (const q of turn.questions) flow.text(`• ${q}`, { size: 9, indent: 8, after: 2 });
    }
    if (turn.citations.length) drawBlocks(flow, [{ kind: 'citations', items: turn.citations }], doc, 3);
  }

  flow.finish();
  // Page numbers and a running title, now that the page count is known.
  const total = flow.pages.length;
  flow.pages.forEach((page, i) => {
    const label = flow.clean(doc.labels.pageOf(i + 1, total));
    const size = 8;
    page.drawText(label, { x: A4.width - MARGIN.right - fonts.regular.widthOfTextAtSize(label, size), y: 30, size, font: fonts.regular, color: COLORS.muted });
    if (i > 0) {
      const title = flow.wrap(doc.title, size, A4.width / 2)[0] ?? '';
      page.drawText(title, { x: MARGIN.left, y: 30, size, font: fonts.regular, color: COLORS.muted });
    }
  });
  return pdf.save();
}
