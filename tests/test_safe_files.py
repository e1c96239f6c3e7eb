"""Files the app writes: never through a planted link, never over a file that is not
ours, and never a chmod of a folder the app did not make."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from engine import storage as files
from engine.record import GameRecord
from engine.storage import load_record, save_record
from netplay.log import HostLog
from tui.app import AtlantisApp
from tui.cli import build_parser, main
from tui.lan.commands import make_table

THESIS = b"Chapter 1. Nobody may overwrite this.\n"


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _record_bytes(seed: int) -> bytes:
    return GameRecord(game="pathways", rules_version="1", options={}, seats=[], seed=seed).to_bytes()


# --- temporary files ------------------------------------------------------------------------------

WRITERS = {
    "record": lambda path: save_record(GameRecord(game="pathways", rules_version="1", options={},
                                                  seats=[], seed=7), path),
    "host log": lambda path: HostLog(path).write({"magic": "x"}, []),
    "shared (demos)": lambda path: files.write_shared(path, b"demo"),
    "private (keys)": lambda path: files.write_private(path, b"key"),
}


@pytest.fixture
def planting(tmp_path, monkeypatch):
    """Plant a link to a victim file at every name a writer is about to create in the
    folder ``out``, whatever the name (the first three tries: then let it go on)."""
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    victim = tmp_path / "victim"
    victim.write_bytes(THESIS)
    victim.chmod(0o644)
    planted: list[str] = []
    real_open = os.open

    def open_with_a_link_planted(path, flags, *args, **kwargs):
        where = Path(os.fsdecode(path))
        if flags & os.O_CREAT and where.parent == out and len(planted) < 3 and not where.exists():
            os.symlink(victim, where)
            planted.append(where.name)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_with_a_link_planted)
    return out, victim, planted


@pytest.mark.parametrize("writer", list(WRITERS), ids=list(WRITERS))
def test_a_link_planted_at_the_temporary_name_is_never_followed(planting, writer):
    out, victim, planted = planting
    target = out / "game.atlrec"
    WRITERS[writer](target)
    assert planted, "the writer made no file in the folder"
    assert victim.read_bytes() == THESIS and _mode(victim) == 0o644
    assert target.is_file() and not target.is_symlink()
    # (the links planted stay where they were put; nothing else is left behind)
    assert sorted(p.name for p in out.iterdir()) == sorted(planted + ["game.atlrec"])


@pytest.mark.parametrize("writer", list(WRITERS), ids=list(WRITERS))
def test_the_old_fixed_temporary_name_is_not_followed_either(tmp_path, writer):
    victim = tmp_path / "victim"
    victim.write_bytes(THESIS)
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    (out / "game.atlrec.tmp").symlink_to(victim)
    WRITERS[writer](out / "game.atlrec")
    assert victim.read_bytes() == THESIS
    assert (out / "game.atlrec").is_file() and not (out / "game.atlrec").is_symlink()


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    def full(*_a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        files.write_private(tmp_path / "x.atlrec", b"data")
    assert list(tmp_path.iterdir()) == []


# --- folders -------------------------------------------------------------------------------------

def test_an_existing_0755_folder_is_never_chmodded_and_a_warning_says_so(tmp_path):
    folder = tmp_path / "home"
    folder.mkdir()
    folder.chmod(0o755)
    with pytest.warns(files.PrivacyWarning, match="may be entered by other users"):
        files.write_private(folder / "x.atlrec", b"data")
    assert _mode(folder) == 0o755 and _mode(folder / "x.atlrec") == 0o600


def test_folders_the_app_makes_are_0700_and_their_existing_parent_is_left_alone(tmp_path):
    parent = tmp_path / "home"
    parent.mkdir()
    parent.chmod(0o751)
    with pytest.warns(files.PrivacyWarning):  # (about nothing else: the parent holds no file of ours)
        files.private_dir(parent)
    files.write_private(parent / "a" / "b" / "x.atlrec", b"data")
    assert _mode(parent / "a") == _mode(parent / "a" / "b") == 0o700
    assert _mode(parent) == 0o751


def test_a_sticky_shared_folder_gets_no_warning_and_no_chmod(tmp_path, recwarn):
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    files.write_private(shared / "x.atlrec", b"data")
    assert _mode(shared) == 0o1777 and not [w for w in recwarn if w.category is files.PrivacyWarning]


# --- the command line: --save, --log, record OUT -------------------------------------------------

@pytest.fixture
def thesis(tmp_path) -> Path:
    path = tmp_path / "thesis.atlrec"
    path.write_bytes(THESIS)
    path.chmod(0o644)
    return path


@pytest.fixture
def no_screen(monkeypatch):
    """``atlantis play`` builds its table (and saves it) but opens no screen."""
    monkeypatch.setattr(AtlantisApp, "run", lambda self, *a, **k: None)


@pytest.mark.parametrize("argv", [
    ["play", "pathways", "--save"], ["play", "pathways", "--force", "--save"], ["play", "--save"],
    ["host", "pathways", "--headless", "--log"], ["host", "pathways", "--headless", "--force", "--log"],
    ["record", "--force", "--", "{}", "pathways"],
], ids=["play", "play --force", "play (menu)", "host", "host --force", "record --force"])
def test_a_file_that_is_not_ours_is_never_replaced(thesis, capsys, no_screen, argv):
    argv = [str(thesis) if a == "{}" else a for a in argv] if "{}" in argv else argv + [str(thesis)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{thesis} already exists and is not an atlantis" in err and "left as it is" in err
    assert err.count("\n") == 1
    assert thesis.read_bytes() == THESIS and _mode(thesis) == 0o644


@pytest.mark.parametrize("argv", [["play", "pathways", "--save"], ["host", "pathways", "--headless", "--log"]],
                         ids=["play", "host"])
def test_a_record_is_replaced_only_with_force(tmp_path, capsys, no_screen, argv):
    old = tmp_path / "old.atlrec"
    old.write_bytes(_record_bytes(1))
    assert main(argv + [str(old)]) == 2
    assert "already holds an atlantis record: add --force to replace it" in capsys.readouterr().err
    assert old.read_bytes() == _record_bytes(1)


def test_play_save_force_replaces_a_record(tmp_path, no_screen):
    old = tmp_path / "old.atlrec"
    old.write_bytes(_record_bytes(1))
    assert main(["play", "pathways", "--seed", "5", "--save", str(old), "--force"]) == 0
    assert load_record(old).seed == 5 and _mode(old) == 0o600


def test_host_log_force_replaces_a_record(tmp_path):
    old = tmp_path / "old.atlrec"
    old.write_bytes(_record_bytes(1))
    table = make_table(build_parser().parse_args(["host", "pathways", "--seed", "5", "--headless",
                                                  "--log", str(old), "--force"]))
    table.write_log()
    table.log.close()
    assert load_record(old).seed == 5


def test_record_refuses_a_demo_without_force(tmp_path, capsys):
    demo = tmp_path / "old.demo"
    demo.write_text('{"format": 1, "play": {"game": "pathways"}, "keys": []}\n')
    before = demo.read_bytes()
    assert main(["record", str(demo), "pathways"]) == 2
    assert "already holds an atlantis demo: add --force" in capsys.readouterr().err
    assert demo.read_bytes() == before


def test_a_new_name_and_dev_null_are_fine(tmp_path, no_screen):
    new = tmp_path / "made" / "new.atlrec"
    assert main(["play", "pathways", "--seed", "5", "--save", str(new)]) == 0
    assert load_record(new).seed == 5 and _mode(new) == 0o600 and _mode(new.parent) == 0o700
    assert main(["play", "pathways", "--seed", "5", "--save", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
