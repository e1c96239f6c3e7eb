"""Game options without pydantic on a table's start.

A game's options are a pydantic model (its ``options_model``: validation for the menu,
the command line, the network and saved records).  Importing pydantic and building a
first model is a large part of a local table's start, while a table usually starts with
every option at its default.  So:

* ``lazy_model("engine.x.options:XOptions")`` stands for the model as a class attribute
  (``options_model``): the module is imported the first time the attribute is read;
* a game declares its defaults as plain values (``Game.option_defaults``, checked
  against the model by ``tests/test_registry.py``), and ``Game.parse_options`` answers
  options that are all defaults (``{}``, ``None``, or only default values of the default
  types, which pydantic would accept unchanged) with ``DefaultOptions``: the values,
  read as attributes and dumped with ``model_dump`` without pydantic.  Anything else a
  caller asks of it (``model_fields``, ``model_copy``...) is answered by the real model
  instance, built then.

A game's options are written once, as plain data (``OptionField`` rows: name, kind,
default, range, help) in a table ``FIELDS`` in its ``options`` module, which imports
neither pydantic nor the rules: the menu draws its fields from that table
(``engine.registry.option_fields``), and the model is built from the same table
(``build_model``) the first time the module's model class is asked for.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple, Sequence


class OptionField(NamedTuple):
    """One option of a game, without pydantic: what the menu shows and the model checks."""

    name: str
    kind: type  # bool, int or str
    default: Any
    help: str  # one line (the model's field description)
    low: int | None = None  # int: the least value allowed (None: no bound)
    high: int | None = None  # int: the greatest
    words: tuple[str, ...] = ()  # str: the only words allowed (a Literal), in the menu's order

    @property
    def annotation(self) -> Any:
        """The model's type for the field (``Literal[...]`` for a choice of words)."""
        if self.words:
            from typing import Literal

            return Literal[self.words]  # type: ignore[valid-type]
        return self.kind


def build_model(name: str, module: str, fields: Sequence[OptionField],
                validators: Mapping[str, Callable[..., Any]] | None = None) -> Any:
    """The frozen pydantic model (extra keys forbidden) with one field per row of
    ``fields``, in their order; ``validators``: pydantic ``field_validator``s by name."""
    from pydantic import ConfigDict, Field, create_model

    definitions: dict[str, Any] = {}
    for f in fields:
        bounds = {k: v for k, v in (("ge", f.low), ("le", f.high)) if v is not None}
        definitions[f.name] = (f.annotation, Field(f.default, description=f.help, **bounds))
    return create_model(name, __config__=ConfigDict(extra="forbid", frozen=True), __module__=module,
                        __validators__=dict(validators or {}), **definitions)


def model_getattr(module_globals: dict[str, Any], name: str, build: Callable[[], Any]) -> Callable[[str], Any]:
    """An options module's ``__getattr__``: its model class ``name``, built by ``build()``
    on first use and then kept in the module (pydantic is imported only then)."""

    def __getattr__(attr: str) -> Any:
        if attr != name:
            raise AttributeError(f"module {module_globals['__name__']!r} has no attribute {attr!r}")
        model = module_globals[name] = build()
        return model

    return __getattr__


class lazy_model:  # noqa: N801 (used like a class attribute)
    """A class attribute that is the model class named ``"module:Class"``, imported when
    first read (and then stored on the owning class in place of this descriptor)."""

    def __init__(self, path: str):
        self.path = path
        self.attr = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = name

    def __get__(self, obj: Any, owner: type) -> Any:
        import importlib

        module, _, name = self.path.partition(":")
        cls = getattr(importlib.import_module(module), name)
        for klass in owner.__mro__:  # store it where the descriptor was
            if klass.__dict__.get(self.attr) is self:
                setattr(klass, self.attr, cls)
                break
        return cls


def all_defaults(defaults: Mapping[str, Any], raw: Any) -> bool:
    """``raw`` (None or a mapping) sets nothing but default values, of the default's type."""
    if raw is None:
        return True
    if not isinstance(raw, Mapping):
        return False
    for key, value in raw.items():
        if key not in defaults:
            return False
        default = defaults[key]
        if type(value) is not type(default) or value != default:
            return False
    return True


class DefaultOptions:
    """A game's options, all at their defaults, standing in for the model's instance."""

    __slots__ = ("_game", "_values", "_raw", "_model")

    def __init__(self, game: Any, values: Mapping[str, Any], raw: Mapping[str, Any] | None):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_raw", dict(raw or {}))
        object.__setattr__(self, "_model", None)

    def model(self) -> Any:
        """The real (pydantic) options, built on first use."""
        if self._model is None:
            object.__setattr__(self, "_model", self._game.options_model.model_validate(self._raw))
        return self._model

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in DefaultOptions.__slots__:
            raise AttributeError(name)
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        return getattr(self.model(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("options are frozen")

    def model_dump(self, *, mode: str = "python", **kwargs: Any) -> dict[str, Any]:
        if kwargs:
            return self.model().model_dump(mode=mode, **kwargs)
        return dict(self._values)  # (defaults are plain scalars: python and json alike)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DefaultOptions):
            return type(other._game) is type(self._game) and other._values == self._values
        model = getattr(type(self._game), "options_model", None)
        if isinstance(model, type) and isinstance(other, model):
            return other == self.model()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.model())

    def __repr__(self) -> str:
        return repr(self.model())

    def __reduce__(self) -> Any:
        return (type(self), (self._game, self._values, self._raw))
