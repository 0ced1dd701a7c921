"""Browser-test fixtures: the app on gunicorn, a second origin that frames it, Debian's chromium.

Playwright drives the chromium that `make test` installs from Debian (never a downloaded
browser). Every page a test opens is watched for console errors and uncaught exceptions,
which also catches Content-Security-Policy violations.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.waiting import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's chromium, never a browser Playwright would download."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def _gunicorn_version() -> tuple[int, ...]:
    import gunicorn
    return tuple(gunicorn.version_info)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The calculator on gunicorn (as `make run` starts it) on a free loopback port; its shared
    sheets in a temporary SQLite file."""
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", MAHJONG_FRAME_ANCESTORS="*",
               MAHJONG_DATA_DIR=str(tmp_path_factory.mktemp("sheets")))
    env.pop("MAHJONG_DATABASE_URL", None)
    command = [sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", "4",
               "--bind", f"127.0.0.1:{port}", "app.web:create_app()"]
    if _gunicorn_version() >= (25, 1):   # keep off the control socket a `make run` may hold
        command.insert(3, "--no-control-socket")
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url + "/api/openapi.json", proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def base_url(live_server):
    """pytest-playwright opens relative addresses against the live server."""
    return live_server


@pytest.fixture(scope="session")
def api(live_server):
    """GET /api/score or /api/waits on the live server; the JSON answer."""
    def call(path: str, **params: str) -> dict:
        query = urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(f"{live_server}{path}?{query}", timeout=5) as r:
                return json.load(r)
        except urllib.error.HTTPError as err:
            return json.load(err)
    return call


@pytest.fixture(scope="session")
def lesson_site(tmp_path_factory, live_server):
    """A second origin (another port, another host name) serving a lesson page that frames
    the calculator and fits the iframe to the height it reports by postMessage."""
    folder = tmp_path_factory.mktemp("lesson-site")
    app_origin = live_server
    (folder / "lesson.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title>
<link rel="icon" href="data:,"></head>
<body>
<h1>Lesson 3: your first win</h1>
<iframe id="calc" title="Mahjong scoring calculator" style="width: 100%; border: 0"
        height="150" src="{app_origin}/embed?rules=hong-kong-course"></iframe>
<script>
  window.addEventListener("message", function (event) {{
    if (event.origin !== "{app_origin}") return;
    var data = event.data || {{}};
    if (data.type === "mahjong-calculator:height") {{
      document.getElementById("calc").height = data.height;
      window.lastHeight = data.height;
    }}
  }});
</script>
</body></html>
""")
    # The one-line embed: three cards, a teacher's quiz and the full calculator, one script.
    quiz = "&".join(["rules=hong-kong", "hands=123m456m789m234p55s%20by%3Dself-draw",
                     "hands=111m222p333s444z55z", "ask=fan"])
    (folder / "cards.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson with cards</title>
<link rel="icon" href="data:,"></head>
<body>
<h1>Lesson 4: three winning hands</h1>
<p>All chows, self-drawn:</p>
<div id="card-1" data-mahjong="rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
     data-view="card"></div>
<p>All pongs with honours:</p>
<div id="card-2" data-mahjong="rules=hong-kong&hand=111m222p333s444z55z" data-view="card"></div>
<p>A Sichuan flush, dark:</p>
<div id="card-3" data-mahjong="rules=sichuan&hand=111p123p777p789p55p&by=self-draw&theme=dark"
     data-view="card"></div>
<h2>Your turn</h2>
<div id="quiz" data-mahjong="{quiz}" data-view="quiz"></div>
<h2>Try your own</h2>
<div id="calculator" data-mahjong="rules=hong-kong-course" data-view="calculator"></div>
<script src="{app_origin}/static/embed.js" async></script>
</body></html>
""")
    # A lesson written in Traditional Chinese: its frames speak the lesson's language.
    (folder / "cards-zh.html").write_text(f"""<!doctype html>
<html lang="zh-HK"><head><meta charset="utf-8"><title>第四課：三手食糊</title>
<link rel="icon" href="data:,"></head>
<body>
<h1>第四課：三手食糊</h1>
<div id="card-hk" data-mahjong="rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
     data-view="card"></div>
<section lang="zh-CN"><h2>四川清一色</h2>
<div id="card-cn" data-mahjong="rules=sichuan&hand=111p123p777p789p55p&by=self-draw"
     data-view="card"></div></section>
<div id="card-en" data-mahjong="rules=hong-kong&hand=111m222p333s444z55z&lang=en"
     data-view="card"></div>
<div id="quiz-hk" data-mahjong="{quiz}" data-view="quiz"></div>
<script src="{app_origin}/static/embed.js" async></script>
</body></html>
""")
    (folder / "blank.html").write_text("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>An oEmbed consumer</title>
<link rel="icon" href="data:,"></head><body><h1>Embedded by oEmbed</h1><div id="slot"></div>
</body></html>
""")
    handler = partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # "localhost" rather than 127.0.0.1: another host and another port, another origin
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture
def console_errors(page):
    """Console errors and uncaught exceptions of every page (and frame) a test opens."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text} "
                                                 f"({msg.location.get('url', '')})")
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    return errors


@pytest.fixture(autouse=True)
def no_console_errors(page, console_errors):
    """Fail any browser test whose pages logged an error (CSP violations included)."""
    page.set_default_timeout(TIMEOUT_MS)
    yield
    assert console_errors == [], "the browser reported errors:\n" + "\n".join(console_errors)


def assert_loads_cleanly(page, console_errors: list[str], path: str) -> None:
    """The page answers, every image (tiles included) loads, and the console stays quiet."""
    response = page.goto(path)
    assert response is not None and response.ok
    page.wait_for_load_state("load")
    broken = page.evaluate(
        "[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
    assert broken == []
    assert console_errors == []
