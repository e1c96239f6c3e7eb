"""Pathways in words: event sentences, action names, the help page, and a plain
text rendering of a view (used by golden transcripts and the replay viewer)."""

from __future__ import annotations

from typing import Any, Sequence

from ..text import EventText, Telling, counted, whose, whose_turn
from . import data

SIDE_ARROWS = ("north", "east", "south", "west")

HELP = """\
# Atlantis: Pathways of the Deep

**Goal.** Lay paths across the sea floor and be the first to steer your subpod
into the sunken city in the middle of the board.

**Setup.** Each player starts in a corner on an elbow tile and holds 4 secret
tiles. The rest form a face-down draw pile.

**Your turn has three parts, in order.**

1. **Play tiles.** Play two tiles from your hand (path tiles, special tiles or
   one of each), *or* turn one tile that is already on the board.
   - A path tile must join at least one open path end of a neighbouring tile.
     Its other ends may point anywhere.
   - A turned tile must still join a neighbouring path, and must really change.
   - A tile is *locked* when all four of its sides touch tiles, the border or
     Atlantis. Locked tiles can be neither turned nor removed.
2. **Move.** Move your own subpod up to 2 spaces, *or* another player's subpod
   1 space. Subpods travel only where the paths of both tiles meet. A move may
   never come back onto the space where it began. Several subpods may share a
   tile. You may stop early or not move at all.
3. **Draw** back up to 4 tiles from the draw pile.

**Special tiles** are played from the hand (they count as one of your plays),
do their work at once and go to the used pile:

- **TRADE** -- take one tile off the board. It must not be locked and must not
  hold a subpod. It is shuffled back into the draw pile.
- **MOVE 3\\*** -- move another player's subpod up to 3 spaces.
- **+2 TILES** -- you may play up to two more tiles this turn.
- **MOVE 3** -- move your own subpod up to 3 spaces right away.

**Winning.** A subpod on a tile whose path opens towards Atlantis may step in;
no exact count is needed. The first subpod inside wins -- even if another
player pushed it there.

**Our decisions where the rule book is silent.**

- *No legal play:* once you have played two tiles you may stop; if no tile in
  your hand can be played at all you may end your plays at once (turning a tile
  stays possible but is never forced).
- *Empty draw pile:* the used special tiles are shuffled into a new pile; if
  there are none, hands stay short.
- *Round limit:* if nobody reaches Atlantis within the game's round limit
  (option, 60 rounds by default) the subpod nearest the city wins; ties share.
- *Undo* (`u`) takes back turning a tile or a subpod step, never a tile that
  was shown from a hand or anything that drew new tiles.

**What the screen shows.** Lines such as `─` `│` `└` `┼` are the paths of the tiles;
a subpod goes from one tile to the next where both paths meet. `·` is empty sea floor.
`R` `B` `G` `Y` are the players' subpods (each seat by its letter; underlined: the one
moving). `+` marks where the picked tile fits, or where a subpod may step. A picked tile
is drawn at the cursor in green where it fits and in red where it does not. The framed
`CITY` (or `ATLANTIS`) in the middle is the goal. Cells the other players changed since
your last move are tinted until you act again. The hand shows your tiles by number; a
tile you play leaves its number empty until you draw.

**Keys.**

- Arrows or `h` `j` `k` `l` move the cursor over the board.
- `1`-`4` pick a tile from your hand; `r` turns the picked tile.
- Enter places the picked path tile at the cursor, or plays the picked special
  tile. During a TRADE, Enter takes away the tile under the cursor.
- `t` previews turning the placed tile under the cursor; `t` again tries the
  next way round, Enter confirms, Esc cancels.
- Moving: the cursor starts on your subpod and the spaces it can reach are
  marked `+`. Enter on a `+` steps there; `o` switches to another subpod;
  Shift+arrow steps straight away.
- `e` ends your tile plays, or ends the move.
- `u` undo, `s` save, `?` this help, `q` leave.
"""


def describe_action(action: Any, view: Any = None) -> str:
    """The action in a few words (``view``, the actor's, is not needed here)."""
    name = type(action).__name__
    if name == "Place":
        return f"place {data.TILE_KIND[action.tile]} at {data.cell_name(action.cell)}"
    if name == "Rotate":
        return f"turn the tile at {data.cell_name(action.cell)}"
    if name == "Special":
        return f"play {data.SPECIAL_SHORT[data.TILE_KIND[action.tile]]}"
    if name == "Remove":
        return f"trade away the tile at {data.cell_name(action.cell)}"
    if name == "Step":
        return f"step subpod {action.pod} {SIDE_ARROWS[action.side]}"
    if name == "EndPlays":
        return "end plays"
    if name == "EndMove":
        return "end move"
    return repr(action)


def _placed(telling: Telling) -> str:
    label = tile_label(telling.data["tile"])
    article = "an" if label[0] in "aeiou" else "a"
    return f"{telling.who} placed {article} {label} at {telling['cell']}."


def _step(telling: Telling) -> str:
    seat, pod = telling.data["seat"], telling.data["pod"]
    owner = "their" if pod == seat != telling.viewer else whose(pod, telling.viewer, telling.names)
    return f"{telling.who} moved {owner} subpod to {telling['to']}."


def _drew(telling: Telling) -> str:
    count = telling.data["count"]
    return f"{telling.who} drew {counted(count, 'tile')}."


def _round_limit(telling: Telling) -> str:
    winners = ", ".join(telling.names[w] for w in telling.data["winners"])
    return f"The round limit is reached: {winners} nearest Atlantis."


EVENT_TEXT = EventText(
    templates={
        "placed": _placed,
        "special": "{who} played {kind}.",
        "removed": "{who} traded away the tile at {cell}.",
        "rotated": "{who} turned the tile at {cell}.",
        "end_plays": "{who} ended the tile plays.",
        "step": _step,
        "special_done": "{who} finished the special move.",
        "atlantis": "{pod}'s subpod entered Atlantis!",
        "reshuffled": lambda telling: ("The used specials were shuffled into a new draw pile "
                                       f"({counted(telling.data['count'], 'tile')})."),
        "drew": _drew,
        "drew_tiles": "{who} drew: {tiles}.",
        "turn": whose_turn,
        "round_limit": _round_limit,
        "undo": "{who} took back a move.",
    },
    fields={
        "cell": data.cell_name,
        "to": lambda cell: "Atlantis" if cell < 0 else data.cell_name(cell),
        "kind": data.SPECIAL_SHORT.__getitem__,
        "tiles": lambda tiles: ", ".join(tile_label(tile) for tile in tiles),
    },
    seats=("pod",),
)


def tile_label(tile: int) -> str:
    kind = data.TILE_KIND[tile]
    if kind == "start":
        return "elbow"
    return data.SPECIAL_SHORT.get(kind, kind)


_GLYPH = {0: "·", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐", 9: "┘",
          7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}


def glyph(mask: int) -> str:
    return _GLYPH[mask]


def render_view(view: Any, names: Sequence[str]) -> str:
    """A compact, exact text picture of what one seat sees."""
    lines = []
    pod_at: dict[int, str] = {}
    for seat, pos in enumerate(view.pods):
        if pos >= 0:
            pod_at[pos] = pod_at.get(pos, "") + names[seat][0]
    for r in range(data.SIZE):
        row = []
        for c in range(data.SIZE):
            cell = r * data.SIZE + c
            if view.cells[cell] == -2:
                row.append("@")
            elif cell in pod_at:
                row.append(pod_at[cell][0])
            else:
                row.append(glyph(view.masks[cell]))
        lines.append("".join(row))
    seat = "spectator" if view.seat is None else names[view.seat]
    lines.append(f"seat={seat} turn={names[view.turn]} phase={view.phase} round={view.round}"
                 f" plays={view.plays_made}/{view.plays_allowed} pending={view.pending or '-'}"
                 f" mover={view.mover} steps={view.steps_left}")
    lines.append(f"pods={list(view.pods)} hands={list(view.hand_sizes)} draw={view.draw_count}"
                 f" used={[tile_label(t) for t in view.discard]}")
    if view.hand is not None:
        lines.append("hand=" + ", ".join(f"{t}:{tile_label(t)}" for t in view.hand))
    if view.winners:
        lines.append(f"winners={[names[w] for w in view.winners]} ({view.end_reason})")
    return "\n".join(lines)


def _tile_list(tiles: Sequence[int]) -> str:
    return ", ".join(tile_label(t) for t in tiles)


def _counted(tiles: Sequence[int]) -> str:
    """'12 straight, 9 elbow, 2 TRADE': how many of each kind, most first."""
    counts: dict[str, int] = {}
    for t in tiles:
        counts[tile_label(t)] = counts.get(tile_label(t), 0) + 1
    return ", ".join(f"{n} {label}" for label, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def reveal(state: Any, names: Sequence[str]) -> list[str]:
    """The end of a game in sentences: who won and why, how far every subpod got,
    every hand, and the draw pile (what it held, and the next tiles it would have given)."""
    in_city = -1  # a subpod's position once inside Atlantis (rules.IN_ATLANTIS)
    lines = []
    if state.winners:
        won = " and ".join(names[w] for w in state.winners)
        lines.append(f"{won} won{': ' + state.end_reason if state.end_reason else ''} (in round {state.round}).")
    for seat in range(state.players):
        pos = state.pods[seat]
        if pos == in_city:
            lines.append(f"{names[seat]}'s subpod reached Atlantis.")
        else:
            far = data.ATLANTIS_DISTANCE[pos]
            lines.append(f"{names[seat]}'s subpod ended at {data.cell_name(pos)}, "
                         f"{counted(far, 'space')} from Atlantis.")
    for seat, hand in enumerate(state.hands):
        lines.append(f"{names[seat]} held {counted(len(hand), 'tile')}"
                     + (f": {_tile_list(hand)}." if hand else "."))
    draw = state.draw
    if draw:
        lines.append(f"The draw pile held {len(draw)} tiles: {_counted(draw)}.")
        lines.append(f"The next tiles in the draw pile were: {_tile_list(draw[:4])}.")
    else:
        lines.append("The draw pile was empty.")
    return lines
