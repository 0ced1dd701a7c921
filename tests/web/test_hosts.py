"""Absolute addresses name the configured public name or the request's own Host, never a
forwarded header from a proxy nobody configured; with a public name, other hosts are refused."""
from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.sansio.utils import get_current_url

from app.web import create_app
from app.web.serving.hosts import absolute_url

HAND = "rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
FORGED = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
          "X-Forwarded-Port": "4443", "X-Forwarded-For": "6.6.6.6", "Forwarded": "host=evil.example"}


def _oembed(client, url: str, headers: dict[str, str]):
    return client.get("/oembed", query_string={"url": url}, headers=headers)


def _addresses(body: str) -> set[str]:
    """The scheme and host of every absolute address in a body, percent-encoded ones too."""
    return set(re.findall(r"https?://[^/\"'&\\ ]+", unquote(html.unescape(body))))


@pytest.mark.parametrize("host", ["localhost", "calc.example:8080"])
def test_forwarded_headers_from_an_unconfigured_proxy_never_reach_a_body(host):
    client = create_app().test_client()
    for path, query in (("/oembed", {"url": f"http://{host}/?{HAND}"}), ("/", HAND), ("/card", HAND)):
        response = client.get(path, query_string=query, headers={"Host": host, **FORGED})
        assert response.status_code == 200, path
        body = response.get_data(as_text=True)
        assert "evil" not in body and "https" not in body and "4443" not in body, path
        assert _addresses(body) - {"http://www.w3.org"} <= {f"http://{host}"}, (path, _addresses(body))
        if path != "/oembed":   # the page's oEmbed discovery link names its own address
            assert f"url=http://{host}/" in unquote(html.unescape(body)), path


def test_the_request_host_which_caches_key_on_is_the_one_named_and_it_changes_the_etag():
    client = create_app().test_client()
    answers = {host: _oembed(client, f"http://{host}/?{HAND}", {"Host": host}) for host in ("a.example", "b.example")}
    for host, response in answers.items():
        assert _addresses(response.get_data(as_text=True)) == {f"http://{host}"}
    assert answers["a.example"].headers["ETag"] != answers["b.example"].headers["ETag"]


def test_behind_one_configured_proxy_its_forwarded_host_and_scheme_are_named(monkeypatch):
    monkeypatch.setenv("MAHJONG_PROXY_HOPS", "1")
    client = create_app().test_client()
    headers = {"Host": "10.0.0.5:8000", "X-Forwarded-Host": "calc.example", "X-Forwarded-Proto": "https"}
    response = _oembed(client, f"https://calc.example/?{HAND}", headers)
    assert response.status_code == 200
    assert _addresses(response.get_data(as_text=True)) == {"https://calc.example"}
    # the nearer of two forwarded values is the proxy's own: a client's first one is not read
    headers = {**headers, "X-Forwarded-Host": "evil.example, calc.example"}
    assert _addresses(_oembed(client, f"https://calc.example/?{HAND}", headers).get_data(as_text=True)) \
        == {"https://calc.example"}


@pytest.mark.parametrize("hops", ["x", "-1", "99"])
def test_a_proxy_count_that_is_not_a_small_number_stops_the_app_with_its_name(monkeypatch, hops):
    monkeypatch.setenv("MAHJONG_PROXY_HOPS", hops)
    with pytest.raises(ValueError, match="MAHJONG_PROXY_HOPS"):
        create_app()


def test_with_a_public_name_a_forged_host_is_refused_and_bodies_name_the_public_name(monkeypatch):
    monkeypatch.setenv("MAHJONG_SERVER_NAME", "mahjong.example")
    monkeypatch.setenv("MAHJONG_TRUSTED_HOSTS", "mahjong.example,internal.example")
    client = create_app().test_client()
    response = client.get("/card", query_string=HAND, headers={"Host": "evil.example"})
    assert response.status_code == 400 and "evil" not in response.get_data(as_text=True)
    # a host the balancer passes on is served, and what the body names is the public name
    response = _oembed(client, f"http://mahjong.example/?{HAND}", {"Host": "internal.example", **FORGED})
    assert response.status_code == 200
    assert _addresses(response.get_data(as_text=True)) == {"http://mahjong.example"}


@given(st.sampled_from(["http", "https"]),
       st.sampled_from(["localhost", "calc.example:8080", "xn--bcher-kva.example", "XN--BCHER-KVA.example"]),
       st.sampled_from(["", "/", "/m", "/m/", "/%E9%BA%BB"]),
       st.text(alphabet="/abc~%é?#:@ ", max_size=8).map(lambda p: "/" + p),
       st.binary(max_size=24) | st.text(alphabet="az09=&,:+%~;/?@'!é", max_size=24)
       .map(lambda q: q.encode("utf-8")))
@settings(max_examples=400, deadline=None)
def test_an_absolute_address_is_what_werkzeug_would_make(scheme, host, root, path, query):
    assert absolute_url(scheme, host, root, path, query) == get_current_url(scheme, host, root, path, query)
