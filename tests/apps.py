"""The one app built with the default settings that the page tests share (the `app` and `client`
fixtures in tests/conftest.py, and modules that list its routes while they are collected).

Each app loads its rulesets and compiles every template again on its first pages (a test that
builds its own pays that each time); what it answers does not depend on what it answered before
(its caches keep rendered parts of the same answers), so one app serves every test that leaves
it as it is.
"""
from __future__ import annotations

from functools import cache

from flask import Flask

from app.web import create_app


@cache
def shared_app() -> Flask:
    """The shared app, built on first use in this process (each xdist worker builds its own).
    Every test asks from one address, so the limit on new club variants a minute is lifted
    (tests/web/test_fair_turns.py sets its own)."""
    return create_app({"NEW_VARIANTS_PER_MINUTE": 10**6})
