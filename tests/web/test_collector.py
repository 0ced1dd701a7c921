"""collector.settle: after a full collection, what survived it is frozen; otherwise nothing."""
from __future__ import annotations

import gc

from app.web.serving import collector


def test_settle_freezes_after_a_full_collection_and_only_then(monkeypatch):
    # the freezes counted by call: the freeze count itself may fall between two calls, as a
    # frozen object nothing refers to any more is freed (collector.py says so)
    freezes = []
    real_freeze = gc.freeze
    monkeypatch.setattr(gc, "freeze", lambda: (freezes.append(1), real_freeze())[1])
    try:
        collector.settle()                      # whatever ran before, counted
        freezes.clear()
        kept = [[i] for i in range(1000)]       # new containers a request left in a cache
        before = gc.get_freeze_count()
        gc.collect()
        collector.settle()
        assert freezes == [1]
        assert gc.get_freeze_count() >= before + len(kept)   # the survivors are out of later walks
        collector.settle()
        assert freezes == [1]                   # once a collection
    finally:
        gc.unfreeze()
