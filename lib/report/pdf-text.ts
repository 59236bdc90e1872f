// Reads the text back out of a PDF this app wrote, for tests: each page's content streams are
// inflated and every shown string is mapped through its font's ToUnicode CMap, the same table
// a PDF viewer uses for copy and search. Only what pdf-lib's drawText emits is understood
// (`/Font size Tf` and `<hex> Tj`), which is all the report renderer uses.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';

function streamText(stream: PDFObject | undefined): string {
  if (!(stream instanceof PDFRawStream)) return '';
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
}

function hexToString(hex: string): string {
  const units: number[] = [];
  for (let i = 0; i + 4 <= hex.length; i += 4) units.push(parseInt(hex.slice(i, i + 4), 16));
  return String.fromCharCode(...units);
}

/** Code (as a 4-digit hex glyph id) → text, from `bfchar` and `bfrange` sections. */
export function parseToUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const section of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, src, dst] of section[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(src, 16), hexToString(dst));
  }
  for (const section of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, dst, list] of section[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:<([0-9a-fA-F]+)>|\[([^\]]*)\])/g)) {
      const from = parseInt(lo, 16);
      const to = parseInt(hi, 16);
      if (dst) {
        const base = hexToString(dst);
        for (let code = from; code <= to; code++) map.set(code, base.slice(0, -1) + String.fromCharCode(base.charCodeAt(base.length - 1) + code - from));
      } else {
        const targets = [...(list ?? '').matchAll(/<([0-9a-fA-F]+)>/g)].map((m) => hexToString(m[1]));
        targets.forEach((t, i) => map.set(from + i, t));
      }
    }
  }
  return map;
}

/** The text of each page, one line per shown string. */
export async function extractPdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    const cmaps = new Map<string, Map<number, string>>();
    for (const [name, ref] of fonts?.entries() ?? []) {
      const font = pdf.context.lookup(ref, PDFDict);
      cmaps.set(name.asString(), parseToUnicode(streamText(font.lookup(PDFName.of('ToUnicode')))));
    }
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
    const lines: string[] = [];
    let cmap = new Map<number, string>();
    for (const ops of streams.map((s) => streamText(s as PDFObject))) {
      for (const m of ops.matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (m[1]) cmap = cmaps.get(m[1]) ?? new Map();
        else {
          let line = '';
          for (let i = 0; i + 4 <= m[2].length; i += 4) line += cmap.get(parseInt(m[2].slice(i, i + 4), 16)) ?? '\ufffd';
          lines.push(line);
        }
      }
    }
    return lines.join('\n');
  });
}
