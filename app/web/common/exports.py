"""CSV answers a spreadsheet opens safely, whatever separator it reads them with (OWASP).

OWASP's CSV-injection guidance: quote every cell, double the quotes inside, and write a cell
that a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return)
after a single quote, so that it is shown as text. A reader whose separator is `;` (or a tab)
cuts a cell again at each of those inside it (and a line at a line break), and then the piece after it starts a cell of
its own: such a piece is guarded the same way.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

FORMULA_START = "=+-@\t\r"
# the start of every cell a reader may see: the cell's own start, or the first character after
# a separator inside it (past any quotes a misreading reader would drop)
_PIECE_START = re.compile(r'(^|[,;\t|\r\n])([" ]*)(?=[=+\-@\t\r])')


def safe_cell(value: object) -> str:
    """The value as a cell no spreadsheet runs: each formula-like start written after a quote.

    >>> safe_cell("=1+1"), safe_cell(-32), safe_cell("Ann;=HYPERLINK(x)"), safe_cell("hand=123m")
    ("'=1+1", "'-32", "Ann;'=HYPERLINK(x)", 'hand=123m')
    """
    text = "" if value is None else str(value)
    return _PIECE_START.sub(lambda m: m[1] + m[2] + "'", text)


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV: every cell quoted and made safe (safe_cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
