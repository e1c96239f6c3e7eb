"""The project uses Textual's public API only and patches no library (DESIGN.md "What we
optimise, and how").  The source of tui/, netplay/ and engine/ is read (AST) for:

* an import of a private Textual module or name (``textual._compositor``,
  ``from textual.widget import _RenderCache``);
* an underscore name of a Textual object or class: ``self._x`` in a subclass of a Textual
  class when Textual's classes in its ancestry have ``_x``, and in tui/ ``anything._x``
  (or ``getattr(anything, "_x")``) when ``_x`` is an underscore name of any Textual class
  (so our own widgets' helpers use names Textual does not: ``drawn_lines``, not
  ``_strips``);
* a method (or class attribute) of a subclass of a Textual class whose underscore name
  exists on its Textual ancestors (an override of Textual's internals);
* an assignment to an attribute of the standard library or another package (a module or
  anything imported from one): monkeypatching.

Every Textual upgrade then either keeps working or fails loudly in our own code.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tui", "netplay", "engine")

#: Files whose findings are known and left for now -> why.
KNOWN: dict[str, str] = {
    "tui/demo.py": "the demo renderer exports whole screens as ANSI from Textual's compositor "
                   "and waits on its refresh flags: no public API does either (to redo with a "
                   "capturing Driver, which records what a terminal would get)",
}


#: The public API of ``typing.NamedTuple`` (Textual's ``Region``, ``Size``...) has underscores.
NAMED_TUPLE = frozenset({"_fields", "_field_defaults", "_replace", "_asdict", "_make"})


def private(name: str) -> bool:
    return (name.startswith("_") and name != "_" and name not in NAMED_TUPLE
            and not (name.startswith("__") and name.endswith("__")))


def is_textual(cls: type) -> bool:
    return cls.__module__ == "textual" or cls.__module__.startswith("textual.")


@functools.cache
def classes_in(filename: str) -> dict[str, ast.ClassDef]:
    """The classes of a source file, by name (the last of a name wins)."""
    tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
    return {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


@functools.cache
def instance_names(cls: type) -> frozenset[str]:
    """The underscore attributes a Textual class sets on ``self`` in its own source."""
    try:
        node = classes_in(inspect.getfile(cls)).get(cls.__name__)
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    if node is None:
        return frozenset()
    return frozenset(n.attr for n in ast.walk(node)
                     if isinstance(n, ast.Attribute) and private(n.attr)
                     and isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))


@functools.cache
def textual_private_names(cls: type) -> frozenset[str]:
    """Every underscore name of the Textual classes in ``cls``'s ancestry."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if is_textual(klass):
            names |= {n for n in vars(klass) if private(n)} | instance_names(klass)
    return frozenset(names)


def source_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py"))


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def own(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


class Imports:
    """What each name a module imports is bound to: ``(module, attribute or None)``."""

    def __init__(self, nodes: list[ast.AST], package: str) -> None:
        self.bound: dict[str, tuple[str, str | None]] = {}
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.bound[alias.asname] = (alias.name, None)
                    else:
                        head = alias.name.split(".")[0]
                        self.bound[head] = (head, None)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if node.module else parent
                for alias in node.names:
                    self.bound[alias.asname or alias.name] = (base, alias.name)

    def foreign(self, name: str) -> str | None:
        """The other package's module a name comes from, if it does."""
        if name not in self.bound:
            return None
        module, _ = self.bound[name]
        return None if own(module) else module


def root_name(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def textual_names_loaded() -> frozenset[str]:
    """The underscore names of every Textual class loaded (with its ancestry)."""
    names: set[str] = set()
    for name, module in list(sys.modules.items()):
        if name == "textual" or name.startswith("textual."):
            for value in list(vars(module).values()):
                if isinstance(value, type) and is_textual(value):
                    names |= textual_private_names(value)
    return frozenset(names)


def find_violations(root: Path = ROOT) -> list[str]:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    files = [(path, module_name(path, root)) for path in source_files(root)]
    parsed = []
    for path, name in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        nodes = list(ast.walk(tree))
        parsed.append((path, name, tree, nodes, Imports(nodes, package)))
    for _, name, *_ in parsed:
        importlib.import_module(name)  # (every Textual module the code uses is loaded)
    textual_names = textual_names_loaded()
    found: list[str] = []
    for path, name, tree, nodes, imports in parsed:
        found += scan(path.relative_to(root).as_posix(), name, tree, nodes, imports, textual_names)
    return found


def scan(where: str, module_name: str, tree: ast.Module, nodes: list[ast.AST], imports: Imports,
         textual_names: frozenset[str]) -> list[str]:
    found: list[str] = []
    # Where Textual objects may be met (engine/ and netplay/ may not import Textual: the
    # import contracts), any underscore name Textual's classes have is taken for theirs.
    ui = module_name.split(".")[0] == "tui"

    def report(node: ast.AST, what: str) -> None:
        found.append(f"{where}:{getattr(node, 'lineno', 0)}: {what}")

    # 1. private Textual modules and names imported
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("textual.") and any(private(p) for p in alias.name.split(".")):
                    report(node, f"imports Textual's private module {alias.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            if any(private(p) for p in node.module.split(".")):
                report(node, f"imports from Textual's private module {node.module}")
            for alias in node.names:
                if private(alias.name):
                    report(node, f"imports Textual's private name {node.module}.{alias.name}")

    # 2 and 3: per class, its Textual ancestry
    module = None
    textual_self: dict[int, frozenset[str]] = {}  # id(ClassDef) -> Textual's names of its ancestry

    def visit_classes(body: list[ast.stmt], owner: object) -> None:
        nonlocal module
        for node in body:
            if not isinstance(node, ast.ClassDef):
                continue
            if module is None:
                module = importlib.import_module(module_name)
            cls = getattr(owner, node.name, None)
            if isinstance(cls, type) and any(is_textual(k) for k in cls.__mro__[1:]):
                names = textual_private_names(cls)
                textual_self[id(node)] = names
                for item in node.body:
                    defined = []
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        defined = [item.name]
                    elif isinstance(item, ast.Assign):
                        defined = [t.id for t in item.targets if isinstance(t, ast.Name)]
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        defined = [item.target.id]
                    for name in defined:
                        if private(name) and name in names:
                            report(item, f"{node.name}.{name} overrides Textual's private {name}")
            visit_classes(node.body, cls)

    if any(isinstance(n, ast.ClassDef) for n in nodes):
        visit_classes(tree.body, _LazyModule(module_name))

    def check_attributes(node: ast.AST, self_names: frozenset[str] | None) -> None:
        for child in ast.iter_child_nodes(node):
            names = textual_self.get(id(child), self_names) if isinstance(child, ast.ClassDef) else self_names
            if isinstance(child, ast.ClassDef) and id(child) not in textual_self:
                names = None
            if isinstance(child, ast.Attribute) and private(child.attr):
                value = child.value
                is_self = isinstance(value, ast.Name) and value.id in ("self", "cls")
                is_super = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"
                foreign = imports.foreign(value.id) if isinstance(value, ast.Name) else None
                if (is_self or is_super) and self_names is not None and child.attr in self_names:
                    report(child, f"{ast.unparse(child)}: Textual's private {child.attr}")
                elif foreign is not None and foreign.split(".")[0] == "textual":
                    report(child, f"{ast.unparse(child)}: Textual's private {child.attr}")
                elif ui and not (is_self or is_super) and foreign is None and child.attr in textual_names:
                    report(child, f"{ast.unparse(child)}: Textual's private {child.attr}")
            if (ui and isinstance(child, ast.Call) and isinstance(child.func, ast.Name)
                    and child.func.id in ("getattr", "setattr", "hasattr", "delattr")
                    and len(child.args) >= 2 and isinstance(child.args[1], ast.Constant)
                    and isinstance(child.args[1].value, str) and private(child.args[1].value)
                    and child.args[1].value in textual_names):
                report(child, f"{ast.unparse(child)}: Textual's private {child.args[1].value}")
            check_attributes(child, names)

    check_attributes(tree, None)

    # 4. monkeypatching: assigning to an attribute of another package's module or object
    for node in nodes:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            name = root_name(node.args[0])
            foreign = imports.foreign(name) if name else None
            if foreign is not None:
                report(node, f"calls {node.func.id}({ast.unparse(node.args[0])}, ...): patches {foreign}")
        flat: list[ast.expr] = []
        for target in targets:
            flat += target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        for target in flat:
            if isinstance(target, ast.Attribute) and ast.unparse(target) not in PROCESS_STATE:
                name = root_name(target)
                foreign = imports.foreign(name) if name else None
                if foreign is not None:
                    report(node, f"assigns {ast.unparse(target)}: patches {foreign}")
    return found


#: The process's own state, not a library's behaviour: a session forked by the SSH fork
#: server sets up its standard streams and arguments as a fresh interpreter does at start.
PROCESS_STATE = {f"sys.{name}" for name in ("stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__",
                                            "argv")}


class _LazyModule:
    """A module's namespace, imported on first look."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attribute: str) -> object:
        return getattr(importlib.import_module(self.name), attribute)


@pytest.mark.timeout(180)  # (it reads every source file of three packages and Textual's)
def test_tui_netplay_and_engine_use_textual_public_api_only_and_patch_nothing():
    found = [f for f in find_violations() if f.split(":", 1)[0] not in KNOWN]
    assert found == [], "\n".join(found)


# --- the scanner finds what it should (a tree of its own, written here) -----------------

BAD = {
    "tui/__init__.py": "",
    "tui/bad.py": '''
import re
import re._compiler
import textual._time
from textual._on import OnNoWidget
from textual.widget import _RenderCache, Widget
from textual.screen import Screen
from textual.message_pump import MessagePump


def patch():  # (never called: the scanner imports this module to find its classes)
    re._compiler.compile = None
    MessagePump._get_dispatch_methods = None
    setattr(re, "compile", None)


class Board(Widget):
    def _render_content(self):
        return self._render_cache

    def _own_helper(self):
        return self._own


class Menu(Screen):
    _layout_required = False

    def refresh_all(self, app):
        super()._refresh_layout(None)
        return app.screen._compositor, getattr(app, "_dirty_widgets"), app.animator._animations
''',
}

GOOD = {
    "tui/__init__.py": "",
    "tui/good.py": '''
import re
from textual.widget import Widget


class Board(Widget):
    def _own_helper(self):
        self._mine = re.compile("x")
        return self._mine

    def render_line(self, y):
        return self.size


class Plain:
    def _render_content(self):
        return self._compositor
''',
}


def write(tmp_path: Path, files: dict[str, str], package: str) -> Path:
    root = tmp_path / package
    for name, text in files.items():
        path = root / name.replace("tui/", f"{package}/", 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A scratch root with its own ``tui`` package, importable under that name only while
    the test runs (the real ``tui`` modules are put back afterwards)."""
    def make(files: dict[str, str]) -> Path:
        root = tmp_path / "root"
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        for package in ("netplay", "engine"):
            (root / package).mkdir(exist_ok=True)
        saved = {k: v for k, v in sys.modules.items() if k == "tui" or k.startswith("tui.")}
        for k in saved:
            monkeypatch.delitem(sys.modules, k)
        monkeypatch.syspath_prepend(str(root))
        return root
    return make


def test_the_scanner_reports_every_kind_of_private_use_and_patch(scratch):
    found = "\n".join(find_violations(scratch(BAD)))
    for expected in ("private module textual._time", "private module textual._on",
                     "private name textual.widget._RenderCache",
                     "re._compiler.compile: patches re", "MessagePump._get_dispatch_methods: patches",
                     "setattr(re", "Board._render_content overrides", "self._render_cache",
                     "Menu._layout_required overrides", "super()._refresh_layout",
                     "app.screen._compositor", "getattr(app, '_dirty_widgets')",
                     "app.animator._animations"):
        assert expected in found, f"{expected!r} not in:\n{found}"
    assert "_own_helper" not in found and "self._own" not in found


def test_the_scanner_passes_own_names_and_plain_classes(scratch):
    assert find_violations(scratch(GOOD)) == []
