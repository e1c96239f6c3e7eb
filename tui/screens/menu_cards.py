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


#: The help's paragraph about each game (the ``?`` screen of the menu), in our own words.
ABOUT: dict[str, str] = {
    "atlantis": "Atlantis is sinking: lead your three figures from Atlantis along a road of "
                "coloured plates to the mainland. Play a card and a figure goes on to the next "
                "free plate of that colour, then take the first free plate behind it. Crossing "
                "water costs plates or cards. The game ends when a player's third figure "
                "arrives; plates score their value, cards 1 each.",
    "end-of-atlantis": "The island sinks in three Doom! cards. Bid in secret for the Senate, "
                       "play Factions, cast five votes a turn and send your people aboard the "
                       "ships to the Promised Land. Every secret choice is made by all at once, "
                       "behind the curtain in hot-seat.",
    "finding-atlantis": "Hidden movement and deduction on a 6x6 or 8x8 ocean: each screen is "
                        "that player's own chart. Play Sonar, Jelly Rod, Explore and silent "
                        "moves, note the private answers, and be first to name every Atlantis "
                        "space. Solo: you against the U-Bot.",
    "pathways": "Lay path tiles from your corner towards the sunken city in the middle of the "
                "sea floor, and play action tiles to move or trade; the first subpod inside "
                "the city wins.",
    "survive": "The island sinks a tile a turn. Walk your explorers to the coast, into boats "
               "and across the sea to the safe islands, past sea serpents, sharks and whales; "
               "when the volcano erupts, the treasure of your saved explorers is counted.",
}


def card_for(slug: str, title: str = "") -> GameCard:
    """The card of a game; a plain one (its title only) for a game without a card yet."""
    return CARDS.get(slug) or GameCard(slug, title or slug, ("",))
