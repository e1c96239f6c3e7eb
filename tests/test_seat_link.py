"""LocalSeat, ReplaySeat and netplay's RemoteSeat all implement the SeatLink Protocol that
the game screens talk to (netplay cannot import tui, so RemoteSeat conforms by shape)."""

from __future__ import annotations

import ast
import inspect
from types import SimpleNamespace

from engine.core import SeatInfo
from engine.registry import get_game
from engine.storage import load_record, save_record
from netplay.client import RemoteSeat
from tui.seat_links import LocalSeat, LocalTable, ReplaySeat, SeatLink
from tui.selfplay import play_one

GAME = get_game("pathways")


def protocol_members() -> list[str]:
    names = set(getattr(SeatLink, "__annotations__", {}))
    names |= {n for n, v in vars(SeatLink).items() if not n.startswith("_") and callable(v)}
    return sorted(names)


def test_the_protocol_names_what_a_screen_uses():
    assert {"game", "seat", "names", "read_only", "practice", "view", "legal", "my_turn", "log", "submit",
            "undo", "waiting_for", "seat_label"} <= set(protocol_members())


def test_a_local_seat_is_a_seat_link():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 3)
    assert isinstance(table.link(0), SeatLink)
    assert isinstance(table.link(None), SeatLink)  # a spectator


def test_a_replay_seat_is_a_seat_link(tmp_path):
    match = play_one("pathways", 2, 2, max_actions=20)
    replay = ReplaySeat(GAME, load_record(save_record(match.record, tmp_path / "g.atlrec")))
    assert isinstance(replay, SeatLink)
    assert replay.read_only


def test_a_remote_seat_is_a_seat_link_without_importing_tui():
    tree = ast.parse(inspect.getsource(inspect.getmodule(RemoteSeat)))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m == "tui" or m.startswith("tui.")]
    client = SimpleNamespace(game=GAME, seat=1, names=["Red", "Blue"], welcome=None)
    assert isinstance(RemoteSeat(client), SeatLink)
    for name in protocol_members():
        assert hasattr(RemoteSeat, name), name
        mine = getattr(SeatLink, name, None)
        if callable(mine):
            want = list(inspect.signature(mine).parameters)
            assert list(inspect.signature(getattr(RemoteSeat, name)).parameters) == want, name


def test_every_seat_class_offers_the_same_methods_with_the_same_arguments():
    for cls in (LocalSeat, ReplaySeat, RemoteSeat):
        for name in protocol_members():
            mine = getattr(SeatLink, name, None)
            if callable(mine):
                assert list(inspect.signature(getattr(cls, name)).parameters) == \
                    list(inspect.signature(mine).parameters), (cls.__name__, name)


def test_every_link_reveals_the_final_state_only_once_the_game_is_over():
    match = play_one("pathways", 2, 2)
    reveal = GAME.reveal(match.state, match.names)
    assert reveal and LocalTable(GAME, match).link(0).final_reveal() == reveal
    unfinished = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 3)
    assert unfinished.link(0).final_reveal() == []
    replay = ReplaySeat(GAME, match.record)
    assert replay.final_reveal() == reveal
    replay.index -= 1
    assert replay.final_reveal() == []
    # A LAN seat rebuilds the final state from the seed and moves of the host's game-over frame.
    welcome = SimpleNamespace(options=match.record.options, names=match.names, practice=False)
    client = SimpleNamespace(game=GAME, seat=0, names=match.names, welcome=welcome, over=None)
    assert RemoteSeat(client).final_reveal() == []
    client.over = SimpleNamespace(seed=str(match.seed),
                                  moves=[{"seat": m.seat, "action": m.action} for m in match.record.moves])
    assert RemoteSeat(client).final_reveal() == reveal
