"""What reading a shared sheet at its limits costs, with each entry's price kept with its line
(app/table/kept.py) and without (every entry priced when read, as before kept prices): the
night of tests/web/test_stored_limits.py, 200 Sichuan rounds, on SQLite in a temporary folder,
through Flask's test client in this process.

Run on demand (`.venv/bin/python tests/bench/bench_stored_night.py`), never in CI. Prints the
median of five requests for the page, its JSON and its CSV each way, and of five corrections.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.store.database import open_database  # noqa: E402
from app.store.sheets import MAX_HANDS, SheetStore, new_client_id  # noqa: E402
from app.table.kept import dumps  # noqa: E402
from app.table.sheet import FIRST_SEATS, Entry, Sheet  # noqa: E402
from app.vocabulary.sheet import format_entry, parse_entry, price_entry  # noqa: E402
from app.web import create_app  # noqa: E402
from tests.web.test_stored_limits import NAMES, _round  # noqa: E402

RUNS = 5


def _median_ms(call) -> float:
    times = []
    for i in range(RUNS):
        start = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    env = {"MAHJONG_DATA_DIR": tempfile.mkdtemp()}
    app = create_app({"STORE_ENV": env, "SCORING_BUDGET": 10**6})
    rulesets = app.extensions["rulesets"]
    entries = [parse_entry(_round(r)) for r in range(MAX_HANDS)]
    lines = [format_entry(Entry(e.params, e.round_text, FIRST_SEATS)) for e in entries]
    kept = [dumps(price_entry(Sheet("sichuan", NAMES), e, rulesets)) for e in entries]
    store = SheetStore(open_database(env))
    settings = {"rules": "sichuan", "names": ",".join(NAMES)}
    tokens = {"kept": store.create(settings, lines, priced=kept), "priced when read": store.create(settings, lines)}
    client = app.test_client()
    for way, token in tokens.items():
        for suffix in ("", ".json", ".csv"):
            ms = _median_ms(lambda _i, t=token, s=suffix: client.get(f"/s/{t}{s}"))
            print(f"{way:17} GET /s/<token>{suffix or ' (page)':8} {ms:6.0f} ms")
    token = tokens["kept"]
    opened = store.open(token)

    def correct(i: int) -> None:
        r = client.post(f"/s/{token}/change", data={"action": "correct", "hand": str(opened.hands[4].id),
                                                     "base": str(opened.version + i), "line": _round(900 + i),
                                                     "cid": new_client_id()})
        assert r.status_code == 303, r.status_code

    print(f"{'kept':17} POST a correction {_median_ms(correct):6.0f} ms")


if __name__ == "__main__":
    main()
