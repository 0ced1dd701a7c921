"""The app's answers to a fixed set of addresses, kept whole: a refactor that must not change
behaviour is checked against them byte for byte, and a change is shown as a diff
(tests/test_snapshots.py).

    python tests/snapshots/responses.py record   # after an intended change of pages or JSON
    python tests/snapshots/responses.py check    # every address whose answer differs, and how

`record` builds the address list (every kind of page of tests/web/test_languages.py in the three
languages, every golden case as a result page and as /api/score, the golden rounds as POST
/api/settle) and writes it with each answer's status, type and SHA-256 to responses.json, and
each distinct answer's text, keyed by its SHA-256, to bodies.json.xz (14 MB of text, 1,366
distinct answers, about 260 KB compressed: the pages share most of their text). `check`
replays exactly the stored requests, so it needs no test module to keep its shape; an answer
whose digest differs is shown as a unified diff against the recorded text (JSON indented,
HTML cut at its tags, so a diff line is short).
"""
from __future__ import annotations

import difflib
import hashlib
import json
import lzma
import re
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
STORE = Path(__file__).with_name("responses.json")
BODIES = Path(__file__).with_name("bodies.json.xz")
LANGS = ("en", "zh-Hant", "zh-Hans")
SHOWN = 5          # addresses whose diff a check shows (then their names only)
DIFF_LINES = 40    # lines of each diff shown


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


def respond(client, request: dict) -> tuple[dict, bytes]:
    """One request's status, content type and body digest, and the body."""
    if request["method"] == "POST":
        response = client.post(request["url"], json=request["json"])
    else:
        response = client.get(request["url"])
    body = response.get_data()
    return {"status": response.status_code,
            "type": response.headers.get("Content-Type", ""),
            "sha256": hashlib.sha256(body).hexdigest()}, body


def answer(client, request: dict) -> dict:
    """One request's status, content type and body digest."""
    return respond(client, request)[0]


def client():
    from app.web import create_app
    return create_app().test_client()


def read_bodies() -> dict[str, bytes]:
    """The recorded answers' bytes by their SHA-256."""
    texts = json.loads(lzma.decompress(BODIES.read_bytes()).decode("utf-8"))
    return {digest: text.encode("utf-8", "surrogateescape") for digest, text in texts.items()}


def write_bodies(bodies: dict[str, bytes]) -> None:
    texts = {digest: body.decode("utf-8", "surrogateescape") for digest, body in sorted(bodies.items())}
    data = json.dumps(texts, indent=0, sort_keys=True).encode("ascii")   # \u escapes: any bytes
    BODIES.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))


def record() -> int:
    web = client()
    requests = build_requests()
    stored, bodies = [], {}
    for request in requests:
        head, body = respond(web, request)
        stored.append({**request, **head})
        bodies[head["sha256"]] = body
    STORE.write_text(json.dumps(stored, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    write_bodies(bodies)
    print(f"recorded {len(stored)} answers in {STORE.name}, {len(bodies)} texts in {BODIES.name}")
    return 0


def _lines(body: bytes, kind: str) -> list[str]:
    """An answer as lines a diff can show: JSON indented, HTML's long lines cut at its tags."""
    text = body.decode("utf-8", "replace")
    if kind.startswith("application/json"):
        try:
            return json.dumps(json.loads(text), ensure_ascii=False, indent=1).splitlines()
        except ValueError:
            pass
    return [piece for line in text.splitlines()
            for piece in (re.sub(r">\s*<", ">\n<", line).splitlines() if len(line) > 200 else [line])]


def diff(old: bytes, new: bytes, kind: str) -> list[str]:
    """A unified diff of two answers (the recorded one first), each line cut at 200 characters."""
    lines = list(difflib.unified_diff(_lines(old, kind), _lines(new, kind), "recorded", "now",
                                      n=2, lineterm=""))
    if not lines:   # the bytes differ where the readable form does not (spaces, escapes)
        at = next(i for i, (a, b) in enumerate(zip(old + b"\0", new + b"\1", strict=False)) if a != b)
        near = slice(max(0, at - 40), at + 40)
        return [f"first differing byte at {at}: {old[near]!r} -> {new[near]!r}"]
    return [line if len(line) <= 200 else line[:200] + " …" for line in lines]


def differences(shown: int = SHOWN) -> list[str]:
    """Each stored request whose answer differs now, with what differs. An answer whose body
    differs comes with a diff against the recorded text: each distinct change is shown once
    (its first DIFF_LINES lines; SHOWN changes at most), the other answers that changed the
    same way are counted under it (one script's new digest changes every page alike)."""
    web = client()
    bodies = read_bodies()
    found: list[str] = []
    changes: dict[tuple[str, ...], list[int]] = {}   # the +/- lines -> where in `found`
    for stored in json.loads(STORE.read_text(encoding="utf-8")):
        now, body = respond(web, stored)
        changed = [key for key in now if now[key] != stored[key]]
        if not changed:
            continue
        found.append(f"{stored['method']} {stored['url']}: {', '.join(changed)} differ")
        if "sha256" not in changed:
            continue
        if stored["sha256"] not in bodies:
            found[-1] += f" (no recorded text for {stored['sha256']} in {BODIES.name})"
            continue
        lines = diff(bodies[stored["sha256"]], body, now["type"])
        key = tuple(line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---"))
        if key in changes:
            changes[key].append(len(found) - 1)
            found[-1] += f" (the same change as {found[changes[key][0]].split(':')[0]})"
        elif len(changes) < shown:
            changes[key] = [len(found) - 1]
            more = f"\n… {len(lines) - DIFF_LINES} more diff lines" if len(lines) > DIFF_LINES else ""
            found[-1] += "\n" + "\n".join(lines[:DIFF_LINES]) + more
    for places in changes.values():
        if len(places) > 1:
            found[places[0]] += f"\n({len(places) - 1} more answers changed the same way)"
    return found


def check_store() -> list[str]:
    """What is wrong with the store itself: an answer without its text, or a text that is not
    the bytes its digest names."""
    bodies = read_bodies()
    wrong = [f"{digest}: the stored text's digest is {hashlib.sha256(body).hexdigest()}"
             for digest, body in bodies.items() if hashlib.sha256(body).hexdigest() != digest]
    wanted = {s["sha256"] for s in json.loads(STORE.read_text(encoding="utf-8"))}
    wrong += [f"{digest}: no recorded text" for digest in sorted(wanted - bodies.keys())]
    wrong += [f"{digest}: a text no address answers" for digest in sorted(bodies.keys() - wanted)]
    return wrong


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    if argv[1:] == ["record"]:
        return record()
    if argv[1:] == ["check"]:
        found = check_store() + differences()
        print("\n\n".join(found) or "every stored answer is byte-identical")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
