"""HTTP caching: every GET answer says how long it may be kept; a 200 carries a strong ETag
from the build and the address, answered 304 when the client holds it; static files are
linked by content hash and kept for a year."""
from __future__ import annotations

import gzip
import hashlib
import re
import shutil
from pathlib import Path

import pytest

from app.web import create_app
from app.web.serving.caching import PAGE_MAX_AGE, STATIC_MAX_AGE
from tests.apps import shared_app

ROOT = Path(__file__).resolve().parents[2]
HAND = "123m456m789m234p55s"
APP = shared_app()
SAMPLES = {"rid": "sichuan", "filename": "style.css", "token": "AAAAAAAAAAAAAAAAAAAAAAAA", "night_id": "1",
           "member_id": "1"}


def _get_urls() -> list[str]:
    urls = []
    for rule in APP.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<{name}>", SAMPLES[name])
        urls += [path, f"{path}?hand={HAND}", f"{path}?rules=nope&hand=bad"]
    return urls


GET_URLS = _get_urls()


def _max_age(header: str) -> int:
    match = re.search(r"(?:^|,\s*)max-age=(\d+)", header)
    return int(match.group(1)) if match else -1


@pytest.mark.parametrize("url", GET_URLS)
def test_every_get_answer_says_how_long_it_may_be_kept(url):
    response = APP.test_client().get(url)
    cache_control = response.headers.get("Cache-Control", "")
    random_series = (url.startswith(("/practice", "/embed/practice"))
                     and response.status_code == 302)
    if url.startswith(("/api/health", "/api/ready")) or random_series:
        assert cache_control == "no-store"   # a probe, or a new random series each time
        return
    if url.startswith(("/s/", "/c/")):
        assert cache_control == "no-store"   # a shared sheet or a club changes under its address
        return
    assert response.status_code < 500, url
    assert cache_control.startswith("public") and _max_age(cache_control) >= 60, cache_control
    if response.status_code == 200:
        assert _max_age(cache_control) == PAGE_MAX_AGE
        etag = response.headers["ETag"]
        assert re.fullmatch(r'"[0-9a-f]{32}"', etag), etag   # strong: no W/ prefix


@pytest.mark.parametrize("url", [u for u in GET_URLS if not u.startswith(("/api/health", "/api/ready", "/s/", "/c/"))])
def test_a_held_etag_is_answered_304_with_no_body(url):
    client = APP.test_client()
    first = client.get(url)
    if first.status_code != 200:
        return
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    other = client.get(url, headers={"If-None-Match": '"0123456789abcdef0123456789abcdef"'})
    assert other.status_code == 200 and other.data == first.data


def test_a_304_is_answered_before_the_page_is_computed():
    app = create_app()
    client = app.test_client()
    etag = client.get(f"/?hand={HAND}").headers["ETag"]

    def not_again():
        raise AssertionError("the page was computed again")

    app.view_functions["pages.calculator"] = not_again
    assert client.get(f"/?hand={HAND}", headers={"If-None-Match": etag}).status_code == 304


def test_the_etag_differs_by_address_and_is_stable_across_processes():
    client = APP.test_client()
    answers = [client.get(f"/api/score?hand={HAND}{more}")
               for more in ("", "&discarder=N", "&discarder=S", "&by=self-draw")]
    assert [a.status_code for a in answers] == [200] * 4
    assert len({a.headers["ETag"] for a in answers}) == 4
    assert (create_app().test_client().get(f"/api/score?hand={HAND}").headers["ETag"]
            == client.get(f"/api/score?hand={HAND}").headers["ETag"])


def test_the_etag_changes_when_a_ruleset_changes(tmp_path):
    folder = tmp_path / "rulesets"
    shutil.copytree(ROOT / "rulesets", folder)
    before = create_app({"RULESET_DIR": str(folder)}).test_client().get(f"/api/score?hand={HAND}")
    path = folder / "hong-kong.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    after = create_app({"RULESET_DIR": str(folder)}).test_client().get(f"/api/score?hand={HAND}")
    assert before.headers["ETag"] != after.headers["ETag"]


def test_static_links_carry_the_files_content_hash_and_are_kept_for_a_year():
    client = APP.test_client()
    page = client.get(f"/?hand={HAND}").get_data(as_text=True)
    links = set(re.findall(r'/static/([^"?#]+)\?v=([0-9a-f]+)', page))
    assert {name for name, _ in links} >= {"style.css", "app.js"}
    # (the embed.js snippet a lesson author copies is text in a <textarea>, not a link: its
    # address stays the same across releases)
    linked = re.sub(r"<textarea[^>]*>.*?</textarea>", "", page, flags=re.S)
    assert not re.search(r'/static/[^"?]+"', linked), "a static link without its hash"
    for name, version in links:
        assert version == hashlib.sha256((ROOT / "static" / name).read_bytes()).hexdigest()[:12]
        response = client.get(f"/static/{name}?v={version}")
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == f"public, max-age={STATIC_MAX_AGE}, immutable"


@pytest.mark.parametrize("query", ["", "?v=000000000000"])
def test_a_static_link_without_the_current_hash_is_revalidated(query):
    response = APP.test_client().get(f"/static/style.css{query}")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"


# --- compression ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [f"/?hand={HAND}", "/rules/sichuan", "/api/openapi.json",
                                 "/static/style.css", "/static/tiles/sprite.svg"])
def test_a_text_answer_is_gzipped_when_accepted_and_is_the_same_bytes(url):
    client = APP.test_client()
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2
    assert all("Accept-Encoding" in r.headers["Vary"] for r in (plain, packed))
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + '-gz"'


def test_a_held_gzipped_answer_is_answered_304():
    client = APP.test_client()
    url = f"/api/score?hand={HAND}"
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    again = client.get(url, headers={"Accept-Encoding": "gzip",
                                     "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == packed.headers["ETag"]


@pytest.mark.parametrize("accept", ["identity", "gzip;q=0", "br"])
def test_no_gzip_unless_the_client_accepts_it(accept):
    response = APP.test_client().get(f"/?hand={HAND}", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers


def test_a_small_answer_is_sent_as_it_is():
    response = APP.test_client().get("/api/health", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert len(response.data) < 1024 and "Content-Encoding" not in response.headers


@pytest.mark.parametrize("path", ["/static/a%00b.css", "/static/" + "x" * 5000,
                                  "/static/../app/web/caching.py"])
def test_a_static_address_that_names_no_file_answers_without_a_server_error(path):
    response = APP.test_client().get(path)
    assert response.status_code in (400, 404) and response.headers["Cache-Control"] == "no-cache"


# --- a 304 only where the full answer would be a cacheable 200 in the same encoding ---------


@pytest.mark.parametrize("url, status", [
    (f"/api/score?hand={HAND[:-1]}", 400), ("/no-such-page", 404), ("/practice", 302), ("/rules", 308),
    ("/api/health", 200),
])
def test_if_none_match_star_never_turns_a_refusal_a_redirect_or_a_probe_into_a_304(url, status):
    response = APP.test_client().get(url, headers={"If-None-Match": "*"})
    assert response.status_code == status
    assert "ETag" not in response.headers


@pytest.mark.parametrize("accept", ["", "gzip"])
def test_if_none_match_star_on_a_cacheable_answer_is_a_304_with_the_tag_of_its_encoding(accept):
    client = APP.test_client()
    url = f"/api/score?hand={HAND}"
    full = client.get(url, headers={"Accept-Encoding": accept})
    again = client.get(url, headers={"Accept-Encoding": accept, "If-None-Match": "*"})
    assert again.status_code == 304 and again.data == b"" and "Content-Encoding" not in again.headers
    assert again.headers["ETag"] == full.headers["ETag"]
    assert again.headers["Cache-Control"] == full.headers["Cache-Control"]
    assert "nosniff" in again.headers["X-Content-Type-Options"]


def test_the_gzipped_answers_tag_earns_no_304_from_a_client_that_does_not_accept_gzip():
    client = APP.test_client()
    url = f"/?hand={HAND}"
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["ETag"].endswith('-gz"')
    plain = client.get(url, headers={"Accept-Encoding": "identity", "If-None-Match": packed.headers["ETag"]})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.headers["ETag"] == packed.headers["ETag"][:-4] + '"'


def test_the_plain_answers_tag_earns_no_304_when_the_answer_would_come_gzipped():
    client = APP.test_client()
    url = f"/?hand={HAND}"
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": plain.headers["ETag"]})
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"


def test_a_small_answer_sent_plain_to_a_gzip_client_is_a_304_for_its_plain_tag():
    client = APP.test_client()
    url = "/api/waits?rules=sichuan&hand=123p456p789p2355s&missing=m"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in first.headers and len(first.data) < 1024
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
