"""Every test's config folder is a temporary one: the LAN certificate that hosts make and
the known-hosts file that clients pin fingerprints in (``netplay.tls``) never touch the
real one (subprocesses inherit it through the environment).  No test reads or writes a
settings file (``tui.config``) unless it names its own: a theme one test picks is not
the next test's."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_config_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("config")
    old = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(folder)
    os.environ["ATLANTIS_CONFIG"] = ""
    yield
    os.environ.pop("ATLANTIS_CONFIG", None)
    if old is None:
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        os.environ["XDG_CONFIG_HOME"] = old
