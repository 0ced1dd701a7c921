"""Read the parts of a page the points and practice tests check: tables by caption (with each
row's class), inputs and error lists. A helper module, not a test module."""
from __future__ import annotations

from fractions import Fraction
from html.parser import HTMLParser


class Page(HTMLParser):
    """Tables by caption (rows as (class, cells)), inputs, links, error messages, row marks."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self.inputs: list[dict[str, str]] = []
        self.links: list[dict[str, str]] = []
        self.errors: dict[str, list[str]] = {}
        self.styles = 0          # elements carrying a style attribute
        self._caption = False
        self._row: list[str] | None = None
        self._row_class = ""
        self._cell: list[str] | None = None
        self._error_list: str | None = None
        self._item: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if "style" in a:
            self.styles += 1
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "caption":
            self._caption = True
        elif tag == "tr":
            self._row, self._row_class = [], a.get("class", "")
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "input":
            self.inputs.append(a)
        elif tag == "a":
            self.links.append(a)
        elif tag == "ul" and "errors" in a.get("class", "").split():
            self._error_list = a.get("id", "").removesuffix("-error")
            self.errors.setdefault(self._error_list, [])
        elif tag == "li" and self._error_list is not None:
            self._item = []

    def handle_endtag(self, tag):
        if tag == "caption":
            self._caption = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1]["rows"].append((self._row_class, self._row))
            self._row = None
        elif tag == "li" and self._item is not None:
            self.errors[self._error_list].append(" ".join("".join(self._item).split()))
            self._item = None
        elif tag == "ul":
            self._error_list = None

    def handle_data(self, data):
        if self._caption:
            self.tables[-1]["caption"] += data
        elif self._cell is not None:
            self._cell.append(data)
        if self._item is not None:
            self._item.append(data)

    def table(self, caption: str) -> list[tuple[str, list[str]]] | None:
        """The rows of the table whose caption starts with `caption`."""
        for t in self.tables:
            if " ".join(t["caption"].split()).startswith(caption):
                return t["rows"]
        return None

    def input(self, **match: str) -> dict[str, str] | None:
        return next((i for i in self.inputs if all(i.get(k) == v for k, v in match.items())), None)


def amount(text: str) -> Fraction:
    """An amount as a table writes it: '+128', '-64', '0.5', '1/3'."""
    return Fraction(text.replace("+", "").replace("−", "-"))


def payments(page: Page) -> dict[str, Fraction]:
    """Seat → signed amount from the 'Who pays whom' table."""
    rows = page.table("Who pays whom")
    assert rows is not None, [t["caption"] for t in page.tables]
    return {cells[0]: amount(cells[2]) for _, cells in rows[1:]}


class FormPairs(HTMLParser):
    """The pairs a browser without scripts sends for the form `form_id` as the page stands:
    hidden and text inputs, ticked boxes, each select's chosen option (its first when none is
    marked), in the page's order; buttons are not sent (the house form's have no name).
    `lang` is the page's `<html lang>`."""

    def __init__(self, text: str, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.lang = form_id, False, None
        self.pairs: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str | None, bool]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            if a.get("type", "text") in ("checkbox", "radio"):
                if "checked" in a:
                    self.pairs.append((a["name"], a.get("value", "on")))
            elif a.get("type") not in ("submit", "button", "image", "reset"):
                self.pairs.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._options = a.get("name"), []
        elif tag == "option" and self._select:   # no value: its text is sent
            self._options.append((a["value"] if "value" in a else None, "selected" in a))

    def handle_data(self, data):
        if self._select and self._options and self._options[-1][0] is None:
            self._options[-1] = (data.strip(), self._options[-1][1])

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "option" and self._select and self._options and self._options[-1][0] is None:
            self._options[-1] = ("", self._options[-1][1])
        elif tag == "select" and self._select:
            chosen = [value for value, selected in self._options if selected] or [
                value for value, _ in self._options[:1]]
            self.pairs += [(self._select, value) for value in chosen[-1:]]
            self._select = None
