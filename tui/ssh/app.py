"""The app as a client of a table server: the server's lobby first, "play here" beside it.

``ServerApp`` is ``AtlantisApp`` (the same screens, the same LAN client) with one
change of course: leaving a game (``q``, the game-over screen, Ctrl+Q) goes back to
the server's lobby instead of ending the program; quitting the lobby ends it.  Over
SSH that keeps a player in their session between games.

Every lobby request carries the player's identity (``netplay.identity.ServerLobby``):
an SSH session's secret, or the one the server gave, kept in ``identity_store``
(``atlantis join`` keeps it in the data folder, one per server address).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from netplay.identity import IdentityStore, ServerLobby

from ..app import AtlantisApp
from .lobby import LobbyChoice, ServerLobbyScreen


class ServerApp(AtlantisApp):
    def __init__(self, server_host: str, server_port: int, identity: str | None = None,
                 player_name: str = "Player", identity_store: IdentityStore | None = None, **kwargs: Any):
        kwargs.setdefault("autosave", True)
        super().__init__(player_name=player_name, **kwargs)
        self.server_host, self.server_port = server_host, server_port
        self.server_lobby = ServerLobby(server_host, server_port, identity=identity, store=identity_store,
                                        trust=self.trust)
        self.lobby_screen: ServerLobbyScreen | None = None
        self._first_lobby = True

    # No ``on_mount`` here: Textual calls every ``on_mount`` along the class's MRO, so
    # one here would run besides ``AtlantisApp.on_mount``, whose start (no table, no
    # replay, no LAN client: the "menu" one, ``menu_home`` set) shows the lobby through
    # ``show_menu``.  Two would push two lobbies: the hidden one kept asking the server
    # every second under the game and, holding the "back after a drop" rejoin, could
    # dismiss itself later (a dismiss pops the top screen, the game's) and join a second
    # time, which left the player on a connecting screen for good.

    # --- the lobby ----------------------------------------------------------------------
    def show_lobby(self, error: str = "") -> None:
        if self.lobby_screen is not None and self.lobby_screen in self.screen_stack:
            if error:  # (one lobby at a time: it is there already)
                self.call_after_refresh(self.lobby_screen.show_error, error)
            return
        first, self._first_lobby = self._first_lobby, False
        self.lobby_screen = ServerLobbyScreen(self.server_lobby, self.player_name, point_at_mine=first)
        self.push_screen(self.lobby_screen, self._lobby_done)
        if error:
            self.call_after_refresh(self.lobby_screen.show_error, error)

    def show_menu(self) -> None:  # (where a finished local game goes back to)
        self.show_lobby()

    def _lobby_done(self, choice: LobbyChoice | None) -> None:
        if choice is None:
            super().exit()
            return
        if choice.what == "here":
            from ..screens.menu import MenuScreen

            self.push_screen(MenuScreen(), self._menu_done)
            return
        self.run_worker(self._take(choice), exclusive=True)

    def _menu_done(self, choice: Any) -> None:
        if choice is None or getattr(choice, "lan", ""):
            if choice is not None:
                self.notify("Here, the server's lobby is the way to play with others.")
            self.show_lobby()
            return
        super()._menu_done(choice)

    async def _take(self, choice: LobbyChoice) -> None:
        from netplay import messages
        from netplay.client import Client
        from netplay.tls import Trust

        trust = self.trust or Trust()
        ticket, spectate = choice.ticket, choice.what == "watch"
        try:
            if choice.what == "open":
                answer = await self.server_lobby.open_table(choice.request)
            elif choice.what == "join":
                answer = await self.server_lobby.take_seat(choice.table, self.player_name)
            else:
                answer = None
        except Exception as exc:
            self.show_lobby(f"The server does not answer: {exc or type(exc).__name__}")
            return
        if isinstance(answer, messages.Error):
            self.show_lobby(answer.message)
            return
        if isinstance(answer, messages.Seated):
            ticket = answer.ticket
        table = ticket.table if ticket is not None else choice.table
        token = ticket.token if ticket is not None else (choice.token or None)
        client = Client(self.server_host, self.server_port, name=self.player_name,
                        token=token, table=table, spectate=spectate, trust=trust, linger=True)
        self.join(client)

    # --- leaving a game: back to the lobby ---------------------------------------------------
    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        if self.session is not None:
            self.run_worker(self._back_to_lobby(), exclusive=True)
            return
        super().exit(result, return_code, message)

    async def _back_to_lobby(self) -> None:
        session = self.end_session()
        if session is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.close(), 2)
        self.show_lobby()
