"""A hand: concealed tiles, declared melds, the winning tile and the win context."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .tiles import NUM_KINDS, Tile, canonical, format_tiles


class MeldKind(StrEnum):
    """How a declared set was made."""

    CHOW = "chow"
    PONG = "pong"
    KONG = "kong"      # exposed kong, from a discard (直杠 / 明槓)
    CKONG = "ckong"    # concealed kong, all four drawn (暗杠 / 暗槓)
    AKONG = "akong"    # added kong, a fourth tile on one's own pong (补杠 / 加槓)

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.CKONG, MeldKind.AKONG)


class WinBy(StrEnum):
    SELF_DRAW = "self-draw"
    DISCARD = "discard"


SEATS = ("E", "S", "W", "N")
WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}  # tile index of each seat's wind


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: chow, pong or one of the three kongs."""

    kind: MeldKind
    tiles: tuple[Tile, ...]

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def concealed(self) -> bool:
        """Only a concealed kong stays hidden."""
        return self.kind is MeldKind.CKONG

    @property
    def token(self) -> str:
        """The meld in the `melds` vocabulary: '777m', 'ckong:5555z'."""
        body = format_tiles(self.tiles)
        return body if self.kind in (MeldKind.CHOW, MeldKind.PONG, MeldKind.KONG) else (
            f"{self.kind}:{body}"
        )


@dataclass(frozen=True, slots=True)
class WinContext:
    """How and where the hand was won: the facts outside the tiles."""

    by: WinBy = WinBy.DISCARD
    seat: str = "E"
    round: str = "E"
    flowers: tuple[int, ...] = ()
    seasons: tuple[int, ...] = ()
    events: frozenset[str] = frozenset()
    missing: str | None = None

    @property
    def self_drawn(self) -> bool:
        return self.by is WinBy.SELF_DRAW

    @property
    def seat_wind(self) -> int:
        """Tile index of the seat wind."""
        return WIND_INDEX[self.seat]

    @property
    def round_wind(self) -> int:
        """Tile index of the round wind."""
        return WIND_INDEX[self.round]


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (the winning tile among them when complete), melds, winning tile, context."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    win: Tile | None = None
    context: WinContext = field(default_factory=WinContext)

    def __init__(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...] = (),
                 win: Tile | None = None, context: WinContext | None = None) -> None:
        # written out, not generated: every scoring makes a Hand, and setting the slots
        # straight through their descriptors takes half the time of the frozen __init__
        _set_concealed(self, concealed)
        _set_melds(self, melds)
        _set_win(self, win)
        _set_context(self, _NO_CONTEXT if context is None else context)

    @property
    def counts(self) -> list[int]:
        """Copies of each tile kind held, concealed and declared together (34 entries)."""
        counts = [0] * NUM_KINDS
        for t in self.concealed:
            counts[t] += 1
        for meld in self.melds:
            for t in meld.tiles:
                counts[t] += 1
        return counts

    @property
    def concealed_counts(self) -> list[int]:
        counts = [0] * NUM_KINDS
        for t in self.concealed:
            counts[t] += 1
        return counts

    @property
    def kongs(self) -> int:
        return sum(1 for m in self.melds if m.is_kong)

    @property
    def description(self) -> str:
        """The hand in the `hand`/`melds`/`win` vocabulary, sorted (winning tile stated)."""
        text = canonical(self.concealed)
        if self.melds:
            text += " melds=" + ",".join(m.token for m in self.melds)
        if self.win is not None:
            text += f" win={self.win.code}"
        return text


_set_concealed, _set_melds, _set_win, _set_context = (
    getattr(Hand, name).__set__ for name in ("concealed", "melds", "win", "context"))
_NO_CONTEXT = WinContext()   # frozen, so one serves every hand made without a context
