"""Names (and any text a remote player sends): printable only, trimmed, 1-24 characters,
unique at a table.  Unit tests of ``netplay.text`` and a host over loopback proving that
a bidi override or a zero-width character never reaches another client."""

from __future__ import annotations

import unicodedata

import pytest

from netplay import messages
from netplay.text import MAX_NAME, clean_name, clean_text, unique_name
from netplay.wire import FrameError

from netplay_helpers import client, running_host, until
from netplay_toygame import TOY

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u00ad"
CONTROLS = "".join(map(chr, range(0x20))) + "\x7f" + "".join(map(chr, range(0x80, 0xa0)))
FORBIDDEN = set(BIDI + ZERO_WIDTH + CONTROLS) | {"\ue000", "\U000f0000", "\u3164", "\u2800"}


def printable(name: str) -> bool:
    return bool(name) and name == name.strip() and "  " not in name and not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or ch in FORBIDDEN
        or (ch.isspace() and ch != " ") for ch in name)


@pytest.mark.parametrize("sent, shown", [
    ("Blue", "Blue"),
    ("  Anna   Maria  ", "Anna Maria"),
    ("\u202eevil\u202c", "evil"),                     # right-to-left override
    ("Bob\u2066\u2069", "Bob"),                       # isolates
    ("Z\u200be\u200dr\ufeffo\u2060", "Zero"),          # zero-width characters
    ("tab\there\nnew\r\x0bline", "tab here new line"),  # whitespace of every kind: one space
    ("a\u2028b\u2029c\u00a0d\u3000e", "a b c d e"),   # separators and wide spaces
    ("\x1b[2J\x1b]0;owned\x07", "[2J]0;owned"),        # escape sequences lose their ESC/BEL
    ("bell\x07\x00\x7f\x9b", "bell"),
    ("Cafe\u0301", "Caf\u00e9"),                       # NFC
    ("\ue000\U000f0000priv", "priv"),                  # private use
    ("\u3164\u2800", ""),                              # fillers that draw as nothing
    ("\u200b\u202e  \u200d", ""),
    ("x" * 40, "x" * MAX_NAME),
])
def test_clean_text(sent, shown):
    assert clean_text(sent, MAX_NAME) == shown


def test_clean_text_caps_stacked_combining_marks_and_odd_input():
    zalgo = "Z" + "\u0300\u0301\u0302\u0303\u0304\u0305" * 5 + "ed"
    out = clean_text(zalgo, MAX_NAME)
    assert out.startswith("Z") and out.endswith("ed")
    assert sum(unicodedata.category(c) == "Mn" for c in out) <= 3
    assert clean_text("\u0301\u0301x", 10) == "x"  # marks with nothing to sit on
    assert clean_text(None, 10) == "" and clean_text(b"bytes", 10) == "" and clean_text("abc", 0) == ""
    assert clean_text("ab cd", 3) == "ab"  # (no trailing space after the cut)
    assert clean_text("x" * 10_000 + "\u202e", 24) == "x" * 24


def test_clean_name_falls_back_to_the_seat_name_and_stays_unique():
    assert clean_name("\u200b\u202e", "Red") == "Red"
    assert clean_name("", "Red", ["Red"]) == "Red 2"
    assert clean_name("Blue", "Red", ["Blue"]) == "Blue 2"
    assert clean_name("blue", "Red", ["Blue", "Blue 2"]) == "blue 3"  # case does not make it new
    wide = "\uff22\uff4c\uff55\uff45"  # (fullwidth "Blue")
    assert clean_name(wide, "Red", ["Blue"]) == wide + " 2"  # nor width
    long = "y" * 30
    first = clean_name(long, "Red")
    second = clean_name(long, "Red", [first])
    assert first == "y" * 24 and second == "y" * 22 + " 2" and len(second) <= MAX_NAME
    assert unique_name("Ann", [f"Ann {i}" for i in range(2, 12)] + ["Ann"]) == "Ann 12"


def test_any_text_in_forbidden_categories_is_removed():
    every = "".join(chr(c) for c in range(0x0, 0x3000)) + BIDI + ZERO_WIDTH + "\ufeff\ufff9\ufffb"
    out = clean_text(every, 20_000)
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for ch in out)
    assert not set(out) & FORBIDDEN


def test_the_wire_caps_a_name_and_refuses_controls():
    assert messages.parse_client({"t": "hello", "v": messages.PROTOCOL, "name": "\u202eBlue"}).name == "\u202eBlue"
    for bad in ("a\x00b", "tab\there", "x" * 129, ""):
        with pytest.raises(FrameError):
            messages.parse_client({"t": "hello", "v": messages.PROTOCOL, "name": bad})


async def test_hostile_names_never_reach_other_clients_and_twins_get_numbers():
    async with running_host(TOY, ["open"] * 4) as host:
        a = client(host, name="\u202eBlue\u200b")
        b = client(host, name="Blue")
        c = client(host, name="\u200b\u2066\u2069\ufeff")   # nothing printable: the seat's name
        for x in (a, b, c):
            x.start()
            await until(lambda: x.welcome is not None)
        d = client(host, name="  Zed \u3000  \u200d ")
        watcher = client(host, spectate=True)
        for x in (d, watcher):
            x.start()
        await until(lambda: watcher.seats is not None and all(s.taken for s in watcher.seats.seats)
                    and d.welcome is not None)
        expected = ["Blue", "Blue 2", TOY.seat_names[2], "Zed"]
        assert host.table.names() == expected
        await until(lambda: all(x.names == expected for x in (a, b, c, d, watcher)))
        for x in (a, b, c, d, watcher):
            assert all(printable(n) for n in x.names), x.names
            assert all(printable(s.name) for s in x.seats.seats)
        assert all(printable(n) for n in d.welcome.names) and all(printable(n) for n in watcher.welcome.names)
        for x in (a, b, c, d, watcher):
            await x.close()


async def test_a_resumed_seat_is_cleaned_too():
    async with running_host(TOY, ["open", "open"]) as host:
        a = client(host, name="Ann")
        a.start()
        await until(lambda: a.welcome is not None)
        b = client(host, name="Ann\u202e", token=None)
        b.start()
        await until(lambda: b.welcome is not None)
        token = b.token
        await b.close()
        await until(lambda: host.table.slots[b.seat].conn is None)
        # comes back with its token and a name that is a twin of A's, with a bidi override
        back = client(host, name="\u2067Ann\u2069", token=token)
        back.start()
        await until(lambda: back.welcome is not None and back.seats is not None)
        assert host.table.names() == ["Ann", "Ann 2"]
        await until(lambda: a.names == ["Ann", "Ann 2"])
        assert all(printable(n) for n in back.welcome.names + a.names)
        await a.close()
        await back.close()
