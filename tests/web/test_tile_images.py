"""Tile SVGs (static/tiles), one per tile plus back.svg: accessible, standalone, reproducible."""
from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.hands.tiles import TILES

ROOT = Path(__file__).resolve().parents[2]
TILE_DIR = ROOT / "static" / "tiles"
SCRIPT = ROOT / "tools" / "tiles" / "make_tiles.py"
SVG_NS = "{http://www.w3.org/2000/svg}"
EXPECTED = {f"{t.code}.svg": t.label for t in TILES} | {"back.svg": None}
SPRITE = TILE_DIR / "sprite.svg"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_tile_image_is_present_accessible_and_self_contained(name: str) -> None:
    path = TILE_DIR / name
    assert path.is_file(), f"{path} is missing: run tools/tiles/make_tiles.py"
    source = path.read_text(encoding="utf-8")
    root = ET.fromstring(source)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.get("role") == "img"
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text
    label = EXPECTED[name]
    if label is not None:
        assert title.text == label
    tags = {element.tag for element in root.iter()}
    assert f"{SVG_NS}script" not in tags
    assert f"{SVG_NS}image" not in tags and f"{SVG_NS}foreignObject" not in tags
    assert "<script" not in source.lower()
    assert not re.search(r"href\s*=\s*[\"']?\s*(https?:|//|data:)", source, re.IGNORECASE)
    assert not re.search(r"url\(\s*[\"']?\s*(https?:|//|data:)", source, re.IGNORECASE)
    for element in root.iter():
        for key in element.attrib:
            assert not key.lower().startswith("on"), f"event handler {key} in {name}"


def test_no_stray_svgs() -> None:
    found = {p.name for p in TILE_DIR.glob("*.svg")}
    assert found == set(EXPECTED) | {"sprite.svg"}


def test_the_sprite_names_a_view_of_every_tile_and_draws_it_as_its_own_file_does() -> None:
    root = ET.fromstring(SPRITE.read_text(encoding="utf-8"))
    views = {v.get("id"): v.get("viewBox") for v in root.iter(f"{SVG_NS}view")}
    assert set(views) == {f"t{t.code}" for t in TILES}
    groups = [g for g in root if g.tag == f"{SVG_NS}g"]
    assert len(groups) == len(TILES)
    for i, (t, group) in enumerate(zip(TILES, groups, strict=True)):
        assert views[f"t{t.code}"] == f"{i * 60} 0 60 80"
        assert group.get("transform") == f"translate({i * 60} 0)"
        own = ET.fromstring((TILE_DIR / f"{t.code}.svg").read_text(encoding="utf-8"))
        art = [ET.tostring(e) for e in own if e.tag != f"{SVG_NS}title"][4:]   # after the face
        assert [ET.tostring(e) for e in group][1:] == art, t.code
    tags = {element.tag for element in root.iter()}
    assert f"{SVG_NS}script" not in tags and f"{SVG_NS}image" not in tags


def test_generator_reproduces_the_files_exactly(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True,
                   capture_output=True, cwd=tmp_path)
    made = {p.name for p in tmp_path.glob("*.svg")}
    assert made == set(EXPECTED) | {"sprite.svg"}
    for name in sorted(made):
        assert (tmp_path / name).read_bytes() == (TILE_DIR / name).read_bytes(), (
            f"{name} differs from the generator's output: rerun tools/tiles/make_tiles.py"
        )


@pytest.mark.parametrize("name", sorted(EXPECTED) + ["sprite.svg"])
def test_every_character_is_drawn_as_paths_so_no_font_is_needed(name: str) -> None:
    """No <text>: a tile must look the same on a machine without a CJK font (issue 25)."""
    root = ET.fromstring((TILE_DIR / name).read_text(encoding="utf-8"))
    tags = {element.tag.removeprefix(SVG_NS) for element in root.iter()}
    assert not tags & {"text", "tspan", "textPath", "font", "glyph"}, (name, tags)
    assert not any(e.get("font-family") for e in root.iter()), name


def test_the_served_folder_holds_what_pages_load_and_no_build_script(client) -> None:
    # the scripts that draw the tiles and their glyph outlines live in tools/tiles/, unserved
    assert client.get("/static/tiles/make_tiles.py").status_code == 404
    assert client.get("/static/tiles/glyphs.json").status_code == 404
    assert client.get("/static/tiles/5s.svg").status_code == 200   # the folder is still served
    kinds = {p.suffix for p in (ROOT / "static").rglob("*") if p.is_file()}
    assert kinds <= {".css", ".js", ".svg"}, kinds
