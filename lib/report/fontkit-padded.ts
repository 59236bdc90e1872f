// @pdf-lib/fontkit 1.1.1 with one fix. Its TrueType subsetter writes the `loca` table in the
// short format (offsets / 2) whenever the subset is small, but copies glyph records of odd
// length unpadded, so every glyph after the first odd one points half a byte off and renders
// blank (Pretendard and Noto Sans KR both lose most letters). Padding each glyph record to an
// even length, as the TrueType spec recommends, makes the short offsets exact again.
import fontkit from '@pdf-lib/fontkit';

type Bytes = Uint8Array & { constructor: { alloc(n: number): Uint8Array } };
type SubsetInternals = { glyf: Bytes[]; offset: number; _addGlyph(gid: number): number };

let patched = false;

function padGlyphRecords(font: { createSubset(): unknown }) {
  if (patched) return;
  const proto = Object.getPrototypeOf(font.createSubset()) as SubsetInternals;
  const addGlyph = proto._addGlyph;
  proto._addGlyph = function (this: SubsetInternals, gid: number) {
    const index = addGlyph.call(this, gid);
    const last = this.glyf[this.glyf.length - 1];
    if (last.length % 2 === 1) {
      // The library's own Buffer class, so its encoder accepts the record.
      const padded = last.constructor.alloc(last.length + 1);
      padded.set(last);
      this.glyf[this.glyf.length - 1] = padded as Bytes;
      this.offset += 1;
    }
    return index;
  };
  patched = true;
}

/** Pass to `PDFDocument.registerFontkit`. */
export const paddedFontkit: typeof fontkit = {
  ...fontkit,
  create(...args: Parameters<typeof fontkit.create>) {
    const font = fontkit.create(...args);
    padGlyphRecords(font as unknown as { createSubset(): unknown });
    return font;
  },
};
