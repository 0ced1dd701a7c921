"""The game sheet page: every step a GET link, the sheet carried through the calculator and the ledger."""
from __future__ import annotations

import csv
import html
import io
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from app.web import create_app
from app.web.table.rounds import EXAMPLE
from tests.html_tables import Page

NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N",
    "hand=123456789m234p55s by=self-draw seat=W at=2341",
    "hand=123456789m234p55s seat=N discarder=S",
])}


def table_by_caption(page: str, caption: str) -> list[list[str]]:
    rows = Page(page).table(caption)
    assert rows is not None, f"no table {caption!r}"
    return [cells for _, cells in rows]


def _href(page: str, element_id: str) -> str:
    tag = re.search(rf'<a [^>]*id="{element_id}"[^>]*>', page)
    assert tag, f"no link #{element_id}"
    return html.unescape(re.search(r'href="([^"]*)"', tag[0])[1])


def _follow(client, link: str):
    response = client.get(link)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return client.get(response.headers["Location"])


def test_a_bare_sheet_offers_to_start_one_with_names_rules_and_dials(client):
    page = client.get("/sheet").get_data(as_text=True)
    assert "Start a sheet" in page
    assert page.count('name="names"') == 4
    for dial in ("min", "cap", "payment", "stake"):
        assert f'name="{dial}"' in page


def test_the_totals_and_who_pays_whom_are_shown_by_player_name(client):
    response = client.get("/sheet", query_string=NIGHT)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "Set-Cookie" not in response.headers
    assert table_by_caption(page, "Totals") == [["Ann", "Bob", "Cy", "Di"], ["+88", "-40", "-88", "+40"]]
    assert "Cy pays Ann 88, Bob pays Di 40." in page
    running = table_by_caption(page, "Running totals")
    assert running[1:] == [["1", "96", "-32", "-32", "-32"], ["2", "88", "0", "-40", "-48"],
                           ["3", "56", "-32", "-72", "48"], ["4", "88", "-40", "-88", "40"]]


def test_a_calculator_result_adds_itself_to_the_sheet_it_carries(client):
    sheet = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    calculator = _href(sheet, "add-hand")
    assert calculator.startswith("/?rules=hong-kong") and "sheet=" in calculator
    result = client.get(calculator + "&hand=123m456m789m234p55s&by=self-draw&seat=S").get_data(as_text=True)
    assert "Add to the sheet" in result
    after = _follow(client, _href(result, "sheet-add")).get_data(as_text=True)
    # hand 5 at the last seats (Bob E, Cy S, Di W, Ann N): Cy (S) self-draws 4 fan, +96
    assert table_by_caption(after, "Totals")[1] == ["+56", "-72", "+8", "+8"]


def test_the_tile_picker_keeps_the_sheet_along(client):
    sheet = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    response = client.get(_href(sheet, "add-hand") + "&add=5m")
    assert response.status_code == 302
    assert "sheet" in parse_qs(urlsplit(response.headers["Location"]).query)


def test_a_result_without_a_sheet_starts_a_new_one_under_its_rules(client):
    result = client.get("/", query_string={"rules": "hong-kong", "hand": "123m456m789m234p55s",
                                           "by": "self-draw", "min": "4"}).get_data(as_text=True)
    page = _follow(client, _href(result, "sheet-add")).get_data(as_text=True)
    assert table_by_caption(page, "Totals")[1] == ["+96", "-32", "-32", "-32"]
    assert 'name="min" size="3" type="text" value="4"' in page or 'value="4"' in page


def test_editing_a_hand_in_the_calculator_puts_it_back_in_its_place(client):
    edit = client.get("/sheet", query_string={**NIGHT, "edit": "1"}).headers["Location"]
    assert "entry=1" in edit
    result = client.get(edit.replace("by=self-draw", "by=discard")).get_data(as_text=True)
    assert "Put back on the sheet as hand 1" in result
    after = _follow(client, _href(result, "sheet-add")).get_data(as_text=True)
    rows = table_by_caption(after, "Hands")
    assert len(rows) == 5   # header and the same four hands
    # hand 1 is now a 3-fan discard win for Ann (E) on S's (Bob's, the next seat's) discard
    assert rows[1][2:] == ["+32", "-16", "-8", "-8"]


def test_removing_a_hand_is_a_link(client):
    page = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    assert re.search(r'<button type="submit" form="row-actions" name="remove" value="2"[^>]*>remove</button>', page)
    after = _follow(client, "/sheet?" + urlencode({**NIGHT, "remove": "2"})).get_data(as_text=True)
    assert len(table_by_caption(after, "Hands")) == 4
    # hands 1, 3 and 4 are left: Ann 96-32+32 = 96, Bob -32-32-8 = -72, Cy -32-32-16 = -80,
    # Di -32+96-8 = 56
    assert table_by_caption(after, "Totals")[1] == ["+96", "-72", "-80", "+56"]


def test_moving_the_seats_applies_to_the_next_hand(client):
    response = client.get("/sheet", query_string={**NIGHT, "seats": ["4", "1", "2", "3"]})
    page = response.get_data(as_text=True)
    # the seat selects now show Di at East
    assert re.search(r'id="seat-E" name="seats">\s*<option value="1">Ann</option><option value="2">Bob'
                     r'</option><option value="3">Cy</option><option value="4" selected>Di', page)
    after = _follow(client, "/sheet?" + _href(page, "share-link").split("?", 1)[1]
                    + "&add=hand%3D123m456m789m234p55s+by%3Dself-draw")
    assert "at=4123" in after.get_data(as_text=True)


def test_a_seating_with_a_player_twice_is_refused_and_the_hands_are_kept(client):
    page = client.get("/sheet", query_string={**NIGHT, "seats": ["1", "1", "2", "3"]}).get_data(as_text=True)
    assert "not a seating" in page
    assert html.escape(NIGHT["hands"].splitlines()[2]) in page


def test_a_bad_line_is_named_by_its_number_and_nothing_typed_is_lost(client):
    hands = NIGHT["hands"] + "\nhand=123m colour=red"
    page = client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)
    assert "hand 5: &#39;colour&#39; is not part of a hand" in page
    assert "hand=123m colour=red" in page


def test_a_bad_dial_is_shown_beside_its_field(client):
    page = client.get("/sheet", query_string={**NIGHT, "min": "99"}).get_data(as_text=True)
    assert re.search(r'id="min-error"><li>99 is outside 0-13', page)


def test_a_hand_that_does_not_win_is_marked_and_counts_nothing(client):
    hands = NIGHT["hands"] + "\nhand=123m456m789m234p56s"
    page = client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)
    assert 'id="hand-5" class="has-error"' in page and "counts nothing" in page
    assert table_by_caption(page, "Totals")[1] == ["+88", "-40", "-88", "+40"]


def test_a_round_of_the_ledger_is_added_as_one_entry(client):
    start = client.get("/sheet", query_string={"rules": "sichuan", "names": "Ann,Bob,Cy,Di"}).get_data(as_text=True)
    ledger = client.get(_href(start, "add-round") + "&" + "round=" + EXAMPLE.replace("\n", "%0A")
                        .replace("=", "%3D").replace(";", "%3B").replace(" ", "+")).get_data(as_text=True)
    assert "Add this round to the sheet" in ledger
    final = table_by_caption(ledger, "Final totals")[1]
    page = _follow(client, _href(ledger, "sheet-add")).get_data(as_text=True)
    assert table_by_caption(page, "Totals")[1] == final
    assert "Round: 5 lines" in page


def test_the_csv_export_has_a_row_a_hand_and_the_transfers(client):
    response = client.get("/sheet.csv", query_string=NIGHT)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:10] == ["hand", "entry", "E", "S", "W", "N", "Ann", "Bob", "Cy", "Di"]
    assert rows[3][:10] == ["3", "hand=123456789m234p55s by=self-draw seat=W", "Bob", "Cy", "Di", "Ann",
                            "'-32", "'-32", "'-32", "96"]
    assert rows[5][6:10] == ["88", "'-40", "'-88", "40"]
    assert rows[7:] == [["payer", "payee", "amount"], ["Cy", "Ann", "88"], ["Bob", "Di", "40"]]


def test_the_print_view_leaves_out_the_forms(client):
    page = client.get("/sheet", query_string={**NIGHT, "view": "print"}).get_data(as_text=True)
    assert re.search(r'<body class="[^"]*print-view', page)


def test_a_sheet_too_long_for_a_link_says_so_and_offers_the_export(client):
    hands = "\n".join(["hand=123456789m234p55s by=self-draw seat=S discarder=W flowers=1"] * 70)
    page = client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)
    assert 'id="too-long"' in page and "Export it as CSV" in page
    short = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    assert 'id="too-long"' not in short


def test_the_hundred_and_first_hand_is_refused_with_a_message(client):
    hands = "\n".join(["fan=3"] * 100)
    page = client.get("/sheet", query_string={"rules": "hong-kong", "hands": hands,
                                              "add": "fan=3"}).get_data(as_text=True)
    assert "the sheet is full" in page


def test_a_calculator_page_carrying_a_long_sheet_is_still_read(client):
    hands = "\n".join(["hand=123456789m234p55s by=self-draw seat=W"] * 90)
    sheet = client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)
    link = _href(sheet, "add-hand")
    assert 4096 < len(link) < 8000
    assert client.get(link + "&hand=123m456m789m234p55s").status_code == 200


@pytest.mark.parametrize("query", [
    {"remove": "abc"}, {"remove": "0"}, {"add": ""}, {"add": "=", "put": "-1"}, {"add": "fan=3", "put": "9"},
    {"seats": "x"}, {"names": ["a", "b", "c", "d", "e"]}, {"edit": "0"}, {"edit": "x"}, {"hands": "ledger"}, {"hands": "ledger /"},
    {"hands": "ledger / wall"}, {"hands": "hand=\x00"}, {"rules": "nope"}, {"stake": "-1"},
    {"hands": "at=9999"}, {"names": "x" * 50}, {"view": "print"}, {"hands": "fan=" + "9" * 30},
])
def test_an_odd_value_is_answered_with_a_message_never_a_server_error(client, query):
    for path in ("/sheet", "/sheet.csv"):
        response = client.get(path, query_string={**NIGHT, **query})
        assert response.status_code in (200, 302, 400), (path, query)


def test_an_address_too_long_for_any_sheet_is_refused(client):
    response = client.get("/sheet", query_string={"hands": "fan=3\n" * 3000})
    assert response.status_code == 414


def test_a_tick_box_result_adds_itself_to_the_sheet_too(client):
    sheet = "rules=hong-kong&names=Ann,Bob,Cy,Di"
    result = client.get("/ticks", query_string={"rules": "hong-kong", "by": "self-draw", "sheet": sheet,
                                                "ticks": ["all-pongs", "self-draw"]}).get_data(as_text=True)
    assert 'name="sheet"' in result
    page = _follow(client, _href(result, "sheet-add")).get_data(as_text=True)
    # all pongs 3 + self-draw 1 = 4 fan, base 16, self-drawn by East: 2 x 16 from each of three
    assert table_by_caption(page, "Totals")[1] == ["+96", "-32", "-32", "-32"]
    assert "ticks=all-pongs,self-draw" in page


def test_a_round_on_the_sheet_is_edited_in_the_ledger_and_put_back_in_its_place(client):
    line = "ledger / " + " / ".join(EXAMPLE.splitlines())
    sheet = {"rules": "sichuan", "names": "Ann,Bob,Cy,Di", "hands": line + "\n" + line}
    edit = client.get("/sheet", query_string={**sheet, "edit": "2"}).headers["Location"]
    assert edit.startswith("/round?") and "entry=2" in edit
    ledger = client.get(edit).get_data(as_text=True)
    assert "Put back on the sheet as hand 2" in ledger
    # remove the round's first kong (its third line) with the ledger's own remove link
    remove = html.unescape(re.search(r'<a href="([^"]*)" aria-label="Remove event 3">', ledger)[1])
    changed = client.get(client.get(remove).headers["Location"]).get_data(as_text=True)
    assert "Put back on the sheet as hand 2" in changed
    after = _follow(client, _href(changed, "sheet-add")).get_data(as_text=True)
    rows = table_by_caption(after, "Hands")
    assert len(rows) == 3
    assert "Round: 5 lines" in rows[1][1] and "Round: 4 lines" in rows[2][1]
    first, second = parse_qs(urlsplit(_href(after, "share-link")).query)["hands"][0].splitlines()
    assert first == line and second == line.replace(" / kong S concealed 9p", "")


def test_changing_the_rules_in_the_form_starts_from_the_new_rules_own_dials(client):
    response = client.get("/sheet", query_string={**NIGHT, "rules": "sichuan", "was": "hong-kong",
                                                   "payment": "discarder-pays-half", "min": "3", "stake": "2"})
    page = response.get_data(as_text=True)
    assert "unknown payment convention" not in page
    link = _href(page, "share-link")
    assert "payment=" not in link and "min=" not in link and "stake=2" in link


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(client):
    rows = list(csv.reader(io.StringIO(client.get("/sheet.csv", query_string={
        **NIGHT, "names": "=cmd(),Bob,Cy,Di"}).get_data(as_text=True))))
    assert rows[0][6] == "'=cmd()"


def test_a_page_of_a_hundred_hands_carries_the_sheet_a_few_times_not_once_a_row(client):
    hands = "\n".join(["hand=123456789m234p55s by=self-draw seat=S"] * 100)
    page = client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)
    # one link a row carrying the whole sheet made this page about 250 times the sheet (1.1 MB)
    assert len(page) < 50 * len(hands)


def test_each_hand_says_who_won_and_from_whom_by_name(client):
    page = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    who = re.findall(r'<span class="who">([^<]*)</span>', page)
    assert [html.unescape(w) for w in who] == ["Ann (E) self-drew", "Bob (S) won on Di's discard",
                                               "Di (W) self-drew", "Ann (N) won on Cy's discard"]


def test_a_hand_below_the_minimum_reads_not_a_win_and_shows_nought_for_everyone(client):
    hands = NIGHT["hands"] + "\nhand=123m456m789p55s melds=234s win=5s flowers=1 seat=S discarder=W"
    query = {**NIGHT, "hands": hands}
    page = client.get("/sheet", query_string=query).get_data(as_text=True)
    row = re.search(r'<tr id="hand-5".*?</tr>', page, re.S)[0]
    assert "not a win" in row and "won on" not in row
    assert "1 fan is below the minimum 3, so nobody pays" in html.unescape(row)
    assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["0", "0", "0", "0"]
    assert table_by_caption(page, "Totals")[1] == ["+88", "-40", "-88", "+40"]


def test_the_csv_says_why_a_hand_below_the_minimum_pays_nothing(client):
    hands = NIGHT["hands"] + "\nhand=123m456m789p55s melds=234s win=5s flowers=1 seat=S discarder=W"
    rows = list(csv.reader(io.StringIO(client.get("/sheet.csv", query_string={**NIGHT, "hands": hands})
                                       .get_data(as_text=True))))
    assert rows[5][6:10] == ["0", "0", "0", "0"] and "1 fan is below the minimum 3" in rows[5][-1]
    assert rows[6][6:10] == ["88", "'-40", "'-88", "40"]


@pytest.mark.parametrize("lang, words", [("zh-Hant", "不算食糊"), ("zh-Hans", "不算食糊")])
def test_not_a_win_is_said_in_the_familys_words(client, lang, words):
    query = {**NIGHT, "hands": "hand=123m456m789p55s melds=234s win=5s flowers=1 seat=S discarder=W", "lang": lang}
    row = re.search(r'<tr id="hand-1".*?</tr>', client.get("/sheet", query_string=query).get_data(as_text=True), re.S)[0]
    assert words in row and "{" not in row.replace("{{", "")


@pytest.mark.parametrize("rules, message", [
    ("", "no rules given (rules= is empty); choose one of family, hong-kong"),
    ("nope", "unknown ruleset &#39;nope&#39;; choose one of family, hong-kong")])
def test_an_empty_or_unknown_rules_is_refused_beside_the_field_as_the_api_refuses_it(client, rules, message):
    query = {**NIGHT, "rules": rules}
    response = client.get("/sheet", query_string=query)
    page = response.get_data(as_text=True)
    assert re.search(r'id="rules-error"><li>' + re.escape(message), page)
    assert Page(page).table("Totals") is None   # nothing priced under rules nobody chose
    assert html.escape(NIGHT["hands"].splitlines()[2]) in page and 'value="Ann"' in page
    api = client.get("/api/sheet", query_string=query)
    assert api.status_code == 400 and [e["field"] for e in api.json["errors"]] == ["rules"]
    assert html.unescape(message) in api.json["errors"][0]["message"]
    exported = client.get("/sheet.csv", query_string=query)
    assert exported.status_code == 400 and html.unescape(message) in exported.get_data(as_text=True)


def test_an_empty_rules_adds_no_hand_to_a_sheet_under_rules_nobody_chose(client):
    response = client.get("/sheet", query_string={**NIGHT, "rules": "", "add": "hand=123456789m234p55s"})
    assert response.status_code == 200 and "rules-error" in response.get_data(as_text=True)


def test_without_rules_the_page_the_csv_and_the_api_all_price_the_default_rules(client):
    query = {k: v for k, v in NIGHT.items() if k != "rules"}
    page = client.get("/sheet", query_string=query).get_data(as_text=True)
    assert re.search(r'<option selected value="hong-kong">', page) and "rules-error" not in page
    answer = client.get("/api/sheet", query_string=query).json
    assert answer["rules"] == "hong-kong"
    totals = [f"{v:+}" for v in answer["totals"]]
    assert table_by_caption(page, "Totals")[1] == totals
    assert answer == client.get("/api/sheet", query_string=NIGHT).json   # the same night


def test_a_sheet_without_rules_follows_the_servers_default_rules_on_the_page_and_in_the_api():
    app = create_app()
    app.config["DEFAULT_RULES"] = "family"
    client = app.test_client()
    query = {"hands": "hand=123m456p789s222m55p seat=S discarder=W"}
    assert client.get("/api/sheet", query_string=query).json["rules"] == "family"
    page = client.get("/sheet", query_string=query).get_data(as_text=True)
    assert '<option selected value="family">' in page
