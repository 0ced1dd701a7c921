"""axe-core run on a loaded page, its violations said in one line each (for the page tests)."""
from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page


def assert_axe_clean(page: Page, name: str) -> None:
    """No violation on the page as loaded; each one found is named with its first targets."""
    page.wait_for_load_state("load")
    results = Axe().run(page)   # reads axe.min.js from the package, nothing from the network
    report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']} — "
                       + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
                       for v in results.response["violations"])
    assert results.violations_count == 0, f"{name}: {report}"
