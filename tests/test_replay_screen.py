"""The replay viewer: the full-table view's secret events name their
seat and are told from that seat's side in the third person; the turn line says exactly
what the board and the log show; the footer holds only the replay keys, help and leave;
a shared key that cannot work in a replay says why."""

from __future__ import annotations

import re


from engine.registry import get_game
from tui.app import AtlantisApp
from tui.screens.replay import ReplayMixin
from tui.seat_links import ReplaySeat
from tui.selfplay import play_one
from tui.widgets.key_line import KeyLine


def replay_of(slug: str, players: int) -> ReplaySeat:
    match = play_one(slug, 2, players, max_actions=60)
    return ReplaySeat(get_game(slug), match.record)


def test_secret_events_name_their_seat_and_never_say_you():
    replay = replay_of("end-of-atlantis", 3)
    secret = [line.text for line in replay.log() if line.text.startswith("(secret")]
    assert secret
    for line in secret:
        match = re.match(r"\(secret, ([^)]+)\) (.*)", line)
        assert match, line
        owners, text = match.groups()
        assert set(owners.split(", ")) <= set(replay.names)
        assert not re.search(r"\b[Yy]ou(r)?\b", text), line
    bids = [line for line in secret if "secret bid" in line]
    assert all(re.match(r"\(secret, (\w+)\) \1's secret bid: \d+\.", line) for line in bids), bids


def test_the_turn_line_says_what_each_viewer_shows():
    replay = replay_of("pathways", 2)
    assert "every event" in replay.waiting_for() and "what everyone saw" in replay.waiting_for()
    replay.next_viewer()
    assert f"what {replay.names[0]} saw" in replay.waiting_for()
    replay.watching = ReplaySeat.PUBLIC
    assert "what a spectator saw" in replay.waiting_for()


async def test_the_replay_footer_shows_only_replay_keys_help_and_leave():
    app = AtlantisApp(replay=replay_of("pathways", 2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = {key.description for key in app.game_screen.query_one(KeyLine).drawn_keys()}
        replay_labels = {c.label for c in ReplayMixin.REPLAY_COMMANDS}
        assert replay_labels <= shown
        assert shown <= replay_labels | {"Help", "Leave", "palette"}  # (Ctrl+P: Textual's palette)


async def test_undo_and_save_in_a_replay_say_why():
    app = AtlantisApp(replay=replay_of("pathways", 2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        message = app.game_screen.query_one("#message")
        await pilot.press("u")
        assert "replay" in str(message.render()).lower()
        await pilot.press("s")
        await pilot.pause()
        assert "nothing new to save" in str(message.render())


async def test_stepping_in_the_full_table_view_shows_the_steps_event_at_the_logs_end():
    from tui.seat_links import EVENTS_HEADING, HIDDEN_HEADING
    from tui.widgets.eventlog import EventLog

    replay = replay_of("end-of-atlantis", 3)
    app = AtlantisApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("home", "right", "right", "right")
        await pilot.pause()
        assert replay.watching == ReplaySeat.FULL and replay.index == 3
        texts = [line.text for line in replay.log()]
        assert texts[0] == HIDDEN_HEADING and EVENTS_HEADING in texts
        step = replay.events[3][-1]
        newest = replay.secret_line(step) if step.to else replay.game.describe(step, None, replay.names)
        assert texts[-1] == newest.text  # the move just stepped to, not what was hidden
        log = app.screen.query_one(EventLog)
        assert log.is_vertical_scroll_end or log.max_scroll_y == 0  # (the log shows its end)
