"""How deeply a JSON text nests, read before `json.loads`, whose recursion a hostile text
could exhaust (a round posted to the ledger, a club rules code)."""
from __future__ import annotations


def nesting_depth(text: str) -> int:
    """How deeply the JSON text nests objects and lists (strings skipped).

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
