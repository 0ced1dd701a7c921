"""collector.settle: after a full collection, what survived it is frozen; otherwise nothing."""
from __future__ import annotations

import gc

from app.web.serving import collector


def test_settle_freezes_after_a_full_collection_and_only_then():
    try:
        collector.settle()                      # whatever ran before, counted
        kept = [[i] for i in range(1000)]       # new containers a request left in a cache
        before = gc.get_freeze_count()
        gc.collect()
        collector.settle()
        frozen = gc.get_freeze_count()
        assert frozen >= before + len(kept)     # the survivors are out of later walks
        collector.settle()
        assert gc.get_freeze_count() == frozen  # once a collection
    finally:
        gc.unfreeze()
