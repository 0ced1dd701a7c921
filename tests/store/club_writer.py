"""A writing process for tests/store/test_clubs.py: adds members to a club until it is killed.

Run as `python -m tests.store.club_writer ORGANISER_TOKEN`, with the database settings in the
environment; prints each member id the database confirmed (its COMMIT returned), one a line.
"""
from __future__ import annotations

import sys

from app.store.clubs import ClubStore
from app.store.database import open_database


def main(token: str) -> None:
    clubs = ClubStore(open_database())
    n = 0
    while True:
        n += 1
        print(clubs.add_member(token, f"M{n}"), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
