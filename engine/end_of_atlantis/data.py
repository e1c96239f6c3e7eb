"""End of Atlantis: every component as data.

Counts and tables come from the rule text (seed 003) and the project's
RULES-DECISIONS.md (Royal Ship chart, event symbols and neutral refugees, the 25
special cards).  Change a figure here, not in the rules code.
"""

from __future__ import annotations

# --- players -----------------------------------------------------------------------
MIN_PLAYERS, MAX_PLAYERS = 2, 5
CUBES = 20                 # influence tokens / refugees per player
START_VP = 2
HAND = 7                   # Politics cards in hand
START_SPECIALS = 2
VOTE_CARDS = 5             # cards each player lays out for the Voting phase
DOOMED_2P_CARDS = 3        # "We're All Doomed" in a 2-player game
NEUTRAL = 5                # colour index of the black neutral refugees in cube tuples
COLOURS = 6                # five player colours + neutral
NEUTRAL_TOKENS = 10
START_NEUTRALS = 2         # on the largest ship at setup
TRACK = 60                 # victory track spaces 0-59 (laps are counted)

# --- Politics cards: kind, count, colour ----------------------------------------------
POLITICS = (
    ("refugees1", 24, "green"),
    ("refugees2", 12, "green"),
    ("refugees21", 4, "green"),
    ("aristocracy", 8, "green"),
    ("ships", 12, "blue"),
    ("royal", 8, "blue"),
    ("support", 4, "green"),
    ("sabotage", 4, "red"),
    ("betrayal", 4, "red"),
)
CARD_KIND: tuple[str, ...] = tuple(k for k, n, _ in POLITICS for _ in range(n))
CARD_COLOUR = {k: c for k, _, c in POLITICS}
RED_KINDS = frozenset(k for k, _, c in POLITICS if c == "red")
CARD_NAME = {
    "refugees1": "Refugees 1", "refugees2": "Refugees 2", "refugees21": "Refugees 2+1",
    "aristocracy": "Aristocracy", "ships": "Ships", "royal": "Royal Ship",
    "support": "Support", "sabotage": "Sabotage", "betrayal": "Betrayal",
}
CARD_SHORT = {
    "refugees1": "Ref1", "refugees2": "Ref2", "refugees21": "R2+1", "aristocracy": "Aris",
    "ships": "Ship", "royal": "Roya", "support": "Supp", "sabotage": "Sabo", "betrayal": "Betr",
}

# --- Factions, left to right on the board (ties go to the left) -------------------------
FACTIONS = ("Archont", "Basileus", "Demagogos", "Demiurgos", "Oraklos", "Philosophios", "Strategos")
ARCHONT, BASILEUS, DEMAGOGOS, DEMIURGOS, ORAKLOS, PHILOSOPHIOS, STRATEGOS = range(7)
FACTION_ABILITY = (
    "end of Factions: draw 5 Politics cards, then discard 5",
    "end of Factions: put 1 refugee on a ship in port",
    "once a turn: see one hidden bid and change yours, or make a player bid first in an open vote",
    "end of Factions: draw 1 special card",
    "keep up to 2 of your voting cards face down until their vote ends",
    "play the card of the player on your left, and play first when you win a vote",
    "a vote in which you play no card gives 2 of its tokens back",
)
END_OF_FACTIONS_ABILITIES = (ARCHONT, BASILEUS, DEMIURGOS)  # resolved in this order
ARCHONT_DRAW = 5
STRATEGOS_REFUND = 2
# cost of a Faction token by position in Senate order, per player count
FACTION_COST = {
    5: (2, 2, 1, 1, 0),
    4: (2, 1, 1, 0),
    3: (2, 1, 0),
    2: (1, 0),
}

# --- Ships: tile index 0-4 starting A-E, 5-9 advanced A-E ----------------------------------
SHIP_LETTERS = "ABCDE"
SHIP_NAMES = ("Ark", "Science Vessel", "Royal Vessel", "Airship", "Warship")
BASIC_CAPACITY = (7, 5, 5, 3, 3)
ADVANCED_CAPACITY = (8, 5, 5, 3, 3)
ADVANCED = 5  # tile + ADVANCED is the advanced version
ARK, SCIENCE, ROYAL_VESSEL, AIRSHIP, WARSHIP = range(5)
ADVANCED_ABILITY = (
    "8 spaces, one always taken by a neutral refugee",
    "moved from the ocean to the Promised Land by a card: the mover scores 2 more",
    "moved from the ocean to the Promised Land by a card: the mover draws a special card",
    "flies from the port to the Promised Land in one move; no Royal Ship card on it",
    "immune to red cards (Sabotage, Betrayal)",
)
SCIENCE_BONUS = 2


CAPACITY = BASIC_CAPACITY + ADVANCED_CAPACITY  # by tile


def capacity(tile: int) -> int:
    return CAPACITY[tile]


def ship_label(tile: int) -> str:
    return SHIP_LETTERS[tile % ADVANCED] + ("+" if tile >= ADVANCED else "")


def ship_full_name(tile: int) -> str:
    """A ship's one name everywhere (board, log, choices, help): its letter and its name,
    e.g. "B Science Vessel"; an advanced tile as the board labels it, "B+ Science Vessel"
    (so the two tiles of one letter in a ``chosen_ships`` game never share a name)."""
    return f"{ship_label(tile)} {SHIP_NAMES[tile % ADVANCED]}"


# Upgrades: removing the 1st Doom marker upgrades A and B, the 2nd C, D and E.
DOOM_UPGRADES = ((ARK, SCIENCE), (ROYAL_VESSEL, AIRSHIP, WARSHIP))
DOOM_MARKERS = 3
SHIPS_MOVED_IN_DOOM = 3
SHIPS_MOVED_IN_DOOM_2P = 2
EARLY_DOOM_TURNS = 3  # a third Doom! drawn in turns 1-3 is shuffled back (RULES-DECISIONS)

# --- scoring charts (index = refugees of your colour - 1; at most 5 count) ----------------
CHART = (1, 3, 6, 10, 15)
ROYAL_CHART = (2, 5, 9, 14, 20)
MOVER_BONUS = 1
MOST_IN_PROMISED_LAND = 2
MOST_IN_SENATE = 2

# --- Event cards: name, voting symbol of the next turn, neutral refugees ---------------------
EVENTS = (
    ("senate_pays", "The Senate Pays Its Debts", "open", 2),
    ("wrath", "Wrath of the Ocean God!", "hidden", 3),
    ("together", "We're All In This Together!", "open", 1),
    ("chaos", "Chaos Spreads!", "hidden", 2),
    ("doomed", "We're All Doomed!", "open", 2),
    ("no_mercy", "No Mercy For The Weak!", "hidden", 2),
    ("leadership", "Under The Senate's Leadership!", "open", 1),
    ("doom", "Doom!", "hidden", 3),
    ("doom", "Doom!", "hidden", 3),
    ("doom", "Doom!", "hidden", 3),
)
EVENT_KEY = tuple(e[0] for e in EVENTS)
EVENT_NAME = tuple(e[1] for e in EVENTS)
EVENT_VOTE = tuple(e[2] for e in EVENTS)
EVENT_NEUTRALS = tuple(e[3] for e in EVENTS)
DOOM_EVENTS = tuple(i for i, k in enumerate(EVENT_KEY) if k == "doom")
OTHER_EVENTS = tuple(i for i, k in enumerate(EVENT_KEY) if k != "doom")
EVENTS_REMOVED = 4         # non-Doom events left in the box, unseen
FIRST_TURN_VOTE = "hidden"  # printed on the current-event space
SENATE_PAYS = (5, 3)
TOGETHER_MAX = 3
FULL_SENATE_RETURN = frozenset(("doom", "senate_pays", "leadership"))

# --- Special cards (designed by the project; RULES-DECISIONS) ---------------------------------
# kind: "rider" (played together with a Politics card of kind ``with``), "factions" (played on
# your own turn in the Factions phase), "end" (victory points when the game ends).
SPECIALS = (
    # key, name, kind, with, copies, text
    ("empath", "Empath", "rider", "aristocracy", 3,
     "with Aristocracy: place 2 refugees instead of 1 (each may push a cube off a full ship)"),
    ("alliance", "Alliance", "rider", "refugees", 3,
     "with any Refugees card: first discard one cube of another colour (or a neutral) from a ship in port"),
    ("winds", "Favourable Winds", "rider", "ships", 3,
     "with Ships: move three ships instead of two"),
    ("decree", "Royal Decree", "rider", "support", 2,
     "with Support: also score 2 victory points"),
    ("guild", "Saboteurs' Guild", "rider", "red", 2,
     "with Sabotage or Betrayal: score 1 point per cube discarded (at most 3)"),
    ("favour", "Senate Favour", "factions", "", 2,
     "Factions phase, your turn: your Faction token costs nothing this turn"),
    ("boarding", "Night Boarding", "factions", "", 3,
     "Factions phase, your turn: put 1 refugee on a ship in port"),
    ("treasury", "Hidden Treasury", "end", "", 3,
     "game end: 3 victory points"),
    ("favourite", "Senate Favourite", "end", "", 2,
     "game end: 4 victory points if you are first in Senate order"),
    ("builders", "Ark Builders", "end", "", 2,
     "game end: 1 point per refugee of yours still aboard a ship (at most 4)"),
)
SPECIAL_KEY: tuple[str, ...] = tuple(s[0] for s in SPECIALS for _ in range(s[4]))
SPECIAL_INFO = {s[0]: s for s in SPECIALS}
SPECIAL_NAME = {s[0]: s[1] for s in SPECIALS}
SPECIAL_KIND = {s[0]: s[2] for s in SPECIALS}
SPECIAL_WITH = {s[0]: s[3] for s in SPECIALS}
SPECIAL_TEXT = {s[0]: s[5] for s in SPECIALS}
TREASURY_VP = 3
FAVOURITE_VP = 4
BUILDERS_MAX = 4
DECREE_VP = 2
GUILD_MAX = 3
FACE_UP_SPECIALS = 3  # tactical play: revealed special cards


def rider_fits(special_key: str, card_kind: str) -> bool:
    want = SPECIAL_WITH[special_key]
    if want == "refugees":
        return card_kind in ("refugees1", "refugees2", "refugees21")
    if want == "red":
        return card_kind in RED_KINDS
    return want == card_kind


assert len(CARD_KIND) == 80 and len(SPECIAL_KEY) == 25 and len(EVENTS) == 10
