"""The outlook's recurrence (outlook.py's docstring), solved over the hand states it searched.

The search (outlook.Search) walks the hands once and records them here as values: a state of
13 tiles is not ready (its useful draws, each with its chance and the choice it leads to),
ready (the chance its next draw wins and what that is worth on average), or a dead wait (its
exchanges, each a choice); a choice is the states of 13 tiles a draw may leave, of which the
best is kept. `solve` then works out every state's figures draw by draw. There are three
solvers, and `solve` takes the first that is there:

- compiled: _recurrence.c, state by state in finishing order over flat arrays, loaded with
  ctypes where it was built beside this file (`make`, or a wheel's build: tools/build_solver.py;
  about a tenth of a millisecond a hand);
- numpy (a dependency): every state at once, a few array operations a draw;
- plain Python, state by state in finishing order.

All three do the same floating-point operations in the same order, so their figures are equal
to the last bit (tests/advice/test_outlook.py holds them so), and equal to the recurrence
worked out state by state as before.
"""
from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from struct import pack
from typing import NamedTuple

Rows = tuple[tuple[float, float, float], ...]   # (value, win, ready) by draws left

FAR, READY, DEAD = 0, 1, 2   # a state not ready; ready with a wait that wins; a dead wait
LIBRARY = Path(__file__).with_name("_recurrence.so")   # the compiled solver, where it was built
VERSION = 1   # of its arguments: _recurrence.c's recurrence_version()


class Chances(NamedTuple):
    """A hand state's figures, each by draws left (index t = 0..draws)."""

    value: tuple[float, ...]   # what the winner is expected to collect
    win: tuple[float, ...]     # chance to win with a legal hand
    ready: tuple[float, ...]   # chance to be ready (or to have won)


class Graph:
    """The states and choices searched, numbered as they were finished (a state's options
    and a choice's states are finished before it: the order the plain solver follows). Its
    numbers are kept in lists, which the walk appends to cheaply (a list's append is a quarter
    of an array.array's); the compiled solver takes them as arrays, made at the solve."""

    __slots__ = ("draws", "kind", "stay", "gain", "p_win", "first", "opt_p", "opt_choice",
                 "starts", "members", "done", "_moved")

    def __init__(self, draws: int) -> None:
        self.draws = draws
        self.kind: list[int] = []      # each state's: FAR, READY or DEAD
        self.stay: list[float] = []    # the chance its next draw changes nothing
        self.gain: list[float] = []    # READY: the next draw's expected win (chance x price)
        self.p_win: list[float] = []   # READY: the chance the next draw wins
        self.first: list[int] = [0]    # state i's options: opt_*[first[i]:first[i + 1]]
        self.opt_p: list[float] = []        # an option: a draw's chance
        self.opt_choice: list[int] = []     # and the choice it leads to
        # choice c's states: members[starts[c]:starts[c + 1]] (states_of)
        self.starts: list[int] = [0]
        self.members: list[int] = []
        self.done: list[int] = []      # finishing order: state i as i, choice c as ~c
        self._moved = False         # a state moved since the order was last made (move)

    def state(self, kind: int, chances: Sequence[float] = (), choices: Sequence[int] = (),
              p_win: float = 0.0, gain: float = 0.0) -> int:
        """A state finished: FAR or DEAD with its options (each draw's chance, and the choice
        it leads to), READY with its wins' chance and expected gain; its number."""
        i = len(self.kind)
        self.kind.append(kind)
        self.stay.append(1.0 - sum(chances))
        self.gain.append(0.0)
        self.p_win.append(0.0)
        if kind == READY:
            self.wins(i, p_win, gain)
        self.opt_p += chances
        self.opt_choice += choices
        self.first.append(len(self.opt_p))
        self.done.append(i)
        return i

    def wins(self, i: int, p_win: float, gain: float) -> None:
        """READY state i's wins: the chance its next draw wins, and that draw's expected gain
        (given when it is finished, or once they are priced)."""
        self.stay[i] = 1.0 - p_win
        self.gain[i] = gain
        self.p_win[i] = p_win

    def move(self, old: int, new: int) -> None:
        """State `old` is state `new` from now on: the choices that led to `old` lead to `new`.
        `old` stays, led to by nothing. `new` was finished after them, so the finishing order
        is made again before the next solve (`order`)."""
        members = self.members
        for at, s in enumerate(members):
            if s == old:
                members[at] = new
        self._moved = True

    def order(self) -> list[int]:
        """The finishing order (`done`), made again from the graph itself where a state moved:
        each state after its options' choices, each choice after its states, otherwise as they
        were finished. Any such order gives every solver the same figures."""
        if self._moved:
            self.done = self._reordered()
            self._moved = False
        return self.done

    def _reordered(self) -> list[int]:
        order: list[int] = []
        states_seen, choices_seen = bytearray(len(self.kind)), bytearray(self.choice_count)
        first, opt_choice, states_of = self.first, self.opt_choice, self.states_of

        def finish_state(i: int) -> None:
            if not states_seen[i]:
                states_seen[i] = 1
                for c in opt_choice[first[i]:first[i + 1]]:
                    finish_choice(c)
                order.append(i)

        def finish_choice(c: int) -> None:
            if not choices_seen[c]:
                choices_seen[c] = 1
                for i in states_of(c):
                    finish_state(i)
                order.append(~c)

        for x in self.done:
            if x >= 0:
                finish_state(x)
            else:
                finish_choice(~x)
        return order

    def choice(self, states: Sequence[int]) -> int:
        """A choice finished: the best of these states is kept; its number."""
        c = len(self.starts) - 1
        self.members += states
        self.starts.append(len(self.members))
        self.done.append(~c)
        return c

    @property
    def choice_count(self) -> int:
        return len(self.starts) - 1

    def states_of(self, c: int) -> list[int]:
        """Choice c's states."""
        return self.members[self.starts[c]:self.starts[c + 1]]


class Solved:
    """Every state's figures by draws left."""

    __slots__ = ("_table", "_rows", "_flat", "_width", "_said")

    def __init__(self, table=None, rows: list[Rows] | None = None, flat: array | None = None,
                 width: int = 0) -> None:
        self._table, self._rows = table, rows   # numpy: [t, figure, state]; plain: rows
        self._flat, self._width = flat, width   # compiled: [state, figure, t], width t's
        self._said: dict[int, Chances] = {}

    def chances(self, i: int) -> Chances:
        found = self._said.get(i)
        if found is None:
            if self._flat is not None:
                flat, width = self._flat, self._width
                at = 3 * width * i
                found = Chances(tuple(flat[at:at + width]), tuple(flat[at + width:at + 2 * width]),
                                tuple(flat[at + 2 * width:at + 3 * width]))
            elif self._table is not None:
                v, w, r = self._table[:, :, i].T.tolist()
                found = Chances(tuple(v), tuple(w), tuple(r))
            else:
                found = Chances(*zip(*self._rows[i], strict=True))
            self._said[i] = found
        return found


def solve(graph: Graph, plain: bool = False, compiled: bool = True) -> Solved:
    """Each state's figures by draws left: compiled where its library loads, else with numpy,
    else in plain Python (`compiled=False` passes over the first, `plain=True` the first two)."""
    solver = solver_compiled() if compiled and not plain else None
    if solver is not None:
        return _solve_compiled(graph, solver)
    np = None if plain else numpy()
    if np is None:
        return Solved(rows=_solve_plain(graph))
    return Solved(table=_solve_arrays(graph, np))


@cache
def solver_compiled():
    """_recurrence.c's recurrence_solve, loaded on the first outlook, or None where the library
    was not built (no C compiler), does not load, or is of other arguments."""
    if not LIBRARY.is_file():
        return None
    import ctypes
    try:
        library = ctypes.CDLL(str(LIBRARY))
        if library.recurrence_version() != VERSION:
            return None
        solver = library.recurrence_solve
    except (OSError, AttributeError):
        return None
    solver.restype = ctypes.c_int
    solver.argtypes = [ctypes.c_int] * 4 + [ctypes.c_void_p] * 12
    return solver


def _solve_compiled(graph: Graph, solver) -> Solved:
    """The plain solver's sums, compiled: the graph's lists in, packed as C arrays, the figures
    as one array out (a 314-state graph: about 100 µs, 40 of them the packing)."""
    n, k, width = len(graph.kind), graph.choice_count, graph.draws + 1
    zero = array("d", [0.0])
    out, best = zero * (3 * width * n), zero * (3 * width * k)
    given = (*(_packed("i", graph.kind), _packed("d", graph.stay), _packed("d", graph.gain),
               _packed("d", graph.p_win), _packed("i", graph.first), _packed("d", graph.opt_p),
               _packed("i", graph.opt_choice), _packed("i", graph.starts),
               _packed("i", graph.members), _packed("i", graph.order())),
             best.buffer_info()[0], out.buffer_info()[0])
    if solver(n, k, graph.draws, len(graph.done), *given):
        raise ValueError("the outlook's graph has an index out of its range, or is out of"
                         " order")
    return Solved(flat=out, width=width)


def _packed(code: str, values: list) -> bytes:
    """A list as a C array of ints ("i") or doubles ("d"), read-only (struct packs it in a
    third of the time array.array takes)."""
    return pack(f"{len(values)}{code}", *values)


@cache
def numpy():
    """numpy, imported on the first outlook (15 MiB and 85 ms a worker: none for a worker that
    weighs none), or None where it is not installed (the base install)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _solve_plain(graph: Graph) -> list[Rows]:
    """The recurrence state by state, in finishing order."""
    draws = graph.draws
    rows: list[Rows] = [()] * len(graph.kind)
    best: list[Rows] = [()] * graph.choice_count
    for i in graph.order():
        if i < 0:
            best[~i] = _best_of([rows[s] for s in graph.states_of(~i)])
        elif graph.kind[i] == READY:
            rows[i] = _ready(graph.p_win[i], graph.gain[i], graph.stay[i], draws)
        else:
            lo, hi = graph.first[i], graph.first[i + 1]
            options = [(p, best[c]) for p, c in zip(graph.opt_p[lo:hi], graph.opt_choice[lo:hi],
                                                    strict=True)]
            rows[i] = _mixed(options, graph.stay[i], draws, float(graph.kind[i] == DEAD))
    return rows


def _ready(p_win: float, gain: float, stay: float, draws: int) -> Rows:
    """A ready hand whose wait wins: each winning draw wins, any other is thrown."""
    value = win = 0.0
    rows = [(value, win, 1.0)]
    for _ in range(draws):
        value = gain + stay * value
        win = p_win + stay * win
        rows.append((value, win, 1.0))
    return tuple(rows)


def _best_of(nexts: list[Rows]) -> Rows:
    """Each t's best (value, win, ready) triple of several states' figures."""
    if len(nexts) == 1:
        return nexts[0]
    return tuple(map(max, *nexts))


def _mixed(options: list[tuple[float, Rows]], stay: float, draws: int, ready_now: float) -> Rows:
    """A state's figures by draws left, when each option (a draw's chance and the best it
    leads to) is taken only where it beats staying as it is, and any other draw is thrown."""
    own = (0.0, 0.0, ready_now)
    if not options:
        return (own,) * (draws + 1)
    chances = [p for p, _ in options]
    rows = [own]
    for col, _ in zip(zip(*[b for _, b in options], strict=True), range(draws), strict=False):
        v0, w0, r0 = own   # col: each option's figures with `here` draws left
        v, w, r = stay * v0, stay * w0, stay * r0
        if min(col) >= own:   # no drawn tile is better thrown (the usual case)
            for p, (bv, bw, br) in zip(chances, col, strict=True):
                v += p * bv
                w += p * bw
                r += p * br
        else:
            for p, taken in zip(chances, col, strict=True):
                if taken < own:   # throwing the drawn tile is better
                    taken = own
                bv, bw, br = taken
                v += p * bv
                w += p * bw
                r += p * br
        own = (v, w, r)
        rows.append(own)
    return tuple(rows)


def _solve_arrays(graph: Graph, np):
    """The recurrence draw by draw, every state at once: [t, (value, win, ready), state].

    The three figures of every state are one flat array (values, then wins, then readies), so
    that a step gathers, compares and adds all three in one array operation. A choice's best
    is the greatest (value, win, ready) of its states, found figure by figure among the states
    that tie on the ones before; an option is its choice's best, or the state's own figures
    where those are greater (the drawn tile thrown). A state's sums are taken by bincount,
    which adds in the order given: its own term first, then its options in order, as the plain
    solver adds them."""
    n = len(graph.kind)
    kind = np.array(graph.kind, dtype=np.int8)
    here = np.concatenate([np.zeros(2 * n), (kind != FAR).astype(float)])
    rows = [here]   # each t's figures, values then wins then readies
    # a READY state's chance to be ready is 1 at every t: its own term 0 times, plus 1
    is_ready = kind == READY
    stay = np.concatenate([np.tile(np.array(graph.stay), 2),
                           np.where(is_ready, 0.0, np.array(graph.stay))])
    added = np.concatenate([np.array(graph.gain), np.array(graph.p_win),
                            is_ready.astype(float)])
    starts = np.array(graph.starts, dtype=np.intp)
    sizes, starts = np.diff(starts), starts[:-1]
    child = np.array(graph.members, dtype=np.intp)
    m, k = len(child), len(sizes)
    of = np.repeat(np.arange(k), sizes)
    e = len(graph.opt_p)
    ep = np.array(graph.opt_p)
    ec = np.array(graph.opt_choice, dtype=np.intp)
    en = np.repeat(np.arange(n), np.diff(np.array(graph.first, dtype=np.intp)))
    child3, ec3, en3 = (np.concatenate([a, a + size, a + 2 * size])
                        for a, size in ((child, n), (ec, k), (en, n)))
    bins = np.concatenate([np.arange(3 * n), en3])   # each figure's own term, then options
    # the arrays each step writes, made once, and the views it reads of them
    weights = np.empty(3 * n + 3 * e)   # what bincount adds: the own terms, then the options'
    mine, theirs = weights[:3 * n], weights[3 * n:].reshape(3, e)
    c = np.empty(3 * m)   # the choices' states' figures
    greatest = np.empty(3 * k)   # each choice's best
    best, own = np.empty(3 * e), np.empty(3 * e)   # each option's best, and its state's own
    lt, eq = np.empty(3 * e, dtype=bool), np.empty(3 * e, dtype=bool)
    below = np.empty(e, dtype=bool)
    figures = (c[:m], c[m:2 * m], c[2 * m:]), (greatest[:k], greatest[k:2 * k], greatest[2 * k:])
    lt0, lt1, lt2, eq0, eq1 = lt[:e], lt[e:2 * e], lt[2 * e:], eq[:e], eq[e:2 * e]
    own3, best3 = own.reshape(3, e), best.reshape(3, e)
    for _ in range(graph.draws):
        np.multiply(stay, here, out=mine)
        if m:
            here.take(child3, out=c)
            _greatest(np, *figures, starts, of)
            greatest.take(ec3, out=best)
            here.take(en3, out=own)
            np.less(best, own, out=lt)
            np.equal(best, own, out=eq)
            np.logical_and(eq1, lt2, out=below)
            below |= lt1
            below &= eq0
            below |= lt0
            np.multiply(np.where(below, own3, best3), ep, out=theirs)
        here = np.bincount(bins, weights, 3 * n)
        here += added
        rows.append(here)
    return np.stack(rows).reshape(graph.draws + 1, 3, n)


def _greatest(np, c, out, starts, of) -> None:
    """Each choice's greatest (value, win, ready) of its states' (`c`: their values, wins and
    readies, each held in runs from `starts`; `of` each one's choice), into `out` (the same)."""
    cv, cw, cr = c
    m0, m1, m2 = out
    np.maximum.reduceat(cv, starts, out=m0)
    tie = cv == m0[of]
    np.maximum.reduceat(np.where(tie, cw, -1.0), starts, out=m1)
    tie &= cw == m1[of]
    np.maximum.reduceat(np.where(tie, cr, -1.0), starts, out=m2)
