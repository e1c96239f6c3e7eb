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


#: Files holding the suite's longest tests (a browser, SSH sessions, a wheel built and
#: installed, servers killed and restarted, long property runs), longest first.  They run
#: before the rest, so that with ``-n 2`` the last tests handed out are short ones and
#: both workers finish together instead of one waiting on a long test begun last.
LONG_FIRST = ("test_web_browser.py", "test_ssh_drop.py", "test_install.py", "test_netplay_fuzz.py",
              "test_pathways_leak.py", "test_demo.py", "test_public_api_only.py", "test_netplay_restart.py",
              "test_end_of_atlantis_turn_reading.py", "test_pathways_legal_oracle.py", "test_ssh_serve.py",
              "test_survive_leak.py", "test_netplay_identities.py", "test_board_changed_lines.py",
              "test_netplay_faults.py", "test_lessons_screen.py", "test_atlantis_leak.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of ``LONG_FIRST`` first, in its order; every file keeps its own order."""
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))
