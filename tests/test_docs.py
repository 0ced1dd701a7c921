"""The documentation site (mkdocs.yml, docs/) builds with --strict, every page of its navigation
is there, and its hands are live figures drawn by the project's own `mahjong` extension."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

CONFIG = ROOT / "mkdocs.yml"


def _nav_pages() -> list[str]:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    return [page for entry in config["nav"] for page in entry.values()]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(CONFIG), "-d", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    return out


def _page(site: Path, name: str) -> str:
    folder = "" if name == "index.md" else name.removesuffix(".md") + "/"
    return (site / folder / "index.html").read_text(encoding="utf-8")


def _figures(html: str, lang: str = "[^\"]*") -> list[str]:
    return re.findall(rf'<div class="mahjong-figure[^"]*" lang="{lang}">(.*?</article>)', html, re.S)


def test_every_docs_page_is_in_the_navigation_and_built(site):
    pages = _nav_pages()
    assert sorted(pages) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    for name in pages:
        assert "<h1" in _page(site, name), name
    assert (site / "images" / "result-page.png").is_file()


def test_the_site_uses_material_without_instant_navigation():
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"
    assert "navigation.instant" not in config["theme"].get("features", [])
    assert any((e if isinstance(e, str) else next(iter(e))) == "mahjong"
               for e in config["markdown_extensions"])


def test_the_hand_notation_page_draws_its_hands(site):
    html = _page(site, "hand-notation.md")
    figures = _figures(html)
    source = (ROOT / "docs" / "hand-notation.md").read_text(encoding="utf-8")
    assert len(figures) == source.count("```mahjong")
    first = figures[0]   # rules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S
    assert "4 fan under Hong Kong 36 hands" in " ".join(re.sub(r"<[^>]+>", " ", first).split())
    assert len(re.findall(r'<svg class="tile" role="img"', first)) == 14
    for pattern in ("All chows", "No flowers or seasons", "Fully concealed hand", "Self-draw"):
        assert pattern in first
    assert '<span class="mahjong-tiles" role="group" aria-label="1234567z">' in html
    # each tile a figure shows is drawn once, as a symbol at the page's end
    assert '<symbol id="mj-t5s"' in html and html.count('<symbol id="mj-t5s"') == 1


def test_a_chinese_figure_speaks_chinese(site):
    [figure] = _figures(_page(site, "hand-notation.md"), "zh-Hans")   # lang=zh-Hans in its block
    text = " ".join(re.sub(r"<[^>]+>", " ", figure).split())
    assert "9 番" in text and "四川血战到底" in text and " fan" not in text


def test_the_rule_families_page_draws_the_same_tiles_under_every_family(site):
    html = _page(site, "rules.md")
    headings = [re.sub(r"<[^>]+>|\s+", " ", h).strip() for h in
                re.findall(r'<p id="mahjong-figure-\d+" class="card-heading">(.*?)</p>', html, re.S)]
    families = ["Hong Kong 36 hands", "Hong Kong course", "Sichuan blood battle",
                "Sichuan Bloody Rules (SBR)", "Family house rules"]
    for family in families:
        assert any(h.endswith(f"under {family}") for h in headings), (family, headings)
    assert "Not a legal win" in html   # the min=5 example


def test_the_embedding_page_shows_a_block_and_what_it_gives(site):
    html = _page(site, "embedding.md")
    assert "```mahjong" in html           # the source, as code
    assert _figures(html)                 # and its figure
