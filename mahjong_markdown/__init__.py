"""The `mahjong` Markdown extension under a name of its own (docs/embedding.md, "Markdown sites").

The extension itself is the calculator's (app/web/lesson/markdown.py: the card's figure, drawn
by the calculator's own templates and core). A docs project may well have an `app/` folder of
its own, and `python -m mkdocs build` puts the project's folder first on sys.path, where a plain
`import app` would find that folder. So this package, which the `mahjong` entry point names,
loads the calculator's `app` by its path, before anything imports it: the copy its own wheel
carries (markdown-extension/pyproject.toml puts it in mahjong_markdown/calculator/), or in a
checkout the `app` beside this folder.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CALCULATOR = next(p for p in (_HERE / "calculator" / "app", _HERE.parent / "app")
                   if (p / "__init__.py").is_file())


def _calculator_package():
    """The calculator's `app` package, from beside this one whatever sys.path says."""
    loaded = sys.modules.get("app")
    if loaded is not None:
        where = Path(getattr(loaded, "__file__", "") or "").resolve().parent
        if where != _CALCULATOR:
            raise ImportError(
                f"another package named 'app' is already imported (from {where}): the mahjong "
                "extension's calculator is also 'app' and one process holds one; import it "
                "before the docs project's own app (list mahjong first under markdown_extensions "
                "and do not import app from a hook)")
        return loaded
    spec = importlib.util.spec_from_file_location(
        "app", _CALCULATOR / "__init__.py", submodule_search_locations=[str(_CALCULATOR)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["app"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["app"]
        raise
    return module


_calculator_package()

from app.web.lesson.markdown import (  # noqa: E402 - the calculator's app is loaded first
    MahjongError,
    MahjongExtension,
    makeExtension,
    superfences_fence,
)

__all__ = ["MahjongError", "MahjongExtension", "makeExtension", "superfences_fence"]
