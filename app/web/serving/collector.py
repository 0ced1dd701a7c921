"""Full garbage collections walk only what is new since the last one.

A full (generation 2) collection walks every container the process still holds: with the
caches warm (app/hands/readings.py, efficiency.py and the `lru_cache`s; docs/serving.md, "Memory")
that was 35-130 ms of processor time, a pause for every request in the worker. After each full
collection, once the request that met it is done, `settle` freezes what survived it
(`gc.freeze()`): those objects are kept out of every later collection's walk, so the next
full collection walks only what was made since, and the one after only what was made after it.

What is frozen is still freed when nothing refers to it any more (reference counting); only a
cycle among frozen objects that later becomes garbage would stay. The frozen objects are the
rulesets, templates and caches (values without cycles, emptied when full); `make memory`
measures the worker's RSS over 100,000 requests to show nothing grows.
"""
from __future__ import annotations

import gc

_seen = [-1]   # full collections counted at the last freeze


def settle() -> None:
    """Between requests: if a full collection ran since the last call, freeze what survived it."""
    done = gc.get_stats()[2]["collections"]
    if done != _seen[0]:
        _seen[0] = done
        gc.freeze()
