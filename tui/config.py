"""The player's settings kept between starts: ``config.toml`` in the platform's config folder.

It holds one setting today, the theme (``theme = "textual-light"``), written when the
player picks a theme and read at the next start.  ``ATLANTIS_CONFIG`` names another file
(serve-ssh gives each client key its own), or, set empty, none at all.

The file is written by hand (one line per setting, no TOML writer needed) and only
when it is ours: a file we cannot read, or one that holds settings we do not know, is
reported and left as it is, never overwritten.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App
    from textual.theme import Theme

#: The environment variable that names the settings file ("" for none).
CONFIG_ENV = "ATLANTIS_CONFIG"
#: The settings this version reads and writes.
KNOWN = ("theme",)
HEADER = "# atlantis settings, written by atlantis when you change them (see the README).\n"


class ConfigError(Exception):
    """The settings file is there but is not one we may read or rewrite (the message says why)."""


@dataclass(frozen=True)
class Config:
    theme: str | None = None


def config_path() -> Path | None:
    """Where the settings live: ``ATLANTIS_CONFIG`` if set (None when set empty), else
    ``config.toml`` in the platform's config folder."""
    named = os.environ.get(CONFIG_ENV)
    if named is not None:
        return Path(named) if named else None
    from platformdirs import user_config_dir

    return Path(user_config_dir("atlantis", appauthor=False)) / "config.toml"


def read_config(path: Path | None) -> Config:
    """The settings in ``path`` (defaults when there is no file); ConfigError when the
    file cannot be read as TOML or holds a setting of the wrong kind."""
    theme = _settings(path).get("theme")
    if theme is not None and not isinstance(theme, str):
        raise ConfigError(f"{path}: theme should be a name in quotes; the file is left as it is")
    return Config(theme=theme)


def write_config(path: Path | None, config: Config) -> None:
    """Save ``config`` to ``path``, replacing the file whole; ConfigError (and the file
    untouched) when the file there is not ours to rewrite."""
    if path is None:
        return
    unknown = set(_settings(path)) - set(KNOWN)  # (raises for a file we cannot read)
    if unknown:
        raise ConfigError(f"{path} holds settings atlantis does not know ({', '.join(sorted(unknown))}); "
                          "it is left as it is")
    lines = [HEADER]
    if config.theme is not None:
        lines.append(f"theme = {json.dumps(config.theme)}\n")  # (a JSON string is a TOML basic string)
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(f".{path.name}.{os.getpid()}.new")  # (two sessions of one key may save at once)
    fresh.write_text("".join(lines), encoding="utf-8")
    os.replace(fresh, path)


def _settings(path: Path | None) -> dict[str, object]:
    """The file's TOML table ({} when there is no file)."""
    if path is None or not os.path.lexists(path):
        return {}
    if not path.is_file():  # (a FIFO would hang the start, a folder cannot be read)
        raise ConfigError(f"{path} is not a regular file; it is left as it is")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); it is left as it is") from exc


def keep_theme(app: App) -> None:
    """At an app's mount: use the saved theme, and save the theme each time the player
    picks another (the command palette's "Change theme").  A settings file we may not
    read or rewrite is reported once and left as it is."""
    path = config_path()
    try:
        saved = read_config(path)
    except ConfigError as exc:
        app.notify(f"Settings not used: {exc}.", severity="warning", timeout=10)
        return
    if saved.theme is not None and saved.theme in app.available_themes:
        app.theme = saved.theme

    written = [saved.theme]

    def save(theme: Theme) -> None:
        if theme.name == written[-1]:
            return
        try:
            write_config(path, Config(theme=theme.name))
        except (ConfigError, OSError) as exc:
            app.notify(f"The theme is not saved: {exc}.", severity="warning", timeout=10)
        else:
            written.append(theme.name)

    app.theme_changed_signal.subscribe(app, save)
