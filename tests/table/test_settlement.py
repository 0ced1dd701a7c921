"""Whole blood-battle rounds: kong money, wins, and the end-of-round settlement."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from app.base.errors import HandError
from app.vocabulary.round import parse_round_text, read_round, settle_round

ROUNDS = yaml.safe_load((Path(__file__).resolve().parents[1] / "golden" / "rounds" / "blood-battle.yaml").read_text(encoding="utf-8"))
CASES = ROUNDS["cases"]
EXPECTED_ROUNDS = 21


def ledger_of(text: str, rules: str):
    return settle_round(read_round(parse_round_text(text, rules)))


def test_no_round_case_has_dropped_out():
    assert len(CASES) == EXPECTED_ROUNDS
    assert len({c["id"] for c in CASES}) == EXPECTED_ROUNDS


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_round(case):
    ledger = ledger_of(case["round"], case["rules"])
    got = [[l.step, l.kind, l.payer, l.payee, l.amount] for l in ledger.lines]
    if case["id"].endswith("full-round"):
        assert got == case["lines"]          # a complete round: every line of its ledger
    for step in {line[0] for line in case["lines"]}:
        assert [g for g in got if g[0] == step] == [e for e in case["lines"] if e[0] == step], step
    if not case["lines"]:
        assert got == []
    assert ledger.totals == case["totals"]
    assert sum(ledger.totals.values()) == 0
    assert all(line.reason for line in ledger.lines)


def test_running_totals_follow_each_event_and_end_at_the_totals():
    ledger = ledger_of(CASES[[c["id"] for c in CASES].index("SC-settle-1")]["round"], "sichuan")
    assert len(ledger.running) == len(ledger.round.events) + 1
    assert ledger.running[0] == {"E": 18, "S": -6, "W": -6, "N": -6}
    assert ledger.running[-1] == ledger.totals


def test_the_end_says_who_is_a_pig_who_is_ready_and_the_best_wait():
    ledger = ledger_of(CASES[[c["id"] for c in CASES].index("SC-settle-1")]["round"], "sichuan")
    state = {e.seat: e for e in ledger.end}
    assert state["N"].pig and not state["N"].ready
    assert state["S"].ready and state["S"].best == 6 and state["S"].best_tile.code in ("1p", "4p")
    assert not state["W"].ready and not state["W"].pig


@pytest.mark.parametrize("text, rules, field, fragment", [
    ("kong E concealed 5m\nkong S concealed 5m", "sichuan", "events[1]", "all four copies are already in use"),
    ("missing S=p\nwin S discard from N hand=123m456m789m234m55m\nwin S self-draw hand=123m456m789m234m55m",
     "sichuan", "events[1]", "S has already won"),
    ("win S discard from S hand=123m456m789m234m55m", "sichuan", "events[0].from", "cannot win on their own discard"),
    ("win E discard from N hand=123m456m789m123s55s\nwin S discard from N hand=234m567m345s678s99m\n"
     "win W discard from N hand=123m456m789m234p55p\nkong N concealed 9p", "sichuan", "events[3]",
     "three players have already won"),
    ("win E discard from N hand=111m456m789m234p55p\nwin S discard from N hand=111m123p456p789p55p",
     "sichuan", "events[1]", "a fifth 1m"),
    ("kong E concealed 5m\nwin S self-draw hand=555m123p456p789p11p", "sichuan", "events[0]",
     "some of its four copies"),
    ("kong E exposed 5m", "sichuan", "events[0].from", "say whose"),
    ("kong E sideways 5m", "sichuan", "events[0].kind", "not a kong kind"),
    ("win N discard from E hand=123m456m789m234p55p\nkong N concealed 9s", "sichuan", "events[1]",
     "N has already won"),
    ("kong E concealed 9s\nwin E self-draw hand=123m456m789m234p55p", "sichuan", "events[1].melds",
     "list it in the melds as ckong:9999s"),
    ("missing E=m\nwin E self-draw hand=123m456m789m234p55p", "sichuan", "events[0].hand",
     "holds its declared missing suit"),
    ("kong E concealed 5m\nwall E hand=123p melds=ckong:5555m", "sichuan", "end.hands",
     "give the tiles of every player still in"),
    ("fly E", "sichuan", "round", "'fly' is not missing, options, kong, win or wall"),
    # issue 12: the order of a round's events
    ("win S discard from E hand=123m456m789m234m55m events=kong-cannon", "sichuan",
     "events[0].events", "follows nothing; enter E's kong just before this win"),
    ("kong W concealed 7p\nwin S discard from E hand=123m456m789m234m55m events=kong-cannon",
     "sichuan", "events[1].events", "follows another player's kong"),
    ("kong E concealed 7p\nkong W concealed 9p\n"
     "win S discard from E hand=123m456m789m234m55m events=kong-cannon", "sichuan",
     "events[2].events", "follows another player's kong"),
    ("kong E added 1m\nwin W discard from E hand=123m567m345s678s99m win=1m events=robbing-the-kong",
     "sichuan", "events[0]", "was robbed (events[1]), so it never happened"),
    ("win S self-draw hand=123m456m789m55m melds=ckong:7777p", "sichuan", "events[0].melds",
     "a concealed kong (暗杠) the round never declared: enter 'kong S concealed 7p'"),
    ("win S self-draw hand=123m456m789m55m melds=kong:7777p", "sichuan", "events[0].melds",
     "an exposed kong (直杠) the round never declared: enter 'kong S exposed 7p from SEAT'"),
])
def test_bad_rounds_are_refused_with_a_clear_message(text, rules, field, fragment):
    with pytest.raises(HandError) as err:
        ledger_of(text, rules)
    assert any(e.field == field and fragment in e.message for e in err.value.errors), err.value.errors


def test_a_ruleset_without_round_settlement_is_refused():
    with pytest.raises(HandError, match="has no round settlement"):
        ledger_of("kong E concealed 5m", "hong-kong")


# --- property: any valid round settles to totals that sum to zero ----------------------

import random  # noqa: E402

from app.hands.tiles import TILES, format_tiles  # noqa: E402

SEATS = "ESWN"
KONG_PREFIX = {"exposed": "kong:", "concealed": "ckong:", "added": "akong:"}


def _take(pool: list[int], index: int, n: int) -> bool:
    if pool[index] < n:
        return False
    pool[index] -= n
    return True


def _complete_sets(rng: random.Random, pool: list[int], sets: int) -> list[int] | None:
    """Concealed tiles for `sets` random sets and a pair, taken from the pool."""
    tiles: list[int] = []
    for _ in range(sets):
        for _attempt in range(30):
            if rng.random() < 0.6:
                start = rng.choice([i for i in range(27) if i % 9 <= 6])
                if all(pool[start + k] for k in range(3)):
                    for k in range(3):
                        pool[start + k] -= 1
                    tiles += [start, start + 1, start + 2]
                    break
            else:
                i = rng.randrange(27)
                if _take(pool, i, 3):
                    tiles += [i] * 3
                    break
        else:
            return None
    pairs = [i for i in range(27) if pool[i] >= 2]
    if not pairs:
        return None
    i = rng.choice(pairs)
    pool[i] -= 2
    return tiles + [i, i]


def random_round(rng: random.Random) -> tuple[str, str]:
    """A round in the ledger text format, drawn from one 108-tile wall."""
    rules = rng.choice(["sichuan", "sichuan-sbr"])
    pool = [4] * 27 + [0] * 7
    lines: list[str] = []
    melds: dict[str, list[str]] = {s: [] for s in SEATS}
    won: list[str] = []
    missing = {s: rng.choice("mps") for s in SEATS}
    lines.append("missing " + " ".join(f"{s}={m}" for s, m in missing.items()))
    for _ in range(rng.randrange(7)):
        still = [s for s in SEATS if s not in won]
        if len(won) == 3:
            break
        seat = rng.choice(still)
        if rng.random() < 0.4 and len(melds[seat]) < 3:
            kind = rng.choice(["exposed", "concealed", "added"])
            tile = rng.choice([i for i in range(27) if pool[i] == 4 and "mps"[i // 9] != missing[seat]])
            pool[tile] = 0
            code = TILES[tile].code
            line = f"kong {seat} {kind} {code}"
            if kind == "exposed":
                line += " from " + rng.choice([s for s in still if s != seat] or [seat])
            if kind == "added" and rng.random() < 0.5:
                line += " held"
            lines.append(line)
            melds[seat].append(KONG_PREFIX[kind] + code[0] * 4 + code[1])
            continue
        trial = pool.copy()
        tiles = _complete_sets(rng, trial, 4 - len(melds[seat]))
        if tiles is None or any("mps"[t // 9] == missing[seat] for t in tiles):
            continue
        pool[:] = trial
        by = rng.choice(["self-draw", "discard"])
        line = f"win {seat} {by}"
        if by == "discard":
            others = [s for s in still if s != seat]
            if not others:
                continue
            line += " from " + rng.choice(others)
        line += f" hand={format_tiles(TILES[t] for t in tiles)}"
        if melds[seat]:
            line += " melds=" + ",".join(melds[seat])
        lines.append(line)
        won.append(seat)
    if len(won) < 3 and rng.random() < 0.7:
        parts = []
        for seat in [s for s in SEATS if s not in won]:
            need = 13 - 3 * len(melds[seat])
            hand = []
            for _ in range(need):
                i = rng.choice([k for k in range(27) if pool[k]])
                pool[i] -= 1
                hand.append(TILES[i])
            part = f"{seat} hand={format_tiles(sorted(hand))}"
            if melds[seat]:
                part += " melds=" + ",".join(melds[seat])
            parts.append(part)
        lines.append("wall " + "; ".join(parts))
    return "\n".join(lines), rules


def test_every_valid_random_round_settles_to_zero():
    checked = refused = 0
    for seed in range(400):
        text, rules = random_round(random.Random(seed))
        try:
            ledger = ledger_of(text, rules)
        except HandError:
            refused += 1   # e.g. an exposed kong from a player who had already won
            continue
        checked += 1
        assert sum(ledger.totals.values()) == 0, text
        for totals in ledger.running:
            assert sum(totals.values()) == 0, text
        assert ledger.running == () or ledger.running[-1] == ledger.totals, text
    assert checked >= 200, (checked, refused)


def test_a_player_at_the_walls_end_may_be_entered_as_not_ready_or_pig_without_tiles():
    with_tiles = parse_round_text(
        "missing E=p S=m W=s N=p\nwin E self-draw hand=123s456s789s234s55s\nkong S concealed 9p\n"
        "kong W exposed 2m from N\nwall S hand=123p456p23p55p melds=ckong:9999p;"
        " W hand=1357m1357p46m melds=kong:2222m; N hand=13m456m789m12p33s8m")
    shortcuts = parse_round_text(
        "missing E=p S=m W=s N=p\nwin E self-draw hand=123s456s789s234s55s\nkong S concealed 9p\n"
        "kong W exposed 2m from N\nwall S hand=123p456p23p55p melds=ckong:9999p; W not-ready; N pig")
    assert shortcuts["end"]["hands"]["W"] == {"status": "not-ready"}
    full, short = settle_round(read_round(with_tiles)), settle_round(read_round(shortcuts))
    assert [(e.seat, e.pig, e.ready) for e in full.end] == [(e.seat, e.pig, e.ready) for e in short.end]
    assert short.totals == full.totals


def test_a_wall_status_other_than_not_ready_or_pig_is_refused():
    with pytest.raises(HandError, match="'bogus' is not a status"):
        read_round(parse_round_text("wall S bogus"))
