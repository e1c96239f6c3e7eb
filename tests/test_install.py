"""Installed the way a user installs a tool (a wheel into a fresh venv, as pipx or
`uv tool install` do), atlantis has its setups and demos; and every install of the repo
uses exactly the versions locked in constraints.txt."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from importlib.metadata import PackageNotFoundError, distribution, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from pty_terminal import Terminal, private_env

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "netplay", "tui", "pyproject.toml", "README.md", "LICENSE")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding only the built wheel; the dependencies come from this test
    run's environment through a .pth line (the wheel brings none of them, and no file of
    the repository is on its path)."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy2
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                             if (ROOT / name).is_dir() else {}))
    wheels = base / "wheels"
    wheels.mkdir()
    build = f"from setuptools import build_meta; build_meta.build_wheel({str(wheels)!r})"  # (PEP 517, as pip does)
    subprocess.run([sys.executable, "-c", build], check=True, timeout=240, capture_output=True, cwd=source)
    wheel = next(wheels.glob("atlantis_table-*.whl"))
    target = base / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=240, capture_output=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return target


def atlantis(venv_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv_dir / "bin" / "atlantis"), *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env=private_env(cwd), stdin=subprocess.DEVNULL)


@pytest.mark.timeout(300)
def test_the_installed_package_is_the_wheel_not_the_repository(installed, tmp_path):
    where = subprocess.run([str(installed / "bin" / "python"), "-c", "import tui; print(tui.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert str(installed) in where and str(ROOT) not in where


@pytest.mark.timeout(300)
def test_an_installed_wheel_lists_every_setup(installed, tmp_path):
    from tui.setups import load_setups

    done = atlantis(installed, "setups", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0] for line in done.stdout.splitlines()}
    assert listed == set(load_setups()) and "pathways-duel" in listed


@pytest.mark.timeout(300)
def test_an_installed_wheel_renders_a_bundled_demo_by_name(installed, tmp_path):
    cast = tmp_path / "pathways.cast"
    done = atlantis(installed, "demo", "render", "pathways", "--cast", str(cast), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert cast.read_text().startswith('{"version": 2')


@pytest.mark.timeout(300)
@pytest.mark.parametrize("args, shows", [(["play", "--setup", "pathways-duel", "--no-autosave"], b"Red"),
                                         (["demo", "play", "pathways", "--speed", "0.2"], b"Red")],
                         ids=["play-setup", "demo-play"])
def test_an_installed_wheel_plays_a_setup_and_a_bundled_demo_in_a_terminal(installed, tmp_path, args, shows):
    terminal = Terminal([str(installed / "bin" / "atlantis"), *args], private_env(tmp_path), tmp_path)
    try:
        terminal.wait_for(shows, timeout=60)
        terminal.read_for(1.0)
        terminal.send(b"\x03")
        assert terminal.exit_code() == 130
        assert b"Traceback" not in terminal.seen and b"unknown setup" not in terminal.seen
    finally:
        terminal.close()


def locked_versions() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].split(";")[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            pins[canonical(name)] = pinned
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_package_the_project_needs_is_locked_and_installed_at_its_pin():
    """Walk the requirements of atlantis-table[test] through every installed package: each
    is pinned in constraints.txt, and this environment (made by `make`) has that version."""
    pins = locked_versions()
    seen: set[str] = set()
    todo = [(name, extras) for name, extras in [("atlantis-table", {"test"})]]
    problems = []
    while todo:
        name, extras = todo.pop()
        for text in requires(name) or []:
            requirement = Requirement(text)
            wanted = any(requirement.marker is None or requirement.marker.evaluate({"extra": extra})
                         for extra in (extras or {""}))
            key = canonical(requirement.name)
            if not wanted or key in seen:
                continue
            seen.add(key)
            try:
                installed_version = distribution(requirement.name).version
            except PackageNotFoundError:
                problems.append(f"{requirement.name} is required but not installed")
                continue
            if key not in pins:
                problems.append(f"{requirement.name} is not locked in constraints.txt")
            elif pins[key] != installed_version:
                problems.append(f"{requirement.name} {installed_version} installed, {pins[key]} locked")
            todo.append((requirement.name, set(requirement.extras)))
    assert problems == [] and len(seen) > 20
