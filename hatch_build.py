"""Compile the gettext catalogs into the wheel, so an installed calculator never runs stale ones,
and the outlook's solver where a C compiler is.

app/translations/<locale>/LC_MESSAGES/messages.po → …/messages.mo, added to the wheel only
(the checkout compiles its own with `make catalogs`, which `make run` and `make test` run).
app/advice/_recurrence.c → app/advice/_recurrence.so (tools/build_solver.py; the checkout
builds its own with `make install`): a wheel that carries it is tagged for this platform and
Python; where no C compiler is, the wheel is built without it, pure Python, and says so (the
outlook then solves with numpy, the same figures).

The Markdown extension's wheel (markdown-extension/pyproject.toml) names this hook with
`calculator = "<path in the wheel>"`: its wheel then carries mahjong_markdown and, at that path,
the calculator's package, rulesets, templates and static files from the checkout (no caches, no
compiled catalogs or solver of the checkout's own), and the catalogs compiled there (no
solver: the extension draws hands, it weighs no outlook).
"""
from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CHECKOUT = Path(__file__).resolve().parent
# The folders the app reads go inside its package in a wheel (app/base/resources.py).
BESIDE_APP = ("rulesets", "templates", "static")


def _shipped(folder: Path):
    """The files of a checkout folder a wheel carries: no caches, no compiled catalogs, no
    compiled solver (`make install`'s, app/advice/_recurrence.so*)."""
    for path in sorted(folder.rglob("*")):
        if (path.is_file() and "__pycache__" not in path.parts
                and path.suffix not in (".pyc", ".mo")
                and not path.name.startswith("_recurrence.so")):
            yield path


def _solver(say) -> Path | None:
    """The outlook's solver compiled into a temporary folder (tools/build_solver.py), or None."""
    spec = importlib.util.spec_from_file_location("build_solver",
                                                  CHECKOUT / "tools" / "build_solver.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.build(Path(tempfile.mkdtemp(prefix="solver-")), say)


def _extension_files(into: str) -> dict[str, str]:
    """The Markdown extension's wheel: mahjong_markdown, and the calculator inside it at `into`."""
    files = {str(CHECKOUT / "mahjong_markdown" / "__init__.py"): "mahjong_markdown/__init__.py",
             str(CHECKOUT / "LICENSE"): "mahjong_markdown/LICENSE"}
    files.update({str(p): f"{into}/app/{p.relative_to(CHECKOUT / 'app').as_posix()}"
                  for p in _shipped(CHECKOUT / "app")})
    for name in BESIDE_APP:
        files.update({str(p): f"{into}/app/{p.relative_to(CHECKOUT).as_posix()}"
                      for p in _shipped(CHECKOUT / name)})
    return files


class CatalogBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        into = self.config.get("calculator")
        app = f"{into}/app" if into else "app"
        if into:
            build_data["force_include"].update(_extension_files(into))
        else:
            library = _solver(self.app.display_warning)
            if library is not None:   # machine code: this platform's wheel, no longer pure
                build_data["force_include"][str(library)] = f"app/advice/{library.name}"
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
        out = Path(tempfile.mkdtemp(prefix="catalogs-"))
        for po in sorted((CHECKOUT / "app" / "translations").glob("*/LC_MESSAGES/*.po")):
            locale = po.parent.parent.name
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=locale)
            mo = out / locale / po.with_suffix(".mo").name
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as handle:
                write_mo(handle, catalog)
            build_data["force_include"][str(mo)] = f"{app}/translations/{locale}/LC_MESSAGES/{mo.name}"
