"""The `mahjong` Markdown extension (app/web/lesson/markdown.py), in a real MkDocs build.

A small MkDocs site, configured as docs/embedding.md shows, is built by the `mkdocs`
command; its HTML must carry /card's own figure for each block (the same template and core:
compared with what /card answers, tile for tile and word for word, in three languages), as
static HTML with inline SVG tiles, no iframe and no script. A block that cannot be scored
fails the build, naming the field.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from app.web.lesson.markdown import MahjongError

BASE = "https://lessons-calculator.example.org"
MKDOCS_YML = f"""site_name: Mahjong lessons
markdown_extensions:
  - mahjong: {{base_url: "{BASE}"}}
"""
FIGURES = [   # (the block as a lesson author writes it, the same hand as /card's query)
    ("rules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S",
     "rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"),
    ("rules=hong-kong hand=123m456m789m234p55s\nby=discard seat=S lang=zh-Hant",
     "rules=hong-kong&hand=123m456m789m234p55s&by=discard&seat=S&lang=zh-Hant"),
    ("rules=sichuan&hand=111222333444s55s&by=self-draw&lang=zh-Hans&theme=dark",
     "rules=sichuan&hand=111222333444s55s&by=self-draw&lang=zh-Hans&theme=dark"),
    ("rules=hong-kong hand=22m melds=777m,1111z,ckong:5555z,123p show=tiles,payments",
     "rules=hong-kong&hand=22m&melds=777m,1111z,ckong:5555z,123p&show=tiles,payments"),
]
LESSON = "# Lesson 1\n\nThe pair {mahjong 55s} finishes {mahjong 123m 456m}.\n\n" + "".join(
    f"## Hand {i}\n\n```mahjong\n{block}\n```\n\n" for i, (block, _) in enumerate(FIGURES, 1))


def build(tmp_path: Path, page: str) -> subprocess.CompletedProcess:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(tmp_path / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("mkdocs")
    done = build(folder, LESSON)
    assert done.returncode == 0, done.stderr
    return (folder / "site" / "index.html").read_text(encoding="utf-8")


def figures(page: str) -> list[str]:
    return re.findall(r'<div class="mahjong-figure[^"]*" lang="[^"]*">\s*(<article.*?</article>)',
                      page, re.S)


def same_form(html: str) -> str:
    """A figure with its tiles and the names that differ between a page and a card spelled alike:
    /card's <img> of the sprite and the extension's inline <svg> become `[5s 5 Bamboo 五索]`."""
    html = re.sub(r'<img class="tile" src="[^"#]*#t(\w+)" alt="([^"]*)" title="\2" width="30" '
                  r'height="40">', r"[\1 \2]", html)
    html = re.sub(r'<svg class="tile" role="img" aria-label="([^"]*)" width="30" height="40" '
                  r'viewBox="0 0 60 80" data-search-exclude><title>\1</title>'
                  r'<use xlink:href="#mj-t(\w+)"/></svg>',
                  r"[\2 \1]", html)
    html = re.sub(r'<h1 id="card-heading">(.*?)</h1>', r"<heading>\1</heading>", html, flags=re.S)
    html = re.sub(r'<p id="mahjong-figure-\d+" class="card-heading">(.*?)</p>',
                  r"<heading>\1</heading>", html, flags=re.S)
    html = html.replace(' aria-labelledby="card-heading"', "")
    return re.sub(r' aria-labelledby="mahjong-figure-\d+"', "", html).replace(
        f'href="{BASE}/', 'href="/')


def test_each_block_is_the_cards_own_figure_in_its_language(built: str, client) -> None:
    found = figures(built)
    assert len(found) == len(FIGURES)
    for (_, query), figure in zip(FIGURES, found, strict=True):
        answer = client.get(f"/card?{query}")
        assert answer.status_code == 200
        card = re.search(r"<article.*?</article>", answer.get_data(as_text=True), re.S)[0]
        assert same_form(figure) == same_form(card), query
        assert "[" in same_form(figure) and "<img" not in figure


def test_the_figures_say_what_the_card_says_in_three_languages(built: str) -> None:
    en, hant, hans, melds = figures(built)
    assert "4 fan" in en and "Who pays whom" in en and "Self-draw" in en
    assert "番" in hant and "香港" in hant and "fan" not in re.sub(r"<[^>]*>", "", hant)
    assert "番" in hans and "四川" in hans
    assert 'lang="zh-Hant"' in built and 'lang="zh-Hans"' in built
    assert "theme-dark" in built
    assert "breakdown" not in melds and "payments" in melds   # show= is the card's own


def test_static_html_no_iframe_no_script_and_every_tile_drawn_once_as_paths(built: str) -> None:
    ours = "".join(re.findall(r'<div class="mahjong-figure.*?</article>', built, re.S))
    ours += "".join(re.findall(r'<span class="mahjong-tiles".*?</span>', built, re.S))
    symbols = re.search(r'<svg class="mahjong-symbols".*?</svg>(?=\s*</p>|\s*$)', built, re.S)[0]
    for part in (ours, symbols):
        assert "<iframe" not in part and "<script" not in part and "<img" not in part
        assert not re.search(r"\son\w+=", part)
    assert "<text" not in symbols and "font-family" not in symbols
    used = set(re.findall(r'<use xlink:href="#mj-t(\w+)"/>', ours))
    defined = re.findall(r'<symbol id="mj-t(\w+)"', symbols)
    assert len(defined) == len(set(defined)), "a tile's symbol is drawn once a page"
    assert used == set(defined)
    assert {"1m", "5s", "1s", "7m", "1z", "5z", "2m"} <= used
    assert built.count("<style>") == 1


def test_inline_rows_are_tiles_in_running_text(built: str) -> None:
    rows = re.findall(r'<span class="mahjong-tiles" role="group" aria-label="([^"]*)">(.*?)</span>',
                      built, re.S)
    assert [label for label, _ in rows] == ["55s", "123m 456m"]
    assert [re.findall(r"#mj-t(\w+)", tiles) for _, tiles in rows] == [
        ["5s", "5s"], ["1m", "2m", "3m", "4m", "5m", "6m"]]


def test_the_figure_links_to_the_live_calculator_at_base_url(built: str) -> None:
    links = re.findall(r'<p class="card-links"><a href="([^"]*)"', built)
    assert len(links) == len(FIGURES)
    assert all(link.startswith(f"{BASE}/?rules=") for link in links)
    assert "lang=zh-Hant" in links[1] and "lang=zh-Hans" in links[2]


@pytest.mark.parametrize(("page", "named"), [
    ("```mahjong\nrules=hong-kong hand=123m456m\n```\n", ["line 1", "hand"]),
    ("Text\n\n```mahjong\nrules=no-such-rules hand=123m456m789m234p55s\n```\n", ["line 3", "rules"]),
    ("```mahjong\nrules=hong-kong hand=123m456m789m234p55s by=sideways\n```\n", ["by"]),
    ("```mahjong\nrules=hong-kong 123m456m789m234p55s\n```\n", ["not name=value"]),
    ("```mahjong\n```\n", ["empty"]),
    ("```mahjong\nrules=hong-kong hand=123m456m789m234p55s\n", ["no closing"]),
    ("Tiles {mahjong 123x}.\n", ["tiles"]),
])
def test_a_block_that_cannot_be_shown_stops_with_the_field_named(page, named) -> None:
    with pytest.raises(MahjongError) as caught:
        markdown.markdown(page, extensions=["mahjong"])
    for word in named:
        assert word in str(caught.value)


def test_an_error_fails_the_mkdocs_build(tmp_path: Path) -> None:
    done = build(tmp_path, "# Lesson\n\n```mahjong\nrules=hong-kong hand=123m456m\n```\n")
    assert done.returncode != 0
    assert "mahjong block at line 3: hand:" in done.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_a_page_without_mahjong_is_left_alone() -> None:
    text = "# Plain\n\n```python\nprint(1)\n```\n"
    assert markdown.markdown(text, extensions=["mahjong", "fenced_code"]) == markdown.markdown(
        text, extensions=["fenced_code"])


def test_the_sites_language_is_the_default_of_its_blocks() -> None:
    page = markdown.markdown("```mahjong\nrules=hong-kong hand=123m456m789m234p55s\n```\n\n"
                             "{mahjong 1z}\n", extensions=["mahjong"],
                             extension_configs={"mahjong": {"lang": "zh-Hant"}})
    assert 'lang="zh-Hant"' in page and "3 番" in page
    assert 'aria-label="東"' in page   # the tile row is named in the site's language too


# --- Material for MkDocs, as lesson sites use it --------------------------------------------

MATERIAL_YML = f"""site_name: Mahjong lessons
site_url: https://lessons.example.org/   # instant navigation follows the sitemap's addresses
theme:
  name: material
  features: [navigation.instant]
  font: false
  palette:
    - scheme: default
      toggle: {{icon: material/brightness-7, name: Dark colours}}
    - scheme: slate
      toggle: {{icon: material/brightness-4, name: Light colours}}
markdown_extensions:
  - mahjong: {{base_url: "{BASE}"}}
  - admonition
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed: {{alternate_style: true}}
nav: [index.md, two.md]
"""


def _indented(block: str, by: str = "    ") -> str:
    return "\n".join(by + line if line else line for line in block.split("\n"))


FENCE_HK = "```mahjong\nrules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S\n```"
MATERIAL_PAGES = {
    "index.md": "# Lesson one\n\nA pair {mahjong 55s}. [Lesson two](two.md)\n\n" + FENCE_HK + "\n\n"
    + "!!! note \"In an admonition\"\n\n    Tiles {mahjong 1z2z3z}.\n\n" + _indented(
        "```mahjong\nrules=hong-kong hand=111m222p333s444z55z by=discard seat=E discarder=S\n```")
    + "\n\n??? tip \"A collapsible\"\n\n" + _indented(
        "```mahjong\nrules=hong-kong hand=11m111p234p567s789s by=self-draw lang=zh-Hant\n```")
    + "\n\n=== \"First tab\"\n\n" + _indented(
        "```mahjong\nrules=sichuan hand=111p123p777p789p55p by=self-draw lang=zh-Hans\n```")
    + "\n\n=== \"Second tab\"\n\n    Nothing here.\n\n- A list item:\n\n" + _indented(
        "```mahjong\nrules=hong-kong hand=22m melds=777m,1111z,123p,456s win=2m\n```") + "\n",
    "two.md": "# Lesson two\n\nBack to [lesson one](index.md). The wind {mahjong 4z}.\n\n"
    "```mahjong\nrules=sichuan hand=11m222m333m444m555m by=self-draw\n```\n",
}


def build_material(folder: Path, pages: dict[str, str] = MATERIAL_PAGES,
                   config: str = MATERIAL_YML) -> subprocess.CompletedProcess:
    """A Material for MkDocs site with instant navigation, as a lesson author sets one up."""
    (folder / "docs").mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(config, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(folder / "mkdocs.yml"), "-d", str(folder / "site")],
                          capture_output=True, text=True, cwd=folder, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def material_site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("material")
    done = build_material(folder)
    assert done.returncode == 0, done.stderr
    return folder / "site"


def test_blocks_in_admonitions_collapsibles_tabs_and_lists_are_figures(material_site: Path):
    page = (material_site / "index.html").read_text(encoding="utf-8")
    assert "```mahjong" not in page and "language-mahjong" not in page
    assert len(figures(page)) == 5
    for holder in (r'<div class="admonition note">', r"<details class=\"tip\">",
                   r'<div class="tabbed-block">', r"<li>"):
        at = page.index(holder.replace("\\", ""))
        assert page.index('class="mahjong-figure', at) < page.index("</", at + 400) + 5000
    nested = re.findall(r'<(div class="admonition note"|details class="tip"|div class="tabbed-'
                        r'block"|li)>.*?<div class="mahjong-figure', page, re.S)
    assert len(nested) >= 4, nested


def test_no_use_of_a_symbol_is_an_href_material_rewrites(material_site: Path):
    page = (material_site / "index.html").read_text(encoding="utf-8")
    assert "<use xlink:href=" in page
    assert not re.search(r"<use\s[^>]*(?<!:)href=", page)


def test_the_search_index_holds_the_lessons_words_and_no_tile_names(material_site: Path):
    import json
    index = json.loads((material_site / "search" / "search_index.json").read_text("utf-8"))
    text = " ".join(doc["text"] + " " + doc["title"] for doc in index["docs"])
    assert "Who pays whom" in text and "Lesson two" in text
    for name in ("Characters", "Bamboo", "Dots", "East 東", "一萬", "Red dragon"):
        assert name not in text, name


@pytest.mark.parametrize("holder", ["!!! note\n\n", "??? tip \"Hand\"\n\n", "=== \"Tab\"\n\n",
                                    "- item\n\n"])
def test_a_nested_block_without_superfences_fails_the_build(tmp_path: Path, holder: str):
    """Without pymdownx.superfences nothing reads a fence indented in a block: the build stops
    naming it, rather than showing the block as code."""
    config = MATERIAL_YML.replace("  - pymdownx.superfences\n", "")
    done = build_material(tmp_path, {"index.md": "# Lesson\n\n" + holder + _indented(FENCE_HK)
                                     + "\n", "two.md": "# Two\n"}, config)
    assert done.returncode != 0
    assert "a mahjong block was left as code" in done.stderr and "superfences" in done.stderr
    assert "hand=123m456m789m234p55s" in done.stderr


def test_a_block_superfences_reads_that_cannot_be_scored_fails_naming_the_field(tmp_path):
    done = build_material(tmp_path, {"index.md": "# L\n\n!!! note\n\n" + _indented(
        "```mahjong\nrules=hong-kong hand=123m\n```") + "\n", "two.md": "# Two\n"})
    assert done.returncode != 0
    assert "hand:" in done.stderr and "mahjong block" in done.stderr
