"""Link previews (app/web/lesson/preview.py): what a chat shows of a pasted calculator address.

Read as a preview library reads them (metadata_parser, from PyPI: it fetches the address and
parses Open Graph, Twitter and plain meta tags the way link unfurlers do) from the production
command (gunicorn, as `make run` starts it); the picture is fetched as a crawler would and read
back as a PNG.
"""
from __future__ import annotations

import re
import struct
import zlib
from urllib.parse import urlsplit

import metadata_parser  # a real link-preview library: the test extra installs it (pyproject.toml)
import pytest

from tests.production import ProductionServer

SELF_DRAW = "rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ProductionServer(tmp_path_factory.mktemp("previews"),
                          env={"MAHJONG_SERVER_NAME": None}) as running:
        yield running


def _read(server, path: str):
    return metadata_parser.MetadataParser(url=f"http://127.0.0.1:{server.port}{path}",
                                          allow_localhosts=True, require_valid_netloc=False,
                                          requests_timeout=30)


def _first(page, field: str, strategy: str) -> str:
    """The first value of a field as the library found it under one strategy (og, twitter, meta)."""
    found = page.parsed_result.get_metadatas(field, strategy=[strategy]) or {}
    return (found.get(strategy) or [""])[0]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
    return struct.unpack(">II", data[16:24])


def _fetch(server, url: str):
    import requests
    parts = urlsplit(url)
    return requests.get(f"http://127.0.0.1:{server.port}{parts.path}?{parts.query}", timeout=30)


def _ink(png: bytes) -> int:
    """How many of the picture's rows differ from its first row (a blank picture: 0)."""
    width, height = _png_size(png)
    chunks, at = b"", 8
    while at < len(png):
        length = struct.unpack(">I", png[at:at + 4])[0]
        if png[at + 4:at + 8] == b"IDAT":
            chunks += png[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(chunks)
    stride = len(raw) // height
    rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(height)}
    return len(rows) - 1


@pytest.mark.parametrize("lang, fan, pays", [
    ("en", "4 fan under Hong Kong 36 hands", "Who pays whom: South +96, East -32"),
    ("zh-Hant", "香港麻雀（三十六番種）：4 番", "誰付給誰：南 +96，東 -32"),
])
def test_a_result_page_previews_its_fan_and_who_pays_in_its_language(server, lang, fan, pays):
    page = _read(server, f"/?{SELF_DRAW}&lang={lang}")
    description = _first(page, "description", "og")
    assert fan in description and pays in description, description
    assert _first(page, "description", "meta") == description
    assert fan.split("：")[-1].split(" under")[0] in _first(page, "title", "og")
    assert _first(page, "card", "twitter") == "summary_large_image"
    image = page.get_metadata_link("image", strategy=["og"], require_public_global=False)
    assert urlsplit(image).path == "/og/hand.png"
    answer = _fetch(server, image)
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "image/png"
    width, height = _png_size(answer.content)
    assert width <= 1200 and height <= 630
    assert _ink(answer.content) > 300   # tiles, words and payments drawn, not a blank card
    # kept by its address: the same tag again, and 304 to a crawler that holds it
    again = _fetch(server, image)
    assert again.content == answer.content and answer.headers["ETag"]
    assert "public" in answer.headers["Cache-Control"]
    import requests
    parts = urlsplit(image)
    held = requests.get(f"http://127.0.0.1:{server.port}{parts.path}?{parts.query}", timeout=30,
                        headers={"If-None-Match": answer.headers["ETag"]})
    assert held.status_code == 304


@pytest.mark.parametrize("path", ["/card?" + SELF_DRAW, "/ticks?rules=hong-kong&ticks=all-pungs",
                                  "/rules/hong-kong", "/points?rules=hong-kong&fan=5",
                                  "/discard?rules=hong-kong&hand=123m456m789m234p5s7z",
                                  "/practice?rules=hong-kong&seed=1", "/house", "/rules/"])
def test_every_page_carries_a_title_a_description_and_a_picture(server, path):
    page = _read(server, path)
    assert _first(page, "title", "og")
    assert _first(page, "description", "og")
    assert _first(page, "card", "twitter")
    image = page.get_metadata_link("image", strategy=["og"], require_public_global=False)
    assert _fetch(server, image).status_code == 200


def test_a_hand_that_does_not_score_has_no_picture_but_a_400(server):
    assert _fetch(server, "http://x/og/hand.png?rules=hong-kong&hand=1m").status_code == 400
    assert _fetch(server, "http://x/og/hand.png?rules=hong-kong").status_code == 400


def test_oembed_names_the_hands_picture_as_its_thumbnail(server):
    import requests
    url = f"http://127.0.0.1:{server.port}/?{SELF_DRAW}"
    answer = requests.get(f"http://127.0.0.1:{server.port}/oembed",
                          params={"url": url.replace(f"127.0.0.1:{server.port}", "127.0.0.1")},
                          timeout=30, headers={"Host": "127.0.0.1"})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert urlsplit(found["thumbnail_url"]).path == "/og/hand.png"
    assert (found["thumbnail_width"], found["thumbnail_height"]) == (1200, 630)
    assert _fetch(server, found["thumbnail_url"]).status_code == 200


def test_pages_carrying_a_shared_sheets_token_name_no_picture_and_no_address(tmp_path):
    """The edit link's pages say what they are, and name no address a chat would fetch."""
    from app.web import create_app
    from tests.web.test_token_privacy import _carrying_pages, _share
    client = create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()
    token = _share(client)
    for path in [f"/s/{token}", *_carrying_pages(client, token)]:
        page = client.get(path).get_data(as_text=True)
        if 'property="og:title"' not in page:   # the sheet's redirect back
            continue
        heads = re.findall(r'<meta (?:property|name)="(?:og|twitter):[^>]*>', page)
        assert heads and not any(token in h for h in heads), (path, heads)
        assert not re.search(r'"og:(url|image)"', page), path


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_the_pictures_words_are_drawn_in_the_machines_fonts(app, lang):
    """The same drawing without any font (resvg then drops the words) is another picture:
    the words are there, in Latin and Chinese glyphs (`make fonts` installs them)."""
    import resvg_py

    from app import vocabulary
    from app.web.lesson.preview import hand_svg
    with app.test_request_context(f"/?{SELF_DRAW}&lang={lang}"):
        calc = vocabulary.score(dict(p.split("=") for p in SELF_DRAW.split("&")),
                                app.extensions["rulesets"])
        svg = hand_svg(calc)
    worded = bytes(resvg_py.svg_to_bytes(svg_string=svg))
    unworded = bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True))
    assert _ink(worded) > _ink(unworded)


def test_a_worked_example_has_an_address_wordpress_can_discover(client, app):
    """`#worked-<id>` never reaches the server; `?example=<id>` does: the rules page at that
    address names its oEmbed link, which frames the example's card."""
    example = app.extensions["rulesets"]["hong-kong"].examples[0]
    page = client.get(f"/rules/hong-kong?example={example.id}").get_data(as_text=True)
    found = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', page)
    assert found, "no discovery link"
    href = found[1].replace("&amp;", "&")
    answer = client.get(href[href.index("/oembed"):]).get_json()
    assert answer["type"] == "rich" and "/card?" in answer["html"]
    assert "thumbnail_url" in answer
    plain = client.get("/rules/hong-kong").get_data(as_text=True)
    assert "application/json+oembed" not in plain   # the page alone frames as nothing
    assert client.get("/oembed", query_string={
        "url": "http://localhost/rules/hong-kong?example=no-such-example"}).status_code == 404
