"""The web layer stays a table of contents: no function under app/web over cyclomatic
complexity 15 (radon), no template body or macro with more than 15 branches.

A branch of a template is an `{% if %}`, `{% elif %}` or `{% for %}` tag, counted for each
macro apart and for the rest of the file (its top-level body and blocks) together. A decision
that would push a page over the limit belongs in the typed object its view builds.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment
from radon.complexity import cc_visit
from radon.visitors import Class

from .conftest import ROOT

LIMIT = 15



def function_complexities(path: Path) -> dict[str, int]:
    """Each function, method and nested function of one module by name, with its complexity."""
    found: dict[str, int] = {}

    def visit(block, prefix: str = "") -> None:
        if isinstance(block, Class):
            for method in block.methods:
                visit(method, f"{prefix}{block.name}.")
            return
        found[f"{prefix}{block.name}"] = block.complexity
        for inner in block.closures:
            visit(inner, f"{prefix}{block.name}.")

    for block in cc_visit(path.read_text("utf-8")):
        if not isinstance(block, Class) and block.is_method:
            continue   # listed again under its class
        visit(block)
    return found


def template_branches(source: str) -> dict[str, int]:
    """`{% if %}`, `{% elif %}` and `{% for %}` tags of a template: per macro, and the rest
    of the file as `(body)`.

    >>> template_branches('{% if a %}{% for x in y %}{% endfor %}{% elif b %}{% endif %}'
    ...                   '{% macro m(c) %}{% if c %}{% endif %}{% endmacro %}')
    {'(body)': 3, 'm': 1}
    """
    tokens = [(kind, value) for _, kind, value in Environment(extensions=["jinja2.ext.i18n"])
              .lex(source) if kind != "whitespace"]
    counts = {"(body)": 0}
    macros: list[str] = []
    for i, (kind, _) in enumerate(tokens[:-1]):
        if kind != "block_begin":
            continue
        tag = tokens[i + 1][1]
        if tag == "macro":
            macros.append(tokens[i + 2][1])
            counts[macros[-1]] = 0
        elif tag == "endmacro":
            macros.pop()
        elif tag in ("if", "elif", "for"):
            counts[macros[-1] if macros else "(body)"] += 1
    return counts


@cache
def over_limit_functions() -> dict[str, int]:
    return {f"{path.relative_to(ROOT).as_posix()}:{name}": complexity
            for path in sorted((ROOT / "app/web").rglob("*.py"))
            for name, complexity in function_complexities(path).items() if complexity > LIMIT}


@cache
def over_limit_templates() -> dict[str, dict[str, int]]:
    found = {}
    for path in sorted((ROOT / "templates").glob("*.html")):
        over = {part: n for part, n in template_branches(path.read_text("utf-8")).items()
                if n > LIMIT}
        if over:
            found[path.name] = over
    return found


def test_no_function_in_the_web_layer_is_over_complexity_15():
    assert over_limit_functions() == {}


def test_no_template_or_macro_has_more_than_15_branches():
    assert over_limit_templates() == {}


def test_the_measures_see_a_complex_function_and_a_branchy_macro(tmp_path):
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(LIMIT))
    module = tmp_path / "branchy.py"
    module.write_text(f"class A:\n  def f(self, x):\n{branches.replace('    ', '    ')}\n"
                      f"    def inner(y):\n{branches.replace('    ', '        ')}\n"
                      "    return inner\n")
    assert function_complexities(module) == {"A.f": LIMIT + 1, "A.f.inner": LIMIT + 1}
    macro = "{% macro m(x) %}" + "{% if x %}{% endif %}" * (LIMIT + 1) + "{% endmacro %}"
    assert template_branches(macro) == {"(body)": 0, "m": LIMIT + 1}
