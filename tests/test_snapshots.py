"""What a player sees, as pictures: every game's screen in mid-game (at 80x24, the smallest
size a table supports, and at 160x48), after a cursor key, its help, its game over, the
menu, the LAN lobby and a table server's lobby, each in the dark and the light theme.  ``snap_compare`` (pytest-textual-snapshot)
compares Textual's SVG export of the screen with the one kept in ``tests/__snapshots__/``;
a failure writes ``snapshot_report.html`` showing both.

After a change meant to alter the screens, look at the report, then take them anew with
``make snapshots``.  Every picture is still: the bots wait (``manual_bots``), the seeds
are fixed (the named setups of ``tui/bundled/setups.json``), and no cursor blinks.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from engine.registry import GAMES
from tui.app import AtlantisApp
from tui.screens.game_over import GameOverScreen
from tui.screen_entry import screen_entry
from tui.screenshots import mid_game_table
from tui.selfplay import play_one
from tui.seat_links import LocalTable
from tui.setups import load_setups

THEMES = ("textual-dark", "textual-light")
SIZES = ((80, 24), (160, 48))


def mid_game(slug: str) -> AtlantisApp:
    """The game's screen on its screenshot setup: bots have played, it is your turn."""
    setup = load_setups()[screen_entry(slug).screenshot]
    table = mid_game_table(slug, setup.seed, setup.players, setup.warmup_actions, setup.options)
    return AtlantisApp(table=table, autosave=False, manual_bots=True)


def still(theme: str, then=None):
    """What runs before the picture: the theme chosen, no blinking cursor, then ``then``."""

    async def before(pilot: Pilot) -> None:
        pilot.app.theme = theme
        if then is not None:
            await then(pilot)
        await pilot.pause()
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False

    return before


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
@pytest.mark.parametrize("slug", list(GAMES))
def test_a_game_in_mid_play(snap_compare, slug, size, theme):
    assert snap_compare(mid_game(slug), terminal_size=size, run_before=still(theme))


class AtATable:
    """A seat's link as at a LAN or server table: the table's chat, a turn timer running
    for the first seat, and the second seat kept warm by a bot until its player returns."""

    def __init__(self, link):
        self.link = link

    def __getattr__(self, name: str):
        return getattr(self.link, name)

    def chat_log(self) -> list[str]:
        return [f"{self.link.names[0]}: good luck all", "A bot plays Blue until Bo returns.",
                f"{self.link.names[0]}: see you soon Bo"]

    def chat(self, text: str) -> None:
        return None

    def clock(self, seat: int) -> float | None:
        return 83.0 if seat == 0 else None

    def seat_label(self, seat: int) -> str:
        return "Blue (bot until Bo returns)" if seat == 1 else self.link.names[seat]


@pytest.mark.parametrize("theme", THEMES)
def test_a_game_at_a_table_with_chat_and_clocks(snap_compare, theme):
    """The side panel at 80x24: the seat a bot keeps warm, the time left, the chat's last line."""

    async def at_a_table(pilot: Pilot) -> None:
        screen = pilot.app.screen
        screen.set_link(AtATable(screen.link))
        screen.show(screen.link.view(), screen.link.legal())

    assert snap_compare(mid_game("pathways"), terminal_size=(80, 24), run_before=still(theme, at_a_table))


@pytest.mark.parametrize("theme", THEMES)
def test_a_game_at_a_table_with_the_chat_open(snap_compare, theme):
    """``c`` opens the chat: its last lines and the line to type in."""

    async def chat_open(pilot: Pilot) -> None:
        screen = pilot.app.screen
        screen.set_link(AtATable(screen.link))
        screen.show(screen.link.view(), screen.link.legal())
        await pilot.press("c", *"on my way")

    assert snap_compare(mid_game("pathways"), terminal_size=(80, 24), run_before=still(theme, chat_open))


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_cursor_key_shows_the_cursor_moved(snap_compare, slug):
    """Down on the focused board or list: the cursor and what the screen says of it follow."""
    assert snap_compare(mid_game(slug), press=["down"], terminal_size=(80, 24), run_before=still("textual-dark"))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("slug", list(GAMES))
def test_a_games_help(snap_compare, slug, theme):
    assert snap_compare(mid_game(slug), press=["question_mark"], terminal_size=(80, 24),
                        run_before=still(theme))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("slug", list(GAMES))
def test_a_games_end(snap_compare, slug, theme):
    """A whole game played by bots from seed 1: the game-over screen over the board."""
    game = GAMES[slug]
    table = LocalTable(game, play_one(slug, 1, game.min_players))
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)

    async def over(pilot: Pilot) -> None:
        for _ in range(200):
            if isinstance(pilot.app.screen, GameOverScreen):
                return
            await pilot.pause(0.01)
        raise AssertionError("no game-over screen")

    assert snap_compare(app, terminal_size=(80, 24), run_before=still(theme, over))


@pytest.mark.parametrize("theme", THEMES)
def test_the_menu(snap_compare, theme):
    assert snap_compare(AtlantisApp(autosave=False), terminal_size=(80, 24), run_before=still(theme))


@pytest.mark.parametrize("theme", THEMES)
def test_the_lan_lobby(snap_compare, theme):
    """The lobby with three tables found (none looked for: the LAN plays no part)."""
    from netplay.discovery import FoundTable
    from tui.lan.screens import LobbyScreen

    def found(name: str, game: str, open_seats: int, players: int, started: bool, last: int) -> FoundTable:
        return FoundTable(service=name, host=f"192.168.1.{last}", port=7341, table=name, name=name, game=game,
                          open=open_seats, players=players, started=started, over=False, fingerprint="",
                          rules="1", protocol=1, seen_at=0.0)

    async def lobby(pilot: Pilot) -> None:
        screen = LobbyScreen("Ada", browse=False)
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.show_tables([found("Ada's table", "pathways", 1, 3, False, 20),
                            found("Friday night", "end-of-atlantis", 0, 4, True, 21),
                            found("Quick one", "survive", 2, 2, False, 22)])

    assert snap_compare(AtlantisApp(autosave=False), terminal_size=(80, 24), run_before=still(theme, lobby))


@pytest.mark.parametrize("theme", THEMES)
def test_a_table_servers_lobby(snap_compare, theme):
    """What every SSH session and ``atlantis join SERVER`` opens on: the server's tables,
    one of them holding a seat of this player's."""
    from netplay import messages
    from tui.ssh.lobby import ServerLobbyScreen

    def info(table: str, name: str, game: str, players: int, open_seats: int, started: bool) -> messages.TableInfo:
        return messages.TableInfo(table=table, name=name, game=game, rules="1", fingerprint="f", players=players,
                           open=open_seats, started=started, over=False)

    class Server:
        """A table server that always answers with the same list."""

        host, port = "/run/atlantis/tables.sock", 0

        async def list_tables(self, timeout: float = 5.0) -> messages.TableList:
            tables = [info("t1", "Ada's table", "pathways", 3, 1, False),
                      info("t2", "Friday night", "end-of-atlantis", 4, 0, True),
                      info("t3", "Quick one", "survive", 2, 2, False)]
            return messages.TableList(server="Kitchen", tables=tables, mine=[messages.Ticket(table="t2", seat=1, token="x" * 32)])

    async def lobby(pilot: Pilot) -> None:
        await pilot.app.push_screen(ServerLobbyScreen(Server(), "Ada", point_at_mine=True))
        await pilot.pause()

    assert snap_compare(AtlantisApp(autosave=False), terminal_size=(80, 24), run_before=still(theme, lobby))
