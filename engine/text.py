"""What every game's event text shares: one ``who()`` with its object and possessive
forms, and the table that turns an event into words and its log line (``core.LogLine``).

A game's ``text.py`` says each event kind as a format string (or, where a template
cannot say it, a small function of the event's ``Telling``) in one ``EventText`` named
``EVENT_TEXT``, which ``Game.describe`` reads.  The
log line it gives carries who acted and the event's kind beside the words, so screens
group and summarise lines by seat and kind, never by reading the sentences.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping, Sequence

from .core import Event, LogLine


def counted(number: int, noun: str, plural: str = "") -> str:
    """A count and its noun in agreement: ``counted(1, "token")`` is "1 token",
    ``counted(2, "token")`` "2 tokens" (``plural`` where adding an "s" is wrong): never
    "1 tokens" or "token(s)"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def who(seat: int, viewer: int | None, names: Sequence[str]) -> str:
    """A seat as the subject of a sentence: "You" to itself, else its name."""
    return "You" if seat == viewer else names[seat]


def whom(seat: int, viewer: int | None, names: Sequence[str]) -> str:
    """A seat as the object of a sentence: "you" to itself, else its name."""
    return "you" if seat == viewer else names[seat]


def whose(seat: int, viewer: int | None, names: Sequence[str]) -> str:
    """A seat as an owner: "your" to itself, else "Blue's"."""
    return "your" if seat == viewer else f"{names[seat]}'s"


@dataclass(frozen=True, slots=True)
class Person:
    """A seat named from one viewer's side; in a template ``{target}`` is its name and
    ``{target.who}``, ``{target.whom}``, ``{target.whose}`` its viewer-relative forms."""

    seat: int
    viewer: int | None
    names: Sequence[str]

    @property
    def name(self) -> str:
        return self.names[self.seat]

    @property
    def who(self) -> str:
        return who(self.seat, self.viewer, self.names)

    @property
    def whom(self) -> str:
        return whom(self.seat, self.viewer, self.names)

    @property
    def whose(self) -> str:
        return whose(self.seat, self.viewer, self.names)

    @property
    def Whose(self) -> str:  # noqa: N802  (the form that starts a sentence)
        words = self.whose
        return words[0].upper() + words[1:]

    def __str__(self) -> str:
        return self.name


class Telling:
    """One event's words for one viewer, as a template reads them (``format_map``):
    ``{who}``, ``{whom}``, ``{whose}``, ``{Whose}`` name the event's seat; any other name
    is the event's data field of that key, said through the game's field table (a seat
    field as a ``Person``)."""

    PERSON_FORMS = ("who", "whom", "whose", "Whose")

    def __init__(self, event: Event, viewer: int | None, names: Sequence[str], text: "EventText"):
        self.event = event
        self.data = event.data
        self.viewer = viewer
        self.names = names
        self._text = text

    def person(self, seat: int) -> Person:
        return Person(seat, self.viewer, self.names)

    @property
    def seat(self) -> Person:
        """The seat the event is about (its ``seat`` field)."""
        return self.person(self.data["seat"])

    @property
    def you(self) -> bool:
        """The viewer is the event's seat (its words say "you": "You lose", "Blue loses")."""
        return self.data["seat"] == self.viewer

    @property
    def who(self) -> str:
        return self.seat.who

    @property
    def whom(self) -> str:
        return self.seat.whom

    @property
    def whose(self) -> str:
        return self.seat.whose

    @property
    def Whose(self) -> str:  # noqa: N802  (the form that starts a sentence)
        return self.seat.Whose

    def __getitem__(self, key: str) -> Any:
        if key in self.PERSON_FORMS:
            return getattr(self, key)
        in_context = self._text.context_fields.get(key)
        if in_context is not None:
            return in_context(self)
        value = self.data[key]
        if key in self._text.seats:
            return self.person(value)
        said = self._text.fields.get(key)
        return said(value) if said is not None else value


def whose_turn(telling: Telling) -> str:
    """The words of a "turn" event in most games: "Your turn." to the seat whose turn it
    is, "Blue to play." to everyone else."""
    return "Your turn." if telling.you else f"{telling.seat.name} to play."


#: A kind's words: a format string over a ``Telling``, or a function of one.
Template = str | Callable[[Telling], str]


@dataclass(frozen=True)
class EventText:
    """A game's event text as data.

    ``templates``: kind -> its words.  ``fields``: how a data field is said, by its key
    (the same key means the same thing in every event of the game).  ``context_fields``:
    the same for a field said with the help of other fields or of the viewer (a cell
    named on its map's size, "your explorer #2"): key -> function of the ``Telling``.
    ``seats``: the keys besides ``seat`` whose value is a seat.  ``announcements``: kinds
    whose ``seat`` is told about rather than acting (whose turn it is): no actor.
    ``runs``: kinds whose words tell a run of like events (``LogLine.run``): the log says
    them once while the same seat repeats them."""

    templates: Mapping[str, Template]
    fields: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    context_fields: Mapping[str, Callable[[Telling], Any]] = field(default_factory=dict)
    seats: Collection[str] = ()
    announcements: Collection[str] = ("turn",)
    runs: Collection[str] = ()

    def words(self, event: Event, viewer: int | None, names: Sequence[str]) -> str:
        template = self.templates.get(event.kind)
        if template is None:
            return event.kind
        telling = Telling(event, viewer, names, self)
        return template(telling) if callable(template) else template.format_map(telling)

    def actor(self, event: Event) -> int | None:
        seat = event.data.get("seat")
        if event.kind in self.announcements or not isinstance(seat, int) or seat < 0:
            return None
        return seat

    def line(self, event: Event, viewer: int | None, names: Sequence[str]) -> LogLine:
        return LogLine(self.actor(event), event.kind, self.words(event, viewer, names), event.kind in self.runs)
