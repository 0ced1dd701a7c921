"""The app's answers to a fixed set of addresses, kept as digests: a refactor that must not change
behaviour is checked against them (tests/test_snapshots.py).

    python tests/snapshots/responses.py record   # after an intended change of pages or JSON
    python tests/snapshots/responses.py check    # lists every address whose answer differs

`record` builds the address list (every kind of page of tests/web/test_languages.py in the three
languages, every golden case as a result page and as /api/score, the golden rounds as POST
/api/settle) and writes it with each answer's status, type and SHA-256 to responses.json;
`check` replays exactly the stored requests, so it needs no test module to keep its shape.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
STORE = Path(__file__).with_name("responses.json")
LANGS = ("en", "zh-Hant", "zh-Hans")


def _with_lang(url: str, lang: str) -> str:
    if lang == "en":
        return url
    return url + ("&" if "?" in url else "?") + "lang=" + lang


def build_requests() -> list[dict]:
    """Every request to record: method, url and, for POST, the JSON body."""
    import yaml

    from tests.scoring.test_golden import FILES
    from tests.web import test_languages
    from tests.web.test_rounds_web import parse_round_text

    requests: list[dict] = []
    for lang in LANGS:
        requests += [{"method": "GET", "url": _with_lang(url, lang)}
                     for url in test_languages.PAGES.values()]
        requests += [{"method": "GET", "url": _with_lang(url, lang)}
                     for url in test_languages.API.values()]
    for data in FILES.values():
        for case in data["cases"]:
            query = urlencode({"rules": data["ruleset"],
                               **{k: str(v) for k, v in case["params"].items()}})
            requests.append({"method": "GET", "url": "/?" + query})
            requests += [{"method": "GET", "url": _with_lang("/api/score?" + query, lang)}
                         for lang in LANGS]
    rounds = yaml.safe_load((ROOT / "tests/golden/rounds/blood-battle.yaml").read_text("utf-8"))
    for case in rounds["cases"]:
        body = parse_round_text(case["round"], case["rules"])
        requests += [{"method": "POST", "url": _with_lang("/api/settle", lang), "json": body}
                     for lang in LANGS]
    return requests


def answer(client, request: dict) -> dict:
    """One request's status, content type and body digest."""
    if request["method"] == "POST":
        response = client.post(request["url"], json=request["json"])
    else:
        response = client.get(request["url"])
    return {"status": response.status_code,
            "type": response.headers.get("Content-Type", ""),
            "sha256": hashlib.sha256(response.get_data()).hexdigest()}


def client():
    from app.web import create_app
    return create_app().test_client()


def record() -> int:
    web = client()
    requests = build_requests()
    stored = [{**request, **answer(web, request)} for request in requests]
    STORE.write_text(json.dumps(stored, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"recorded {len(stored)} answers in {STORE.name}")
    return 0


def differences() -> list[str]:
    """Each stored request whose answer differs now, with what differs."""
    web = client()
    found = []
    for stored in json.loads(STORE.read_text(encoding="utf-8")):
        now = answer(web, stored)
        changed = [key for key in now if now[key] != stored[key]]
        if changed:
            found.append(f"{stored['method']} {stored['url']}: {', '.join(changed)} differ")
    return found


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    if argv[1:] == ["record"]:
        return record()
    if argv[1:] == ["check"]:
        found = differences()
        print("\n".join(found) or "every stored answer is byte-identical")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
