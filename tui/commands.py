"""The command registry: one table of commands feeds the bindings, the footer, the command
palette and the help screen's key list (the pattern of davep/braindrop).

A screen states its keys once, as ``COMMAND_TABLE``, a tuple of ``Command`` rows (id, key,
label, help text, action, whether the footer shows it), and derives the rest:

- ``BINDINGS = bindings(COMMAND_TABLE)``: Textual's bindings, each with the command's id
  (so keys can be remapped through the keymap) and its footer label;
- ``palette_commands(screen)``: what ``AtlantisApp.get_system_commands`` offers in the
  command palette (only the commands the screen's ``check_action`` allows now);
- ``key_list(COMMAND_TABLE)``: the Markdown table of keys that the help screen appends to
  the game's rules.

(Named ``COMMAND_TABLE``, not ``COMMANDS``: Textual uses ``COMMANDS`` for palette providers.)
A leaf module: it imports Textual and nothing of ``tui``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from textual.actions import parse
from textual.binding import Binding


@dataclass(frozen=True)
class Command:
    """One thing a player can do on a screen, and every way it is offered."""

    id: str                        # the Binding id (stable: keymaps refer to it)
    key: str                       # Textual key name(s), comma-separated
    label: str                     # footer label, and the palette's title
    action: str                    # the action string the key runs
    help: str = ""                 # one sentence for the palette and the help key list
    show: bool = True              # shown in the footer
    key_display: str | None = None  # how the footer and the help name the key
    priority: bool = False
    palette: bool | None = None    # offered in the palette (default: when it has help text)

    def binding(self) -> Binding:
        return Binding(self.key, self.action, self.label, show=self.show, key_display=self.key_display,
                       priority=self.priority, id=self.id)

    @property
    def in_palette(self) -> bool:
        return bool(self.help) if self.palette is None else self.palette

    @property
    def keys_shown(self) -> str:
        """The key as a player reads it in the help ("?", "Enter", "1-4")."""
        if self.key_display:
            return self.key_display
        return ", ".join(_KEY_WORDS.get(k, k) for k in self.key.split(","))


_KEY_WORDS = {
    "question_mark": "?", "enter": "Enter", "escape": "Esc", "tab": "Tab", "shift+tab": "Shift+Tab",
    "left": "←", "right": "→", "up": "↑", "down": "↓", "home": "Home", "end": "End",
    "comma": ",", "full_stop": ".", "ctrl+q": "Ctrl+Q",
}


def bindings(table: Iterable[Command]) -> list[Binding]:
    """The screen's ``BINDINGS``, in table order (the footer shows them in this order)."""
    return [command.binding() for command in table]


def key_list(table: Iterable[Command]) -> str:
    """A Markdown table of the keys that have help text (one row per key; a command
    without help text, such as "Pick 2" beside "1-4 Pick", is covered by another row)."""
    rows = [f"| `{_cell(c.keys_shown)}` | {_cell(c.help)} |" for c in table if c.help]
    if not rows:
        return ""
    return "\n".join(["## Keys", "", "| Key | What it does |", "|---|---|", *rows]) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def help_markdown(rules: str, table: Iterable[Command]) -> str:
    """The game's rules followed by the screen's key list."""
    keys = key_list(table)
    return rules if not keys else rules.rstrip() + "\n\n" + keys


def palette_commands(screen: Any) -> Iterator[tuple[str, str, Any]]:
    """``(title, help, callback)`` for each palette command that ``screen`` allows now.

    The check is the one the footer uses: the screen's (or, for ``app.`` actions, the
    app's) ``check_action`` must answer True."""
    table = getattr(screen, "COMMAND_TABLE", ())
    seen: set[str] = set()
    for command in table:
        if not command.in_palette or command.label in seen:
            continue
        namespace, name, params = parse(command.action)
        target = screen.app if namespace == "app" else screen
        if target.check_action(name, params) is not True:
            continue
        seen.add(command.label)
        yield command.label, command.help, functools.partial(screen.run_action, command.action)
