"""Compile the gettext catalogs into the wheel, so an installed calculator never runs stale ones.

app/translations/<locale>/LC_MESSAGES/messages.po → …/messages.mo, added to the wheel only
(the checkout compiles its own with `make catalogs`, which `make run` and `make test` run).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        out = Path(tempfile.mkdtemp(prefix="catalogs-"))
        for po in sorted(Path(self.root, "app", "translations").glob("*/LC_MESSAGES/*.po")):
            locale = po.parent.parent.name
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=locale)
            mo = out / locale / po.with_suffix(".mo").name
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as handle:
                write_mo(handle, catalog)
            build_data["force_include"][str(mo)] = f"app/translations/{locale}/LC_MESSAGES/{mo.name}"
