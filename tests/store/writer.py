"""A writing process for tests/store/test_durability.py: adds hands until it is killed.

Run as `python -m tests.store.writer EDIT_TOKEN`, with the database settings in the
environment; prints each version the database confirmed (its COMMIT returned), one a line.
"""
from __future__ import annotations

import sys

from app.store.database import open_database
from app.store.sheets import SheetStore


def main(token: str) -> None:
    store = SheetStore(open_database())
    n = 0
    while True:
        n += 1
        version = store.add(token, f"hand=123m456m789m234p55s by=self-draw seat={'ESWN'[n % 4]}")
        print(version, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
