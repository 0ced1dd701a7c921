"""The outlook of each discard: the chance to be ready, to win with a legal hand, and what it is worth.

Asked for (`outlook=1`), never by default: the discard ranking of discard.py answers first,
and this weighs its discards over the draws the player has left (`draws=`, DEFAULT_DRAWS).

The model (OUTLOOK_MODEL says it in words): one player alone draws `draws` more tiles and
wins only by self-draw; a drawn kind's chance is its copies neither seen, nor in the
player's own melds (claimed or concealed: a pong's three, a kong's four), nor in the
starting concealed tiles, nor in the hand now, over all such copies (a tile thrown away
never returns to the wall; flowers and other players are left out). After each draw the player
keeps the drawn tile only when it lowers the shanten, then throws the tile that is best
from there; any other draw is thrown at once, except at a dead wait: a ready hand none of
whose draws can win may keep a draw for a discard that leaves it ready with a wait that
can (a same-shanten exchange). While the hand holds tiles of its declared missing suit (they
go first, as in the usual order), a kept draw throws one of them. A tile that completes the hand is a win
when the rules let it be declared (the minimum, the missing suit, the family's forms) and
is worth what the winner collects by self-draw under the request's dials, cap included;
a completion the rules refuse is thrown like any other tile.

The recurrence, backward over hand states, each a vector over draws left t = 0..draws:
after a discard (13 tiles, shanten s) the value with t draws left is the average over the
next draw of the value after that draw with t - 1; after a draw (14 tiles) it is the best
of the discards that keep the lowered shanten, or of throwing the drawn tile. The search
(Search) walks the states once, each remembered by its tile counts, and records them as values
in a graph; recurrence.py then works out every state's figures by draws left, once (compiled,
where its library was built; else with numpy or in plain Python, to the same last bit). Each
distinct winning hand is priced once, by the one scoring core (counts_pricer: calculate's
readings, selection and payments, from the counts), after the walk (Search._settle). The bound (OUTLOOK_BOUND): draws that lower the shanten
change the hand, and at a dead wait the exchanges into a wait that can win; other
same-shanten exchanges (a better wait, a shape of more fan before ready, a dead wait into
another dead one) are not weighed; discards more than MAX_SHANTEN tiles from ready are past
the bound and keep the current order after the others.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import compress
from operator import gt

from app.base.i18n import Msg
from app.hands.hand import Hand, WinBy
from app.hands.phrases import tile_said
from app.hands.quick import keeping_discards, one_fewer, one_more, state_kinds, waiting_kinds
from app.hands.readings import ShapeRules
from app.hands.tiles import NUM_KINDS, SUIT_OFFSET, Tile
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork, opened, step_aside, units
from app.scoring.calculation import counts_pricer
from app.scoring.payments import fmt

from .discard import DiscardChoice, DiscardResult, suit_name
from .recurrence import DEAD, FAR, READY, Chances, Graph, Solved, solve

DEFAULT_DRAWS = 18      # a player's draws from the first turn, about 70 wall tiles over four
MAX_DRAWS = 30
MAX_SHANTEN = 2         # tiles from ready after the discard that the recurrence weighs
MAX_STATES = 5_000      # hand states one request may weigh (its work budget; the most seen
#                         in 80 dealt and built hands: 1,178)
MAX_SCORINGS = 2_000    # distinct winning hands one request may price (the most seen: 821),
#                         in units of the budget (budget.units: fewer under a dear variant)
OUTLOOK_MODEL = Msg("one player draws alone and wins only by self-draw; each draw's chance is"
                    " the copies neither seen nor the player's own, in the hand or its melds"
                    " (a concealed kong too; a discard never returns); a drawn"
                    " tile is kept when it brings the hand closer to ready, or when the hand is"
                    " ready but no wait can be declared and keeping it gives a wait that can; a"
                    " win counts only when the rules let it be declared, worth what the winner"
                    " collects")
MISSING_SUIT_MODEL = Msg("one player draws alone and wins only by self-draw; each draw's chance"
                         " is the copies neither seen nor the player's own, in the hand or its"
                         " melds (a concealed kong too; a discard never returns); a drawn tile is"
                         " kept when it brings the hand closer to ready, or when the hand is ready"
                         " but no wait can be declared and keeping it gives a wait that can; while"
                         " the hand holds tiles of its declared missing suit, a draw kept throws"
                         " one of them (a draw not kept counts as thrown at once); a win counts"
                         " only when the rules let it be declared, worth what the winner collects")
OUTLOOK_BOUND = Msg("exact within its model for discards up to {most} tiles from ready; other"
                    " draws that change the shape without coming closer (a better wait, more"
                    " fan before ready) are not weighed", most=MAX_SHANTEN)
OUTLOOK_ORDER = Msg("more expected value first, then a higher chance to win, then the usual"
                    " order")
MISSING_SUIT_OUTLOOK_ORDER = Msg("a tile of the declared missing suit first while one is held,"
                                 " then more expected value, then a higher chance to win, then"
                                 " the usual order")


def outlook_words(ruleset: Ruleset) -> dict[str, Msg]:
    """The model, its bound and the order in words, as the ruleset plays: the missing suit is
    named only where it has one."""
    if ruleset.missing_suit:
        return {"model": MISSING_SUIT_MODEL, "bound": OUTLOOK_BOUND,
                "order": MISSING_SUIT_OUTLOOK_ORDER}
    return {"model": OUTLOOK_MODEL, "bound": OUTLOOK_BOUND, "order": OUTLOOK_ORDER}
STEP_ASIDE_EVERY = 64   # states weighed between two steps aside
PARAMS = ("outlook", "draws")   # the request fields this reads (the rest are the discard's)


@dataclass(frozen=True, slots=True)
class DiscardOutlook:
    """One discard's outlook; `chances` None when it is past the bound."""

    choice: DiscardChoice
    chances: Chances | None
    reasons: tuple[str, ...]
    alive: frozenset[str] = frozenset()   # the patterns of the wins it can still reach:
    #                                       worked out for the two discards _compared sets
    #                                       side by side, when they differ

    @property
    def tile(self) -> Tile:
        return self.choice.tile

    @property
    def value(self) -> float:
        return self.chances.value[-1] if self.chances else 0.0

    @property
    def win(self) -> float:
        return self.chances.win[-1] if self.chances else 0.0

    @property
    def ready(self) -> float:
        return self.chances.ready[-1] if self.chances else 0.0


@dataclass(frozen=True, slots=True)
class OutlookResult:
    draws: int
    choices: tuple[DiscardOutlook, ...]   # best first (OUTLOOK_ORDER); the current order if bounded
    bounded: str = ""                     # why no figures were worked out at all, when so
    states: int = 0                       # hand states weighed
    scorings: int = 0                     # distinct winning hands priced
    vertices: int = 0                     # hands of 13 and of 14 tiles searched, each once


class _OverBudget(Exception):
    """More states or scorings than one request may weigh."""


_CACHE: dict[tuple, OutlookResult] = {}
_CACHE_SIZE = 256


def outlook(result: DiscardResult, draws: int, rulesets: Mapping[str, Ruleset] | None = None,
            max_states: int = MAX_STATES, max_scorings: int = MAX_SCORINGS) -> OutlookResult:
    """Weigh each discard of an analysed hand over `draws` draws, best first (OUTLOOK_ORDER)."""
    key = cache_key(result, draws, max_states, max_scorings)
    found = _CACHE.get(key)
    if found is not None:
        return found
    found = _weigh(result, draws, rulesets, max_states, max_scorings)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = found
    return found


def cache_key(result: DiscardResult, draws: int, max_states: int, max_scorings: int) -> tuple:
    """The outlook's cache key: the hand's counts and melds, the seen tiles, the dials and the
    seats as read (so `123m` and `1m2m3m`, or tiles in another order, are one entry)."""
    hand, asked = result.hand, result.ask
    return (result.ruleset.id, result.settings, tuple(hand.concealed_counts),
            tuple(sorted(m.token for m in hand.melds)),
            replace(asked.hand.context, by=WinBy.SELF_DRAW), replace(asked.seats, discarder=None),
            result.table.seen, draws, max_states, max_scorings)


def _weigh(result: DiscardResult, draws: int, rulesets, max_states: int,
           max_scorings: int) -> OutlookResult:
    choices = result.choices
    if result.shanten < 0 or result.shanten > MAX_SHANTEN:
        why = (Msg("the hand is already complete") if result.shanten < 0 else
               Msg("{n} tiles from ready is past the bound of {most}: the usual order",
                   n=result.shanten, most=MAX_SHANTEN))
        return OutlookResult(draws, tuple(DiscardOutlook(c, None, ()) for c in choices), why)
    search = Search.of(result, draws, rulesets, max_states, max_scorings)
    try:
        with opened("outlook", most=max_scorings):
            for choice in choices:   # every state searched first, then solved once
                if choice.option.shanten <= MAX_SHANTEN:
                    search.search(one_fewer(search.start, choice.tile))
            weighed = [_weigh_one(choice, search, result) for choice in choices]
    except (_OverBudget, TooMuchWork):
        return OutlookResult(draws, tuple(DiscardOutlook(c, None, ()) for c in choices),
                             Msg("more work than one request may do (at most {states} hand"
                                 " states and {scorings} winning hands): the usual order",
                                 states=max_states,
                                 scorings=max_scorings // units(result.ruleset)),
                             search.states, search.scorings)
    order = {c.tile: i for i, c in enumerate(choices)}
    weighed.sort(key=lambda o: (o.chances is None, not o.choice.must_go, -round(o.value, 9),
                                -round(o.win, 12), order[o.tile]))
    compared = _compared(weighed, choices[0], result.ruleset,
                         lambda o: search.alive_of(one_fewer(search.start, o.tile)))
    return OutlookResult(draws, compared, "", search.states, search.scorings, search.vertices)


def _compared(weighed: list[DiscardOutlook], usual: DiscardChoice, ruleset: Ruleset,
              alive_of: Callable[[DiscardOutlook], frozenset[str]]
              ) -> tuple[DiscardOutlook, ...]:
    """Say why the best discard by value is not the usual order's first, when it is not: what
    it is worth against it, and the patterns the one keeps alive and the other gives up (each
    one's `alive`, from `alive_of`)."""
    best = weighed[0]
    if best.chances is None or best.tile == usual.tile:
        return tuple(weighed)
    first = next(o for o in weighed if o.tile == usual.tile)
    if first.chances is None or round(best.value, 9) <= round(first.value, 9):
        return tuple(weighed)   # ahead by the chance to win alone: the figures say it
    best, first = replace(best, alive=alive_of(best)), replace(first, alive=alive_of(first))
    said = [Msg("worth more than {tile}, the usual first choice: expected {value} against"
                " {other}", tile=tile_said(usual.tile), value=amount(best.value),
                other=amount(first.value))]
    kept = _headline(best.alive - first.alive, ruleset)
    if kept:
        said.append(Msg("keeps {patterns} alive", patterns=kept))
        first = replace(first, reasons=first.reasons + (
            Msg("gives up {patterns}", patterns=kept),))
    best = replace(best, reasons=best.reasons + tuple(said))
    return tuple(best if o.tile == best.tile else first if o.tile == first.tile else o
                 for o in weighed)


MOST_NAMED = 3   # patterns named in "keeps ... alive"


def _headline(ids: frozenset[str], ruleset: Ruleset) -> str:
    """The patterns worth the most of `ids`, at most MOST_NAMED, named in the reader's language
    ("Full flush 清一色, All pongs 對對糊"); "" when there are none."""
    patterns = sorted((ruleset.pattern(i) for i in ids), key=lambda p: (-p.fan, p.position))
    names = [p.name for p in patterns[:MOST_NAMED]]
    if not names:
        return ""
    said = names[0]
    for name in names[1:]:
        said = Msg("{a}, {b}", a=said, b=name)
    return said


def _weigh_one(choice: DiscardChoice, search: Search, result: DiscardResult) -> DiscardOutlook:
    if choice.option.shanten > MAX_SHANTEN:
        return DiscardOutlook(choice, None, (Msg("{n} tiles from ready: past the bound, not"
                                                 " weighed", n=choice.option.shanten),))
    chances = search.chances(one_fewer(search.start, choice.tile))
    return DiscardOutlook(choice, chances, _reasons(choice, chances, result))


class Search:
    """The recurrence over one hand's states (see the module's docstring), remembered."""

    def __init__(self, start: bytes, melded: tuple[int, ...], rules: ShapeRules,
                 table, kinds: tuple[int, ...], draws: int, price, max_states: int,
                 melds: int) -> None:
        self.start, self.melds, self.rules, self.table = start, melds, rules, table
        self.kinds = kinds                  # the kinds in the set (no honours in Sichuan)
        in_set = frozenset(kinds)           # each kind's copies neither seen nor in the
        #                                     player's own melds, claimed or concealed (0 out
        #                                     of the set): the pool a draw comes from
        self._unseen = tuple(max(0, 4 - table.seen[i] - melded[i]) if i in in_set else 0
                             for i in range(NUM_KINDS))
        # the copies to draw while the hand holds no more of a kind than it started with
        self._left = [n if (n := u - s) > 0 else 0 for u, s in zip(self._unseen, start, strict=True)]
        self._total = sum(self._left)
        lo = SUIT_OFFSET[table.missing] if table.missing else 0   # the declared missing suit
        self.dead = range(lo, lo + 9) if table.missing else range(0)
        self.draws = draws
        self.price = price   # (14 counts, winning kind) -> (collects, patterns), or None
        self.max_states = max_states
        self.states = 0
        self.graph = Graph(draws)   # the states searched, as the recurrence reads them
        # a hand is its 34 counts as bytes, read by xiangting as they are, and remembered by
        # their key (_key): one more or one fewer of a kind is one addition, not a new bytes
        self._memo: dict[int, int] = {}       # 13 tiles -> its state in the graph
        self._best: dict[int, int | None] = {}      # 14 tiles -> its choice, or None
        self._win_memo: dict[bytes, tuple[float, float, frozenset[str]]] = {}
        self._ready_alive: dict[int, frozenset[str]] = {}   # a ready state -> its wins' patterns
        self._alive_memo: dict[int, frozenset[str]] = {}
        self._solved: Solved | None = None
        self._solved_at = 0
        self._scorings = 0
        self._pending: list[tuple] = []   # ready states whose wins are not yet priced (_settle)

    @classmethod
    def of(cls, result: DiscardResult, draws: int, rulesets, max_states: int,
           max_scorings: int) -> Search:
        ruleset, hand = result.ruleset, result.hand
        kinds = tuple(range(NUM_KINDS if ruleset.honours else 27))
        asked = result.ask   # the waits' request, won by self-draw: nobody discards
        context = replace(asked.hand.context, by=WinBy.SELF_DRAW)
        calculate = counts_pricer(replace(asked, hand=Hand((), context=context), by_given=True,
                                          seats=replace(asked.seats, discarder=None)), hand.melds)
        figures: dict[tuple[int, int], tuple] = {}   # (payments, items) -> what they say
        alike: dict[bytes, tuple[float, frozenset[str]] | None] = {}   # 14 tiles priced alike
        #                                                     whichever of their tiles won
        search: Search

        def price(counts: bytes, kind: int) -> tuple[float, frozenset[str]] | None:
            """What the winner collects and the patterns counted, or None when refused. Each
            winning hand and tile is asked once (a ready hand's wins are remembered, _wins,
            and the 14 tiles less the winning tile are that hand), and 14 tiles that the
            scoring core says are priced alike whichever of them won, once for them all."""
            found = alike.get(counts, _UNSEEN)
            if found is not _UNSEEN:
                return found
            search._scorings += 1
            # one scoring, counted in the outlook's budget (_weigh): the counts priced as
            # values, the scoring core's readings, selection and payments (None: refused)
            calc = calculate(counts, kind)
            if calc is None:
                return None
            said = None if calc[0].below_minimum else _said(calc[1], calc[0].items, figures)
            if calc[2]:
                alike[counts] = said
            return said

        melded = [0] * NUM_KINDS   # the copies in the player's melds: never drawn again
        for meld in hand.melds:
            for t in meld.tiles:
                melded[t] += 1
        search = cls(bytes(hand.concealed_counts), tuple(melded),
                     ruleset.shape_rules(result.settings.options), result.table, kinds, draws,
                     price, max_states, melds=len(hand.melds))
        return search

    @property
    def scorings(self) -> int:
        return self._scorings

    @property
    def vertices(self) -> int:
        """The hands searched, 13 tiles or 14 (the hand asked about among them), each once."""
        return 1 + len(self._memo) + len(self._best)

    def _over(self, counts: bytes) -> tuple[int, ...]:
        """The kinds of which the hand holds more than the starting tiles (a few at most: the
        search passes them on from hand to hand, _grown and _cut)."""
        return tuple(compress(_KINDS, map(gt, counts, self.start)))

    def _chance(self, counts: bytes, over: tuple[int, ...]) -> tuple[list[int], int]:
        """Each kind's copies to draw (0 for kinds not in the set), and their sum."""
        # a kind's copies to draw: not seen, not melded, and in neither the starting tiles
        # nor the hand; the hand holds more than the starting tiles of the kinds `over` only
        left = self._left.copy()
        total = self._total
        unseen = self._unseen
        for k in over:
            n = unseen[k] - counts[k]
            if n < 0:
                n = 0
            total -= left[k] - n
            left[k] = n
        return left, total

    def _grown(self, over: tuple[int, ...], grown: bytes, k: int) -> tuple[int, ...]:
        """`over` of a hand with one more of kind k (`grown`)."""
        if k in over or grown[k] <= self.start[k]:
            return over
        return over + (k,)

    def _cut(self, over: tuple[int, ...], kept: bytes, d: int) -> tuple[int, ...]:
        """`over` of a hand with one fewer of kind d (`kept`)."""
        if d not in over or kept[d] > self.start[d]:
            return over
        return tuple(k for k in over if k != d)

    def chances(self, counts: Sequence[int]) -> Chances:
        """The figures of a 13-tile state (after a discard), by draws left: every state
        searched so far is solved at once (recurrence.py), again only when more were searched."""
        counts = bytes(counts)
        self.search(counts)
        self._settle()
        node = self._memo[_key(counts)]   # a dead wait settled is another state
        if self._solved is None or self._solved_at != len(self.graph.done):
            self._solved = solve(self.graph)
            self._solved_at = len(self.graph.done)
        return self._solved.chances(node)

    def search(self, counts: Sequence[int]) -> None:
        """Search a 13-tile state and all it leads to (chances then solves them at once)."""
        counts = bytes(counts)
        key = _key(counts)
        if key not in self._memo:
            self._node(counts, key, self._over(counts))

    def alive_of(self, counts: Sequence[int]) -> frozenset[str]:
        """The patterns of the wins a searched 13-tile state can still reach."""
        self._settle()
        return self._alive(self._memo[_key(bytes(counts))])

    def _alive(self, i: int) -> frozenset[str]:
        found = self._alive_memo.get(i)
        if found is None:
            graph = self.graph
            found = self._ready_alive.get(i, frozenset())
            for c in graph.opt_choice[graph.first[i]:graph.first[i + 1]]:
                for s in graph.states_of(c):
                    found |= self._alive(s)
            self._alive_memo[i] = found
        return found

    def _node(self, counts: bytes, key: int, over: tuple[int, ...]) -> int:
        """A 13-tile state searched (its draws and what they lead to), numbered (`key`: its
        counts' key; `over`: the kinds it holds more of than the starting tiles)."""
        found = self._memo.get(key)
        if found is not None:
            return found
        self._count_state()
        left, total = self._chance(counts, over)
        s, kinds = state_kinds(counts, self.melds, self.rules, self.table, self.kinds)
        if s == 0:   # kinds: the waits
            found = self._ready(counts, key, over, left, total, kinds)
        else:        # kinds: the draws that lower the shanten
            found = self._far(key, over, s, kinds, left, total)
        self._memo[key] = found
        return found

    def _count_state(self) -> None:
        """One more state weighed: past the budget, stop; now and then, step aside."""
        self.states += 1
        if self.states > self.max_states:
            raise _OverBudget
        if not self.states % STEP_ASIDE_EVERY:
            step_aside()   # let a cooperative server's other requests run (budget.py)

    def _wins(self, counts: bytes, left: list[int] | None = None, total: int = 0,
              waits: tuple[int, ...] | None = None) -> tuple[float, float, frozenset[str]]:
        """A ready hand's next draw: the chance it wins, what that is worth on average (times
        the chance), and the patterns of those wins. Remembered. (`left` and `total`: the
        chances of its draws, and `waits`, when the caller has them.)"""
        found = self._win_memo.get(counts)
        if found is not None:
            return found
        if left is None:
            left, total = self._chance(counts, self._over(counts))
        gain, p_win = 0.0, 0.0
        alive: frozenset[str] = frozenset()
        if waits is None:
            waits = waiting_kinds(counts, self.melds, self.rules, self.table, self.kinds)
        price, patterns = self.price, []
        for k in waits:
            n = left[k]
            if not n:
                continue
            priced = price(one_more(counts, k), k)
            if priced is not None:
                p = n / total
                p_win += p
                gain += p * priced[0]
                patterns.append(priced[1])
        if patterns:
            alive = alive.union(*patterns)
        found = self._win_memo[counts] = (p_win, gain, alive)
        return found

    def _ready(self, counts, key, over, left, total, waits) -> int:
        """A ready hand: each winning draw wins; any other is thrown and the hand waits on,
        unless no draw can win (a dead wait): then it may exchange (_exchanges). Its wins are
        priced when the walk is done (_settle), all together, unless they already were."""
        known = self._win_memo.get(counts)
        if known is None:
            node = self.graph.state(READY)
            self._pending.append((node, counts, key, over, left, total, waits))
            return node
        return self._waiting(counts, over, left, total, known)

    def _waiting(self, counts, over, left, total, wins) -> int:
        """A ready hand whose wins are priced: READY, or a dead wait's exchanges."""
        p_win, gain, alive = wins
        if p_win == 0:
            return self._exchanges(counts, over, left, total)
        node = self.graph.state(READY, p_win=p_win, gain=gain)
        self._ready_alive[node] = alive
        return node

    def _settle(self) -> None:
        """Price the wins of the ready states the walk left pending, one after another (the
        scoring core's tables and code stay at hand, about an eighth sooner than a scoring
        between two hands walked), and give each state its figures. A dead wait (no win can
        be declared) becomes the state of its exchanges: the choices that led to it lead there
        instead (Graph.move; the graph's finishing order is made again before it is solved)."""
        graph = self.graph
        while self._pending:
            pending, self._pending = self._pending, []
            for node, counts, key, over, left, total, waits in pending:
                p_win, gain, alive = self._wins(counts, left, total, waits)
                if p_win:
                    graph.wins(node, p_win, gain)
                    self._ready_alive[node] = alive
                    continue
                dead = self._exchanges(counts, over, left, total)
                graph.move(node, dead)
                self._memo[key] = dead

    def _exchanges(self, counts, over, left, total) -> int:
        """A ready hand none of whose draws can win (below the minimum, a form refused): each
        draw may be kept for a discard that leaves the hand ready with a wait that can win (a
        same-shanten exchange), or thrown. A hand reached so waits as it is (one exchange at a
        time: an exchange into another dead wait is worth no more than throwing the draw)."""
        chances, choices = [], []   # per draw that can be kept: its chance, its choice
        for k in self.kinds:
            if not left[k]:
                continue
            grown = one_more(counts, k)
            over_grown = self._grown(over, grown, k)
            cut = bytearray(grown)
            live = []
            # the 13 tiles are ready, so the 14's best discard leaves them ready: the
            # discards that keep that are those that leave the hand ready
            for d in keeping_discards(grown, self.melds, self.rules, self.table, 0):
                if d != k:
                    cut[d] -= 1
                    kept = bytes(cut)
                    cut[d] += 1
                    if kept not in self._win_memo:
                        self._count_state()   # a hand looked at is work, kept or not
                    if self._wins(kept)[0] > 0:
                        live.append(self._node(kept, _key(kept),
                                               self._cut(over_grown, kept, d)))
            if live:
                chances.append(left[k] / total)
                choices.append(self.graph.choice(live))
        return self.graph.state(DEAD, chances, choices)

    def _after_draw(self, grown: bytes, key: int, over: tuple[int, ...], s: int) -> int | None:
        """The choice among the discards of 14 tiles (`key`: their key) that leave `s` from
        ready (the best is kept: more value, then more chance to win, then to be ready); None
        when none does."""
        nexts = []
        keeping = keeping_discards(grown, self.melds, self.rules, self.table, s)
        dead = self.dead
        if dead and any(grown[dead.start:dead.stop]):   # the missing suit held: it goes first
            keeping = [d for d in keeping if d in dead] or keeping
        memo = self._memo
        for d in keeping:
            kept_key = key - _ONE[d]
            node = memo.get(kept_key)
            if node is None:
                kept = _counts(kept_key)
                node = self._node(kept, kept_key, self._cut(over, kept, d))
            nexts.append(node)
        best = self.graph.choice(nexts) if nexts else None
        self._best[key] = best   # s is the 14 tiles' own, one a hand: the key needs no s
        return best

    def _far(self, key, over, s, useful, left, total) -> int:
        """A hand not yet ready: a useful draw (of `useful`, those left to draw) is kept and
        the best discard thrown, or thrown."""
        chances, choices = [], []   # per useful draw: its chance, the choice it leads to
        seen = self._best
        for k in useful:
            n = left[k]
            if not n:
                continue
            grown_key = key + _ONE[k]
            best = seen.get(grown_key, _UNSEEN)
            if best is _UNSEEN:
                grown = _counts(grown_key)
                best = self._after_draw(grown, grown_key, self._grown(over, grown, k), s - 1)
            if best is not None:
                chances.append(n / total)
                choices.append(best)
        return self.graph.state(FAR, chances, choices)


def _said(payments: tuple, items: tuple, figures: dict[tuple[int, int], tuple]
          ) -> tuple[float, frozenset[str]]:
    """What the winner collects and the patterns counted, of a priced win. The scoring core
    shares its payment rows (by total) and its selections' items (by patterns found) among the
    hands that price alike, so each pair is read once (kept with its objects: an id is reused
    only once they are gone). The items, not Score.counted: that is a new tuple each time."""
    key = (id(payments), id(items))
    found = figures.get(key)
    if found is not None and found[0] is payments and found[1] is items:
        return found[2]
    said = (float(next((p.amount for p in payments if p.role == "winner"), 0)),
            frozenset(i.pattern.id for i in items if i.counted))
    figures[key] = (payments, items, said)
    return said


_KINDS = range(NUM_KINDS)
_UNSEEN = object()
_ONE = tuple(1 << 8 * k for k in _KINDS)   # one of kind k, added to a key


def _key(counts: bytes) -> int:
    """A hand's key: its 34 counts as the bytes of an int, lowest kind first (so one more of
    kind k is + _ONE[k]).

    >>> _key(bytes((2, 1) + (0,) * 32)) == 2 + 256, _counts(_key(bytes(34)) + _ONE[33])[33]
    (True, 1)
    """
    return int.from_bytes(counts, "little")


def _counts(key: int) -> bytes:
    """The 34 counts of a key (_key)."""
    return key.to_bytes(NUM_KINDS, "little")


def _reasons(choice: DiscardChoice, chances: Chances, result: DiscardResult) -> tuple[str, ...]:
    """The figures in words, and why a discard that looks quick may be worth nothing."""
    reasons = [Msg("{ready}% to be ready, {win}% to win, expected {value}",
                   ready=percent(chances.ready[-1]), win=percent(chances.win[-1]),
                   value=amount(chances.value[-1]))]
    if choice.ready and not choice.can_win:
        reasons.append(_cannot_win_now(choice, result.settings.min))
        if chances.win[-1] > 0:
            reasons.append(Msg("it can still win by keeping a draw for a wait that can be"
                               " declared"))
    elif chances.ready[-1] > 0 and chances.win[-1] == 0:
        reasons.append(Msg("it can get ready, but no winning hand it reaches can be declared"
                           " (minimum {min} fan)", min=result.settings.min))
    if choice.must_go:
        reasons.append(Msg("a tile of the declared missing suit ({suit}): it must go",
                           suit=suit_name(result.ruleset, result.table.missing)))
    return tuple(reasons)


def _cannot_win_now(choice: DiscardChoice, minimum: int) -> str:
    """Why a ready discard cannot win: its best wait's fan against the minimum, or the rules'
    refusal (the missing suit, a form the family does not allow)."""
    fans = [calc.score.total_fan for w in choice.waits
            for calc in (w.value.calculation, w.value.self_drawn) if calc is not None]
    if fans:
        most = max(fans)
        return (Msg("ready now but {fan} fan at most: cannot win under the {min}-fan minimum",
                    fan=most, min=minimum) if most != 1 else
                Msg("ready now but 1 fan: cannot win under the {min}-fan minimum", min=minimum))
    if choice.waits:
        return Msg("ready now but cannot win: {refusal}", refusal=choice.waits[0].value.refusal)
    return Msg("ready now, but every tile that completes it is already in the hand")


def percent(p: float) -> str:
    """A chance as a percentage, one decimal (two below 0.1 %, so a faint chance is not 0).

    >>> percent(0.12345), percent(1.0), percent(0.0), percent(0.0004)
    ('12.3', '100', '0', '0.04')
    """
    if 0 < p < 0.001:
        return f"{100 * p:.2f}"
    said = f"{100 * p:.1f}"
    return said[:-2] if said.endswith(".0") else said


def amount(value: float) -> str:
    """An expected amount, two decimals at most.

    >>> amount(3.0), amount(2.345)
    ('3', '2.35')
    """
    return fmt(round(value)) if abs(value - round(value)) < 0.005 else f"{value:.2f}"
