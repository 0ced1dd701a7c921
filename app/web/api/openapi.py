"""The OpenAPI 3.1 description of the JSON API, built from the loaded rulesets."""
from __future__ import annotations

from collections.abc import Mapping

from app.base.i18n import LANGS
from app.hands.events import EVENT_RULES
from app.rules.model import Ruleset

_STRING = {"type": "string"}


def _param(name: str, description: str, schema: dict | None = None, example: str | None = None) -> dict:
    param = {"name": name, "in": "query", "required": False, "description": description,
             "schema": schema or dict(_STRING)}
    if example is not None:
        param["example"] = example
    return param


def _parameters(rulesets: Mapping[str, Ruleset], hand_text: str) -> list[dict]:
    seats = {"type": "string", "enum": ["E", "S", "W", "N"]}
    return [
        _param("rules", "Ruleset id (file stem in rulesets/).", {"type": "string", "enum": sorted(rulesets)},
               "hong-kong"),
        _param("house", "A club's variant of rules, built on /house: the format's version and a"
                        " code of the changes (no YAML). A damaged code, or a newer version, is a 400"
                        " on house.", example="1Q3VdLcwKpIwJVWiiA9UbWwsA"),
        _param("hand", hand_text, example="123m456m789m234p55s"),
        _param("win", "The winning tile; must be in hand (default: the last tile of hand).", example="5s"),
        _param("melds", "Declared melds, comma-separated: 777m pong, 123m chow, 1111z exposed kong,"
                        " ckong:5555z concealed, akong:7777p added.", example="777m,ckong:5555z"),
        _param("by", "How the hand was won.", {"type": "string", "enum": ["discard", "self-draw"]}),
        _param("seat", "Seat wind of the winner.", seats),
        _param("round", "Round wind.", seats),
        _param("flowers", "Flowers held, by number 1-4 (e.g. 13).", example="13"),
        _param("seasons", "Seasons held, by number 1-4.", example="2"),
        _param("events", "Win-moment events, comma-separated.",
               example="kong-replacement"),
        _param("missing", "Sichuan: the declared missing suit.", {"type": "string", "enum": ["m", "p", "s"]}),
        _param("ticks", "Tick-box mode: pattern ids, comma-separated; id*2 counts an item twice.",
               example="half-flush,dragon-pong,self-draw"),
        _param("fan", "Points-only mode: the fan total, when the hand is already counted.", example="5"),
        _param("options", "House-rule switches turned on, comma-separated.", example="seven-pairs"),
        _param("min", "Minimum fan to win.", example="3"),
        _param("cap", "Fan cap, or none.", example="13"),
        _param("curve", "Doubling curve id of the ruleset.", example="full-spicy"),
        _param("payment", "Payment convention id of the ruleset.", example="discarder-pays-half"),
        _param("stake", "Stake multiplier, a positive number.", example="1"),
        _param("discarder", "Seat that discarded the winning tile (default: the seat after the winner).",
               seats),
        _param("winner", "Seat of the winner (default: seat).", seats),
        _param("won", "Sichuan: seats that already won this round, comma-separated.", example="S,N"),
        _param("liable", "Seat pinned with liability (包牌, 9-cards).", seats),
        LANG,
    ]


LANG = _param("lang", "The language of every message, reason and name in the answer: en"
                      " (default), zh-Hant (Traditional Chinese, Hong Kong wording) or zh-Hans"
                      " (Simplified Chinese, Mainland wording). Numbers, ids and tiles are the"
                      " same in every language.", {"type": "string", "enum": list(LANGS)}, "zh-Hant")


_ERRORS = {
    "description": "The request cannot be priced: each field error names the field.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
}
_RETRY = {"Retry-After": {"description": "Seconds to wait before asking again.",
                          "schema": {"type": "integer"}}}
_BUSY = {   # app/web/serving/turns.py, shedding.py
    "429": {"description": "Too many at once from one address: long calculations under way, or"
                           " new club rules past 12 a minute (the error names house).",
            "headers": _RETRY,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}},
    "503": {"description": "Busy: the request waited past its deadline for a turn.",
            "headers": _RETRY,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}},
}


def openapi_document(rulesets: Mapping[str, Ruleset]) -> dict:
    """The whole document."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Mahjong scoring calculator", "version": "1.0.0",
                 "description": "Fan breakdown and who pays whom under several rule families. "
                                "Every answer is a GET: links are permalinks. Known events: "
                                + ", ".join(EVENT_RULES) + "."},
        "paths": {
            "/api/score": {"get": {
                "operationId": "score",
                "summary": "Price a winning hand (tiles, tick boxes or a fan total).",
                "parameters": _parameters(rulesets, "Concealed tiles, including the winning tile."),
                "responses": {
                    "200": {"description": "The breakdown and the payments.",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Score"}}}},
                    "400": _ERRORS, **_BUSY}}},
            "/api/waits": {"get": {
                "operationId": "waits",
                "summary": "The tiles a ready hand waits on and what each win would be worth.",
                "parameters": _parameters(rulesets, "Concealed tiles before the winning tile"
                                                    " (13 - 3 x melds)."),
                "responses": {
                    "200": {"description": "Whether the hand is ready, and its waits.",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Waits"}}}},
                    "400": _ERRORS, **_BUSY}}},
            "/api/discard": {"get": {
                "operationId": "discard",
                "summary": "What to discard: every distinct discard of a 14-tile hand, best first.",
                "description": "For each discard: the shanten after it (tiles from ready), the"
                               " improving tiles with how many are left unseen, and when it"
                               " leaves the hand ready, each wait priced as /api/waits prices it."
                               " Best first: the missing suit while it is held (Sichuan), then"
                               " fewer tiles from ready, more improving tiles left, more value in"
                               " the waits.",
                "parameters": [p for p in _parameters(rulesets, "The 14 concealed-equivalent"
                                                      " tiles before the discard (14 - 3 x melds),"
                                                      " the tile just drawn included.")
                               if p["name"] not in ("win", "ticks", "fan")]
                + [_param("seen", "Tiles visible on the table (discards, others' melds), MPSZ:"
                                  " not counted as left.", example="1z5p"),
                   _param("outlook", "1: also weigh each discard's chance to be ready, to win"
                                     " with a legal hand and its expected value over the draws"
                                     " left (the `outlook` of the answer; off by default).",
                          {"type": "string", "enum": ["1"]}),
                   _param("draws", "With outlook=1: the draws the player has left, 1 to 30"
                                   " (default 18, the first turn).", example="18")],
                "responses": {
                    "200": {"description": "Every distinct discard, best first, with the reasons.",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Discards"}}}},
                    "400": _ERRORS, **_BUSY}}},
            "/api/sheet": {"get": {
                "operationId": "sheet",
                "summary": "A game sheet as JSON: every entry priced, running totals, who pays whom.",
                "description": "The query of /sheet and /sheet.csv: the same night, the same numbers."
                               " A hand below the minimum is not a win and pays 0 (result"
                               " not-a-win, with the reason); an entry that cannot be priced counts"
                               " nothing (result refused, with its errors) and the others still count."
                               " Players are numbered 1-4 as in at=; amounts are lists in that order.",
                "parameters": [p for p in _parameters(rulesets, "") if p["name"] in _SHEET_PARAMS]
                + [_param("names", "The four players' names, comma-separated (optional; each once).",
                          example="Ann,Bob,Cy,Di"),
                   _param("seats", "Players (1-4) at E, S, W, N for the next hand.", example="2341"),
                   _param("hands", "One entry a line: a hand in the calculator's words (hand=, by=, seat="
                                   " …, at=2341 for the seating) or a Sichuan round as ledger / … / … .",
                          example="hand=123456789m234p55s by=self-draw")],
                "responses": {
                    "200": {"description": "The rows, running totals, totals and the transfers.",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Sheet"}}}},
                    "400": _ERRORS, **_BUSY,
                    "413": {"description": "More scorings than one request may do (the work budget).",
                            "content": {"application/json": {
                                "schema": {"$ref": "#/components/schemas/Errors"}}}}}}},
            "/api/settle": {"post": {
                "operationId": "settle",
                "parameters": [LANG],
                "summary": "Settle a whole Sichuan blood-battle round: kong money, wins, the end.",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Round"}}}},
                "responses": {
                    "200": {"description": "The ledger: every payment with its reason, running and final totals.",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ledger"}}}},
                    "400": _ERRORS, **_BUSY,
                    "413": {"description": "The body is longer than 65536 bytes (refused unread).",
                            "content": {"application/json": {
                                "schema": {"$ref": "#/components/schemas/Errors"}}}}}}},
            "/api/health": {"get": {
                "operationId": "health", "summary": "Liveness: answers {\"ok\": true} while the app is up.",
                "responses": {"200": {"description": "The app is up.", "content": {"application/json": {
                    "schema": {"type": "object", "required": ["ok"], "properties": {"ok": {"const": True}}}}}}}}},
            "/api/ready": {"get": {
                "operationId": "ready", "summary": "Readiness, for a load balancer: 503 while this worker's"
                " requests wait past their deadline (5 s) for a turn, or one was just refused for it.",
                "responses": {code: {"description": what, "content": {"application/json": {
                    "schema": {"type": "object", "required": ["ready", "wait"], "properties": {
                        "ready": {"type": "boolean"},
                        "wait": {"type": "number", "description": "Seconds the oldest waiting"
                                 " request has waited."}}}}}}
                    for code, what in (("200", "Ready to take traffic."),
                                       ("503", "Busy: send traffic elsewhere for Retry-After seconds."))}}},
            "/api/openapi.json": {"get": {
                "operationId": "openapi", "summary": "This document.",
                "responses": {"200": {"description": "OpenAPI 3.1",
                                      "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        },
        "components": {"schemas": _SCHEMAS},
    }


_SHEET_PARAMS = ("rules", "min", "cap", "curve", "payment", "stake", "options", "lang")
_AMOUNT = {"type": "number"}
_BY_PLAYER = {"type": "array", "items": _AMOUNT, "minItems": 4, "maxItems": 4}
_PLAYER = {"type": "integer", "minimum": 1, "maximum": 4}
_ONLY_SELF_DRAW = {"type": "boolean", "description": "it reaches the minimum only by self-draw;"
                   " shown priced as a self-draw (ruling 82)"}
_SEAT = {"type": "string", "enum": ["E", "S", "W", "N"]}
_TOTALS = {"type": "object", "properties": {s: _AMOUNT for s in "ESWN"}}
_HAND = {"type": "object", "properties": {"hand": _STRING, "melds": _STRING}}
# at the wall's end a player may be entered without tiles: not ready, or a flower pig (花猪)
_WALL_HAND = {"type": "object", "properties": {
    "hand": _STRING, "melds": _STRING, "status": {"type": "string", "enum": ["not-ready", "pig"]}}}
_SCHEMAS = {
    "Sheet": {"type": "object", "required": ["rules", "valid", "link", "players", "rows", "totals", "transfers"],
              "properties": {
        "rules": _STRING, "valid": {"const": True}, "link": _STRING,
        "players": {"type": "array", "items": {"type": "object", "required": ["number", "name"],
                                               "properties": {"number": _PLAYER, "name": _STRING}}},
        "rows": {"type": "array", "items": {"type": "object", "required": [
            "number", "kind", "entry", "seats", "result", "errors", "amounts", "running"], "properties": {
            "number": {"type": "integer"}, "kind": {"type": "string", "enum": ["hand", "round"]},
            "entry": _STRING, "seats": {"type": "object", "properties": {s: _PLAYER for s in "ESWN"}},
            "result": {"type": "string", "enum": ["win", "not-a-win", "refused", "round"]},
            "reason": {"type": ["string", "null"], "description": "why a hand that is not a win pays 0"},
            "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"],
                                                  "properties": {"field": _STRING, "message": _STRING}}},
            "amounts": _BY_PLAYER, "running": _BY_PLAYER, "breakdown": _STRING,
            "winner": _SEAT, "discarder": {"type": ["string", "null"], "enum": ["E", "S", "W", "N", None]},
            "total_fan": {"type": "integer"}, "points": {"type": "integer"}}}},
        "totals": _BY_PLAYER,
        "transfers": {"type": "array", "items": {"type": "object", "required": ["payer", "payee", "amount"],
                                                 "properties": {"payer": _PLAYER, "payee": _PLAYER,
                                                                "amount": _AMOUNT, "payer_name": _STRING,
                                                                "payee_name": _STRING}}}}},
    "Round": {"type": "object", "properties": {
        "rules": {"type": "string", "enum": ["sichuan", "sichuan-sbr"]},
        "missing": {"type": "object", "properties": {s: {"type": "string", "enum": ["m", "p", "s"]}
                                                     for s in "ESWN"}},
        "options": _STRING,
        "events": {"type": "array", "maxItems": 40, "items": {"type": "object", "required": ["type", "seat"],
            "properties": {"type": {"type": "string", "enum": ["kong", "win"]}, "seat": _SEAT,
                           "kind": {"type": "string", "enum": ["exposed", "concealed", "added"]},
                           "tile": _STRING, "from": _SEAT, "drawn": {"type": "boolean"},
                           "by": {"type": "string", "enum": ["self-draw", "discard"]},
                           "hand": _STRING, "melds": _STRING, "win": _STRING, "events": _STRING}}},
        "end": {"type": "object", "required": ["type"], "properties": {
            "type": {"const": "wall"},
            "hands": {"type": "object", "properties": {s: _WALL_HAND for s in "ESWN"}}}}}},
    "Ledger": {"type": "object", "required": ["rules", "valid", "lines", "totals"], "properties": {
        "rules": _STRING, "valid": {"const": True},
        "lines": {"type": "array", "items": {"type": "object", "properties": {
            "step": {"type": "integer"}, "event": _STRING, "kind": _STRING, "payer": _SEAT,
            "payee": _SEAT, "amount": _AMOUNT, "reason": _STRING}}},
        "running": {"type": "array", "items": _TOTALS}, "totals": _TOTALS,
        "wins": {"type": "array", "items": {"type": "object", "properties": {
            "step": {"type": "integer"}, "seat": _SEAT, "total_fan": {"type": "integer"},
            "points": {"type": "integer"}, "permalink": _STRING}}},
        "end": {"type": "array", "items": {"type": "object", "properties": {
            "seat": _SEAT, "pig": {"type": "boolean"}, "ready": {"type": "boolean"},
            "best": {"type": "integer"}, "best_tile": {"type": ["string", "null"]}}}}}},
    "Errors": {"type": "object", "required": ["valid", "errors"], "properties": {
        "valid": {"const": False},
        "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"],
                                              "properties": {"field": _STRING, "message": _STRING}}}}},
    "Pattern": {"type": "object", "required": ["id", "name", "name_zh", "fan", "counted", "note"],
                "properties": {"id": _STRING, "name": _STRING, "name_zh": _STRING,
                               "fan": {"type": "integer"}, "count": {"type": "integer"},
                               "counted": {"type": "boolean"}, "note": _STRING}},
    "Payment": {"type": "object", "required": ["seat", "role", "amount"],
                "properties": {"seat": {"type": "string", "enum": ["E", "S", "W", "N"]}, "role": _STRING,
                               "amount": _AMOUNT, "reason": _STRING}},
    "Score": {"type": "object",
              "required": ["rules", "valid", "permalink", "patterns", "total_fan", "capped_fan",
                           "below_minimum", "points", "payments", "assumed"],
              "properties": {
                  "rules": _STRING, "valid": {"const": True}, "hand": {"type": ["string", "null"]},
                  "permalink": _STRING, "grouping": {"type": "array", "items": _STRING},
                  "patterns": {"type": "array", "items": {"$ref": "#/components/schemas/Pattern"}},
                  "total_fan": {"type": "integer"}, "capped_fan": {"type": "integer"},
                  "below_minimum": {"type": "boolean"}, "minimum": {"type": "integer"},
                  "cap": {"type": ["integer", "null"]}, "curve": _STRING, "payment": _STRING,
                  "points": {"type": "integer"},
                  "payments": {"type": "array", "items": {"$ref": "#/components/schemas/Payment"}},
                  "assumed": {"type": "array", "description": "Every value the calculator filled"
                              " in because the request left it out: seat, winner,"
                              " round, by, discarder.",
                              "items": {"$ref": "#/components/schemas/Assumption"}},
                  "inferred": {"type": "array", "description": "Of tick boxes: what the ticks"
                               " were read to imply, each said (自摸 counted on a self-draw, a"
                               " bigger pattern every hand holding them forms).",
                               "items": _STRING}}},
    "Assumption": {"type": "object", "required": ["field", "value", "reason"],
                   "properties": {"field": _STRING, "value": _STRING, "reason": _STRING}},
    "Discards": {"type": "object", "required": ["rules", "valid", "hand", "shanten", "order", "discards"],
                 "properties": {
        "rules": _STRING, "valid": {"const": True}, "hand": _STRING, "melds": _STRING, "seen": _STRING,
        "shanten": {"type": "integer", "description": "of the 14 tiles as held; -1: complete"},
        "order": _STRING, "outlook": {"$ref": "#/components/schemas/Outlook"},
        "discards": {"type": "array", "items": {"type": "object", "required": [
            "tile", "shanten", "improving", "left", "must_go", "ready", "can_win", "value", "reasons",
            "waits"], "properties": {
            "tile": _STRING, "shanten": {"type": "integer"},
            "forms": {"type": "array", "items": {"type": "string", "enum": [
                "standard", "seven-pairs", "thirteen-orphans"]}},
            "improving": {"type": "array", "items": {"type": "object", "required": ["tile", "left"],
                                                     "properties": {"tile": _STRING,
                                                                    "left": {"type": "integer"}}}},
            "left": {"type": "integer"}, "must_go": {"type": "boolean"},
            "ready": {"type": "boolean"}, "can_win": {"type": "boolean"}, "value": _AMOUNT,
            "reasons": {"type": "array", "items": _STRING},
            "p_ready": {"type": "number", "description": "with outlook=1, for a discard it weighed:"
                        " the chance to be ready within the draws"},
            "p_win": {"type": "number", "description": "with outlook=1: the chance to win with a"
                      " legal hand within the draws"},
            "expected": {"type": "number", "description": "with outlook=1: what the winner"
                         " collects, averaged over the draws (0 where no win)"},
            "waits": {"type": "array", "items": {"type": "object", "required": [
                "tile", "left", "wins", "permalink"], "properties": {
                "tile": _STRING, "left": {"type": "integer"}, "wins": {"type": "boolean"},
                "permalink": _STRING, "total_fan": {"type": "integer"},
                "capped_fan": {"type": "integer"}, "points": {"type": "integer"},
                "collects": _AMOUNT, "note": _STRING, "only_self_draw": _ONLY_SELF_DRAW}}}}}}}},
    "Outlook": {"type": "object", "description": "Each discard weighed over the draws left,"
                " best first by expected value, then chance to win (only with outlook=1).",
                "required": ["draws", "model", "bound", "order", "exact", "bounded", "discards"],
                "properties": {
        "draws": {"type": "integer"}, "model": _STRING, "bound": _STRING, "order": _STRING,
        "exact": {"type": "boolean", "description": "false: past the bound or the work budget,"
                  " the usual order without figures (`bounded` says why)"},
        "bounded": _STRING, "states": {"type": "integer"}, "scorings": {"type": "integer"},
        "discards": {"type": "array", "items": {"type": "object", "required": [
            "tile", "shanten", "weighed", "ready", "win", "value", "reasons"], "properties": {
            "tile": _STRING, "shanten": {"type": "integer"}, "weighed": {"type": "boolean"},
            "ready": {"type": "number"}, "win": {"type": "number"}, "value": {"type": "number"},
            "reasons": {"type": "array", "items": _STRING},
            "by_draws_left": {"type": ["object", "null"], "description": "index t: t draws left",
                              "properties": {k: {"type": "array", "items": {"type": "number"}}
                                             for k in ("win", "ready", "value")}}}}}}},
    "Waits": {"type": "object", "required": ["rules", "valid", "ready", "can_win", "waits"], "properties": {
        "rules": _STRING, "valid": {"const": True},
        "ready": {"type": "boolean", "description": "ready in shape: some tile completes the hand"},
        "can_win": {"type": "boolean", "description": "some wait reaches the minimum; with no"
                    " `by`, on a discard or by self-draw (ruling 82)"},
        "waits": {"type": "array", "items": {"type": "object", "required": ["tile", "left"], "properties": {
            "tile": _STRING, "left": {"type": "integer"}, "wins": {"type": "boolean"},
            "only_self_draw": _ONLY_SELF_DRAW,
            "note": _STRING, "total_fan": {"type": "integer"}, "capped_fan": {"type": "integer"},
            "points": {"type": "integer"}, "collects": _AMOUNT,
            "grouping": {"type": "array", "items": _STRING}}}},
        "house_rules": {"type": "array", "description": "When the hand is not ready: the off"
                        " house rules under which it would be, and on which tiles.",
                        "items": {"type": "object", "required": ["option", "waits", "note"],
                                  "properties": {"option": _STRING, "note": _STRING,
                                                 "waits": {"type": "array", "items": _STRING}}}}}},
}
