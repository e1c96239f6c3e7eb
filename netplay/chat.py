"""A table's chat: short lines between its players (and, if the host allows it, among
its spectators), never part of the game record.

Who hears a line: a player's line goes to every seat and every spectator; a spectator's
line (only with ``spectator_chat``) to the spectators alone.  A line is cleaned like a
player's name (``netplay.text.clean_text``: printable only, whitespace collapsed), at
most ``MAX_CHAT`` characters, and each seat (each spectator) may send ``Limits.chat_rate``
lines a second on average, ``Limits.chat_burst`` at once.  The last ``HISTORY`` lines are
kept for whoever joins or comes back; every line is appended to the table's chat log,
a file beside its host log (``chat_log_path``: 0600, one JSON object a line), which no
record reader ever reads.  The table says some things itself (``notice``): a bot keeps a
seat warm, its player is back, a clock ran out.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import deque
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import messages
from .limits import Limits
from .text import clean_text

log = logging.getLogger("atlantis.host")

MAX_CHAT = messages.MAX_CHAT  # characters in one chat line
HISTORY = 50           # lines kept for whoever joins or comes back


def chat_text(line: messages.ChatLine) -> str:
    """A chat line as a screen shows it: "Ana: hello", "(spectator) Zed: hi", and the
    table's own notices as they are ("A bot plays Blue until Ana returns.")."""
    if line.notice:
        return line.text
    return f"{'(spectator) ' if line.spectator else ''}{line.name}: {line.text}"


def chat_log_path(table_log: Path) -> Path:
    """The chat log beside a table's log: ``GAME-....atlrec`` -> ``GAME-....chat``."""
    return Path(table_log).with_suffix(".chat")


class TableChat:
    """The chat of one table: its recent lines, each speaker's rate, its log."""

    def __init__(self) -> None:
        self.lines: deque[messages.ChatLine] = deque(maxlen=HISTORY)
        self.buckets: dict[Any, tuple[float, float]] = {}  # speaker -> (lines it may send now, when counted)
        self.path: Path | None = None
        self._fd: int | None = None

    def keep_log(self, table_log: Path) -> None:
        """Append every line to the chat log beside ``table_log`` (the lines already
        there are read back first: a resumed table's chat goes on)."""
        self.path = chat_log_path(table_log)
        try:
            with open(self.path, encoding="utf-8") as old:
                for raw in deque(old, maxlen=HISTORY):
                    line = json.loads(raw)
                    self.lines.append(messages.ChatLine(seat=line["seat"], name=line["name"], text=line["text"],
                                                 spectator=line["spectator"], notice=line.get("notice", False)))
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as exc:  # (a damaged chat log: the game goes on)
            log.warning("cannot read the chat log %s: %s", self.path, exc)

    def line(self, speaker: Any, seat: int | None, name: str, sent: str, limits: Limits,
             now: float | None = None) -> messages.ChatLine | tuple[str, str]:
        """The line ``speaker`` (a seat number, or a spectator's connection) says, or why
        not: an error code and a sentence."""
        text = clean_text(sent, MAX_CHAT)
        if not text:
            return "chat-empty", "That chat line has nothing printable in it."
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.get(speaker, (limits.chat_burst, now))
        tokens = min(limits.chat_burst, tokens + (now - then) * limits.chat_rate)
        if tokens < 1:
            self.buckets[speaker] = (tokens, now)
            return "chat-flood", "You are chatting too fast: wait a moment before the next line."
        self.buckets[speaker] = (tokens - 1, now)
        said = messages.ChatLine(seat=seat, name=name, text=text, spectator=seat is None)
        self.lines.append(said)
        self._write(said)
        return said

    def notice(self, text: str) -> messages.ChatLine:
        """The table's own line to everyone (``ChatLine.notice``): kept and logged like the others."""
        said = messages.ChatLine(seat=None, name="", text=text, notice=True)
        self.lines.append(said)
        self._write(said)
        return said

    def forget(self, speaker: Any) -> None:
        self.buckets.pop(speaker, None)

    def heard_by(self, seat: int | None) -> list[messages.ChatLine]:
        """The kept lines a seat (None: a spectator) may read."""
        return [line for line in self.lines if seat is None or not line.spectator]

    def _write(self, said: messages.ChatLine) -> None:
        if self.path is None:
            return
        entry = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "seat": said.seat,
                 "name": said.name, "spectator": said.spectator, "text": said.text, "notice": said.notice}
        try:
            if self._fd is None:
                from engine.storage import open_private

                self._fd = open_private(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            os.write(self._fd, (json.dumps(entry, ensure_ascii=False) + "\n").encode())
        except OSError as exc:  # (the chat goes on; only its log is short of a line)
            log.warning("cannot write the chat log %s: %s", self.path, exc)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
