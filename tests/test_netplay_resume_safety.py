"""``atlantis host --resume`` never damages a file.

The whole file is checked as a host log before a byte of it changes; only a move the
crash cut short is dropped from its end.  Every refusal is one complete sentence.
The log remembers where its host listened (--bind, --port, --no-advertise) and a
resumed host listens there again unless told otherwise.  Host logs are 0600 in a
0700 folder.  Loopback only: no test here announces anything on the LAN."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import stat
from pathlib import Path

import msgpack
import pytest

from engine.storage import PrivacyWarning
from engine.record import GameRecord, RecordError
from engine.storage import load_record
from netplay.client import Client, run_bot
from netplay.host import HostTable
from netplay.log import read_log
from tui.cli import main

from netplay_helpers import ALL_GAMES, LOOPBACK, play_with_bots, running_host, until, raw_connection

GAME = ALL_GAMES["pathways"]


def _finished_log(path: Path) -> None:
    async def go() -> None:
        async with running_host(GAME, ["open", "open"], seed=3, log=path) as host:
            await play_with_bots(host, 2)

    asyncio.run(go())


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    """The bytes of a whole host log (a finished two-seat game)."""
    path = tmp_path_factory.mktemp("good") / "good.atlrec"
    _finished_log(path)
    return path.read_bytes()


def _sizes(data: bytes) -> list[int]:
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    sizes, last = [], 0
    for _ in unpacker:
        sizes.append(unpacker.tell() - last)
        last = unpacker.tell()
    return sizes


def _flip(data: bytes, at: int, byte: int | None = None) -> bytes:
    b = bytearray(data)
    b[at] = (b[at] ^ 0x5A) if byte is None else byte
    return bytes(b)


def _damaged(good: bytes, case: str) -> bytes:
    sizes = _sizes(good)
    head = sizes[0]
    middle = sum(sizes[:len(sizes) // 2])  # the first byte of a move in the middle
    if case == "empty":
        return b""
    if case == "garbage":
        return random.Random(9).randbytes(3000)
    if case == "header-bad-byte":
        return _flip(good, 0, 0xC1)  # 0xc1 is never valid msgpack
    if case == "header-cut":
        return good[:head // 2]  # (used to become 0 bytes)
    if case == "header-longer-map":
        return _flip(good, 0, good[0] + 3)  # the header map claims more keys: eats the moves
    if case == "header-magic":
        return good.replace(b"atlantis-record", b"atlantis-recorX", 1)
    if case == "header-netplay-seats":
        header = msgpack.unpackb(good[:head], raw=False)
        header["netplay"]["tokens"] = header["netplay"]["tokens"][:1]  # one token hash for two seats
        return msgpack.packb(header, use_bin_type=True) + good[head:]
    if case == "plain-record":
        return GameRecord.from_bytes(good).to_bytes()
    if case == "middle-bad-byte":
        return _flip(good, middle + 3, 0xC1)
    if case == "middle-digest":
        at = good.index(b"digest", middle) + 10
        return _flip(good, at, ord("0") if good[at] != ord("0") else ord("1"))
    if case == "middle-moves-swapped":
        a, b = middle, middle + sizes[len(sizes) // 2]
        c = b + sizes[len(sizes) // 2 + 1]
        return good[:a] + good[b:c] + good[a:b] + good[c:]
    if case == "tail-huge-length":  # looks like a move's start, but claims 4 GB more
        return good + b"\x83\xa4seat\x00\xa6action\xdb\xff\xff\xff\xff"
    if case == "tail-not-a-move":
        return good + b"\x92\x01"
    raise AssertionError(case)


CASES = ["empty", "garbage", "header-bad-byte", "header-cut", "header-longer-map", "header-magic",
         "header-netplay-seats", "plain-record", "middle-bad-byte", "middle-digest", "middle-moves-swapped",
         "tail-huge-length", "tail-not-a-move"]


def _one_sentence(text: str) -> None:
    assert "\n" not in text.strip() and text.strip().endswith("."), text
    assert not text.strip().rstrip(".").endswith((":", ";", ",")), text
    assert "Traceback" not in text and len(text) < 400, text


@pytest.mark.parametrize("case", CASES)
def test_a_file_that_is_not_a_whole_host_log_is_refused_and_left_byte_for_byte_as_it_was(good, case, tmp_path):
    data = _damaged(good, case)
    path = tmp_path / "log.atlrec"
    path.write_bytes(data)
    os.chmod(path, 0o644)
    before = os.stat(path)
    with pytest.raises(RecordError) as caught:
        HostTable.resume(path)
    _one_sentence(str(caught.value))
    after = os.stat(path)
    assert path.read_bytes() == data
    assert (after.st_ino, after.st_mtime_ns, stat.S_IMODE(after.st_mode)) == \
        (before.st_ino, before.st_mtime_ns, 0o644)  # not even rewritten or re-moded
    assert not path.with_name(path.name + ".tmp").exists()


@pytest.mark.parametrize("case", CASES)
def test_the_command_says_what_is_wrong_in_one_sentence_and_exits_2(good, case, tmp_path, capsys):
    data = _damaged(good, case)
    path = tmp_path / "log.atlrec"
    path.write_bytes(data)
    assert main(["host", "--resume", str(path), "--headless", "--no-advertise", "--bind", LOOPBACK,
                 "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"atlantis: {path}: ")
    _one_sentence(err)
    assert path.read_bytes() == data


def test_the_messages_name_the_problem(good, tmp_path):
    def why(case: str) -> str:
        path = tmp_path / f"{case}.atlrec"
        path.write_bytes(_damaged(good, case))
        with pytest.raises(RecordError) as caught:
            HostTable.resume(path)
        return str(caught.value)

    assert "empty" in why("empty")
    assert "not a host log" in why("plain-record")
    assert "header is incomplete" in why("header-cut")
    assert "damaged at byte 0" in why("header-bad-byte") and "not valid msgpack" in why("header-bad-byte")
    assert "do not replay" in why("middle-digest")
    assert "not a host log" in why("garbage")
    assert "not the beginning of a move cut short" in why("tail-not-a-move")
    assert "not the beginning of a move cut short" in why("tail-huge-length")
    assert "does not match its seats" in why("header-netplay-seats")


@pytest.mark.parametrize("kind", ["fifo", "folder", "missing"])
def test_a_fifo_a_folder_or_no_file_is_refused_without_blocking_or_touching_it(kind, tmp_path, capsys):
    path = tmp_path / "log.atlrec"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    assert main(["host", "--resume", str(path), "--headless", "--no-advertise", "--bind", LOOPBACK]) == 2
    err = capsys.readouterr().err
    _one_sentence(err)
    if kind == "fifo":
        assert stat.S_ISFIFO(os.stat(path).st_mode) and "not a regular file" in err
    elif kind == "folder":
        assert path.is_dir() and list(path.iterdir()) == [] and "folder" in err
    else:
        assert not path.exists() and "cannot read" in err


def test_a_move_cut_short_by_a_crash_is_the_one_thing_resume_cuts_off(good, tmp_path):
    sizes = _sizes(good)
    for cut in (1, 5, sizes[-1] - 1):  # the host died while writing its last move
        path = tmp_path / f"cut{cut}.atlrec"
        path.write_bytes(good[:-cut])
        table = HostTable.resume(path)
        table.log.close()
        assert path.read_bytes() == good[:-sizes[-1]]  # exactly the whole moves, nothing else
        assert len(table.match.record.moves) == len(sizes) - 2
        assert read_log(path).partial == 0


def test_a_whole_log_is_resumed_without_a_change(good, tmp_path):
    path = tmp_path / "whole.atlrec"
    path.write_bytes(good)
    table = HostTable.resume(path)
    table.log.close()
    assert path.read_bytes() == good and table.over


# --- the log remembers where its host listened -------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


class FakeAdvertiser:
    """Stands in for zeroconf (nothing is announced on the LAN): records its use."""

    made: list["FakeAdvertiser"] = []

    def __init__(self, interfaces=None):
        self.interfaces = interfaces
        self.started = False
        FakeAdvertiser.made.append(self)

    async def start(self, host) -> None:
        self.started = True

    async def stop(self) -> None:
        pass


async def _host_a_whole_game(argv: list[str], port: int) -> None:
    """Run ``atlantis host ...`` (in a thread) and play its two open seats with bots."""
    hosting = asyncio.ensure_future(asyncio.to_thread(main, argv))

    async def listening() -> bool:
        try:
            _, w = await raw_connection(port)
        except OSError:
            return False
        w.close()
        return True

    for _ in range(200):
        if await listening():
            break
        await asyncio.sleep(0.05)
    clients = [Client(LOOPBACK, port, name=f"c{i}", backoff=(0.02, 0.2), read_timeout=10) for i in range(2)]
    await asyncio.wait_for(asyncio.gather(*(run_bot(c, seed=i) for i, c in enumerate(clients))), 40)
    assert await asyncio.wait_for(hosting, 20) == 0


@pytest.fixture
def fake_zeroconf(monkeypatch):
    FakeAdvertiser.made = []
    monkeypatch.setattr("netplay.discovery.Advertiser", FakeAdvertiser)
    return FakeAdvertiser.made


async def test_resume_listens_where_the_log_says_and_announces_nothing_if_the_host_did_not(
        tmp_path, capsys, fake_zeroconf):
    log, port = tmp_path / "where.atlrec", _free_port()
    await _host_a_whole_game(["host", "pathways", "--players", "2", "--headless", "--exit-when-done",
                              "--bind", LOOPBACK, "--port", str(port), "--no-advertise", "--log", str(log)], port)
    meta = read_log(log).meta
    assert (meta["bind"], meta["port"], meta["advertise"]) == (LOOPBACK, port, False)
    capsys.readouterr()

    # (the game is over, so --exit-when-done returns at once)
    assert await asyncio.to_thread(main, ["host", "--resume", str(log), "--headless", "--exit-when-done"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Listening on {LOOPBACK}:{port} ")  # not every interface, same port
    assert fake_zeroconf == []  # and it did not announce itself


async def test_the_command_line_overrides_what_the_log_remembers(tmp_path, capsys, fake_zeroconf):
    log, port = tmp_path / "where.atlrec", _free_port()
    await _host_a_whole_game(["host", "pathways", "--players", "2", "--headless", "--exit-when-done",
                              "--bind", LOOPBACK, "--port", str(port), "--no-advertise", "--log", str(log)], port)
    capsys.readouterr()
    other = _free_port()
    assert await asyncio.to_thread(main, ["host", "--resume", str(log), "--headless", "--exit-when-done",
                                          "--port", str(other), "--advertise", "--interface", LOOPBACK]) == 0
    assert capsys.readouterr().out.startswith(f"Listening on {LOOPBACK}:{other} ")
    assert [(a.interfaces, a.started) for a in fake_zeroconf] == [([LOOPBACK], True)]
    meta = read_log(log).meta  # the log now says where this host listened
    assert (meta["bind"], meta["port"], meta["advertise"], meta["interfaces"]) == (LOOPBACK, other, True, [LOOPBACK])
    assert main(["replay", str(log), "--verify"]) == 0


def test_resume_refuses_arguments_that_the_log_decides(good, tmp_path, capsys):
    path = tmp_path / "log.atlrec"
    path.write_bytes(good)
    assert main(["host", "pathways", "--resume", str(path), "--players", "3", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "leave out GAME, --players" in err
    _one_sentence(err)
    assert path.read_bytes() == good


# --- private files ------------------------------------------------------------------------------

def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_host_logs_are_0600_and_a_0755_folder_is_left_0755_with_a_warning(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    os.chmod(folder, 0o755)
    log = folder / "t.atlrec"
    with pytest.warns(PrivacyWarning, match="may be entered by other users"):
        async with running_host(GAME, ["open", "open"], seed=5, log=log) as host:
            assert (_mode(log), _mode(folder)) == (0o600, 0o755)
            c = Client(LOOPBACK, host.port, name="a", backoff=(0.02, 0.2), games=ALL_GAMES)
            c.start()
            await until(lambda: host.table.slots[0].taken)  # the claim rewrites the header
            assert _mode(log) == 0o600
            b = Client(LOOPBACK, host.port, name="b", backoff=(0.02, 0.2), games=ALL_GAMES)
            await asyncio.wait_for(asyncio.gather(run_bot(c, seed=1), run_bot(b, seed=2)), 30)
            assert len(load_record(log).moves) > 5 and _mode(log) == 0o600  # appended to
    assert _mode(folder) == 0o755
    fresh = tmp_path / "new" / "deeper"
    async with running_host(GAME, ["open", "open"], seed=5, log=fresh / "t.atlrec"):
        assert (_mode(fresh / "t.atlrec"), _mode(fresh)) == (0o600, 0o700)


def test_a_resumed_log_is_made_private_too(good, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    os.chmod(folder, 0o755)
    path = folder / "r.atlrec"
    path.write_bytes(good[:-3])
    os.chmod(path, 0o644)
    with pytest.warns(PrivacyWarning, match="may be entered by other users"):
        table = HostTable.resume(path)
    table.log.close()
    assert (_mode(path), _mode(folder)) == (0o600, 0o755)
