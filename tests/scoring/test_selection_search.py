"""The selection's search (`selection._best_set`) against the plain search of every subset it
replaced: the same choice on random conflicts, and quick on a variant's 60 added patterns."""
from __future__ import annotations

import random

from app.scoring.selection import _best_set


def plain_best(contested, worth, position, conflicts):
    """Every maximal set of patterns no two of which conflict, the best by worth then by the
    positions (highest first): the search the selection made before."""
    best_set, best_key = (), None

    def search(k, chosen, blocked):
        nonlocal best_set, best_key
        if k == len(contested):
            if any(pid not in blocked and pid not in chosen for pid in contested):
                return
            key = (sum(worth[p] for p in chosen), tuple(sorted((position[p] for p in chosen), reverse=True)))
            if best_key is None or key > best_key:
                best_key, best_set = key, tuple(chosen)
            return
        pid = contested[k]
        if pid not in blocked:
            chosen.append(pid)
            search(k + 1, chosen, blocked | conflicts[pid])
            chosen.pop()
        search(k + 1, chosen, blocked)

    search(0, [], frozenset())
    return best_set


def random_case(rng: random.Random, n: int):
    ids = [f"p{i}" for i in range(n)]
    position = dict(zip(ids, rng.sample(range(100), n), strict=True))
    worth = {p: rng.choice((0, 1, 1, 2, 3, 6, 13)) for p in ids}
    edges = {p: set() for p in ids}
    density = rng.choice((0.05, 0.15, 0.3, 0.6))
    for a in ids:
        for b in ids:
            if a < b and rng.random() < density:
                edges[a].add(b)
                edges[b].add(a)
    for a in rng.sample(ids, min(n, rng.randint(0, 2))):   # a limit hand: conflicts with every other
        for b in ids:
            if b != a:
                edges[a].add(b)
                edges[b].add(a)
    conflicts = {p: frozenset(e) for p, e in edges.items()}
    contested = [p for p in ids if conflicts[p]]
    return contested, worth, position, conflicts


def test_the_same_choice_as_every_subset_on_random_conflicts():
    rng = random.Random(39)
    for _ in range(600):
        case = random_case(rng, rng.randint(1, 13))
        assert set(_best_set(*case)) == set(plain_best(*case)), case


def test_sixty_added_patterns_beside_a_limit_hand_are_chosen_at_once():
    """A variant's 60 patterns, each in conflict with a limit hand held beside them (the shape
    that made one hand take seconds): the 60 count, not the limit hand worth less."""
    ids = [f"x{i}" for i in range(60)]
    conflicts = {p: frozenset({"limit"}) for p in ids}
    conflicts["limit"] = frozenset(ids)
    contested = ["limit", *ids]
    worth = {"limit": 13, **{p: 1 for p in ids}}
    position = {p: i for i, p in enumerate(contested)}
    assert set(_best_set(contested, worth, position, conflicts)) == set(ids)
    worth["limit"] = 61
    assert _best_set(contested, worth, position, conflicts) == ("limit",)
