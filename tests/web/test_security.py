"""Security headers on every response (error pages included), no cookies, no inline script,
debug never on in the production command, and a ruleset id that is only ever looked up.

Routes are read from the app's URL map, so a page added later is covered without editing
this file.
"""
from __future__ import annotations

import base64
import builtins
import hashlib
import io
import os
import re
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask import Flask

from app.web import create_app
from tests.apps import shared_app
from tests.production import ProductionServer

ROOT = Path(__file__).resolve().parents[2]
HAND = "123m456m789m234p55s"
SAMPLE_ARGS = {"rid": ["sichuan", "nope", "..%2f..%2fetc%2fpasswd"], "filename": ["style.css", "nope.css"],
               "token": ["AAAAAAAAAAAAAAAAAAAAAAAA", "..%2f..%2fetc%2fpasswd", "x" * 100],
               "night_id": ["1", "99999999999999999999"], "member_id": ["1", "99999999999999999999"]}
QUERIES = ["", f"?hand={HAND}", "?hand=bad&rules=nope", "?x=" + "a" * 5000,
           "?" + "&".join(["flowers=1"] * 100)]


def _csp(response) -> dict[str, list[str]]:
    directives = {}
    for part in response.headers.get("Content-Security-Policy", "").split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def _urls(app: Flask) -> list[tuple[str, str]]:
    """(method, url) for every route: its own methods, a method it refuses, odd queries."""
    found = []
    for rule in app.url_map.iter_rules():
        paths = [rule.rule]
        for name in sorted(rule.arguments):   # a set: its order differs between processes
            paths = [p.replace(f"<{name}>", v).replace(f"<path:{name}>", v)
                     for p in paths for v in SAMPLE_ARGS[name]]
        methods = sorted(rule.methods - {"OPTIONS"})
        for path in paths:
            for method in methods:
                for query in QUERIES if method == "GET" else [""]:
                    found.append((method, path + query))
            found.append(("DELETE", path))
            found.append(("OPTIONS", path))
    found += [("GET", "/nope"), ("GET", "/api/nope"), ("PUT", "/api/score"), ("GET", "//"),
              ("GET", "/rules"), ("GET", "/static/../app/__init__.py")]
    return found


APP = shared_app()
URLS = _urls(APP)


def _check_headers(response, ancestors: str = "*") -> None:
    csp = _csp(response)
    assert csp.get("default-src") == ["'self'"], csp
    assert csp.get("object-src") == ["'none'"], csp
    assert csp.get("base-uri") == ["'none'"], csp
    assert csp.get("frame-ancestors") == ancestors.split(), csp
    script = csp.get("script-src", csp.get("default-src"))
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script and "*" not in script
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") in ("no-referrer", "same-origin",
                                                       "strict-origin", "strict-origin-when-cross-origin")
    assert "Set-Cookie" not in response.headers
    assert "X-Frame-Options" not in response.headers   # frame-ancestors decides who frames


@pytest.mark.parametrize("method, url", URLS, ids=[f"{m} {u[:50]}" for m, u in URLS])
def test_every_route_and_error_carries_the_headers_and_no_cookie(method, url):
    client = APP.test_client()
    response = client.open(url, method=method)
    assert response.status_code < 500, (method, url, response.status_code)
    _check_headers(response)
    assert not client._cookies, "a cookie was set"


def test_every_error_status_is_covered():
    client = APP.test_client()
    seen = {client.open(url, method=method).status_code for method, url in URLS}
    assert {200, 302, 400, 404, 405, 414} <= seen, seen


def test_an_internal_error_page_carries_the_headers_and_no_traceback():
    app = create_app({"FRAME_ANCESTORS": "https://lessons.example"})

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "secret detail" not in body and "Traceback" not in body and "RuntimeError" not in body
    _check_headers(response, "https://lessons.example")
    assert app.test_client().get("/api/boom").status_code == 404


@pytest.mark.parametrize("ancestors", ["*", "'none'", "'self'", "https://lessons.example https://b.example"])
def test_frame_ancestors_come_from_the_configuration(ancestors):
    client = create_app({"FRAME_ANCESTORS": ancestors}).test_client()
    for url in ("/", "/embed", "/api/score?hand=bad", "/nope", "/static/style.css"):
        assert _csp(client.get(url))["frame-ancestors"] == ancestors.split()


def test_frame_ancestors_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("MAHJONG_FRAME_ANCESTORS", "https://lessons.example")
    assert _csp(create_app().test_client().get("/embed"))["frame-ancestors"] == ["https://lessons.example"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@pytest.mark.parametrize("url", sorted({u for m, u in URLS if m == "GET" and "x=aaaa" not in u}))
def test_html_has_no_inline_script_unless_its_hash_is_in_the_policy(url):
    response = APP.test_client().get(url)
    if response.mimetype != "text/html":
        return
    text = response.get_data(as_text=True)
    allowed = _csp(response).get("script-src", [])
    for body in INLINE_SCRIPT.findall(text):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in allowed, f"an inline script without its hash: {body[:80]}"
    assert not re.search(r"\son[a-z]+\s*=", text, re.I), "an inline event handler"
    assert "javascript:" not in text.lower()


def test_no_route_sets_a_cookie_even_for_a_session():
    assert APP.config.get("SECRET_KEY") is None   # no session can be signed, so none is kept
    client = APP.test_client()
    for method, url in URLS:
        client.open(url, method=method)
    assert not client._cookies


# --- debug is never on in the production command -------------------------------------------


def _make_run_command(**variables: str) -> str:
    args = ["make", "-n", "-s", "run"] + [f"{k}={v}" for k, v in variables.items()]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "FLASK_DEBUG": "1"}).stdout
    return next(line for line in out.splitlines() if "mahjong-calculator serve" in line)


def test_the_production_command_is_the_serve_command_without_debug():
    command = _make_run_command(HOST="127.0.0.1", PORT="9123")
    assert "flask run" not in command and "--reload" not in command and "--debug" not in command
    assert "-u FLASK_DEBUG" in command   # a FLASK_DEBUG left in the shell does not reach the app
    assert "HOST=127.0.0.1" in command and "PORT=9123" in command


def test_the_production_command_answers_with_the_headers_and_its_own_limits(tmp_path):
    """`make run`'s command itself, on loopback, with FLASK_DEBUG=1 left in the environment."""
    with ProductionServer(tmp_path) as server:
        base = f"http://127.0.0.1:{server.port}"
        for url, status in [("/", 200), (f"/?hand={HAND}", 200), ("/nope", 404),
                            ("/api/score?x=" + "a" * 5000, 400), ("/?x=" + "a" * 7000, 414)]:
            try:
                response = urllib.request.urlopen(base + url, timeout=30)
            except urllib.error.HTTPError as err:
                response = err
            with response:
                assert response.status == status, url
                _check_headers(response)
                body = response.read().decode()
                assert "Traceback" not in body and "Werkzeug Debugger" not in body


def test_the_app_is_built_with_debug_and_testing_off():
    app = create_app()
    assert app.debug is False and app.testing is False
    assert app.config["PROPAGATE_EXCEPTIONS"] is None   # errors become the 500 page


# --- a ruleset id is looked up, never used as a path ----------------------------------------

HOSTILE_IDS = ["../../../../etc/passwd", "/etc/passwd", "..\\..\\pyproject", "sichuan.yaml",
               "../rulesets/sichuan", "rulesets/sichuan", "%2e%2e%2fetc%2fpasswd", "\x00sichuan",
               "sichuan\x00.yaml", "~root", "hong-kong/../sichuan"]


def test_a_ruleset_id_from_a_request_never_reaches_the_file_system(monkeypatch):
    client = APP.test_client()
    urls = [f"/rules/{rid.replace('/', '%2F')}" for rid in HOSTILE_IDS]
    query_routes = sorted(r.rule for r in APP.url_map.iter_rules()
                          if "GET" in r.methods and not r.arguments and r.endpoint != "static")
    urls += [f"{path}?{urlencode({'rules': rid, 'hand': HAND})}" for rid in HOSTILE_IDS
             for path in query_routes]
    for url in urls + ["/", "/rules/", "/rules/sichuan", "/api/score?hand=x"]:   # templates loaded
        client.get(url)
    opened: list[str] = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(io, "open", spy)
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: spy(self, *a, **k))
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 400, 404), url
        if url.startswith(("/api/score", "/api/waits")):
            assert response.status_code == 400
            assert response.json["errors"][0]["field"] == "rules"
        if url.startswith("/rules/") and "?" not in url:
            assert response.status_code == 404
    assert not [p for p in opened if "passwd" in p or "rulesets" in p or "pyproject" in p], opened


# --- the Host header is not trusted ----------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1:8000", "localhost"])
def test_a_slash_redirect_is_relative_whatever_host_the_request_names(host):
    response = APP.test_client().get("/rules", headers={"Host": host})
    assert response.status_code == 308
    assert response.headers["Location"] == "/rules/"
    assert "evil" not in response.get_data(as_text=True)
    _check_headers(response)


def test_with_a_server_name_redirects_name_it_and_other_hosts_answer_400(monkeypatch):
    monkeypatch.setenv("MAHJONG_SERVER_NAME", "mahjong.example")
    client = create_app().test_client()
    response = client.get("/rules", headers={"Host": "mahjong.example"})
    assert response.status_code == 308
    assert response.headers["Location"] == "http://mahjong.example/rules/"
    response = client.get("/rules", headers={"Host": "evil.example"})
    assert response.status_code == 400 and "evil.example" not in response.get_data(as_text=True)
    assert "Location" not in response.headers
    _check_headers(response)


def test_trusted_hosts_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("MAHJONG_TRUSTED_HOSTS", "a.example, .b.example")
    client = create_app().test_client()
    assert client.get("/api/health", headers={"Host": "a.example"}).status_code == 200
    assert client.get("/api/health", headers={"Host": "lessons.b.example"}).status_code == 200
    assert client.get("/api/health", headers={"Host": "c.example"}).status_code == 400


@pytest.mark.parametrize("path", ["//rules", "///rules//hong-kong", "//evil.example/rules"])
def test_a_redirect_from_a_path_of_many_slashes_stays_on_this_site(path):
    response = APP.test_client().get("/", environ_overrides={"PATH_INFO": path,
                                                             "HTTP_HOST": "evil.example"})
    location = response.headers.get("Location", "/")
    assert location.startswith("/") and not location.startswith("//"), location
    assert "evil" not in location
