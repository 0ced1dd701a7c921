"""A shared sheet's edit token stays private (issue 38): masked in the production command's
log, on no cacheable page, in no oEmbed link or frame, sent as no referrer, on no framed edit
page; and a share or a change posted from another site's page is refused."""
from __future__ import annotations

import html
import re
import urllib.error
import urllib.request
from urllib.parse import quote, urlencode

import pytest

from app.web import create_app
from app.web.serving.privacy import MASK, mask
from tests.production import ProductionServer

NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "hand=123456789m234p55s by=self-draw"}
HAND = "hand=123456789m234p55s seat=S discarder=N"


def _csp(response) -> dict[str, list[str]]:
    return {words[0]: words[1:] for words in (part.split() for part in
            response.headers.get("Content-Security-Policy", "").split(";")) if words}


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _share(client) -> str:
    response = client.post("/sheet/share", data=NIGHT)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def _carrying_pages(client, token: str) -> list[str]:
    """The pages the edit link's page opens with its token (calculator, correction, round,
    ticks, embed) and the redirect back to the sheet."""
    page = client.get(f"/s/{token}").get_data(as_text=True)
    links = sorted({html.unescape(h) for h in re.findall(r'href="([^"]*)"', page)
                    if token in h and not h.startswith("/s/")})
    assert any(link.startswith("/?") for link in links), links
    return links + [f"/ticks?rules=hong-kong&ticks=dragon-pong&sheet=stored={token}",
                    f"/embed?rules=hong-kong&hand=123456789m234p55s&sheet=stored={token}",
                    f"/round?rules=sichuan&sheet=stored={token}&round=" + quote("1:hu 2 self-draw"),
                    f"/sheet?stored={token}&add=" + quote(HAND)]


# --- masking ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "POST /s/{t}/change HTTP/1.1", "GET /s/{t}.csv HTTP/1.1", "/?hand=1m&sheet=stored={t}&entry=2",
    "/?hand=1m&sheet=stored%3D{t}%26hand%3D1", "/sheet?stored={t}&add=x",
    "/oembed?url=http%3A%2F%2Fh%2F%3Fsheet%3Dstored%253D{t}%2526base%253D2",
    "https://calc.example/s/{t}?lang=zh-Hant", "/oembed?url=https%3A%2F%2Fcalc.example%2Fs%2F{t}",
    "/s/%4D{t}", "/?sheet=STORED%3d{t}"])
def test_every_way_a_token_is_written_is_masked(text):
    token = "MH74ybtHO6n0zKczoBg3LGZH"
    masked = mask(text.format(t=token))
    assert token not in masked and "ybtHO6" not in masked and MASK in masked
    assert masked.split(MASK)[0] == text.format(t=token).split(token)[0].removesuffix("%4D")


def test_an_address_without_a_token_is_left_as_it_is():
    for text in ("GET /static/style.css?v=abc HTTP/1.1", "/?rules=sichuan&hand=123m456m789m234p55s",
                 "/sheet?rules=hong-kong&hands=hand%3D11m", "/rules/sichuan#worked-1"):
        assert mask(text) == text


def test_the_production_commands_log_names_no_token(tmp_path):
    """`make run`'s own command: shares, opens, polls, exports, changes, carries the token in
    pages, an oEmbed request and a Referer, then reads its whole log."""
    with ProductionServer(tmp_path, env={"MAHJONG_DATA_DIR": str(tmp_path / "data")}) as server:
        base = f"http://127.0.0.1:{server.port}"
        opener = urllib.request.build_opener(_NoRedirect)
        shared = _open(opener, base + "/sheet/share", urlencode(NIGHT).encode(),
                       {"Origin": base, "Sec-Fetch-Site": "same-origin"})
        assert shared.status == 303
        token = shared.headers["Location"].rsplit("/", 1)[1]
        view = re.search(r'id="view-link"[^>]*href="/s/([^"?]+)|href="/s/([^"?]+)"[^>]*id="view-link"',
                         _open(opener, f"{base}/s/{token}").read().decode())
        view_token = next(v for v in view.groups() if v)
        carried = f"/?rules=hong-kong&hand=123456789m234p55s&sheet=stored={token}"
        for path in (f"/s/{token}/version", f"/s/{token}.csv", f"/s/{token}.json", f"/s/{view_token}",
                     carried, f"/sheet?stored={token}&add=" + quote(HAND),
                     "/oembed?url=" + quote(base + carried, safe="")):
            _open(opener, base + path, headers={"Referer": f"{base}/s/{token}"})
        changed = _open(opener, f"{base}/s/{token}/change", urlencode({"action": "add", "line": HAND}).encode())
        assert changed.status == 303
    log = server.log_path.read_text(errors="replace")   # the server stopped: all of it
    assert token not in log and view_token not in log
    assert token[:12] not in log and view_token[:12] not in log
    lines = [line for line in log.splitlines() if '"GET ' in line or '"POST ' in line]
    assert len(lines) >= 11, log   # every request above has its line
    assert f'"GET /s/{MASK}/version HTTP/1.1" 200' in log or f'"GET /s/{MASK}/version HTTP/1.1" 304' in log
    assert f'"POST /s/{MASK}/change HTTP/1.1" 303' in log
    assert f"sheet=stored={MASK}" in log and f"stored%3D{MASK}" in log


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _open(opener, url: str, data: bytes | None = None, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        return opener.open(request, timeout=30)
    except urllib.error.HTTPError as err:   # a 303 not followed, a 404
        return err


def test_an_exception_logged_by_the_app_names_no_token(client, caplog):
    app = client.application

    @app.get("/s/<token>/boom")
    def boom(token):
        raise RuntimeError("boom")

    with caplog.at_level("ERROR"):
        assert client.get("/s/MH74ybtHO6n0zKczoBg3LGZH/boom").status_code == 500
    assert "Exception on /s/" in caplog.text and "MH74ybtHO6n0zKczoBg3LGZH" not in caplog.text


# --- headers: no cache, no referrer, no framing of an edit page --------------------------------


def test_every_shared_sheet_answer_sends_no_referrer_and_is_kept_by_no_cache(client):
    token = _share(client)
    view = client.get(f"/s/{token}.json").json["link"]
    for path in (f"/s/{token}", view, f"/s/{token}/version", f"/s/{token}.csv", f"/s/{token}.json",
                 "/s/AAAAAAAAAAAAAAAAAAAAAAAA", f"/s/{token}?lang=zh-Hant"):
        response = client.get(path)
        assert response.headers["Referrer-Policy"] == "no-referrer", path
        assert response.headers["Cache-Control"] == "no-store", path
    posted = client.post(f"/s/{token}/change", data={"action": "add", "line": HAND})
    assert posted.status_code == 303 and posted.headers["Referrer-Policy"] == "no-referrer"
    stale = client.post(f"/s/{token}/change", data={"action": "undo", "base": "0"})
    assert stale.status_code == 409 and stale.headers["Referrer-Policy"] == "no-referrer"


def test_the_edit_page_is_framed_by_no_site_and_the_view_page_as_configured(tmp_path):
    client = create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path)},
                         "FRAME_ANCESTORS": "https://lessons.example"}).test_client()
    token = _share(client)
    for response in (client.get(f"/s/{token}"),
                     client.post(f"/s/{token}/change", data={"action": "undo", "base": "0"})):   # 409
        assert _csp(response)["frame-ancestors"] == ["'none'"]
        assert response.headers["X-Frame-Options"] == "DENY"
    view = client.get(client.get(f"/s/{token}.json").json["link"])
    assert view.status_code == 200 and "X-Frame-Options" not in view.headers
    assert _csp(view)["frame-ancestors"] == ["https://lessons.example"]


def test_pages_carrying_the_edit_token_are_private(client):
    token = _share(client)
    for path in _carrying_pages(client, token):
        response = client.get(path)
        assert response.status_code in (200, 302), path
        assert response.headers["Cache-Control"] == "no-store", path
        assert "ETag" not in response.headers, path
        assert response.headers["Referrer-Policy"] == "no-referrer", path
        assert _csp(response)["frame-ancestors"] == ["'none'"], path
        assert response.headers["X-Frame-Options"] == "DENY", path
        body = response.get_data(as_text=True)
        assert "application/json+oembed" not in body and "/oembed?" not in body, path
        for frame in re.findall(r"<iframe[^>]*>|data-mahjong=\"[^\"]*\"|<textarea[^>]*>[^<]*", body):
            assert token not in frame and token not in html.unescape(frame), path
        # a client holding the page cannot turn its next request into a cached 304
        again = client.get(path, headers={"If-None-Match": "*"})
        assert again.status_code == response.status_code and again.headers["Cache-Control"] == "no-store"


def test_the_same_pages_without_a_sheet_stay_cacheable_and_embeddable(client):
    """The control of the test above: the token alone makes the difference."""
    response = client.get("/?rules=hong-kong&hand=123456789m234p55s&by=self-draw")
    assert response.headers["Cache-Control"].startswith("public") and "ETag" in response.headers
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "X-Frame-Options" not in response.headers and _csp(response)["frame-ancestors"] == ["*"]
    assert "application/json+oembed" in response.get_data(as_text=True)


def test_oembed_frames_no_address_carrying_a_token(client):
    token = _share(client)
    url = f"http://localhost/?rules=hong-kong&hand=123456789m234p55s&sheet=stored={token}"
    response = client.get("/oembed", query_string={"url": url})
    assert response.status_code == 404 and response.headers["Cache-Control"] == "no-store"
    assert "iframe" not in response.get_data(as_text=True)
    plain = client.get("/oembed", query_string={"url": url.split("&sheet=")[0]})
    assert plain.status_code == 200 and "<iframe" in plain.json["html"]


# --- a share or a change from another site's page is refused -----------------------------------


FOREIGN = [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
           {"Origin": "null", "Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
           {"Origin": "http://localhost.evil.example"}]
OWN = [{}, {"Origin": "http://localhost"}, {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
       {"Origin": "null", "Sec-Fetch-Site": "same-origin"}, {"Origin": "null"}]


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_share_posted_from_another_site_is_refused_and_stores_nothing(client, headers):
    response = client.post("/sheet/share", data=NIGHT, headers=headers)
    assert response.status_code == 403
    assert "another site" in response.get_data(as_text=True) and "Location" not in response.headers
    assert client.application.extensions.get("sheet_store") is None   # the store was not even opened


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_change_posted_from_another_site_is_refused_and_changes_nothing(client, headers):
    token = _share(client)
    before = client.get(f"/s/{token}.json").json
    for form in ({"action": "add", "line": HAND}, {"action": "undo", "base": str(before["version"])},
                 {"action": "remove", "hand": str(before["hands"][0]["id"]), "base": str(before["version"])}):
        response = client.post(f"/s/{token}/change", data=form, headers=headers)
        assert response.status_code == 403, form
    assert client.get(f"/s/{token}.json").json == before


@pytest.mark.parametrize("headers", OWN)
def test_a_share_and_a_change_from_the_calculators_own_pages_are_taken(client, headers):
    response = client.post("/sheet/share", data=NIGHT, headers=headers)
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[1]
    added = client.post(f"/s/{token}/change", data={"action": "add", "line": HAND}, headers=headers)
    assert added.status_code == 303 and len(client.get(f"/s/{token}.json").json["hands"]) == 2


def test_a_server_name_is_the_origin_its_pages_post_from(tmp_path):
    client = create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path)},
                         "SERVER_NAME": "calc.example"}).test_client()
    own = client.post("/sheet/share", data=NIGHT, base_url="http://calc.example",
                      headers={"Origin": "https://calc.example"})
    assert own.status_code == 303
    assert client.post("/sheet/share", data=NIGHT, base_url="http://calc.example",
                       headers={"Origin": "https://other.example"}).status_code == 403


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_refusal_is_said_in_the_pages_language(client, lang):
    english = html.unescape(client.post("/sheet/share", data=NIGHT, headers=FOREIGN[0]).get_data(as_text=True))
    said = html.unescape(client.post(f"/sheet/share?lang={lang}", data=NIGHT, headers=FOREIGN[0]).get_data(as_text=True))
    sentence = re.search(r"this calculator's own pages[^<]*", english)[0]
    assert sentence not in said and f'lang="{lang}"' in said
