#!/usr/bin/env python3
"""Writes the web interface's Hangul font (app/fonts/pretendard-hangul-*.woff2) from the Pretendard
the PDFs embed (lib/report/fonts). Kept to the 2,350 syllables of KS X 1001 (every syllable in
everyday Korean text), the compatibility jamo and CJK punctuation: about 160 KB a weight instead of
2.7 MB. Latin text is Inter's, so none of it is kept. Needs fontTools and brotli
(Debian: apt-get install python3-fonttools python3-brotli; run with /usr/bin/python3).
"""
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent


def ks_x_1001_syllables():
    # The KS X 1001 Hangul block: rows 0xB0-0xC8, cells 0xA1-0xFE in EUC-KR.
    return [ord(bytes([row, cell]).decode("euc_kr")) for row in range(0xB0, 0xC9) for cell in range(0xA1, 0xFF)]


def main():
    codepoints = ks_x_1001_syllables() + list(range(0x3131, 0x318F)) + list(range(0x3000, 0x3019))
    for weight, number in (("Regular", 400), ("Bold", 700)):
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = []
        options.hinting = False
        options.desubroutinize = True
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
        font = TTFont(ROOT / "lib/report/fonts" / f"Pretendard-{weight}.ttf")
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=codepoints)
        subsetter.subset(font)
        out = ROOT / "app/fonts" / f"pretendard-hangul-{number}.woff2"
        font.flavor = "woff2"
        font.save(out)
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
