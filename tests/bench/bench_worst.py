"""On demand: each endpoint's worst accepted request and its CPU time, under every family and
under the family's dearest legal variant (60 added patterns, one a detector in turn).

    .venv/bin/python tests/bench/bench_worst.py     # a few minutes

The requests are tests/load/heavy_load.py's (the heaviest sheet the budget accepts, the round
ledger and settlement of three nine-gates hands at the wall's end, what to discard and its
waits for a nine-gates hand, a 36-hand quiz, a course result page, card and score, and the
outlook's worst hands), each asked through the app in-process: its processor time
(`time.process_time`, which other work on the machine does not inflate), the best of 3 unless
it is cold by nature (an outlook and a variant's first page: the first ask, its variant built
in it). Each line says the status and the scorings counted (budget units). Target: 1 s each.
"""
from __future__ import annotations

import os
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.advice import outlook as outlook_module  # noqa: E402
from tests.load.heavy_load import (  # noqa: E402
    MOST_SCORINGS,
    OUTLOOK_HANDS,
    _scorings,
    counting_app,
    dearest_variant,
    heavy_requests,
)


def under(path: str, rules: str) -> str:
    """The same request under other rules (`rules=` replaced)."""
    base, _, query = path.partition("?")
    args = urllib.parse.parse_qsl(query, keep_blank_values=True)
    return base + "?" + urllib.parse.urlencode([(k, rules if k == "rules" else v) for k, v in args])


def cpu(app, method: str, path: str, body: bytes | None, repeat: int) -> tuple[float, int, int]:
    best, status, used = float("inf"), 0, 0
    for _ in range(repeat):
        outlook_module._CACHE.clear()
        started = time.process_time()
        status, used = _scorings(app, method, path, body)
        best = min(best, time.process_time() - started)
    return best, status, used


def main() -> None:
    print(f"worst accepted requests: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())},"
          f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    app = counting_app()
    requests = [(name, method, paths[0], body) for name, method, paths, body in heavy_requests(app)
                if not name.startswith("outlook")]
    worst = {rules: hand for rules, hand, *_ in reversed(OUTLOOK_HANDS)}   # each family's heaviest
    outlooks = [("outlook API", "GET", "/api/discard?" + urllib.parse.urlencode(
        {"rules": rules, "hand": hand, "outlook": "1", "draws": "30",
         **({"missing": "s"} if rules.startswith("sichuan") else {})}), None)
        for rules, hand in worst.items()]
    outlooks.append(("outlook API", "GET", "/api/discard?" + urllib.parse.urlencode(
        {"rules": MOST_SCORINGS[0], "hand": MOST_SCORINGS[1], "outlook": "1", "draws": "30"}), None))
    for name, method, path, body in requests + outlooks:
        family = dict(urllib.parse.parse_qsl(path.partition("?")[2])).get("rules", "hong-kong")
        variant = dearest_variant(family)
        for label, asked in ((family, path), ("dearest variant", under(path, variant))):
            seconds, status, used = cpu(app, method, asked, body, 1 if "outlook" in asked or "~" in asked else 3)
            print(f"{name:13} {family:17} {label:16} {status} {used:>5} units {seconds * 1000:7.0f} ms CPU"
                  f"{'  <-- over 1 s' if seconds > 1 else ''}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
