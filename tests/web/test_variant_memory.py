"""Variants let go are freed although the worker freezes what survives its collections
(app/web/serving/collector.py): the worker's own after-request `settle` frees them."""
from __future__ import annotations

import gc

from app.rules.house import House, encode
from app.rules.loader import RULESET_DIR, load_all
from app.vocabulary.request import price_example
from app.web.serving import collector


def codes(start: int, n: int) -> list[str]:
    return [encode(House("sichuan-sbr", name=(f"Club {k}", "", ""), dials=(("cap", 1 + k % 3),)))
            for k in range(start, start + n)]


def test_the_app_counts_each_variant_it_lets_go(app):
    assert app.extensions["rulesets"].on_evict is collector.let_go


def test_hundreds_of_variants_built_and_let_go_leave_no_frozen_garbage(monkeypatch):
    """200 variants built in turn, 8 kept, and after each the worker's own `settle`: what the
    full collections (as requests make them) left to freeze is freed again. Without the
    release a run leaves ~1,700 unreachable objects frozen (8 a variant), growing with every
    variant; with it, what the last few left. (The bounded scoring caches may still hold a
    variant let go: they let it go in turn.)"""
    rulesets = load_all(RULESET_DIR, price=price_example)   # as create_app's, examples priced
    rulesets.on_evict = collector.let_go
    monkeypatch.setattr(rulesets, "MAX_HOUSES", 8)
    built = codes(0, 200)
    try:
        gc.collect()
        gc.freeze()   # as the worker does after start-up
        full = gc.get_stats()[2]["collections"]
        for rules in built:
            rulesets.house(rules)
            collector.settle()   # after each request
        assert gc.get_stats()[2]["collections"] > full + 5   # frozen more than once
        gc.unfreeze()   # what was frozen is walked again: garbage among it is found now
        assert gc.collect() < len(built)
    finally:
        gc.unfreeze()
