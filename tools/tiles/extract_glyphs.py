"""Write glyphs.json: every character a tile shows, as SVG path outlines in tile units.

The tiles draw their characters as paths, never <text>, so they look the same on a machine
with no CJK font. The outlines come from two sources, both free to reuse:

- FluffyStuff's riichi mahjong tiles (https://github.com/FluffyStuff/riichi-mahjong-tiles,
  `Regular/*.svg`, public domain, CC0 1.0): the numerals and 萬 of the characters suit, the
  four winds, 發 and 中.
- WenQuanYi Micro Hei (Debian's `fonts-wqy-microhei`, `wqy-microhei.ttc`, Apache-2.0): the
  flowers 梅蘭菊竹, the seasons 春夏秋冬 and the digits 1-4 of the bonus tiles, which the
  riichi set lacks.

A tool for whoever redraws the tiles, not part of the app or its tests (it needs svgelements
and fontTools, which neither installs):

    python tools/tiles/extract_glyphs.py FLUFFY_REGULAR_DIR WQY_MICROHEI_TTC

then `python tools/tiles/make_tiles.py`, which reads glyphs.json with the standard library.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# FluffyStuff's tiles are 300 x 400; ours 60 x 80 with the face centred on (29, 38).
SCALE = 0.17
CX, CY = 29, 38

FLUFFY = {**{f"m{n}": f"Man{n}" for n in range(1, 10)},
          "z1": "Ton", "z2": "Nan", "z3": "Shaa", "z4": "Pei", "z6": "Hatsu", "z7": "Chun"}
RED = "#b93c3c"                 # the red of FluffyStuff's 萬 and 中
FONT_CHARS = "梅蘭菊竹春夏秋冬1234"

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def tidy(d: str) -> str:
    """A path with every number rounded to one decimal (a tenth of a tile unit)."""
    def one(match: re.Match) -> str:
        text = f"{float(match[0]):.1f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return re.sub(r"\s*([A-Za-z])\s*", r"\1", NUMBER.sub(one, d))


def fluffy_paths(path: Path) -> list[tuple[bool, str]]:
    """(is_red, d) for every shape of one FluffyStuff tile, in our tile's units."""
    from svgelements import SVG, Matrix, Shape
    from svgelements import Path as SvgPath
    place = Matrix(f"translate({CX - 150 * SCALE}, {CY - 200 * SCALE}) scale({SCALE})")
    out = []
    for element in SVG.parse(str(path)).elements():
        if isinstance(element, Shape):
            shape = SvgPath(element) * place
            shape.reify()
            out.append((str(element.fill).lower() == RED, tidy(shape.d(relative=False))))
    return out


def font_paths(ttc: Path) -> dict[str, str]:
    """Each bonus character as one path, its em box 1 unit wide at the origin (y down)."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.ttLib import TTCollection
    font = TTCollection(str(ttc)).fonts[0]
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    em = font["head"].unitsPerEm
    ascent = font["hhea"].ascent
    out = {}
    for char in FONT_CHARS:
        pen = SVGPathPen(glyphs)
        glyphs[cmap[ord(char)]].draw(TransformPen(pen, (100 / em, 0, 0, -100 / em, 0,
                                                        100 * ascent / em)))
        out[char] = tidy(pen.getCommands())
    return out


def main(argv: list[str]) -> int:
    fluffy_dir, ttc = Path(argv[0]), Path(argv[1])
    data = {"fluffy": {}, "font": font_paths(ttc)}
    for code, name in FLUFFY.items():
        shapes = fluffy_paths(fluffy_dir / f"{name}.svg")
        data["fluffy"][code] = {"ink": [d for red, d in shapes if not red],
                                "red": [d for red, d in shapes if red]}
    (HERE / "glyphs.json").write_text(json.dumps(data, ensure_ascii=False, indent=0,
                                                 sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'glyphs.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
