"""Finding Atlantis: component lists, map sizes and compass geometry, as data.

Figures follow RULES-DECISIONS (finding-atlantis).  The seed rule text names only
the Navy Captain and the Seed of Youth; the other captains and artifacts are the
project's designs, kept here so a better-sourced card is a one-line change.
"""

from __future__ import annotations

# size -> (Atlantis spaces, artifact spaces)
MAP_SIZES = {6: (4, 4), 8: (6, 6)}

ACTIONS_PER_TURN = 2

# Compass: 8 directions, clockwise from north, as (row step, column step).
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
DIR_NAMES = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
DIR_SHORT = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHO = (0, 2, 4, 6)
# Jelly Rod / Navy Captain axes: each a pair of opposite directions.
AXES = ((0, 4), (2, 6), (1, 5), (7, 3))
AXIS_NAMES = ("north-south", "east-west", "north-east/south-west", "north-west/south-east")

# Terrain of a world cell (the map plus the ring beyond its edge).
DEEP, SEAMOUNT, ARTIFACT, ATLANTIS = 0, 1, 2, 3
TERRAIN_NAMES = ("deep ocean", "seamount", "artifact", "Atlantis")

# Action cards: id -> (name, one-line effect).  Order is the order in the hand.
BASE_CARDS = ("sonar", "rod", "explore", "surface", "silent", "long")
PIRATE_CARDS = ("periscope", "mine")
CARDS = {
    "sonar": ("Sonar", "Seamount or deep ocean in each of the 8 spaces around you (also beyond the edge)."),
    "rod": ("Jelly Rod", "Trace or no trace in the 2 spaces on either side of you along one axis."),
    "explore": ("Explore", "What lies beneath you; an artifact space gives you an artifact card; "
                           "on Atlantis you may declare the whole city."),
    "surface": ("Surface", "Take back every played card and your captain; everyone sees where you are."),
    "silent": ("Silent Running", "Move 1 space in any of 8 directions, unseen."),
    "long": ("Long Silent Running", "Move 2 spaces in a straight line, unseen."),
    "periscope": ("Periscope", "Danger (a mine or a sea monster) in each of the 8 spaces around you."),
    "mine": ("Drop Mine", "Leave your mine here (your old one is gone) and move 1 space, unseen."),
    "captain": ("Captain", "Your captain's ability."),
}
# Cards that cannot be burnt for a public move.
UNBURNABLE = ("surface",)

# Captains: id -> (name, one-line effect, argument kind).  Argument kinds:
# "axis" (0-3), "dir" (0-7), "dir_steps" (direction and 1-3 steps), "seat", "" (none).
CAPTAINS = {
    "navy": ("Navy Captain", "Along one axis: how far the nearest trace lies on each side.", "axis"),
    "geologist": ("Geologist", "Seamount or deep ocean 2 spaces away to the N, E, S and W.", ""),
    "diver": ("Deep Diver", "What lies beneath one neighbouring space (no artifact card).", "dir"),
    "racer": ("Speed Captain", "Move 1 to 3 spaces in a straight line, unseen.", "dir_steps"),
    "listener": ("Listener", "How many moves away the nearest other submarine is.", ""),
    "saboteur": ("Saboteur", "A player of your choice has 1 action less on their next turn.", "seat"),
    "spotter": ("Spotter", "Learn where one other submarine is, in secret.", "seat"),
    "quartermaster": ("Quartermaster", "Take back your 2 most recently played action cards.", ""),
}

# Artifacts: id -> (name, one-line effect, free action?, argument kind).  Extra kinds:
# "cell" (a space of the map), "seat_dir" (a player and a direction), "dir_steps".
ARTIFACTS = {
    "seed": ("Seed of Youth", "FREE: take back every played card and your captain without surfacing.", True, ""),
    "trident": ("Trident", "Jelly Rod on all 4 axes at once.", False, ""),
    "orb": ("Crystal Orb", "What lies beneath each of the 8 spaces around you.", False, ""),
    "compass": ("Golden Compass", "FREE: learn exactly where you are.", True, ""),
    "pearl": ("Pearl of the Current", "FREE: move 1 space, unseen.", True, "dir"),
    "conch": ("Echo Conch", "Learn where every other submarine is, in secret.", False, ""),
    "whirlpool": ("Whirlpool Stone", "Push another submarine 1 space in a direction you choose.", False, "seat_dir"),
    "siren": ("Siren Song", "Another player discards 1 random action card (never Surface).", False, "seat"),
    "fragment": ("Map Fragment", "FREE: what lies beneath one space of your choice.", True, "cell"),
    "beacon": ("Warp Beacon", "Move to any space of your choice, unseen.", False, "cell"),
}

CAPTAINS_DEALT = 2
MINE_DISCARDS = 2          # action cards lost to a mine by a player without artifacts
MONSTER_SKIP = 1           # actions lost when a sea monster attacks

# Chart facts: bits of what a seat has learned about one world cell.
SEA = 1        # a seamount
DEEP_F = 2     # deep ocean
TRACE = 4      # a trace (Atlantis or an artifact)
NOTRACE = 8    # no trace (and, in pirate mode after a Jelly Rod, no mine either)
ATL = 16       # an Atlantis space
ART = 32       # an artifact space
ROD = 64       # Jelly Rod in pirate mode said "trace": a trace or a mine
DANGER = 128   # the last Periscope saw a mine or a sea monster here
