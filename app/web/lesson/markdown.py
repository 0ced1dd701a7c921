"""The `mahjong` Python-Markdown extension: a lesson written in Markdown shows scored hands.

A fenced block in the permalink vocabulary (docs/INTERFACE: `rules=… hand=… by=…`, words
separated by spaces, new lines or `&`) becomes, at build time, the figure /card shows — tiles,
breakdown, payments, in the block's `lang` — as static HTML: inline SVG tiles (each a <use>
of a symbol the page carries once), a small scoped stylesheet, no iframe and no script, and a
link to the calculator at `base_url`:

    ```mahjong
    rules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S
    ```

`{mahjong 123m456p789s}` in running text is a row of tiles. A block or row that cannot be
scored or read raises MahjongError naming the field, which fails a MkDocs build.

The figure is the card's own: the same core (card_figure → calculate) and the same template
(card_figure.html), rendered by the calculator's Flask app in a request context of its own.
MkDocs finds the extension by name (the `markdown.extensions` entry point `mahjong`).
"""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from flask import render_template, request
from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup

from app.base.errors import NotationError
from app.hands.tiles import parse_tiles
from app.web.common.present import INLINE_TILES, page_params, tile_imgs

from .card import card_figure, hand_params
from .drawing import sprite_symbols

# a fence as Markdown reads one (up to 3 spaces in); one in a list item, an admonition, a
# collapsible or a tab is indented 4 and needs pymdownx.superfences (see FigureBlocks)
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*\{?\.?mahjong\}?[ \t]*$")
INLINE = r"\{mahjong[ \t]+(?P<tiles>[0-9a-z \t]+?)[ \t]*\}"


class MahjongError(ValueError):
    """A mahjong block or tile row that cannot be shown; the message names the field."""


def read_block(text: str, where: str) -> list[tuple[str, str]]:
    """The block's `name=value` words, in order ('rules=hong-kong hand=123m55s')."""
    pairs = []
    for word in re.split(r"[\s&]+", text.strip()):
        if not word:
            continue
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise MahjongError(f"{where}: '{word}' is not name=value "
                               "(e.g. rules=hong-kong hand=123m456m789m234p55s)")
        pairs.append((unquote(name), unquote(value)))
    if not pairs:
        raise MahjongError(f"{where}: the block is empty: give at least hand=… "
                           "(e.g. rules=hong-kong hand=123m456m789m234p55s)")
    return pairs


@lru_cache(maxsize=1)
def calculator_app():
    """The calculator's app, made once a build (its rulesets, templates and catalogs)."""
    from app.web import create_app
    return create_app()


def tile_symbols() -> dict[str, str]:
    """Each tile's drawing as a <symbol id="mj-t5s">, taken from the sprite the pages use;
    the tile face is "face", drawn once."""
    return sprite_symbols(calculator_app().static_folder, "mj-")


@lru_cache(maxsize=1)
def figure_style() -> str:
    """static/figure.css: the card's look, scoped to .mahjong-figure, for a page of any site."""
    return (Path(calculator_app().static_folder) / "figure.css").read_text("utf-8").strip()


class MahjongExtension(Extension):
    """`markdown.Markdown(extensions=["mahjong"])`, or `markdown_extensions: [mahjong]`."""

    def __init__(self, **kwargs):
        self.config = {
            "base_url": ["https://calculator.example.org",
                         "the calculator's public address: the figures link there"],
            "lang": ["en", "the language of a block without lang=: en, zh-Hant or zh-Hans"],
        }
        super().__init__(**kwargs)
        self.used: set[str] = set()
        self.figures = 0

    def extendMarkdown(self, md):
        md.registerExtension(self)
        md.preprocessors.register(FigureBlocks(md, self), "mahjong_figures", 30)
        md.inlinePatterns.register(TileRow(INLINE, md, self), "mahjong_tiles", 175)
        md.treeprocessors.register(Symbols(md, self), "mahjong_symbols", 1)
        md.postprocessors.register(Unread(md), "mahjong_unread", 0)
        self.reset()

    def reset(self):
        self.used = set()
        self.figures = 0

    def render(self, pairs: list[tuple[str, str]], where: str) -> str:
        """One figure, as /card draws it, its tiles inline."""
        if self.getConfig("lang") != "en" and "lang" not in {name for name, _ in pairs}:
            pairs = [*pairs, ("lang", self.getConfig("lang"))]
        self.figures += 1
        with _request(pairs):
            figure = card_figure(hand_params(page_params()), request.args)
            if figure["errors"]:
                raise MahjongError(f"{where}: " + "; ".join(
                    f"{e.field}: {e.message}" for e in figure["errors"]))
            html = render_template("card_figure.html", **figure, embed=True,
                                   heading_id=f"mahjong-figure-{self.figures}",
                                   heading_tag="p",
                                   link_root=self.getConfig("base_url").rstrip("/"))
            self._note_tiles(figure["calc"].score)
        # without theme=, the figure follows the site's colour scheme (figure.css: Material's
        # slate); a block's theme= keeps its own
        follows = "" if "theme" in {name for name, _ in pairs} else " theme-site"
        return (f'<div class="mahjong-figure theme-{figure["theme"]}{follows}" '
                f'lang="{request_lang(pairs)}">{html}</div>')

    def tile_row(self, text: str) -> str:
        """A row of tiles in running text, named for screen readers."""
        try:
            tiles = parse_tiles(text)
        except NotationError as err:
            raise MahjongError(f"{{mahjong {text}}}: tiles: {err}") from None
        self.used.update(t.code for t in tiles)
        with _request([("lang", self.getConfig("lang"))]):
            row = tile_imgs(tiles)
        return f'<span class="mahjong-tiles" role="group" aria-label="{Markup.escape(text)}">{row}</span>'

    def _note_tiles(self, score) -> None:
        if score.reading:
            self.used.update(t.code for g in score.reading.groups for t in g.tiles)


def request_lang(pairs: list[tuple[str, str]]) -> str:
    from app.web.common.i18n import page_lang
    with _request(pairs):
        return page_lang()


def _request(pairs: list[tuple[str, str]]):
    """A request context for /card with these parameters, its tiles drawn inline."""
    return calculator_app().test_request_context(
        "/card", query_string=pairs, environ_overrides={INLINE_TILES: True})


class FigureBlocks(Preprocessor):
    """```mahjong … ``` fences → the figure, kept aside from Markdown as raw HTML.

    Where pymdownx.superfences is loaded (Material for MkDocs' usual set), the fences are its
    custom fence `mahjong` instead (`superfences_fence`, registered here when the page is read
    unless mkdocs.yml registers it), and this step leaves the page to it: superfences finds
    fences at every depth of nesting, blockquotes included."""

    def __init__(self, md, ext: MahjongExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        if _superfences(self.md, self.ext) is not None:
            return lines
        out, i = [], 0
        while i < len(lines):
            opened = FENCE.match(lines[i])
            if not opened:
                out.append(lines[i])
                i += 1
                continue
            indent, fence, start = opened["indent"], opened["fence"], i
            i += 1
            body = []
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise MahjongError(f"mahjong block at line {start + 1}: no closing {fence}")
            i += 1
            where = f"mahjong block at line {start + 1}"
            html = self.ext.render(read_block("\n".join(body), where), where)
            out += ["", indent + self.md.htmlStash.store(html), ""]
        return out


def _superfences(md, ext: MahjongExtension):
    """pymdownx.superfences' extension on this Markdown, the `mahjong` fence registered with it
    (once); None where it is not loaded."""
    found = next((e for e in md.registeredExtensions
                  if type(e).__module__ == "pymdownx.superfences"), None)
    if found is not None and not any(f["name"] == "mahjong" for f in found.superfences):
        found.extend_super_fences("mahjong", functools.partial(_superfence_format, ext=ext),
                                  _superfence_validator, None)
    return found


def _superfence_validator(language, inputs, options, attrs, md) -> bool:
    return True


def _superfence_format(src="", language="", options=None, md=None, ext=None, **kwargs) -> str:
    where = "mahjong block " + repr(" ".join(src.split())[:60])
    try:
        return ext.render(read_block(src, where), where)
    except MahjongError as err:   # superfences shows a nested block as code on any other error
        raise _fence_error()(str(err)) from None


@functools.cache
def _fence_error() -> type:
    """MahjongError as a SuperFencesException too: the one error superfences lets through."""
    from pymdownx.superfences import SuperFencesException
    return type("MahjongFenceError", (MahjongError, SuperFencesException), {})


def superfences_fence(src, language, class_name, options, md, **kwargs) -> str:
    """The `format` of a superfences custom fence, for a mkdocs.yml that names it itself:

        - pymdownx.superfences:
            custom_fences:
              - {name: mahjong, class: mahjong, format: !!python/name:<this function>}
    """
    ext = next(e for e in md.registeredExtensions if isinstance(e, MahjongExtension))
    return _superfence_format(src, language, options, md, ext=ext)


class TileRow(InlineProcessor):
    def __init__(self, pattern: str, md, ext: MahjongExtension):
        super().__init__(pattern, md)
        self.ext = ext

    def handleMatch(self, m, data):
        return self.md.htmlStash.store(self.ext.tile_row(m["tiles"])), m.start(0), m.end(0)


class Symbols(Treeprocessor):
    """The page's stylesheet first and the symbols of the tiles it shows at its end, once each
    a page (a tree processor: it runs once a document, never on a heading's text)."""

    def __init__(self, md, ext: MahjongExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, root):
        if not self.ext.used and not self.ext.figures:
            return None
        symbols = tile_symbols()
        drawn = "".join(symbols[code] for code in sorted(self.ext.used))
        style = etree.Element("p")
        style.text = self.md.htmlStash.store(f"<style>{figure_style()}</style>")
        root.insert(0, style)
        sprite = etree.SubElement(root, "p")
        sprite.text = self.md.htmlStash.store(
            '<svg class="mahjong-symbols" aria-hidden="true" width="0" height="0" data-search-exclude '
            f'style="position:absolute"><defs>{symbols["face"]}</defs>{drawn}</svg>')
        return None


# what a ```mahjong fence becomes where nothing read it: a code block of language mahjong
# (fenced_code, superfences without the fence), or, nested without superfences, inline code
UNREAD = re.compile(r'<code[^>]*\bclass="[^"]*\b(?:language-)?mahjong\b[^"]*"[^>]*>'
                    r'|<pre[^>]*\bclass="[^"]*\bmahjong\b[^"]*"'
                    r'|<code>mahjong\n')


class Unread(Postprocessor):
    """A mahjong block shown as code is an error, not a page: it fails the build naming the
    block and what reads it (`mkdocs build`, with or without --strict)."""

    def run(self, text: str) -> str:
        found = UNREAD.search(text)
        if found is None:
            return text
        start = text.find(">", found.start()) + 1
        shown = re.sub(r"<[^>]+>", "", text[start:start + 200]).split("\n")
        block = " ".join(w for w in shown[:3] if w.strip())[:80]
        raise MahjongError(
            f"a mahjong block was left as code ({block!r}): a block inside a list item, an "
            "admonition, a collapsible or a tab is read by pymdownx.superfences: add "
            "`pymdownx.superfences` to markdown_extensions (the mahjong fence registers itself)")


def makeExtension(**kwargs):   # the name Python-Markdown looks for
    return MahjongExtension(**kwargs)
