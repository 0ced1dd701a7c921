"""A club's pages on a season of 10 nights, 3 tables a night, 20 hands a table (30 sheets, 600
hands), on SQLite in a temporary folder, through Flask's test client (docs/performance.md,
"A club's standings"). The median of five requests; the first standings request prices every
sheet, the next find them priced (kept by sheet and version).

    .venv/bin/python tests/bench/bench_club.py
"""
from __future__ import annotations

import re
import statistics
import tempfile
import time

from app.web import create_app

LINES = ["hand=123m456m789m234p55s by=self-draw seat=S", "hand=111m222m333m444p55p seat=W discarder=E",
         "hand=123m456m789m234p55s seat=N discarder=S", "hand=111m456m789m234p55s by=self-draw seat=E"]
EVERYONE = [str(i) for i in range(1, 13)]


def _median_ms(client, path: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert client.get(path).status_code == 200
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    app = create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": tempfile.mkdtemp()}})
    client = app.test_client()
    link = client.post("/club/new", data={"name": "Bench", "rules": "hong-kong"}).headers["Location"]
    for i in range(12):
        client.post(f"{link}/members", data={"name": f"M{i}"})
    with app.app_context():
        from app.web.club.routes import store
        sheets = store().sheets
        for night in range(10):
            page = client.post(f"{link}/nights", data={"present": EVERYONE, "method": "meet"}).headers["Location"]
            for token in re.findall(r'href="/s/([^"]+)" id="sheet-', client.get(page).get_data(as_text=True)):
                for hand in range(20):
                    sheets.add(token, LINES[(hand + night) % 4])
    app.extensions.pop("club_priced", None)
    start = time.perf_counter()
    client.get(f"{link}/standings")
    print(f"standings, every sheet priced: {(time.perf_counter() - start) * 1000:.0f} ms")
    print(f"standings, sheets kept priced: {_median_ms(client, link + '/standings'):.0f} ms")
    print(f"the club's page: {_median_ms(client, link):.0f} ms")
    print(f"a member's page: {_median_ms(client, link + '/members/1'):.0f} ms")
    # the season made 30 tables' sheets this hour, a club's most: lift the hour's limit, so the
    # night timed is seated, not refused
    from app.store import clubs, sheets
    clubs.TABLES_PER_HOUR = sheets.MAX_CREATED_PER_HOUR = 10**6
    start = time.perf_counter()
    seated = client.post(f"{link}/nights", data={"present": EVERYONE, "method": "meet"})
    assert seated.status_code == 303, seated.status_code
    print(f"a night of 12 seated, everyone meets everyone (3 sheets made): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
