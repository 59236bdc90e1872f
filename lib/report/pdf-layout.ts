// A small flowing-text layout over pdf-lib: wrapped paragraphs, headings, tables and page
// breaks on A4. pdf-lib draws glyphs at coordinates and nothing more, so wrapping, pagination
// and glyph fallback live here.
import { rgb, type PDFDocument, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = { top: 56, bottom: 64, left: 56, right: 56 } as const;
export const COLORS = {
  text: rgb(0.1, 0.1, 0.12),
  muted: rgb(0.35, 0.35, 0.4),
  rule: rgb(0.8, 0.8, 0.84),
  headBg: rgb(0.93, 0.94, 0.96),
  warn: rgb(0.6, 0.25, 0),
  error: rgb(0.6, 0.05, 0.05),
  ok: rgb(0.05, 0.4, 0.15),
} as const;

type TextStyle = {
  size?: number;
  bold?: boolean;
  color?: RGB;
  indent?: number;
  lineGap?: number;
  after?: number;
  /** A label for what follows (a heading, a field's name): kept on the page of its first lines. */
  keepWithNext?: boolean;
};

/** Lines of what follows a heading that must fit under it on its page (fewer when there are fewer). */
const KEEP_LINES = 2;

export class Flow {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  private readonly widths = new Map<string, number>();
  private readonly charset: Set<number>;
  // Headings and labels not drawn yet: they go on the page where what follows them starts.
  private held: { height: number; draw: () => void }[] = [];

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.charset = new Set(fonts.regular.getCharacterSet());
    this.newPage();
  }

  get contentWidth() {
    return A4.width - MARGIN.left - MARGIN.right;
  }

  newPage() {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.pages.push(this.page);
    this.y = A4.height - MARGIN.top;
  }

  /** Moves to a new page unless `height` more points fit on this one. */
  ensure(height: number) {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  /**
   * Before content starts: the headings and labels held for it are drawn, on this page when they
   * and `height` points of the content fit below, else on a new one. So a heading never stands
   * alone at the foot of a page.
   */
  private start(height: number) {
    if (!this.held.length) return this.ensure(height);
    const held = this.held;
    this.held = [];
    const above = held.reduce((sum, h) => sum + h.height, 0);
    // Taller than a page: no page would hold it all; each part breaks as it can.
    if (above + height <= A4.height - MARGIN.top - MARGIN.bottom) this.ensure(above + height);
    for (const h of held) h.draw();
    this.ensure(height);
  }

  /** Draws what is still held (a heading with nothing after it), at the end of the document. */
  finish() {
    this.start(0);
  }

  space(points: number) {
    // Space after a held heading goes with it.
    if (this.held.length) this.held.push({ height: points, draw: () => (this.y -= points) });
    else this.y -= points;
  }

  /** Characters the embedded font lacks become readable stand-ins rather than empty boxes. */
  clean(text: string): string {
    const replaced = text.replace(/\t/g, '    ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
    let out = '';
    for (const ch of replaced) out += ch === '\n' || this.charset.has(ch.codePointAt(0)!) ? ch : '?';
    return out;
  }

  width(text: string, size: number, bold = false): number {
    const key = `${bold ? 'b' : 'r'}${size}:${text}`;
    let w = this.widths.get(key);
    if (w === undefined) {
      w = (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, size);
      this.widths.set(key, w);
    }
    return w;
  }

  /** Lines of at most `maxWidth` points: at spaces where possible, inside a word (a URL) where not. */
  wrap(text: string, size: number, maxWidth: number, bold = false): string[] {
    const lines: string[] = [];
    for (const raw of this.clean(text).split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (const token of raw.split(/(\s+)/).filter(Boolean)) {
        const w = this.width(token, size, bold);
        if (lineWidth + w <= maxWidth) {
          line += token;
          lineWidth += w;
          continue;
        }
        if (/^\s+$/.test(token)) {
          lines.push(line);
          line = '';
          lineWidth = 0;
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        lineWidth = 0;
        if (w <= maxWidth) {
          line = token;
          lineWidth = w;
          continue;
        }
        for (const ch of token) {
          const cw = this.width(ch, size, bold);
          if (lineWidth + cw > maxWidth && line) {
            lines.push(line);
            line = '';
            lineWidth = 0;
          }
          line += ch;
          lineWidth += cw;
        }
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  text(text: string, { size = 10, bold = false, color = COLORS.text, indent = 0, lineGap = 0.45, after = 6, keepWithNext = false }: TextStyle = {}) {
    const leading = size * (1 + lineGap);
    const lines = this.wrap(text, size, this.contentWidth - indent, bold);
    const draw = () => {
      for (const line of lines) {
        this.ensure(leading);
        this.y -= leading;
        if (line)
          this.page.drawText(line, { x: MARGIN.left + indent, y: this.y + size * 0.25, size, font: bold ? this.fonts.bold : this.fonts.regular, color });
      }
      this.y -= after;
    };
    if (keepWithNext) {
      this.held.push({ height: lines.length * leading + after, draw });
      return;
    }
    this.start(Math.min(lines.length, KEEP_LINES) * leading);
    draw();
  }

  /** A heading, drawn with the first lines of what follows it (see `start`). */
  heading(text: string, level: 1 | 2 | 3) {
    const size = level === 1 ? 17 : level === 2 ? 13.5 : 11.5;
    const before = level === 1 ? 8 : 6;
    const after = level === 1 ? 6 : 4;
    const lines = this.wrap(text, size, this.contentWidth, true);
    const height = before + lines.length * size * 1.45 + after + (level === 1 ? 8 : 0);
    this.held.push({
      height,
      draw: () => {
        this.space(before);
        for (const line of lines) {
          this.y -= size * 1.45;
          if (line) this.page.drawText(line, { x: MARGIN.left, y: this.y + size * 0.25, size, font: this.fonts.bold, color: COLORS.text });
        }
        this.y -= after;
        if (level === 1) this.rule();
      },
    });
  }

  rule() {
    this.ensure(6);
    this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: A4.width - MARGIN.right, y: this.y }, thickness: 0.6, color: COLORS.rule });
    this.y -= 8;
  }

  /** A table with wrapped cells; `weights` share the width between the columns. */
  table(head: string[], rows: string[][], weights: number[], size = 8.5) {
    const total = weights.reduce((a, b) => a + b, 0);
    const widths = weights.map((w) => (w / total) * this.contentWidth);
    const pad = 4;
    const leading = size * 1.4;
    const measure = (cells: string[], bold: boolean) => {
      const wrapped = cells.map((c, i) => this.wrap(c, size, widths[i] - pad * 2, bold));
      return { wrapped, height: Math.min(Math.max(1, ...wrapped.map((l) => l.length)) * leading + pad * 2, A4.height - MARGIN.top - MARGIN.bottom) };
    };
    const headRow = measure(head, true);
    const drawRow = ({ wrapped, height }: ReturnType<typeof measure>, bold: boolean) => {
      const top = this.y;
      if (bold) this.page.drawRectangle({ x: MARGIN.left, y: top - height, width: this.contentWidth, height, color: COLORS.headBg });
      let x = MARGIN.left;
      wrapped.forEach((lines, i) => {
        let y = top - pad;
        for (const line of lines) {
          y -= leading;
          // A cell taller than the page is cut at the bottom margin rather than drawn off the page.
          if (y < MARGIN.bottom - leading) break;
          if (line) this.page.drawText(line, { x: x + pad, y: y + size * 0.3, size, font: bold ? this.fonts.bold : this.fonts.regular, color: COLORS.text });
        }
        x += widths[i];
      });
      this.y = Math.max(top - height, MARGIN.bottom);
      this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: A4.width - MARGIN.right, y: this.y }, thickness: 0.4, color: COLORS.rule });
    };
    // The header row starts on the page of the first row, and is drawn again at the top of every
    // page the table goes on to, so no row stands without its column names.
    const first = rows.length ? measure(rows[0], false) : null;
    this.start(headRow.height + (first?.height ?? 0));
    drawRow(headRow, true);
    rows.forEach((row, i) => {
      const measured = i === 0 && first ? first : measure(row, false);
      if (this.y - measured.height < MARGIN.bottom) {
        this.newPage();
        drawRow(headRow, true);
      }
      drawRow(measured, false);
    });
    this.y -= 8;
  }
}
