"""CSV answers open safely in a spreadsheet: every cell quoted, nothing read as a formula (OWASP)."""
from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.web.common.exports import csv_text, safe_cell

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = "=HYPERLINK(\"http://evil.example/\",\"x\")"


def _cells(text: str, separator: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator) for cell in row]


def _assert_safe(text: str) -> None:
    for separator in (",", ";", "\t"):
        started = [cell for cell in _cells(text, separator) if cell.startswith(FORMULA_START)]
        assert started == [], (separator, started)


def _assert_quoted(text: str) -> None:
    """Every cell of the answer is in quotes (its cells hold no line breaks)."""
    for line, row in zip(text.splitlines(), csv.reader(io.StringIO(text)), strict=True):
        assert line == ",".join('"' + cell.replace('"', '""') + '"' for cell in row), line


@pytest.mark.parametrize("query", [
    {"rules": "hong-kong", "seats": ",=1+1,"},
    {"rules": "hong-kong", "curve": HOSTILE},
    {"rules": "hong-kong", "names": f"{HOSTILE},b;=1+1,c", "hands": "hand=123m;@SUM(1)"},
    {"rules": "hong-kong", "hands": "fan=x;-1+2\tz"},
], ids=["seats", "curve", "names", "note"])
def test_a_refused_sheet_is_answered_in_quoted_cells_no_reader_runs(client, query):
    response = client.get("/sheet.csv", query_string=query)
    text = response.get_data(as_text=True)
    assert response.mimetype == "text/csv"
    assert "=1+1" not in text.replace("'=1+1", "") and "=HYPERLINK" not in text.replace("'=HYPERLINK", "")
    _assert_safe(text)
    _assert_quoted(text)


def test_the_old_unquoted_error_cell_is_gone(client):
    text = client.get("/sheet.csv", query_string={"rules": "hong-kong", "seats": ",=1+1,"}).get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["field", "message"]
    assert rows[1][0] == "seats" and len(rows[1]) == 2 and "'=1+1" in rows[1][1]


def test_names_hands_and_notes_with_semicolons_start_no_formula_under_either_separator(client):
    names = ["Ann;=1+1", "+Bob", "-Cy", "@Di"]
    response = client.get("/sheet.csv", query_string={
        "rules": "hong-kong", "names": names,
        "hands": "hand=123456789m234p55s by=self-draw\nhand=123m;=cmd()\nhand=123456789m234p55s seat=S"})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    _assert_safe(text)
    _assert_quoted(text)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][6:10] == ["Ann;'=1+1", "'+Bob", "'-Cy", "'@Di"]
    # amounts: a negative one is written after a quote too, positive ones as they are
    assert rows[1][6:10] == ["96", "'-32", "'-32", "'-32"]


@given(st.lists(st.lists(st.text(alphabet="=+-@\t\r\n,;|\"' a1", max_size=8), max_size=4), max_size=4))
def test_no_cell_of_any_text_starts_a_formula_under_any_separator(rows):
    text = csv_text(rows)
    _assert_safe(text)
    # read with the separator it was written with, each cell comes back as made safe
    assert list(csv.reader(io.StringIO(text, newline=""))) == [[safe_cell(c) for c in row] for row in rows]
