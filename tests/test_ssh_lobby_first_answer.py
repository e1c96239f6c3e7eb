"""The server lobby shows the server's first answer as soon as it comes, not a second
later at the next refresh (every SSH session and ``atlantis join SERVER`` opens on it)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from netplay import messages
from tui.ssh.lobby import ServerLobbyScreen
from tui.theme import ThemedApp

pytestmark = pytest.mark.timeout(20)


class OneAnswerLobby:
    """A server that answers every ``list_tables`` at once with the same two tables."""

    host, port = "/tmp/tables.sock", 0

    def __init__(self) -> None:
        self.asked = 0

    async def list_tables(self, timeout: float = 5.0) -> messages.TableList:
        self.asked += 1
        tables = [messages.TableInfo(table=f"t{i}", name=f"Table {i}", game="pathways", rules="1", fingerprint="f",
                              players=2, open=1, started=False, over=False) for i in range(2)]
        return messages.TableList(server="Kitchen", tables=tables)


async def test_the_lobby_shows_its_first_answer_at_once():
    lobby = OneAnswerLobby()
    app = ThemedApp()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = ServerLobbyScreen(lobby, "ana")
        await app.push_screen(screen)
        await pilot.pause()
        assert lobby.asked == 1  # (the refresh every second has not come yet)
        assert screen.query_one(DataTable).row_count == 2
        assert "2 tables" in str(screen.query_one("#status", Static).render())
        assert "Kitchen: tables" in str(screen.query_one("#title", Static).render())
