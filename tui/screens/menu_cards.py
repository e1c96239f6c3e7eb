"""What the menu's game list shows for each game: a one-line pitch and a small text
picture (a data table, in our own words; the player counts come from the engine).

A picture is 3-5 lines of at most ``PICTURE_WIDTH`` characters, drawn with plain
box-drawing and ASCII so that it reads in any terminal and without colour.
"""

from __future__ import annotations

from dataclasses import dataclass

PICTURE_WIDTH = 24
PITCH_WIDTH = 40


@dataclass(frozen=True)
class GameCard:
    slug: str
    pitch: str            # one line (at most PITCH_WIDTH characters): what you do in this game
    picture: tuple[str, ...]


CARDS: dict[str, GameCard] = {card.slug: card for card in (
    GameCard("atlantis",
             "Run a road of sinking plates to land.",
             ("  ~~ ATLANTIS ~~",
              "  [A][C]  [J]  [L][N]",
              "   |  road of plates |",
              "  ~~~~ water ~~~~ >> ##",
              "               mainland")),
    GameCard("end-of-atlantis",
             "Bid in secret to get your people aboard.",
             ("    _/|_    _/|_",
              "   |_A__|  |_B__|  ~~",
              "  ~~~~~~~~~~~~~~~~~~~~",
              "  Senate: ? ? ? (bids)",
              "  -> the Promised Land")),
    GameCard("finding-atlantis",
             "Sonar and logic: chart the sunken city.",
             ("  . . ^ . . .",
              "  . ^ # ^ . .   sonar",
              "  . . ^ . s .   ((o))",
              "  . . . . . .",
              "  chart: # city ^ mount")),
    GameCard("pathways",
             "Lay paths on the sea floor to the city.",
             ("  R══╗           ╔══B",
              "     ╚═══╗   ╔═══╝",
              "        [CITY]",
              "     ╔═══╝   ╚═══╗",
              "  G══╝           ╚══Y")),
    GameCard("survive",
             "Get explorers off before the volcano.",
             ("     .-^^-.   volcano",
              "  __/ o  o \\__ island",
              " ~~~~~~~~~~~~~~~~~~~~~~",
              "  [boat]~>   ~S~ shark",
              "  safe island <~ o")),
)}


def card_for(slug: str, title: str = "") -> GameCard:
    """The card of a game; a plain one (its title only) for a game without a card yet."""
    return CARDS.get(slug) or GameCard(slug, title or slug, ("",))
