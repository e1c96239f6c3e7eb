"""The chosen theme is kept in config.toml and used at the next start; a settings file
atlantis may not read or rewrite is reported and left as it is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tui.app import AtlantisApp
from tui.config import Config, ConfigError, config_path, read_config, write_config


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "atlantis" / "config.toml"
    monkeypatch.setenv("ATLANTIS_CONFIG", str(path))
    return path


class TellingApp(AtlantisApp):
    """The app, keeping every notice it gives."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.told: list[str] = []

    def notify(self, message, **kwargs):
        self.told.append(str(message))
        super().notify(message, **kwargs)


async def start_and_pick(theme: str | None) -> tuple[str, list[str]]:
    """Start the app at the menu, pick ``theme`` (None: none), leave; the theme it
    started with and what it told the player."""
    app = TellingApp(autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        started = app.theme
        if theme is not None:
            app.theme = theme
            await pilot.pause()
    return started, app.told


def test_the_settings_file_is_config_toml_in_the_platform_config_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("ATLANTIS_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_path() == tmp_path / "atlantis" / "config.toml"


def test_empty_atlantis_config_means_no_settings_file(monkeypatch):
    monkeypatch.setenv("ATLANTIS_CONFIG", "")
    assert config_path() is None
    assert read_config(None) == Config()


def test_a_chosen_theme_is_used_at_the_next_start(settings):
    started, _ = asyncio.run(start_and_pick("textual-light"))
    assert started == "textual-dark"
    assert read_config(settings) == Config(theme="textual-light")
    assert 'theme = "textual-light"' in settings.read_text()
    started, _ = asyncio.run(start_and_pick(None))
    assert started == "textual-light"


def test_a_corrupt_settings_file_is_reported_and_not_modified(settings):
    settings.parent.mkdir(parents=True)
    settings.write_text("theme = [unclosed\n")
    before = settings.read_bytes()
    started, told = asyncio.run(start_and_pick("textual-light"))
    assert started == "textual-dark"
    assert any("not valid TOML" in line for line in told), told
    assert settings.read_bytes() == before
    with pytest.raises(ConfigError):
        write_config(settings, Config(theme="textual-light"))
    assert settings.read_bytes() == before


def test_a_settings_file_with_settings_we_do_not_know_is_not_rewritten(settings):
    settings.parent.mkdir(parents=True)
    settings.write_text('theme = "textual-dark"\nsound = true\n')
    before = settings.read_bytes()
    with pytest.raises(ConfigError, match="sound"):
        write_config(settings, Config(theme="textual-light"))
    assert settings.read_bytes() == before


def test_an_unknown_saved_theme_is_ignored(settings):
    write_config(settings, Config(theme="no-such-theme"))
    started, _ = asyncio.run(start_and_pick(None))
    assert started == "textual-dark"


def test_a_settings_path_that_is_not_a_regular_file_is_reported_not_read(settings):
    import os

    settings.parent.mkdir(parents=True)
    os.mkfifo(settings)  # (reading it would wait for a writer for ever)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_config(settings)
    with pytest.raises(ConfigError):
        write_config(settings, Config(theme="textual-light"))
    assert settings.is_fifo()
