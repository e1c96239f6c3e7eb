"""Game options: a plain frozen dataclass per game, built from the game's field table,
with pydantic only where options come in from outside.

A game's options are written once, as plain data (``OptionField`` rows: name, kind,
default, range, help) in a table ``FIELDS`` in its ``options`` module, which imports
neither pydantic nor the rules.  From that table:

* the menu draws its fields (``engine.registry.option_fields``);
* ``options_class`` makes the game's options type (its ``Game.options_model``), a
  frozen dataclass whose defaults are the table's: what ``setup`` reads;
* ``outside_model`` makes the pydantic model that checks options coming from outside (the
  command line's ``-o``, the menu, the wire, a record file), built the first time such
  options are not all defaults, so a table started at its defaults never imports pydantic.

``read_options`` turns what came in (None, a mapping, or the options themselves) into the
options; ``options_data`` turns them back into plain data for a record or the wire.
"""

from __future__ import annotations

from dataclasses import asdict, field, make_dataclass
from typing import Any, Callable, Literal, Mapping, NamedTuple, Sequence


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
            return Literal[self.words]  # type: ignore[valid-type]
        return self.kind


Check = Callable[[Any], Any]  # a value from outside -> the value kept; ValueError: refused


def options_class(name: str, module: str, table: Sequence[OptionField],
                  checks: Mapping[str, Check] | None = None) -> type:
    """The frozen dataclass with one field per row of ``table``, in its order, each
    defaulting to the row's default.  ``checks``: a game's own rules for a value from
    outside, by option name (beyond the row's kind, range and words)."""
    cls = make_dataclass(name, [(row.name, row.annotation, field(default=row.default)) for row in table],
                         frozen=True)
    cls.__module__ = module
    cls.FIELDS = tuple(table)
    cls.CHECKS = dict(checks or {})
    cls.MODEL = None  # the pydantic model, once options came from outside (outside_model)
    return cls


def outside_model(options: type) -> Any:
    """The frozen pydantic model (extra keys forbidden) checking options of the type
    ``options`` that come from outside, built from the same table on first use."""
    if options.MODEL is None:
        from pydantic import ConfigDict, Field, create_model, field_validator

        definitions: dict[str, Any] = {}
        for row in options.FIELDS:
            bounds = {k: v for k, v in (("ge", row.low), ("le", row.high)) if v is not None}
            definitions[row.name] = (row.annotation, Field(row.default, description=row.help, **bounds))
        validators = {f"_check_{name}": field_validator(name)(classmethod(_as_validator(check)))
                      for name, check in options.CHECKS.items()}
        options.MODEL = create_model(f"{options.__name__}Model", __module__=options.__module__,
                                     __config__=ConfigDict(extra="forbid", frozen=True),
                                     __validators__=validators, **definitions)
    return options.MODEL


def _as_validator(check: Check) -> Callable[[Any, Any], Any]:
    """A check as a pydantic validator: its ValueError's sentence alone, without
    pydantic's "Value error, " before it."""

    def validate(cls: Any, value: Any) -> Any:
        from pydantic_core import PydanticCustomError

        try:
            return check(value)
        except ValueError as exc:
            raise PydanticCustomError("option", str(exc)) from None

    return validate


def all_defaults(table: Sequence[OptionField], raw: Any) -> bool:
    """``raw`` (None or a mapping) sets nothing but default values, of the default's type."""
    if raw is None:
        return True
    if not isinstance(raw, Mapping):
        return False
    defaults = {row.name: row.default for row in table}
    for key, value in raw.items():
        if key not in defaults:
            return False
        default = defaults[key]
        if type(value) is not type(default) or value != default:
            return False
    return True


def read_options(options: type, raw: Any) -> Any:
    """The options of the type ``options`` from ``raw``: the options themselves, or None
    or a mapping from outside (checked by ``outside_model`` unless it sets nothing but
    defaults).  A ValueError names the first option that is wrong."""
    if isinstance(raw, options):
        return raw
    if all_defaults(options.FIELDS, raw):
        return options()
    from pydantic import ValidationError

    try:
        checked = outside_model(options).model_validate(dict(raw or {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"bad option {where}: {first['msg']}") from None
    return options(**{row.name: getattr(checked, row.name) for row in options.FIELDS})


def options_data(options: Any) -> dict[str, Any]:
    """The options as plain data (every value a bool, int or str), for a record or the wire."""
    return asdict(options)
