"""What every template may use beyond its page's own object: the Jinja environment and its globals.

`create_app` installs both (`SharedGlobalsEnvironment` before the environment is first made,
`template_globals` once the app is built); a name a template reads and no view passes is one
of `template_globals`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.templating import Environment


class SharedGlobalsEnvironment(Environment):
    """Flask's Jinja environment, each template reading the environment's globals dict itself.

    Jinja gives a template a ChainMap of its own globals over the environment's: every render
    copies it into a dict and every `{% from … import %}` takes its keys from a set, through
    ChainMap's Python methods (~60 µs a result page). No template here has globals of its own
    (nothing passes get_template `globals=`: given to a template already loaded, Jinja would
    now add them to the environment's); one loaded with some still gets the ChainMap."""

    def make_globals(self, d):
        return self.globals if not d else super().make_globals(d)


def template_globals(app: Flask) -> dict[str, Any]:
    """The names every template reads besides its page's own values, by what they are for.

    (The language's are app/web/common/i18n.py's `install`: `_`, `gettext`, `ngettext`,
    `page_lang`, `with_lang`, `lang_input`, `named`, `language_switch` and the `say` filter.)
    """
    from app.scoring.payments import fmt
    from app.web.common.forms import dials_summary
    from app.web.common.fragments import kept, slot
    from app.web.common.present import (
        assumed_label,
        assumed_list,
        cite,
        fan_breakdown,
        field_label,
        gap,
        group_label,
        hand_grouping,
        kind_label,
        meld_tiles_said,
        page_words,
        pattern_names,
        payment_table,
        role_label,
        site_nav,
        template_url_for,
        tile_img,
        tile_imgs,
        tile_name,
        tile_named,
        tile_said,
        tiles_said,
        value_label,
        wait_label,
    )

    from .lesson import oembed, preview

    return {
        # the page around every template (base.html)
        "embed": False,                          # a framed view sets it: no header, no footer
        "site_nav": site_nav,
        "oembed_link": oembed.discovery_link,    # the page's oEmbed <link>, if it has one
        "link_preview": preview.link_preview,    # its og:/twitter: tags (a chat's preview)
        "url_for": template_url_for,             # Flask's, its answers kept (present.py)
        "icon_uri": _icon_uri(Path(app.static_folder or "static")),
        # tiles and amounts
        "tile_img_tag": tile_img,
        "tile_imgs": tile_imgs,
        "grouping": hand_grouping,               # a scored hand's groups (macros.html hand_grouping)
        "breakdown_rows": fan_breakdown,         # the fan breakdown (macros.html fan_breakdown)
        "payment_rows": payment_table,           # who pays whom (macros.html payment_table)
        "assumed_rows": assumed_list,            # what was assumed (macros.html assumed_list)
        "tile_name": tile_name,
        "tile_said": tile_said,                  # in a sentence: 七筒 in Chinese, 7p in English
        "tile_named": tile_named,                # its picture and its name (七筒) or notation
        "tiles_said": tiles_said,                # 七筒、八筒 / 7p, 8p
        "meld_tiles_said": meld_tiles_said,      # 三四五萬 / 345m
        "fmt": fmt,
        # words: the ruleset family's, a field's, a value's, a source's
        "words_for": page_words,
        "field_label": field_label,
        "pattern_names": pattern_names,          # ids listed by their names
        "gap": gap,                              # " " in English, "" in Chinese
        "assumed_label": assumed_label,
        "value_label": value_label,
        "role_label": role_label,
        "kind_label": kind_label,
        "group_label": group_label,
        "wait_label": wait_label,
        "cite": cite,
        # the folded dials' summary (forms.py); blocks rendered once and kept (fragments.py)
        "dials_summary": dials_summary,
        "kept": kept,
        "slot": slot,
    }


def _icon_uri(static: Path) -> str:
    """The White Dragon tile as a data: address: the icon costs no request."""
    return "data:image/svg+xml," + quote((static / "tiles" / "5z.svg").read_text(encoding="utf-8"))
