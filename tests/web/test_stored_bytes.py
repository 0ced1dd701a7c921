"""Any byte in a stored sheet's line or names is refused or stored safely, never a 500, on
SQLite and on PostgreSQL (which refuses NUL in text): fuzzed through the share and change forms
and straight into the store, with the characters that once broke it as tests of their own."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.store.database import open_database
from app.store.sheets import SheetStore
from app.web import create_app

LINE = "hand=123m456m789m234p55s seat=S discarder=N"
NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di"}
# A lone surrogate cannot cross HTTP (a request's bytes that are not UTF-8 read as U+FFFD:
# test_any_bytes_in_the_form_body sends one); the store is given them directly.
SENT = ["\x00", "\x01", "\x1b[31m", "\x7f", "\u2028", "\ufeff", "\x85", "\r\n", "\ufffd"]
HOSTILE = [*SENT, "\ud800", "\udfff"]
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture
def client(database_env):
    return create_app({"STORE_ENV": database_env}).test_client()


@pytest.fixture
def store(database_env):
    return SheetStore(open_database(database_env))


SHARED = iter(range(1, 1 << 24))   # a client address of its own for each share (30 an hour each)


def _share(client, form) -> tuple[int, str]:
    n = next(SHARED)
    r = client.post("/sheet/share", data=form,
                    environ_base={"REMOTE_ADDR": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"})
    return r.status_code, r.headers.get("Location", "")


@pytest.mark.parametrize("char", SENT, ids=[f"U+{ord(c[0]):04X}" for c in SENT])
def test_a_hostile_character_in_a_line_is_refused_beside_it_or_kept(client, char):
    status, edit = _share(client, {**NIGHT, "hands": LINE})
    assert status == 303
    for line in (LINE + char, char + LINE, LINE.replace("55s", "5" + char + "5s"), f"{LINE} x={char}"):
        r = client.post(edit + "/change", data={"action": "add", "line": line})
        assert r.status_code in (303, 400), (line, r.status_code)
        if r.status_code == 400:
            assert "line: " in r.get_data(as_text=True)
    page = client.get(edit)
    assert page.status_code == 200
    assert client.get(edit + ".csv").status_code == 200


@pytest.mark.parametrize("char", SENT, ids=[f"U+{ord(c[0]):04X}" for c in SENT])
def test_a_hostile_character_in_a_name_or_a_setting_is_refused_or_kept(client, char):
    for form in ({**NIGHT, "names": f"A{char}n,Bob,Cy,Di", "hands": LINE},
                 {**NIGHT, "hands": LINE + char}, {**NIGHT, "rules": "hong-kong" + char, "hands": LINE},
                 {**NIGHT, "cap": "10" + char, "hands": LINE}):
        status, edit = _share(client, form)
        assert status in (303, 400), (form, status)
        if status == 303:
            assert client.get(edit).status_code == 200
            assert client.get(edit + ".json").status_code == 200


@pytest.mark.parametrize("char", HOSTILE, ids=[f"U+{ord(c[0]):04X}" for c in HOSTILE])
def test_the_store_refuses_a_character_no_hand_line_holds(store, char):
    """Straight into the store, past the form's reading: refused as `line`, or kept as given."""
    token = store.create({"rules": "hong-kong", "names": f"A{char}"}, [])
    assert store.open(token).settings["names"] == f"A{char}"   # settings are JSON, escaped
    try:
        store.add(token, LINE + char)
    except HandError as err:
        assert [e.field for e in err.errors] == ["line"]
    else:
        assert store.open(token).hands[-1].line == " ".join((LINE + char).split())


@FUZZ
@given(line=st.text(max_size=60), names=st.text(max_size=20))
def test_any_text_in_a_line_or_the_names(client, line, names):
    status, edit = _share(client, {**NIGHT, "names": names, "hands": LINE})
    assert status in (303, 400)
    if status != 303:
        return
    for sent in (line, f"{LINE} {line}"):
        r = client.post(edit + "/change", data={"action": "add", "line": sent})
        assert r.status_code in (303, 400), (sent, r.status_code)
    assert client.get(edit).status_code == 200


@FUZZ
@given(raw=st.binary(max_size=80))
def test_any_bytes_in_the_form_body(client, raw):
    """The body as bytes: werkzeug reads what is not UTF-8 as U+FFFD, and the rest is a line."""
    status, edit = _share(client, {**NIGHT, "hands": LINE})
    assert status == 303
    body = b"action=add&line=" + re.sub(rb"[&=+%]", b"", raw) + b"%00%ED%A0%80"
    r = client.post(edit + "/change", data=body, content_type="application/x-www-form-urlencoded")
    assert r.status_code in (303, 400)
    assert client.get(edit).status_code == 200


def test_a_digit_that_is_no_number_in_a_hand_or_a_version_is_refused(client):
    """'²' is a digit to str.isdigit() and no number to int(): it once reached int()."""
    status, edit = _share(client, {**NIGHT, "hands": LINE})
    assert status == 303
    for form in ({"action": "correct", "hand": "²", "base": "1", "line": LINE},
                 {"action": "remove", "hand": "1", "base": "²"}, {"action": "undo", "base": "١²"}):
        assert client.post(edit + "/change", data=form).status_code == 400, form
