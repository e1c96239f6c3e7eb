"""A table server's lobby as one player sees it: the identity the server gave, kept.

A table server (``netplay.server``) tells players apart by an identity secret it gives
each client with its first table list; the client sends it with every lobby request.
``ServerLobby`` does that for one player, and ``IdentityStore`` keeps the secrets, one
per server address: in memory, or in a private file of the player's data folder, so that
the next program started from the same data folder is the same player.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from . import messages

log = logging.getLogger("atlantis.client")


class IdentityStore:
    """The identity secrets table servers gave this player, one per server address.

    In memory, and in a private file (``path``, written 0600 through
    ``engine.storage.write_private``) when one is given: the next ``atlantis join`` from
    the same data folder is then the same player and finds its seats in the lobby;
    another data folder (another ``XDG_DATA_HOME``) is another player."""

    FILE = "server-identities.json"

    def __init__(self, path: Path | None = None):
        self.path = path
        self.known: dict[str, str] = {}

    @classmethod
    def in_data_folder(cls) -> "IdentityStore":
        """The store of this user's data folder (where records go)."""
        from platformdirs import user_data_dir

        return cls(Path(user_data_dir("atlantis", appauthor=False)) / cls.FILE)

    @staticmethod
    def key(host: str, port: int) -> str:
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    def _read(self) -> dict[str, str]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # (none yet, or unreadable: the server gives a new identity)
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def get(self, host: str, port: int) -> str | None:
        key = self.key(host, port)
        return self.known.get(key) or self._read().get(key)

    def put(self, host: str, port: int, secret: str) -> None:
        key = self.key(host, port)
        self.known[key] = secret
        if self.path is None:
            return
        from engine.storage import write_private

        data = self._read()
        data[key] = secret
        try:
            write_private(self.path, json.dumps(data, indent=1, sort_keys=True).encode())
        except OSError as exc:  # (kept in memory: this process stays the same player)
            log.warning("cannot keep the server identity in %s: %s", self.path, exc)


class ServerLobby:
    """One player's lobby requests to a table server (``netplay.server``): each carries
    the player's identity secret, and the identity the server answers with is kept
    (``store``), so every request of this player, across reconnects, is the same player."""

    def __init__(self, host: str, port: int, identity: str | None = None, store: IdentityStore | None = None,
                 trust: Any = None):
        from .tls import Trust

        self.host, self.port = host, port
        self.store = store if store is not None else IdentityStore()
        self.identity = identity or self.store.get(host, port)
        self.trust = trust if trust is not None else Trust()  # how the server's certificate is checked

    async def ask(self, msg: messages.Msg, timeout: float = 5.0) -> Any:
        """Send one request with this player's identity; a table list's identity is kept.
        An open or take the server refuses for want of an identity (it restarted, say)
        is sent again once with the identity a fresh table list brings."""
        from .server import ask

        answer = await ask(self.host, self.port, msg.model_copy(update={"identity": self.identity}), timeout,
                           self.trust)
        if isinstance(answer, messages.TableList):
            self._keep(answer.identity)
        elif (isinstance(answer, messages.Error) and answer.code == "no-identity"
              and not isinstance(msg, messages.ListTables)):
            listed = await self.ask(messages.ListTables(), timeout)
            if isinstance(listed, messages.TableList) and listed.identity:
                answer = await ask(self.host, self.port, msg.model_copy(update={"identity": self.identity}), timeout,
                           self.trust)
        return answer

    def _keep(self, identity: str | None) -> None:
        if identity and identity != self.identity:
            self.identity = identity
            self.store.put(self.host, self.port, identity)

    async def list_tables(self, timeout: float = 5.0) -> Any:
        return await self.ask(messages.ListTables(), timeout)

    async def take_seat(self, table: str, name: str, timeout: float = 5.0) -> Any:
        return await self.ask(messages.TakeSeat(table=table, name=name), timeout)

    async def open_table(self, request: messages.OpenTable, timeout: float = 5.0) -> Any:
        return await self.ask(request, timeout)
