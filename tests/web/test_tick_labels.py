"""Distinct labels: two different patterns never share a label on one tick page, in any
language (review RS-02: 正花 and 正花, 一台花 and 一台花 on the Hong Kong page)."""
from __future__ import annotations

import re
from collections import defaultdict

import pytest

from app.rules.loader import registry

TICK = re.compile(r'<div class="tick">\s*<label><input type="checkbox" name="ticks" value="([^"]+)"'
                  r'[^>]*>(.*?)<span class="fan">', re.S)


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("rid", sorted(registry()))
def test_no_two_patterns_share_a_label_on_a_tick_page(client, rid, lang):
    body = client.get(f"/ticks?rules={rid}&lang={lang}").get_data(as_text=True)
    labels = defaultdict(set)
    for pattern, label in TICK.findall(body):
        labels[" ".join(re.sub(r"<[^>]+>", " ", label).split())].add(pattern)
    assert sum(map(len, labels.values())) == len(registry()[rid].patterns), f"{rid}: tick boxes missing"
    shared = {label: sorted(ids) for label, ids in labels.items() if len(ids) > 1}
    assert not shared, f"{rid} in {lang}: {shared}"
