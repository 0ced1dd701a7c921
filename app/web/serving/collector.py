"""Full garbage collections walk only what is new since the last one.

A full (generation 2) collection walks every container the process still holds: with the
caches warm (app/hands/readings.py, efficiency.py and the `lru_cache`s; docs/serving.md, "Memory")
that was 35-130 ms of processor time, a pause for every request in the worker. After each full
collection, once the request that met it is done, `settle` freezes what survived it
(`gc.freeze()`): those objects are kept out of every later collection's walk, so the next
full collection walks only what was made since, and the one after only what was made after it.

What is frozen is still freed when nothing refers to it any more (reference counting); only a
cycle among frozen objects that later becomes garbage would stay. A club's variant is such a
thing: kept (app/rules/loader.py) long enough to be frozen, then let go when newer variants
push it out, it is a web of objects that refer to each other (about 80 KB), which no later
collection would walk. So each variant let go is counted (`let_go`, the rulesets' `on_evict`),
and once RELEASE_EVERY of them are, `settle` empties the caches that may hold a variant let go
(every `lru_cache` of the app, keyed by rulesets among other things, and the outlook's
answers: each would keep up to a few hundred variants of ~250 KB alive), unfreezes
everything, collects it all once (one full walk: the frozen variants' cycles are freed) and
freezes what survives. The caches refill from the next requests. `make memory`
measures the worker's RSS over many requests, new variants among them, to show nothing grows.
"""
from __future__ import annotations

import functools
import gc
import sys

RELEASE_EVERY = 16   # variants let go before a full collection frees them (~1.3 MB)
_seen = [-1]   # full collections counted at the last freeze
_let_go = [0]  # variants let go since the last release


def let_go(_found: object = None) -> None:
    """Note that a kept object (a club's variant) was let go: it may be frozen garbage."""
    _let_go[0] += 1


def settle() -> None:
    """Between requests: if a full collection ran since the last call, freeze what survived it;
    once RELEASE_EVERY variants were let go, free them first (unfreeze, collect, freeze)."""
    if _let_go[0] >= RELEASE_EVERY:
        _let_go[0] = 0
        empty_caches()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _seen[0] = gc.get_stats()[2]["collections"]
        return
    done = gc.get_stats()[2]["collections"]
    if done != _seen[0]:
        gc.collect(1)   # the young garbage made since (a cycle among it) is not frozen with it
        _seen[0] = gc.get_stats()[2]["collections"]
        gc.freeze()


def empty_caches() -> None:
    """Empty every cache of the app that may hold a ruleset: its `lru_cache`s and the
    outlook's answers."""
    for name, module in list(sys.modules.items()):
        if name == "app" or name.startswith("app."):
            for value in list(vars(module).values()):
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()
    outlook = sys.modules.get("app.advice.outlook")
    if outlook is not None:
        outlook._CACHE.clear()
