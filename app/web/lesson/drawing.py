"""The tile drawings as SVG symbols, read from the sprite the pages use (static/tiles/sprite.svg).

The Markdown extension's figures (markdown.py) and the link-preview picture (preview.py) both
draw tiles from these symbols, so a tile looks the same on a page, in a lesson and in a chat.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

TILE_W, TILE_H = 60, 80   # a symbol's viewBox


@lru_cache(maxsize=4)
def sprite_symbols(static_folder: str, prefix: str = "mj-") -> dict[str, str]:
    """Each tile's drawing as a `<symbol id="{prefix}t5s">`; the tile face is "face", a `<g>`
    drawn once (each symbol uses it, by `xlink:href`: an `<svg>` that carries them declares
    xmlns:xlink, as HTML does for an inline one)."""
    sprite = (Path(static_folder) / "tiles" / "sprite.svg").read_text("utf-8")
    face = re.search(r'<g id="face">(.*?)</g></defs>', sprite, re.S)[1]
    symbols = {"face": f'<g id="{prefix}face">{face}</g>'}
    for match in re.finditer(r'<view id="t(\w+)"[^>]*/>\n<g transform="[^"]*">'
                             r'<use href="#face" xlink:href="#face"/>\n(.*?)</g>\n(?=<view |</svg>)', sprite,
                             re.S):
        symbols[match[1]] = (f'<symbol id="{prefix}t{match[1]}" viewBox="0 0 {TILE_W} {TILE_H}">'
                             f'<use xlink:href="#{prefix}face"/>{match[2]}</symbol>')
    return symbols
