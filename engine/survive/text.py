"""Survive in words: event sentences, action names, the help page (with every decision
we made where the rule text is silent), what is revealed at the end, and a plain-text
picture of a view (golden transcripts, the replay viewer)."""

from __future__ import annotations

from typing import Any, Sequence

from ..text import EventText, Telling, counted, whom, whose, whose_turn
from . import data

HELP = """\
# Survive: Escape from Atlantis

**Goal.** Atlantis is sinking. Get your explorers off the island, across the sea and
onto the four **safe islands** in the corners of the board. Each explorer carries a
treasure worth 1 to 6 (every player has 1, 1, 1, 2, 2, 3, 3, 4, 5, 6). When the
volcano erupts, the player whose saved explorers carry the most treasure wins; ties
share the win.

**Memory.** You see your own explorers' values only while you place them. After that
nobody sees any value, not even their owner, until the end: remember where you put the
valuable ones. (Option `memory`, on by default; switched off, you always see your own.)

**The board.** A hex map of open sea, 13 rows alternately 15 and 14 hexes wide. The
island in the middle is 40 land tiles (16 beach, 16 forest, 8 mountain,
laid face up at random) around one sea hex where a sea serpent starts. Each safe island
is a corner hex; the two sea hexes touching it are its **entrances**. The other four
serpents start on the sea hex that touches both entrances of a safe island.

**Setup.** In seat order (Red first), each player puts one explorer at a time on an
empty land tile until all are placed (one per tile now; later any number may share
one). Then, in seat order, each player puts one boat at a time on a sea hex next to
land with no boat and no creature, two each. With 2 or 3 players everyone still has 10
explorers and 2 boats; the other boats wait in the reserve.

**Your turn has four steps.**

1. **Play a red tile** kept from an earlier turn, or none (one at most).
2. **Move**, 3 points shared among your explorers and boats, one hex per point:
   - an explorer on land walks to a neighbouring land tile;
   - an explorer climbs into a boat with room (3 at most, any colours) on a
     neighbouring hex, from land or from another boat, or in the hex where it swims;
   - an explorer on land steps into a neighbouring sea hex and is a **swimmer** from
     now on;
   - a swimmer swims to a neighbouring sea hex;
   - an explorer in a boat or swimming on an entrance steps onto that safe island:
     it is **saved** and leaves the board;
   - a swimmer moves **one sea hex a turn**: stepping into the sea from land,
     swimming, or stepping ashore from an entrance; one that has used it may still
     climb into a boat in its hex;
   - a boat sails one hex with everyone in it. Anyone may sail an empty boat; a boat
     with explorers only a player with at least as many aboard as anyone else.
   One boat per hex. No explorer ever goes back onto land. Nothing moves into a hex
   where a creature is (leaving one is fine).
3. **Take a land tile off the island.** It must touch the sea; beaches go first,
   then forests, then mountains. Explorers on it are now swimmers. You alone look at
   its back:
   - **green** tiles act at once and are shown to all: a *shark* or a *whale* comes up
     in that hex (a shark attacks the swimmers there at once); a *boat* comes up and the
     swimmers there climb in; a *whirlpool* drowns every swimmer in that hex and the
     sea hexes around it (boats are not touched); the **volcano** ends the game at once;
   - **red** tiles go face down into your hand, to play in step 1 of a later turn:
     *dolphin* (one of your swimmers swims up to 3 hexes), *wind* (a boat you may move
     sails up to 3 hexes), *move a serpent / shark / whale* (that creature's move);
   - **defensive** tiles go face down into your hand, to play on someone else's turn:
     *shark repellent* (against a shark attacking your swimmers), *whale repellent*
     (against a whale attacking a boat with your explorers). The creature leaves the
     game. Everyone sees how many tiles you hold, never which.
4. **Roll the creature die** (2 serpent, 2 shark, 2 whale faces) and move one creature
   of that kind:
   - a **serpent** moves 1 hex; it sinks a boat with explorers in it (they are lost)
     and eats every swimmer there; it leaves empty boats alone;
   - a **shark** moves 0, 1 or 2 hexes and stops where there are swimmers: it eats them;
     it leaves boats alone;
   - a **whale** moves 1, 2 or 3 hexes and stops at a boat with explorers in it: it
     smashes the boat and they are swimmers now; it leaves swimmers and empty boats alone.
   Creatures never go onto land or a safe island.

**Our decisions where the rule text is silent.**

- *Creature moves:* a serpent must move its hex and a whale at least one hex when one of
  that kind can; a shark may stay. If no creature of the rolled kind can move, nothing
  happens. Creatures may share a hex with each other.
- *When creatures attack:* only when they enter a hex (or come up in one from a tile).
  Explorers that end up beside a creature (a whale's swimmers next to a shark) are not
  attacked until a creature moves in. A serpent's move ends with its attack.
- *Answering attacks (defensive tiles):* whenever a shark or a whale attacks your
  explorers on another player's turn and you hold **any** tile at all, the game waits
  for your answer: play a repellent that fits, or "no defence". It asks you whether or
  not you hold a repellent, and the question looks the same to everyone, so waiting for
  you tells nobody what you hold. Several attacked players answer in seat order after
  the player whose turn it is; the first repellent ends the attack for everyone. A
  player holding no tile is not asked (everyone can see the empty hand). Serpents and
  whirlpools cannot be turned away, so they ask nobody.
- *Step 1:* a player holding any tile is always asked to play one or none, even with
  only defensive tiles, so nobody learns what the hand holds. A red tile can be played
  only when it can do something. Tiles taken this turn wait for a later turn.
- *Dolphin:* its 3 hexes are extra: the swimmer may still swim its own hex in step 2.
  It goes over open water without creatures, or onto a safe island from an entrance.
  *Wind:* its 3 hexes are extra to your 3 points.
- *Leaving a boat:* explorers leave a boat only into a neighbouring boat or onto a safe
  island; nobody jumps from a boat into the sea on purpose (from land one may).
- *Into the sea from land:* any neighbouring sea hex without a creature, also one
  with a boat (Enter there on the screen climbs into the boat if it has room).
- *Sinking when stuck:* if no tile of the lowest terrain left touches the sea, a
  coastal tile of the next terrain goes instead.
- *A boat from a tile:* swimmers climb in one player at a time, starting with the player
  who took the tile, each player's lowest-numbered swimmer first, 3 at most. With no
  boat left in the reserve, nothing comes up.
- *End:* the game also ends when, at the end of a turn, no explorer is left on the
  island or in the sea. Lost explorers score nothing.
- *Undo* (`u`): moves and setup placements can be taken back; never a tile taken off
  the island, a tile shown from your hand, a die roll, or anything once another player
  is to act.

**What the board shows.** `~` open sea, `≈` an entrance to a safe island, `.` beach,
`♣` forest, `▲` mountain, `⌂` a safe island; `§` a sea serpent, `Δ` a shark, `Ω` a whale;
`R2` two of Red's explorers (each seat by its letter); `[RB]` a boat with Red and Blue
aboard (`[2]` on a small hex: two aboard); `+` a hex the selected piece can reach (or a
tile you may take off, explorers on it or not): a hex too full for it has the `+` just
east of it (`.B1+`). The cursor is reversed and framed `▸ ◂`. Hexes
changed by the other players since your last move are tinted until you act again. In
the side panel, per player: `in` explorers still in play, `⌂` explorers saved, `tiles`
(or `t`) the tiles they hold. The log names an explorer by its owner and the hex it
stands on, as the board shows it; its treasure value (`★6`) is hidden from the others,
and from you once placed.
A hex is named by its row, `A` at the north to `M` at the south, and its place in the
row counted from the west: `G8` is the centre. The row letters stand west of the
board, the places are numbered over it on two lines (the first for rows A, C, E ...,
the second, half a hex in, for rows B, D, F ...), and the cursor line names the hex.

**Keys.** Arrows or `h` `j` `k` `l` move the cursor (Left/Right west and east; Home,
PgUp, End, PgDn the four diagonals NW, NE, SW, SE); Enter picks a piece (again: the next
piece on that hex) and then its destination; `n` jumps to the next piece that can move;
`1`-`9` pick a tile, or the value to place during setup; `e` ends the current step (no
tile, end moves, no defence); `r` rolls the die; Esc lets go of the piece; `u` undo; `s`
save; `?` this help; `q` leave.
"""

BACK_NAMES = {
    "shark": "shark", "whale": "whale", "boat": "boat", "whirlpool": "whirlpool",
    "volcano": "volcano", "dolphin": "dolphin", "wind": "wind", "move_serpent": "move a serpent",
    "move_shark": "move a shark", "move_whale": "move a whale", "shark_repellent": "shark repellent",
    "whale_repellent": "whale repellent",
}


def hex_name(h: int) -> str:
    if data.SAFE_AT[h] >= 0:
        return f"the {data.SAFE_NAMES[data.SAFE_AT[h]]} safe island"
    return data.HEX_NAMES[h]


def explorer_name(e: int, names: Sequence[str], viewer: int | None = None) -> str:
    """An explorer as the board shows it: by its owner ("Red's explorer", "your
    explorer"); where it stands is said beside it (the board has no piece numbers)."""
    return f"{whose(e // data.EXPLORERS_PER_SEAT, viewer, names)} explorer"


def _explorer_at(action: Any, view: Any) -> str:
    """"the explorer on H4" when the actor's view tells where it stands."""
    hexes = getattr(view, "explorer_hex", None)
    if hexes is None or not 0 <= hexes[action.explorer] < len(data.HEX_NAMES):
        return "an explorer"
    return f"the explorer on {hex_name(hexes[action.explorer])}"


def creature_name(c: int) -> str:
    kind = data.CREATURE_KIND[c]
    first = data.CREATURE_KIND.index(kind)
    return f"{kind} {c - first + 1}"


def tile_name(t: int, terrain: int | None = None) -> str:
    terrain = terrain if terrain is not None else 0
    where = data.HEX_NAMES[data.LAND_HEX_INDEX[t]]
    return f"the {data.TERRAIN_NAMES.get(terrain, 'land')} tile at {where}"


def describe_action(action: Any, view: Any = None) -> str:
    """The action in a few words (``view``, the actor's, is not needed here)."""
    name = type(action).__name__
    if name == "PlaceExplorer":
        return f"place an explorer on {hex_name(action.hex)}"
    if name == "PlaceBoat":
        return f"place a boat on {hex_name(action.hex)}"
    if name == "PlayTile":
        return f"play the {BACK_NAMES[action.back]} tile"
    if name == "NoTile":
        return "play no tile"
    if name == "DolphinStep":
        return f"dolphin: {_explorer_at(action, view)} to {hex_name(action.to)}"
    if name == "WindStep":
        return f"wind: boat {action.boat + 1} to {hex_name(action.to)}"
    if name in ("EndTile", "EndCreature"):
        return "stop"
    if name == "Walk":
        return f"walk {_explorer_at(action, view)} to {hex_name(action.to)}"
    if name == "Board":
        return f"{_explorer_at(action, view)} boards boat {action.boat + 1}"
    if name == "Swim":
        return f"swim {_explorer_at(action, view)} to {hex_name(action.to)}"
    if name == "Ashore":
        return f"{_explorer_at(action, view)} steps onto the safe island"
    if name == "Sail":
        return f"sail boat {action.boat + 1} to {hex_name(action.to)}"
    if name == "EndMoves":
        return "end the moves"
    if name == "Sink":
        return f"take off the tile at {data.HEX_NAMES[data.LAND_HEX_INDEX[action.tile]]}"
    if name == "Roll":
        return "roll the creature die"
    if name == "CreatureStep":
        return f"move {creature_name(action.creature)} to {hex_name(action.to)}"
    if name == "Defend":
        return f"play the {BACK_NAMES[action.back]}"
    if name == "NoDefence":
        return "no defence"
    return repr(action)


def _explorers(es: Sequence[int], viewer: int | None, names: Sequence[str]) -> str:
    if not es:
        return "nobody"
    by: dict[int, int] = {}
    for e in es:
        seat = e // data.EXPLORERS_PER_SEAT
        by[seat] = by.get(seat, 0) + 1
    parts = []   # (counted, as the board shows them: "R2" is two of Red's explorers)
    for seat in sorted(by):
        owner = whose(seat, viewer, names)
        parts.append(f"{owner} explorer" if by[seat] == 1 else f"{by[seat]} of {owner} explorers")
    return " and ".join(parts)


def _capital(words: str) -> str:
    return words[0].upper() + words[1:]


def _sank(telling: Telling) -> str:
    text = f"{telling.who} took {tile_name(telling.data['tile'], telling.data['terrain'])} off the island"
    if telling.data["swimmers"]:
        text += f"; {telling['swimmers']} must swim"
    return text + "."


def _boat_appeared(telling: Telling) -> str:
    text = f"A boat came up at {telling['hex']}"
    if telling.data["boarded"]:
        text += f"; {telling['boarded']} climbed in"
    return text + "."


def _serpent_attack(telling: Telling) -> str:
    what = "sank a boat and " if telling.data["boat"] >= 0 else ""
    return f"The sea serpent {what}took {telling['lost']}!"


def _attack(telling: Telling) -> str:
    kind = telling.data["kind"]
    prey = "swimmers" if kind == "shark" else f"boat {telling['boat']}"
    text = f"A {kind} attacks the {prey} at {telling['hex']}"
    if telling.data["responders"]:
        answering = ", ".join(whom(seat, telling.viewer, telling.names) for seat in telling.data["responders"])
        text += f": {answering} may answer"
    return text + "."


def _game_over(telling: Telling) -> str:
    names, winners = telling.names, telling.data["winners"]
    scores = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(telling.data["scores"]))
    won = " and ".join(names[w] for w in winners)
    return f"Game over ({telling['reason']}): {scores}. {won} win{'s' if len(winners) == 1 else ''}."


EVENT_TEXT = EventText(
    templates={
        "explorer_placed": "{who} placed an explorer on {hex}.",
        "boat_placed": "{who} placed boat {boat} on {hex}.",
        "setup_done": "Everything is placed: the island starts to sink.",
        "turn": whose_turn,
        "tile_played": "{who} played the {back} tile.",
        "dolphin": "A dolphin carried {owned_explorer} from {from} to {to}.",
        "wind": "The wind blew boat {boat} to {to}.",
        "walked": "{who} walked an explorer from {from} to {to}.",
        "boarded": "{who} put an explorer on {hex} into boat {boat}.",
        "swam": "{who} swam an explorer from {from} to {to}.",
        "sailed": "{who} sailed boat {boat} to {to}.",
        "saved": "{Owned_explorer} reached the {safe} safe island!",
        "sank": _sank,
        "looked": "{who} looked at its back: {back}.",
        "kept": "{who} kept the tile face down.",
        "revealed": "Its back shows: {back}!",
        "appeared": "A {kind} came up at {hex}.",
        "boat_appeared": _boat_appeared,
        "whirlpool": "A whirlpool at {hex} took {lost}.",
        "none_left": "No {kind} is left to come up.",
        "rolled": "{who} rolled: {kind}.",
        "no_creature": "No {kind} can move.",
        "creature_moved": "{who} moved {creature} to {to}.",
        "serpent_attack": _serpent_attack,
        "attack": _attack,
        "shark_attack": "The shark ate {lost}.",
        "whale_attack": "The whale smashed boat {boat}; {swimmers} must swim.",
        "defended": "{who} played a {back}: the {kind} is gone.",
        "no_defence": "{who} did not stop the attack.",
        "nobody_left": "No explorer is left on the island or in the sea.",
        "game_over": _game_over,
        "undo": "{who} took back a move.",
    },
    fields={
        "hex": hex_name, "to": hex_name, "from": hex_name,
        "boat": lambda boat: boat + 1,
        "back": BACK_NAMES.__getitem__,
        "creature": creature_name,
        "safe": data.SAFE_NAMES.__getitem__,
    },
    context_fields={
        "swimmers": lambda telling: _explorers(telling.data["swimmers"], telling.viewer, telling.names),
        "boarded": lambda telling: _explorers(telling.data["boarded"], telling.viewer, telling.names),
        "lost": lambda telling: _explorers(telling.data["lost"], telling.viewer, telling.names),
        "owned_explorer": lambda telling: explorer_name(telling.data["explorer"], telling.names, telling.viewer),
        "Owned_explorer": lambda telling: _capital(explorer_name(telling.data["explorer"], telling.names,
                                                                 telling.viewer)),
    },
)


def _ended(state: Any, e: int) -> str:
    """Where an explorer ended, for the reveal: "on H4", "saved", "lost"."""
    h = state.explorer_hex[e]
    if h >= 0:
        return f"on {data.HEX_NAMES[h]}"
    return {data.SAVED: "saved", data.LOST: "lost"}.get(h, "unplaced")


def _values(vals: Sequence[int]) -> str:
    """'6, 4 and 1'."""
    words = [str(v) for v in sorted(vals, reverse=True)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def reveal(state: Any, names: Sequence[str]) -> list[str]:
    """The end in sentences: where each player's points came from (the treasure of the
    explorers they saved), what became of the others, every explorer's value, every
    held tile's back, and the backs of the land tiles still on the island."""
    per = data.EXPLORERS_PER_SEAT
    lines = []
    if state.winners:
        won = " and ".join(names[w] for w in state.winners)
        why = f" ({state.end_reason})" if state.end_reason else ""
        lines.append(f"{won} won{why}: the points are the treasure values of the explorers each player saved.")
    for p in range(state.players):
        mine = range(p * per, (p + 1) * per)
        saved = [state.values[e] for e in mine if state.explorer_hex[e] == data.SAVED]
        lost = [state.values[e] for e in mine if state.explorer_hex[e] == data.LOST]
        left = [state.values[e] for e in mine if state.explorer_hex[e] >= 0]
        total = sum(saved)
        if saved:
            got = (f"{names[p]} saved {counted(len(saved), 'explorer')} "
                   f"worth {_values(saved)}: {counted(total, 'point')}.")
        else:
            got = f"{names[p]} saved no explorer: 0 points."
        if lost:
            got += f" Lost in the sea: explorers worth {_values(lost)}."
        if left:
            got += f" Still on the island or in the sea: explorers worth {_values(left)}."
        lines.append(got)
    for p in range(state.players):   # (by where each explorer ended: the board has no piece numbers)
        vals = ", ".join(f"★{state.values[p * per + i]} {_ended(state, p * per + i)}" for i in range(per))
        lines.append(f"{names[p]}'s treasure: {vals}.")
    for p in range(state.players):
        held = [BACK_NAMES[state.backs[t]] for t in state.hands[p]]
        lines.append(f"{names[p]} held " + (f"these tiles: {', '.join(held)}." if held else "no tile."))
    left = [f"{data.HEX_NAMES[data.LAND_HEX_INDEX[t]]} ({data.TERRAIN_NAMES[state.terrain[t]]}) hid {BACK_NAMES[state.backs[t]]}"
            for t in range(len(state.terrain)) if not state.sunk[t]]
    lines.append("The land tiles still on the island: " + ("; ".join(left) if left else "none") + ".")
    return lines


_TERRAIN_CH = {data.BEACH: ".", data.FOREST: "*", data.MOUNTAIN: "^"}
_CREATURE_CH = {"serpent": "S", "shark": "K", "whale": "W"}


def render_view(view: Any, names: Sequence[str]) -> str:
    """A compact, exact text picture of what one seat sees: the map (two characters a
    hex: terrain or creature, then a boat ``b`` or the number of explorers), then lists."""
    eh, eb = view.explorer_hex, view.explorer_boat
    count = [0] * data.HEXES
    for h in eh:
        if h >= 0:
            count[h] += 1
    lines = []
    i = 0
    for r, row in enumerate(data.BOARD.rows()):
        cells = []
        for _ in row:
            h = i
            i += 1
            t = data.LAND_TILE_AT[h]
            if data.SAFE_AT[h] >= 0:
                a = "#"
            elif t >= 0 and not view.sunk[t]:
                a = _TERRAIN_CH[view.terrain[t]]
            else:
                a = "~"
            cs = [data.CREATURE_KIND[c] for c, ch in enumerate(view.creature_hex) if ch == h]
            if cs:
                a = _CREATURE_CH[cs[0]]
            b = "b" if h in view.boat_hex else (str(min(count[h], 9)) if count[h] else " ")
            cells.append(a + b)
        lines.append((" " if r % 2 else "") + "".join(cells))
    seat = "spectator" if view.seat is None else names[view.seat]
    att = "-"
    if view.attack is not None:
        attack = view.attack
        att = f"{attack.kind}@{data.HEX_NAMES[attack.hex]} victims={[names[v] for v in attack.victims]}"
    lines.append(f"seat={seat} turn={names[view.turn]} phase={view.phase} round={view.round}"
                 f" points={view.points} red={view.red or '-'} creature={view.creature_kind or '-'}"
                 f" mover={view.mover} steps={view.steps} die={view.die or '-'} attack={att}"
                 f" responders={list(view.responders)}")
    for p in range(view.players):
        lo = p * data.EXPLORERS_PER_SEAT
        parts = []
        for e in range(lo, lo + data.EXPLORERS_PER_SEAT):
            h = eh[e]
            where = {data.NOT_PLACED: "-", data.SAVED: "saved", data.LOST: "lost"}.get(h) or data.HEX_NAMES[h]
            if eb[e] >= 0:
                where += f"(b{eb[e] + 1})"
            if view.values[e]:
                where += f"={view.values[e]}"
            parts.append(where)
        held = len(view.held[p])
        lines.append(f"{names[p]}: {' '.join(parts)} | holds {held}")
    boats = " ".join(f"b{b + 1}:{'-' if h == -1 else 'x' if h < -1 else data.HEX_NAMES[h]}"
                     for b, h in enumerate(view.boat_hex))
    lines.append(f"boats {boats}")
    if view.hand is not None and view.hand:
        lines.append("hand=" + ", ".join(f"{BACK_NAMES[h.back]}({data.TERRAIN_NAMES[h.terrain]})"
                                         for h in view.hand))
    if view.winners:
        lines.append(f"winners={[names[w] for w in view.winners]} scores={list(view.scores)}"
                     f" ({view.end_reason})")
    return "\n".join(lines)
