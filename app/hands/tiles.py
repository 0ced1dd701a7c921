"""Tiles and their MPSZ notation: 123m 456p 789s 1-7z, plus bonus tiles fl1-4 and se1-4.

>>> format_tiles(parse_tiles("1m 2m 3m 55z"))
'123m55z'
>>> tile("5s").name_en, tile("5s").name_zh, tile("5s").name_zh_hans
('5 Bamboo', '五索', '五条')
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from operator import itemgetter

from app.base.errors import NotationError
from app.base.i18n import Msg

SUITS = ("m", "p", "s", "z")
BONUS_KINDS = ("fl", "se")
SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27, "fl": 34, "se": 38}
SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "fl": 4, "se": 4}
NUM_KINDS = 34          # suited and honour tiles: indexes 0-33
NUM_TILES_WITH_BONUS = 42
MAX_NOTATION_LENGTH = 200  # longer text is refused before it is read

_NUMERALS = "一二三四五六七八九"
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_ZH = {"m": ("萬", "万"), "p": ("筒", "筒"), "s": ("索", "条")}
_HONOURS = (  # (English, traditional, simplified)
    ("East Wind", "東", "东"),
    ("South Wind", "南", "南"),
    ("West Wind", "西", "西"),
    ("North Wind", "北", "北"),
    ("White Dragon", "白", "白"),
    ("Green Dragon", "發", "发"),
    ("Red Dragon", "中", "中"),
)
_FLOWERS = (("Plum", "梅", "梅"), ("Orchid", "蘭", "兰"),
            ("Chrysanthemum", "菊", "菊"), ("Bamboo", "竹", "竹"))
_SEASONS = (("Spring", "春", "春"), ("Summer", "夏", "夏"),
            ("Autumn", "秋", "秋"), ("Winter", "冬", "冬"))


def _names(index: int) -> tuple[str, str, str]:
    """Return (English, traditional Chinese, simplified Chinese) names of a tile index."""
    suit, rank = _SUIT_OF[index], _RANK_OF[index]
    if suit in _SUIT_EN:
        trad, simp = _SUIT_ZH[suit]
        numeral = _NUMERALS[rank - 1]
        return f"{rank} {_SUIT_EN[suit]}", numeral + trad, numeral + simp
    if suit == "z":
        return _HONOURS[rank - 1]
    en, trad, simp = (_FLOWERS if suit == "fl" else _SEASONS)[rank - 1]
    kind = "Flower" if suit == "fl" else "Season"
    return f"{kind} {rank} {en}", trad, simp


_SUIT_OF: list[str] = []
_RANK_OF: list[int] = []
for _suit in ("m", "p", "s", "z", "fl", "se"):
    for _rank in range(1, SUIT_SIZE[_suit] + 1):
        _SUIT_OF.append(_suit)
        _RANK_OF.append(_rank)
_NAMES = [_names(i) for i in range(NUM_TILES_WITH_BONUS)]


class Tile(int):
    """One tile, identified by its index: m 0-8, p 9-17, s 18-26, z 27-33, fl 34-37, se 38-41.

    An immutable int, so tiles hash, compare and index count arrays at C speed; the 42
    tiles are made once (TILES) and every parse returns those.
    """

    __slots__ = ()

    @property
    def index(self) -> int:
        return int(self)

    @property
    def suit(self) -> str:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        return _RANK_OF[self]

    @property
    def code(self) -> str:
        """The tile in notation: '5s', '7z', 'fl1'."""
        suit = self.suit
        return f"{suit}{self.rank}" if suit in BONUS_KINDS else f"{self.rank}{suit}"

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_bonus(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        """A 1 or a 9 of a suit."""
        return self < 27 and self.rank in (1, 9)

    @property
    def is_wind(self) -> bool:
        return 27 <= self <= 30

    @property
    def is_dragon(self) -> bool:
        return 31 <= self <= 33

    @property
    def name_en(self) -> str:
        return _NAMES[self][0]

    @property
    def name_zh(self) -> str:
        """Traditional Chinese name."""
        return _NAMES[self][1]

    @property
    def name_zh_hans(self) -> str:
        """Simplified Chinese name."""
        return _NAMES[self][2]

    @property
    def label(self) -> str:
        """Accessible name, e.g. '5 Bamboo 五索'."""
        return f"{self.name_en} {self.name_zh}"

    def __repr__(self) -> str:
        return f"Tile({self.code})"

    def __str__(self) -> str:
        return self.code

    def __format__(self, spec: str) -> str:
        return format(self.code, spec)


TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_TILES_WITH_BONUS))
PLAYING_TILES: tuple[Tile, ...] = TILES[:NUM_KINDS]
TERMINALS_AND_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

_TOKEN = re.compile(
    r"""
      (?P<digits>[0-9]+) (?P<suit>[mpsz])   # a run of ranks and their suit: 123m, 55z
    | (?P<bonus>fl|se) (?P<number>[0-9])     # one bonus tile: fl1-fl4 flowers, se1-se4 seasons
    """,
    re.VERBOSE,
)


# Plain notation, read as bytes: runs that need no further checks.
_PLAIN_RUN = re.compile(rb"[1-9]+[mps]|[1-7]+z")
_PLAIN_IN_ORDER = re.compile(rb"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?")
_M_INDEXES, _P_INDEXES, _S_INDEXES, _Z_INDEXES = _SUIT_INDEXES = tuple(  # digits -> tile indexes
    bytes.maketrans(b"123456789", bytes(range(SUIT_OFFSET[suit], SUIT_OFFSET[suit] + 9)))
    for suit in SUITS
)
_RUN_INDEXES = dict(zip(b"mpsz", _SUIT_INDEXES, strict=True))  # by a run's suit letter


def tile(code: str) -> Tile:
    """Return the single tile a code names.

    >>> tile("7z").name_en
    'Red Dragon'
    """
    tiles = parse_tiles(code)
    if len(tiles) != 1:
        raise NotationError(code, 0, Msg("expected exactly one tile, found {n}", n=len(tiles)))
    return tiles[0]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read MPSZ notation into tiles, keeping their order.

    >>> [t.code for t in parse_tiles("12m 3p fl2")]
    ['1m', '2m', '3p', 'fl2']
    """
    if len(text) > MAX_NOTATION_LENGTH:
        raise NotationError(
            text[:20] + "…", 0,
            Msg("{n} characters is too long for tile notation (at most {most})", n=len(text),
                most=MAX_NOTATION_LENGTH),
        )
    source = "".join(text.split()).lower()  # whitespace is ignored, even inside a run
    indexes = plain_indexes(source)
    if indexes is not None:  # the common case: suited and honour runs only
        return tiles_at(indexes)
    tiles: list[Tile] = []
    pos = 0
    while pos < len(source):
        match = _TOKEN.match(source, pos)
        if match is None:
            raise NotationError(source, pos, _explain_bad_character(source, pos))
        if match["digits"]:
            tiles.extend(_suited_run(source, pos, match["digits"], match["suit"]))
        elif match["bonus"]:
            number = int(match["number"])
            if not 1 <= number <= 4:
                raise NotationError(
                    source, pos, Msg("{code} is not a tile: bonus tiles are numbered 1-4", code=repr(match.group(0)))
                )
            tiles.append(TILES[SUIT_OFFSET[match["bonus"]] + number - 1])
        pos = match.end()
    return tuple(tiles)


def plain_indexes(text: str) -> bytes | None:
    """Return the tile indexes of plain notation, one byte each in order; None for other text.

    Plain notation is runs such as 123m or 55z and nothing else: no spaces, capitals,
    bonus tiles or mistakes. It is what parse_tiles reads fastest.

    >>> list(plain_indexes("123m55z"))
    [0, 1, 2, 31, 31]
    >>> plain_indexes("123m 55z") is None
    True
    """
    if not text.isascii():
        return None
    source = text.encode()
    in_order = _PLAIN_IN_ORDER.fullmatch(source)
    if in_order is not None:  # the usual case, as canonical() writes it: each suit once, m p s z
        m, p, s, z = in_order.groups(b"")
        return (m.translate(_M_INDEXES) + p.translate(_P_INDEXES) + s.translate(_S_INDEXES)
                + z.translate(_Z_INDEXES))
    runs = _PLAIN_RUN.findall(source)
    if len(b"".join(runs)) != len(source):  # something else between or around the runs
        return None
    return b"".join([run.translate(_RUN_INDEXES[run[-1]], b"mpsz") for run in runs])


def tiles_at(indexes: Sequence[int]) -> tuple[Tile, ...]:
    """Return the tile of each index, in order.

    >>> tiles_at(b"\\x00\\x1f")
    (Tile(1m), Tile(5z))
    """
    if len(indexes) > 1:
        return itemgetter(*indexes)(TILES)  # one call for them all
    return tuple(TILES[i] for i in indexes)


def _suited_run(text: str, pos: int, digits: str, suit: str) -> list[Tile]:
    """Turn '123' + 'm' into tiles, checking each rank exists in that suit."""
    size = SUIT_SIZE[suit]
    run = []
    for offset, digit in enumerate(digits):
        rank = int(digit)
        if rank == 0:
            raise NotationError(text, pos + offset, Msg("'0{suit}' is not a tile here (no red fives)", suit=suit))
        if rank > size:
            raise NotationError(
                text, pos + offset, Msg("'{rank}{suit}' is not a tile: honours are 1z-7z", rank=rank, suit=suit)
            )
        run.append(TILES[SUIT_OFFSET[suit] + rank - 1])
    return run


def _explain_bad_character(source: str, pos: int) -> Msg:
    """Say why the text at pos is not notation."""
    end = pos
    while end < len(source) and "0" <= source[end] <= "9":
        end += 1
    if end > pos:  # ASCII digits not followed by a suit letter
        digits = source[pos:end]
        if end == len(source):
            return Msg("'{digits}' at the end has no suit letter (m, p, s or z) after it", digits=digits)
        after = source[end]
        why = (Msg("a digit but not ASCII") if after.isdigit()
               else Msg("not a suit letter (m, p, s or z)"))
        return Msg("'{digits}' is followed by {after}, {why}", digits=digits, after=repr(after),
                   why=why)
    char = source[pos]
    if char.isdigit():
        return Msg("{char} is not an ASCII digit; write ranks as 1-9", char=repr(char))
    return Msg("unexpected character {char}; write tiles as digits plus m, p, s or z (e.g. 123m)",
               char=repr(char))


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in compact notation, keeping their order.

    >>> format_tiles(parse_tiles("1m 2m 5z 3m fl1 se4 7s"))
    '12m5z3m fl1 se4 7s'
    """
    tokens: list[tuple[str, str]] = []  # (suit, text); suited runs grow in place
    for t in tiles:
        suit = t.suit
        if suit in BONUS_KINDS:
            tokens.append((suit, t.code))
        elif tokens and tokens[-1][0] == suit:
            tokens[-1] = (suit, tokens[-1][1] + str(t.rank))
        else:
            tokens.append((suit, str(t.rank)))
    text = ""
    for i, (suit, body) in enumerate(tokens):
        bonus = suit in BONUS_KINDS
        if i and (bonus or tokens[i - 1][0] in BONUS_KINDS):
            text += " "
        text += body if bonus else body + suit
    return text


def tiles_of(counts: Sequence[int]) -> tuple[Tile, ...]:
    """The tiles a vector of counts over the kinds holds, in tile order.

    >>> tiles_of([1, 0, 2])
    (Tile(1m), Tile(3m), Tile(3m))
    """
    return tiles_at([kind for kind, n in enumerate(counts) for _ in range(n)])


def canonical(tiles: Iterable[Tile]) -> str:
    """Write tiles sorted, in compact notation."""
    return format_tiles(sorted(tiles))


def counts_notation(counts: Sequence[int]) -> str:
    """canonical() of the tiles a vector of counts over the 34 kinds holds, written directly.

    >>> counts_notation([1, 1, 1] + [0] * 24 + [2, 0, 0, 0, 0, 0, 3])
    '123m11777z'
    """
    return "".join(body + suit for suit, lo, n in _SUIT_SPANS
                   if (body := "".join(_RANKS[r] * counts[lo + r] for r in range(n))))


_SUIT_SPANS = (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7))
_RANKS = "123456789"
