"""Game over, every game: the result, every score, the game's reveal of
where the points came from and of every secret, Rematch (same seats and options, a new
secret seed), Back to menu; and the ways out of a game: `q` goes back to the menu when the
game began there, and the leave dialog offers the way back that fits."""

from __future__ import annotations


import pytest

from engine.core import SeatInfo
from engine.registry import GAMES, get_game
from netplay.host import Host, HostTable
from pathlib import Path

from textual.widgets import Static

from tui.app import AtlantisApp
from tui.common import shell_command
from tui.screens.dialogs import ConfirmScreen
from tui.screens.game_over import GameOverScreen
from tui.screens.menu import MenuScreen
from tui.seat_links import LocalTable
from tui.seat_labels import seat_letter
from tui.lan.hosting import HostedTable
from tui.sessions.hosted import HostedSession
from tui.sessions.hot_seat import HotSeatSession
from tui.selfplay import play_one


def finished_table(slug: str) -> LocalTable:
    game = get_game(slug)
    match = play_one(slug, 1, game.min_players)
    assert match.result() is not None
    return LocalTable(game, match)


async def wait_for(pilot, what, tries: int = 200) -> None:
    for _ in range(tries):
        if what():
            return
        await pilot.pause(0.01)


@pytest.mark.parametrize("slug", list(GAMES))
async def test_game_over_shows_the_result_and_the_games_reveal(slug):
    table = finished_table(slug)
    app = AtlantisApp(table=table, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        # The board's turn line underneath is the shared game-over line.
        screen = app.game_screen
        line = screen.turn_line(screen.link.view(), [])
        assert line.plain.startswith("Game over. ")
        result = table.match.result()
        if result.winners:
            first = result.winners[0]
            assert f"{seat_letter(first)} {table.names[first]} " in line.plain
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert "Game over" in over.text and "Why:" in over.text
        reveal = table.game.reveal(table.match.state, table.names)
        assert reveal and over.reveal == list(reveal)
        assert str(over.query_one("#reveal-lines").render()).startswith(reveal[0][:20])
        assert over.choices == ("rematch", "menu", "save", "board", "quit")


async def test_rematch_starts_a_new_game_with_the_same_seats_and_a_new_secret_seed():
    table = finished_table("survive")
    old = table.match
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)  # (the new game's bots wait)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: app.table is not table and app.game_screen is not None)
        new = app.table.match
        assert new is not old and new.result() is None
        assert new.seats == old.seats and new.options == old.options
        assert new.seed != old.seed and not new.practice  # a secret seed, not a practice one
        assert app.game_screen.link.table is app.table


async def test_back_to_menu_from_the_game_over_screen():
    app = AtlantisApp(table=finished_table("pathways"), autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert isinstance(app.screen, MenuScreen) and app.table is None


async def test_after_game_over_esc_then_q_asks_and_leaves():
    app = AtlantisApp(table=finished_table("pathways"), autosave=False)
    exits = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        app.exit = lambda *args, **kwargs: exits.append(args)  # type: ignore[method-assign]
        await pilot.press("escape")  # Board: the final position
        await pilot.pause()
        assert app.screen is app.game_screen
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave this game?" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert exits


def one_human(slug: str = "pathways") -> LocalTable:
    game = get_game(slug)
    seats = [SeatInfo("Red", "human")] + [SeatInfo(f"Bot{i}", "bot") for i in range(1, game.min_players)]
    return LocalTable.new(game, {}, seats, 3)


async def test_q_in_a_game_begun_at_the_menu_goes_back_to_the_menu():
    app = AtlantisApp(table=one_human(), manual_bots=True, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.menu_home = True  # (as when the menu started this table)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert isinstance(app.screen, MenuScreen) and app.table is None


async def test_q_in_a_game_begun_on_the_command_line_quits():
    app = AtlantisApp(table=one_human(), manual_bots=True, autosave=False)
    exits = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.exit = lambda *args, **kwargs: exits.append(args)  # type: ignore[method-assign]
        await pilot.press("q", "y")
        await pilot.pause()
        assert exits and not isinstance(app.screen, MenuScreen)


def test_the_leave_dialog_offers_the_way_back_that_fits(tmp_path):
    path = tmp_path / "g.atlrec"
    app = AtlantisApp()
    playing = HotSeatSession(app, one_human(), save_path=path)
    assert "saved" in playing.leave_question()
    assert playing.leave_command() == f"cd {path.parent} && \\\natlantis play --resume g.atlrec"  # (a long folder)
    finished = HotSeatSession(app, finished_table("pathways"), save_path=path)
    assert "resume" not in finished.leave_question() and str(path) in finished.leave_question()
    assert finished.leave_command() == ""
    log = tmp_path / "host.log"
    table = HostTable.create(get_game("pathways"), {}, ["local", "open"], 3, name="t", log_path=log)
    hosted = HostedSession(app, HostedTable(Host([table], host="127.0.0.1", port=0), table))
    assert hosted.leave_command() == f"cd {log.parent} && \\\natlantis host --resume host.log"


def test_a_command_to_copy_names_a_home_path_from_tilde_and_quotes_what_a_shell_would_split():
    home = Path.home()
    assert shell_command("atlantis", "play", "--resume", home / "r" / "a b.atlr") == \
        "atlantis play --resume \\\n    ~/'r/a b.atlr'"
    assert shell_command("atlantis", "join", "h:1", "--token", "T") == "atlantis join h:1 --token \\\n    T"


async def test_the_leave_dialog_never_wraps_the_resume_command_mid_name():
    long_name = "pathways-20261207-182445-737c4d-and-a-few-more-letters.atlr"
    path = Path.home() / ".local" / "share" / "atlantis" / "records" / long_name
    app = AtlantisApp(table=one_human(), manual_bots=True, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.session.save_path = path
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        shown = [line.rstrip() for widget in app.screen.query("Static").results(Static)
                 for line in widget_lines(widget)]
        assert any(line.endswith("cd ~/.local/share/atlantis/records && \\") for line in shown), shown
        assert any(line.endswith("atlantis play --resume \\") for line in shown)
        assert any(line.strip() == long_name for line in shown)
        box = app.screen.query_one("#command")
        assert max(len(line.rstrip()) for line in widget_lines(box.query_one(Static))) <= box.size.width


def test_a_record_path_too_long_for_80_columns_is_split_at_its_folder():
    name = "end-of-atlantis-20261208-013736-2420ab.atlr"
    command = shell_command("atlantis", "play", "--resume", Path.home() / ".local/share/atlantis/records" / name)
    assert command == f"cd ~/.local/share/atlantis/records && \\\natlantis play --resume {name}"


def widget_lines(widget) -> list[str]:
    """What a widget shows, one string a row (as wide as it is laid out)."""
    return [strip.text for strip in widget.render_lines(widget.content_region.reset_offset)]


def test_the_leave_dialog_of_a_remote_seat_gives_the_way_back_that_works_there():
    from netplay.client import Client
    from tui.sessions.remote import RemoteSession, lan_status_text

    app = AtlantisApp()
    lan = Client("10.0.0.5", 7341, name="Joe", token="T" * 32)
    assert RemoteSession(app, lan).leave_command() == f"atlantis join 10.0.0.5:7341 --token \\\n    {'T' * 32}"
    # a serve-ssh session reaches its table server by a Unix socket: no join command works
    # from the player's machine; the lobby takes the seat back (Enter, or t with the token)
    ssh = Client("/tmp/atlantis-ssh-x/tables.sock", 0, name="Ana", token="S" * 32)
    session = RemoteSession(app, ssh)
    assert "atlantis join" not in session.leave_command() and session.leave_command() == "S" * 32
    assert "lobby" in session.leave_question()
    ssh.seat, ssh.status = 0, "connected"
    assert lan_status_text(ssh).startswith("Server: connected") and "LAN" not in lan_status_text(ssh)


@pytest.mark.parametrize("slug", list(GAMES))
async def test_at_160x48_the_game_over_box_leaves_the_side_panel_whole(slug):
    app = AtlantisApp(table=finished_table(slug), autosave=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        box = app.screen.query_one("Vertical").region
        side = app.game_screen.query_one("#side").region
        assert box.width >= 60 and box.right <= side.x, (box, side)
