"""Draw the tile images: one SVG per tile, named by its code (5s.svg, fl1.svg), plus back.svg,
and sprite.svg, every tile in one file for the pages (`sprite.svg#t5s` shows the 5 Bamboo).

Pure standard library. The accessible names come from app.hands.tiles, so they cannot drift:

    python tools/tiles/make_tiles.py            # writes into static/tiles/
    python tools/tiles/make_tiles.py --out DIR  # writes somewhere else (the tests compare)

Every character is drawn as paths (glyphs.json, made by extract_glyphs.py from FluffyStuff's
public-domain riichi tiles and, for the flowers and seasons, WenQuanYi Micro Hei's outlines),
never as <text>: a tile looks the same on a machine without a CJK font.

Output is deterministic: running the script twice gives byte-identical files.
Every image is 60 x 80 user units; the ivory face is x 1-57, y 1-75, with a
darker body showing below and to the right as the tile's thickness.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# The served folder the pictures go to; this script and glyphs.json stay out of it (build
# inputs are not served).
SERVED = ROOT / "static" / "tiles"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.hands.tiles import TILES  # noqa: E402  (needs the repo root on sys.path)

WIDTH, HEIGHT = 60, 80
CX, CY = 29, 38            # centre of the face
BACK_LABEL = "Hidden tile"

GLYPHS = json.loads((HERE / "glyphs.json").read_text(encoding="utf-8"))

IVORY = "#fffbef"
INK = "#1b2448"            # dark blue-black
RED = "#c8102e"
GREEN = "#16804a"
DARK_GREEN = "#0d5a33"
BLUE = "#1f4fa0"
FLOWER = "#b3124f"         # bonus tiles: flowers red/pink, seasons blue
SEASON = "#1762a7"

FLOWER_CHARS = "梅蘭菊竹"
SEASON_CHARS = "春夏秋冬"


def num(value: float) -> str:
    """A number for SVG: rounded to 2 places, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attrs(**kw: object) -> str:
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        parts.append(f"{name}={quoteattr(str(value))}")
    return " ".join(parts)


def el(tag: str, **kw: object) -> str:
    return f"<{tag} {attrs(**kw)}/>"


# ---------------------------------------------------------------- the tile itself

def tile_body(face: str = IVORY, body: str = "#d8c9a3", edge: str = "#a8976e") -> list[str]:
    """Shadow, thickness and the rounded face."""
    return [
        el("rect", x=2.2, y=2.6, width=57.6, height=77.2, rx=6.5, fill="#000", opacity=0.16),
        el("rect", x=1, y=1, width=58, height=78, rx=6.5, fill=body, stroke=edge,
           stroke_width=0.8),
        el("rect", x=1, y=1, width=56, height=74, rx=6, fill=face, stroke="#c9b98f",
           stroke_width=0.8),
        # a soft highlight along the top-left of the face
        el("path", d="M3.5 70V7.5Q3.5 3.5 7.5 3.5H50", fill="none", stroke="#ffffff",
           stroke_width=1.2, stroke_linecap="round", opacity=0.9),
    ]


def outline(code: str) -> list[str]:
    """A suit or honour tile's characters as FluffyStuff drew them: ink, then red."""
    shapes = GLYPHS["fluffy"][code]
    colour = {"z6": GREEN, "z7": RED}.get(code, INK)
    return ([el("path", d=d, fill=colour) for d in shapes["ink"]]
            + [el("path", d=d, fill=RED) for d in shapes["red"]])


def glyph(char: str, size: float, fill: str, cx: float, cy: float) -> str:
    """One character of the font outlines (a 100-unit em box), its em box centred on (cx, cy)."""
    scale = size / 100
    place = f"translate({num(cx - size / 2)} {num(cy - size / 2)}) scale({num(scale)})"
    return el("path", d=GLYPHS["font"][char], fill=fill, transform=place)


# ---------------------------------------------------------------- characters

def characters(rank: int) -> list[str]:
    return outline(f"m{rank}")


# ---------------------------------------------------------------- dots

def dot(cx: float, cy: float, r: float, colour: str) -> list[str]:
    """One coin: coloured ring, ivory gap, coloured centre with a pale eye."""
    return [
        el("circle", cx=float(cx), cy=float(cy), r=float(r), fill=colour),
        el("circle", cx=float(cx), cy=float(cy), r=r * 0.74, fill=IVORY),
        el("circle", cx=float(cx), cy=float(cy), r=r * 0.52, fill=colour),
        el("circle", cx=float(cx), cy=float(cy), r=r * 0.2, fill=IVORY),
    ]


def big_dot() -> list[str]:
    """The ornate single coin of 1 dot."""
    cx, cy = float(CX), float(CY)
    out = [
        el("circle", cx=cx, cy=cy, r=22.0, fill=GREEN),
        el("circle", cx=cx, cy=cy, r=19.6, fill=IVORY),
    ]
    for i in range(16):  # a ring of beads, alternating colours
        a = 2 * math.pi * i / 16
        out.append(el("circle", cx=cx + 16.4 * math.cos(a), cy=cy + 16.4 * math.sin(a),
                      r=2.3, fill=BLUE if i % 2 else RED))
    out += [
        el("circle", cx=cx, cy=cy, r=12.6, fill=BLUE),
        el("circle", cx=cx, cy=cy, r=10.4, fill=IVORY),
    ]
    for i in range(8):  # petals
        a = 2 * math.pi * (i + 0.5) / 8
        deg = math.degrees(a)
        px, py = cx + 6.4 * math.cos(a), cy + 6.4 * math.sin(a)
        out.append(el("ellipse", cx=px, cy=py, rx=3.4, ry=1.7, fill=GREEN,
                      transform=f"rotate({num(deg)} {num(px)} {num(py)})"))
    out += [
        el("circle", cx=cx, cy=cy, r=3.6, fill=RED),
        el("circle", cx=cx, cy=cy, r=1.3, fill=IVORY),
    ]
    return out


B, G, R = BLUE, GREEN, RED
DOT_LAYOUTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(29, 21, 12.5, G), (29, 55, 12.5, B)],
    3: [(14, 15.5, 10, B), (29, 38, 10, R), (44, 60.5, 10, G)],
    4: [(17, 24, 10.5, B), (41, 24, 10.5, G), (17, 52, 10.5, G), (41, 52, 10.5, B)],
    5: [(15.5, 16, 9.3, B), (42.5, 16, 9.3, G), (29, 38, 9.3, R),
        (15.5, 60, 9.3, G), (42.5, 60, 9.3, B)],
    6: [(18, 15, 8.8, G), (40, 15, 8.8, G),
        (18, 40, 8.8, R), (40, 40, 8.8, R), (18, 61, 8.8, R), (40, 61, 8.8, R)],
    7: [(13, 12, 6.8, G), (29, 19.5, 6.8, G), (45, 27, 6.8, G),
        (18.5, 44, 8, R), (39.5, 44, 8, R), (18.5, 62, 8, R), (39.5, 62, 8, R)],
    8: [(18.5, y, 7.6, B) for y in (13, 29.7, 46.3, 63)],
    9: [(x, y, 7.4, c) for y, c in ((15, B), (38, R), (61, G)) for x in (12.5, 29, 45.5)],
}
DOT_LAYOUTS[8] += [(39.5, y, 7.6, B) for y in (13, 29.7, 46.3, 63)]


def dots(rank: int) -> list[str]:
    if rank == 1:
        return big_dot()
    out: list[str] = []
    for cx, cy, r, colour in DOT_LAYOUTS[rank]:
        out += dot(cx, cy, r, colour)
    return out


# ---------------------------------------------------------------- bamboo

def stick(cx: float, cy: float, length: float, colour: str = GREEN, angle: float = 0,
          width: float = 6.8) -> list[str]:
    """One bamboo stick: a rounded rod with knuckles at both ends and in the middle."""
    dark = DARK_GREEN if colour == GREEN else "#7d0a1d" if colour == RED else "#123266"
    x0, y0 = cx - width / 2, cy - length / 2
    parts = [
        el("rect", x=x0, y=y0, width=width, height=length, rx=width / 2, fill=colour),
        # a pale vein down the middle
        el("line", x1=cx, y1=y0 + 2.2, x2=cx, y2=y0 + length - 2.2, stroke=IVORY,
           stroke_width=0.9, opacity=0.85),
    ]
    for y in (y0 + 2.2, cy, y0 + length - 2.2):  # knuckles
        parts.append(el("rect", x=x0 - 0.6, y=y - 1.1, width=width + 1.2, height=2.2,
                        rx=1.1, fill=dark))
    if angle:
        return [f"<g transform=\"rotate({num(angle)} {num(cx)} {num(cy)})\">"] + parts + ["</g>"]
    return parts


def bird() -> list[str]:
    """1 bamboo: a little bird perched, drawn from a few shapes."""
    return [
        # tail feathers fanning out to the lower left
        el("path", d="M20 47 Q9 56 5 69 Q13 61 22 52 Z", fill=BLUE),
        el("path", d="M21 48 Q14 60 13 72 Q19 62 24 52 Z", fill=RED),
        el("path", d="M19 46 Q7 50 3 60 Q12 55 22 50 Z", fill=GREEN),
        # legs
        el("path", d="M28 54 L26 65 M26 65 L22 67 M26 65 L29 68 M33 53 L35 65 M35 65 L31 67 "
                     "M35 65 L38 68", fill="none", stroke=RED, stroke_width=1.6,
           stroke_linecap="round"),
        # perch
        el("rect", x=12, y=66, width=34, height=3, rx=1.5, fill="#8a6a3a"),
        # body
        el("ellipse", cx=30, cy=44, rx=13, ry=10.5, fill=GREEN,
           transform="rotate(-25 30 44)"),
        # white breast
        el("ellipse", cx=35, cy=47, rx=6.5, ry=5, fill="#f4efe0",
           transform="rotate(-40 35 47)"),
        # wing
        el("path", d="M18 44 Q25 33 36 38 Q31 48 18 44 Z", fill=DARK_GREEN),
        el("path", d="M21 43 Q26 37 33 39", fill="none", stroke=BLUE, stroke_width=1.2),
        # head and crest
        el("path", d="M37 20 L35 13 L40 18 L42 11 L43 19", fill="none", stroke=RED,
           stroke_width=1.6, stroke_linejoin="round", stroke_linecap="round"),
        el("circle", cx=40, cy=27, r=7.5, fill=GREEN),
        # beak
        el("path", d="M46.5 24.5 L54 27.5 L46.5 30 Z", fill="#e08a10"),
        # eye
        el("circle", cx=42.3, cy=25.5, r=2.1, fill=IVORY),
        el("circle", cx=42.8, cy=25.5, r=1.1, fill=INK),
    ]


L2 = 27    # stick length with two rows
L3 = 19    # stick length with three rows
BAMBOO_LAYOUTS: dict[int, list[tuple[float, float, float, str, float]]] = {
    2: [(29, 22, L2, G, 0), (29, 54, L2, G, 0)],
    3: [(29, 22, L2, G, 0), (19, 54, L2, G, 0), (39, 54, L2, G, 0)],
    4: [(19, 22, L2, G, 0), (39, 22, L2, G, 0), (19, 54, L2, G, 0), (39, 54, L2, G, 0)],
    5: [(14.5, 22, L2, G, 0), (43.5, 22, L2, G, 0), (29, 38, L2, R, 0),
        (14.5, 54, L2, G, 0), (43.5, 54, L2, G, 0)],
    6: [(x, y, L2, G, 0) for y in (22, 54) for x in (15, 29, 43)],
    7: [(29, 14.5, L3, R, 0)] + [(x, y, L3, G, 0) for y in (38, 61) for x in (15, 29, 43)],
    # 8: an M over a W
    8: [(9.5, 22, L2, G, 0), (48.5, 22, L2, G, 0), (22, 22, L2, G, -20), (36, 22, L2, G, 20),
        (9.5, 54, L2, G, 0), (48.5, 54, L2, G, 0), (22, 54, L2, G, 20), (36, 54, L2, G, -20)],
    9: [(x, y, L3, R if x == 29 else G, 0) for y in (15, 38, 61) for x in (15, 29, 43)],
}


def bamboo(rank: int) -> list[str]:
    if rank == 1:
        return bird()
    out: list[str] = []
    for cx, cy, length, colour, angle in BAMBOO_LAYOUTS[rank]:
        out += stick(cx, cy, length, colour, angle)
    return out


# ---------------------------------------------------------------- honours and bonus tiles

def honour(rank: int) -> list[str]:
    if rank <= 4:                       # winds
        return outline(f"z{rank}")
    if rank == 5:                       # white dragon: an empty blue frame
        return [
            el("rect", x=10, y=13, width=38, height=50, rx=2, fill="none", stroke=BLUE,
               stroke_width=3.2),
            el("rect", x=15, y=18, width=28, height=40, rx=1, fill="none", stroke=BLUE,
               stroke_width=1.3),
        ]
    return outline(f"z{rank}")


def bonus(kind: str, rank: int) -> list[str]:
    colour = FLOWER if kind == "fl" else SEASON
    char = (FLOWER_CHARS if kind == "fl" else SEASON_CHARS)[rank - 1]
    return [
        el("rect", x=4.5, y=4.5, width=49, height=67, rx=3.5, fill="none", stroke=colour,
           stroke_width=0.9, opacity=0.7),
        el("circle", cx=12.5, cy=13, r=5.6, fill=colour),
        glyph(str(rank), 9, IVORY, cx=12.5, cy=13),
        glyph(char, 36, colour, cx=CX, cy=42),
    ]


# ---------------------------------------------------------------- whole files

def svg(label: str, body: list[str]) -> str:
    head = (f"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" "
            f"width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\">")
    return "\n".join([head, f"<title>{escape(label)}</title>", *body, "</svg>", ""])


def tile_svg(t) -> str:
    return svg(t.label, tile_body() + tile_art(t))


def back_svg() -> str:
    jade, dark, light = "#2b7a5a", "#1c5a41", "#6fb596"
    body = [
        el("rect", x=2.2, y=2.6, width=57.6, height=77.2, rx=6.5, fill="#000", opacity=0.16),
        el("rect", x=1, y=1, width=58, height=78, rx=6.5, fill=dark, stroke="#143f2e",
           stroke_width=0.8),
        el("rect", x=1, y=1, width=56, height=74, rx=6, fill=jade, stroke="#164a35",
           stroke_width=0.8),
        el("path", d="M3.5 70V7.5Q3.5 3.5 7.5 3.5H50", fill="none", stroke=light,
           stroke_width=1.2, stroke_linecap="round", opacity=0.8),
        el("rect", x=7, y=7, width=44, height=62, rx=3, fill="none", stroke=light,
           stroke_width=1),
        el("path", d=f"M{CX} 15 L45 {CY} L{CX} 61 L13 {CY} Z", fill="none", stroke=light,
           stroke_width=1.2),
        el("path", d=f"M{CX} 24 L37 {CY} L{CX} 52 L21 {CY} Z", fill=light, opacity=0.55),
    ]
    return svg(BACK_LABEL, body)


def tile_art(t) -> list[str]:
    """What is drawn on a tile's face."""
    return {"m": characters, "p": dots, "s": bamboo, "z": honour}.get(
        t.suit, lambda rank: bonus(t.suit, rank))(t.rank)


def sprite_svg() -> str:
    """Every tile side by side, each named by a <view> (`#t5s`), the face drawn once in <defs>.

    A page shows its tiles as `<img src="sprite.svg#t5s">`: one request for all of them.
    """
    width = WIDTH * len(TILES)
    lines = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
             f"viewBox=\"0 0 {width} {HEIGHT}\" width=\"{width}\" height=\"{HEIGHT}\">",
             "<title>Mahjong tiles</title>",
             "<defs><g id=\"face\">", *tile_body(), "</g></defs>"]
    for i, t in enumerate(TILES):
        x = i * WIDTH
        lines.append(f"<view id=\"t{t.code}\" viewBox=\"{x} 0 {WIDTH} {HEIGHT}\"/>")
        lines.append(f"<g transform=\"translate({x} 0)\"><use href=\"#face\" xlink:href=\"#face\"/>")
        lines += tile_art(t)
        lines.append("</g>")
    return "\n".join([*lines, "</svg>", ""])


def all_files() -> dict[str, str]:
    files = {f"{t.code}.svg": tile_svg(t) for t in TILES}
    files["back.svg"] = back_svg()
    files["sprite.svg"] = sprite_svg()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SERVED, help="directory to write into")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, content in all_files().items():
        (args.out / name).write_bytes(content.encode("utf-8"))
    print(f"wrote {len(all_files())} SVGs to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
