"""Finding Atlantis -- the actions a seat can take, as small immutable values.

One NamedTuple per kind of step; ``CODEC`` validates them from the keyboard, the
wire and record files.  Below them: the checks every effect makes of an action's
arguments, and the candidate actions ``legal()`` offers, prebuilt where they do
not depend on the view (``legal`` runs once per decision in self-play).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..core import ActionCodec, IllegalAction
from . import data


class ChooseCaptain(NamedTuple):
    captain: str


class FirstMove(NamedTuple):
    dir: int


class Sonar(NamedTuple):
    pass


class JellyRod(NamedTuple):
    axis: int


class Explore(NamedTuple):
    pass


class Silent(NamedTuple):
    dir: int


class LongSilent(NamedTuple):
    dir: int


class Surface(NamedTuple):
    pass


class Periscope(NamedTuple):
    pass


class DropMine(NamedTuple):
    dir: int


class Burn(NamedTuple):
    card: str
    dir: int


class UseCaptain(NamedTuple):
    arg: int = -1     # axis, direction or seat (see data.CAPTAINS)
    steps: int = 0    # Speed Captain only


class UseArtifact(NamedTuple):
    artifact: str
    arg: int = -1     # direction, seat or cell (see data.ARTIFACTS)
    dir: int = -1     # Whirlpool Stone: the direction of the push


class PickCell(NamedTuple):
    cell: int


class Declare(NamedTuple):
    pass


class EndTurn(NamedTuple):
    pass


# The codec's kind names are part of every record file: never rename one.
ACTIONS = {
    "choose_captain": ChooseCaptain, "first_move": FirstMove, "sonar": Sonar, "rod": JellyRod,
    "explore": Explore, "silent": Silent, "long": LongSilent, "surface": Surface,
    "periscope": Periscope, "mine": DropMine, "burn": Burn, "captain": UseCaptain,
    "artifact": UseArtifact, "pick": PickCell, "declare": Declare, "end_turn": EndTurn,
}
CODEC = ActionCodec(ACTIONS)

# Playing an action card: card id -> the action that plays it, and back.
CARD_ACTION = {"sonar": Sonar, "rod": JellyRod, "explore": Explore, "silent": Silent,
               "long": LongSilent, "surface": Surface, "periscope": Periscope, "mine": DropMine}
CARD_OF_ACTION = {cls: card for card, cls in CARD_ACTION.items()}


# --- argument checks (the same sentence wherever the argument comes up) -------------------
def check_dir(d: int) -> None:
    if not 0 <= d < 8:
        raise IllegalAction("Pick one of the 8 compass directions.")


def check_axis(axis: int) -> None:
    if not 0 <= axis < 4:
        raise IllegalAction("Pick one of the 4 axes.")


def check_cell(n: int, cell: int) -> None:
    if not 0 <= cell < n * n:
        raise IllegalAction("Choose a space on the map.")


def check_other_seat(players: int, seat: int, target: int) -> int:
    if not 0 <= target < players or target == seat:
        raise IllegalAction("Choose another player.")
    return target


# --- the candidates legal() offers -------------------------------------------------------
def _dirs(cls: type) -> tuple[Any, ...]:
    return tuple(cls(d) for d in range(8))


CARD_CHOICES: dict[str, tuple[Any, ...]] = {
    "sonar": (Sonar(),), "rod": tuple(JellyRod(a) for a in range(4)), "explore": (Explore(),),
    "surface": (Surface(),), "periscope": (Periscope(),), "silent": _dirs(Silent),
    "long": _dirs(LongSilent), "mine": _dirs(DropMine),
}
# Burning a card for a public move: one action per direction; none for an unburnable card.
BURN_CHOICES: dict[str, tuple[Burn, ...]] = {
    card: () if card in data.UNBURNABLE else tuple(Burn(card, d) for d in range(8)) for card in data.CARDS}


def _others(view: Any) -> list[int]:
    return [o for o in range(view.players) if o != view.seat]


_CAPTAIN_FIXED = {
    "axis": tuple(UseCaptain(a) for a in range(4)),
    "dir": tuple(UseCaptain(d) for d in range(8)),
    "dir_steps": tuple(UseCaptain(d, k) for d in range(8) for k in (1, 2, 3)),
    "": (UseCaptain(),),
}

# Argument kind (data.CAPTAINS / data.ARTIFACTS) -> the actions it allows, given the view.
CAPTAIN_CHOICES: dict[str, Callable[[Any], list[Any]]] = {
    **{kind: (lambda view, fixed=fixed: list(fixed)) for kind, fixed in _CAPTAIN_FIXED.items()},
    "seat": lambda view: [UseCaptain(o) for o in _others(view)],
}
ARTIFACT_CHOICES: dict[str, Callable[[Any, str], list[Any]]] = {
    "dir": lambda view, art: [UseArtifact(art, d) for d in range(8)],
    "seat": lambda view, art: [UseArtifact(art, o) for o in _others(view)],
    "seat_dir": lambda view, art: [UseArtifact(art, o, d) for o in _others(view) for d in range(8)],
    "cell": lambda view, art: [UseArtifact(art, c) for c in range(view.n * view.n)],
    "": lambda view, art: [UseArtifact(art)],
}


def card_actions(card: str) -> list[Any]:
    return list(CARD_CHOICES[card])


def captain_actions(view: Any, cap: str) -> list[Any]:
    return CAPTAIN_CHOICES[data.CAPTAINS[cap][2]](view)


def artifact_actions(view: Any, art: str) -> list[Any]:
    return ARTIFACT_CHOICES[data.ARTIFACTS[art][3]](view, art)
