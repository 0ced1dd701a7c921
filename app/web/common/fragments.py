"""Rendered HTML kept per app, so that a result page costs a few API answers, not fifteen.

What is kept, in three `FragmentCache`s that `install` puts in `app.extensions`:

- ``form_parts`` (2,048 entries): each macro of the calculator's form as `forms.FormView`
  renders it (a field, the dials, the table fields), the picker's palette and remove
  buttons, the site's navigation;
- ``kept_sections`` (256 entries, about 9 KB each): whole `{% call %}` blocks of a page: the
  calculator's two forms (`FormView.cached`) and the "put this hand on your page" panel
  (`kept`);
- ``template_urls`` (512 entries): the templates' `url_for` answers (`present.template_url_for`).

The key is everything the HTML reads besides its holes: each caller names it (the form, the
ruleset, the macro and its arguments, each field's choices and errors, the mount point, the
language as the address names it …) and the cache adds the page language itself.

Holes: what differs from one request to the next (a typed hand, the stake, the picker) is
rendered as a hole, `hole(name)`: a private-use character that HTML escaping leaves as it
is, the name, another one. The HTML is kept split at its holes and each request writes its
own values in (`fill`), escaped by the caller. A request that itself holds the placeholder
character (typed, echoed by an error, in a key or a slot) is rendered whole and never kept,
so nobody's text can be taken for a hole. `tests/web/test_form_parts.py` holds the pages to
those of an app that keeps nothing.

Each cache is bounded by its count of entries, the least recently used going first, and
shared by the threads of one app (a lock). `create_app({"FORM_PART_CACHE_SIZE": 0})` turns
all three off: every fragment is rendered for every request, the same bytes about five times
slower (docs/performance.md).
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from flask import Flask, current_app, request
from markupsafe import Markup

from .i18n import explicit_lang, page_lang

PLACEHOLDER = "\ue000"   # a private-use character: HTML escaping leaves it as it is
_HOLE = re.compile("\ue000([a-z]+)\ue001")
SIZES = {"form_parts": 2048, "kept_sections": 256, "template_urls": 512}


class FragmentCache:
    """Rendered fragments keyed by all they read and the page language; least recently used go.

    Size 0 keeps nothing: `fragment` renders every time, `put` hands back what it was given.
    """

    def __init__(self, size: int, macros: Callable[[], object] = lambda: None):
        self.size, self.macros = size, macros
        self.entries: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def macro(self, name: str) -> Callable[..., Markup]:
        """A macro of the template this cache renders from (macros.html for the form parts)."""
        return getattr(self.macros(), name)

    def get(self, key: Hashable) -> Any:
        """What is kept for `key` in the page language, or None."""
        key = (page_lang(), key)   # a fragment's words are in the page language
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep `value` for `key` in the page language (the oldest going past the size); return it."""
        key = (page_lang(), key)
        with self.lock:
            self.entries[key] = value
            if len(self.entries) > self.size:
                self.entries.popitem(last=False)
            return value

    def fragment(self, key: Hashable, render: Callable[[], str], fill: Callable[[str], str]) -> Markup:
        """The HTML `render` gives with its holes, rendered once for `key`, each hole's name
        replaced by `fill(name)`."""
        chunks = self.get(key) if self.size else None
        if chunks is None:
            chunks = self.put(key, tuple(_HOLE.split(str(render()))))
        return Markup("".join([chunk if i % 2 == 0 else fill(chunk) for i, chunk in enumerate(chunks)]))


def install(app: Flask) -> None:
    """The app's three caches, each at most `FORM_PART_CACHE_SIZE` entries (0: none kept)."""
    most = app.config["FORM_PART_CACHE_SIZE"]
    app.extensions["form_parts"] = FragmentCache(
        min(SIZES["form_parts"], most), lambda: app.jinja_env.get_template("macros.html").module)
    app.extensions["kept_sections"] = FragmentCache(min(SIZES["kept_sections"], most))
    app.extensions["template_urls"] = FragmentCache(min(SIZES["template_urls"], most))


def cache(name: str) -> FragmentCache:
    """This app's cache of that name (`form_parts`, `kept_sections` or `template_urls`)."""
    return current_app.extensions[name]


def hole(name: str) -> Markup:
    """Where a value of this request goes in a fragment to be kept."""
    return Markup(f"{PLACEHOLDER}{name}\ue001")


def holds_placeholder(value: Any) -> bool:
    """Whether any text in a (nested) key, list of errors or slot holds the placeholder."""
    if isinstance(value, str):
        return PLACEHOLDER in value
    if isinstance(value, tuple | list):
        return any(holds_placeholder(v) for v in value)
    return False


def frozen(value: Any) -> Any:
    """A key's lists as tuples, so that it can be kept."""
    return tuple(frozen(v) for v in value) if isinstance(value, tuple | list) else value


def kept(name: str, *key, slots: dict[str, Markup], caller: Callable[[], str]) -> Markup:
    """A `{% call kept(name, …) %}` block of a page that reads only the page's language, its
    mount point, the key the template gives and the `slots`, each shown with `slot(name)`:
    rendered once a key and kept with the page's other sections, each request's slots written in.
    Nothing in the block but the slots may come from the request."""
    whole = ("kept", name, frozen(key), explicit_lang(), request.script_root)
    return cache("kept_sections").fragment(whole, caller, lambda hole_name: str(slots[hole_name]))


def slot(name: str) -> Markup:
    """Where a `kept` block's slot goes."""
    return hole(name)
