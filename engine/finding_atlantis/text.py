"""Finding Atlantis in words: event sentences, action names, the help page, and
a plain text rendering of a view (golden transcripts and the replay viewer)."""

from __future__ import annotations

from functools import partial
from typing import Any, Sequence

from ..text import EventText, Telling, counted
from . import data

COLS = "ABCDEFGH"
#: The map size of a game with default options (the ``size`` option's default).
DEFAULT_SIZE = 6

HELP = """\
# Finding Atlantis

**Goal.** Somewhere under this ocean lies the sunken city. Be the first to
name every one of its spaces -- right after exploring one of them.

**The ocean.** A 6x6 map hides 4 Atlantis spaces and 4 artifacts (8x8: 6 and
6). Atlantis is one group: each of its spaces touches another, straight or
diagonally. Atlantis and artifacts are *traces*; every trace sits on a
seamount, and the 4 spaces straight next to a trace are seamounts too.
Everything else is deep ocean. The ring just beyond the edge can never be
entered, holds no trace, but may be a seamount -- Sonar reads it.

**Your chart.** The screen shows only what *you* know: your own submarine,
every result you were given (noted automatically unless the table plays with
the `paper` option), your own marks, and what everybody can see: where
players started and surfaced, the last 2 cards each played, the directions
of burnt cards, sea monsters, failed declarations. Results of your actions
are whispered to you alone (and stay in your log). With the `assistant` option
(on unless `paper` is), cells whose content follows for certain from what you
have learned are shaded green and underlined, and the deduced symbol is drawn
in grey italic; before a declaration it warns you if your own chart says the
guess cannot be right.

{legend}

**Start.** Everybody keeps 1 of 2 captains dealt to them, then every
submarine is placed in public and makes one free hidden move.

**A turn is 2 actions**, each playing one card from your hand; then `e` ends
it (it never passes by itself: see our decisions below):

- **Sonar** -- seamount or deep ocean in the 8 spaces around you.
- **Jelly Rod** -- pick an axis; trace or no trace in the two spaces on
  either side. In pirate mode a mine also reads as a trace.
- **Explore** -- what lies under you. An artifact space gives its first
  explorer an artifact card. On Atlantis you may **declare** the city: pick
  every space of it and confirm. Right: you win. Wrong: everyone sees the
  guess and you are moved to a random space that even you do not know.
- **Silent Running** 1 space, **Long Silent Running** 2 in a straight line, in
  any of 8 directions, unseen. A move that would leave the map stops at the
  edge.
- **Burn** any card except Surface and artifacts to move 1 space; the
  direction is public.
- **Surface** -- every played card and your captain come back to your hand;
  everyone sees where you are (and you learn it again if you were lost).
- Pirate mode adds **Periscope** (a mine or sea monster in the 8 spaces around
  you?) and **Drop Mine** (leave your one mine here and move 1 space).

**Captains** (each usable once between surfacings; costs an action):

{captains}

**Artifacts** (used once; FREE ones cost no action):

{artifacts}

**Mines.** Moving into another player's mine: hand them one of your artifact
cards at random, used ones included. An unused one changes hands in secret
(only the two of you learn which) and is theirs to use. A used one stays used
and cannot be used again; everyone sees it move, and the sea monster it woke
stays. With no artifact card at all, lose up to 2 random action cards (never
Surface) instead. Your own mine is harmless. A mine goes off once.

**Sea monsters** wake on the space an artifact came from when it is used.
Moving into one: you are pushed back and lose your next action. Option
`monsters`: `still` or `roaming` (each moves 1 space after every round).

**Our decisions where the rule book is silent.** Every turn ends with End
turn (`e`), after the second action as after the first: an Explore must wait
while you decide whether to declare, and passing on at once after any other
Explore would tell the table you found no Atlantis. So the turn never passes
by itself, and `e` with actions unused asks first. Each artifact space gives one card. A captain is
public once played or burnt. A long move stops at a monster or a mine. The
game ends without a winner after `max_rounds` rounds. Solo: play against the
U-Bot (`--players 2 --bots 1`), a bot that reasons from its own chart only.

**Keys.** Arrows/hjkl move the chart cursor. `1`-`9` play a card; cards
with a direction or axis then ask for one (arrows or `1`-`8`, Enter). `a`
uses an artifact card, `b` burns a card. `m` cycles your own mark on the
cursor cell (seamount, deep, no trace, trace, Atlantis?, an opponent's
guessed position, none). `x` picks or
unpicks a cell of your declaration, `D` declares. `e` ends the turn (with
actions unused, `e` again). Played cards are listed last, after "Played:".
`?` help, `s` save, `q` leave.
"""


#: Every symbol the chart draws: (symbol, short words for the legend under the chart,
#: what it means in full for the help).  The screen's legend shows those on the chart
#: now; the help lists them all.  One name per thing: the log and the cursor line use
#: the same words.
LEGEND = (
    ("·", "unknown", "nothing known yet"),
    ("@", "Atlantis", "Atlantis"),
    ("$", "artifact", "an artifact"),
    ("T", "trace", "a trace (Atlantis or an artifact)"),
    ("t", "trace or mine", "a trace or a mine (pirate Jelly Rod)"),
    ("^", "bare seamount", "a bare seamount: a seamount with no trace (no Atlantis, no artifact) on it"),
    ("s", "seamount", "a seamount (a trace on it or not: unknown)"),
    ("#", "deep ocean", "deep ocean"),
    ("x", "no trace", "no trace"),
    ("!", "danger", "danger (a mine or a sea monster)"),
    ("R*", "you", "your submarine (your letter and a star)"),
    ("B", "started/surfaced", "another submarine, where it started or surfaced (and has not moved since)"),
    ("b", "last seen", "another submarine, last seen there (it has moved since)"),
    ("m", "your mine", "your mine"),
    ("M", "sea monster", "a sea monster"),
    ("<>", "picked", "a space picked for your declaration"),
    ("+", "changed", "changed since your last action: another player's move you can see (the space is tinted too)"),
    ("✓", "you had it right", "at game over, on the true map: your chart had this space right"),
    ("✗", "your mark was wrong", "at game over, on the true map: your mark here was wrong"),
)
LEGEND_NOTES = (
    "Grey italic symbols are deduced by the assistant from your results; an underlined space is certain.",
    "Yellow symbols are your own pencil marks (`m`); `B?` is your guess of where Blue is.",
    "Played cards are listed last in the cards line, after \"Played:\"; the cursor is drawn reversed.",
    "Your result is drawn first in a space; other markers sit beside it (or, with no room, on the space's second line).",
    "The dark ring around the map (its rows labelled `off`) lies beyond its edge: it cannot be entered, but Sonar reads it.",
)


def legend_markdown() -> str:
    rows = "\n".join(f"- `{sym}` {words}" for sym, _, words in LEGEND)
    return "**Chart symbols** (the legend under the chart shows those drawn now):\n\n" + rows + \
        "\n\n" + " ".join(LEGEND_NOTES)


def _help() -> str:
    caps = "\n".join(f"- **{n}** -- {t}" for n, t, _ in data.CAPTAINS.values())
    arts = "\n".join(f"- **{n}** -- {t}" for n, t, _, _ in data.ARTIFACTS.values())
    return HELP.format(captains=caps, artifacts=arts, legend=legend_markdown())


HELP = _help()


def cell_name(n: int, cell: int) -> str:
    if cell < 0:
        return "?"
    r, c = divmod(cell, n)
    return f"{COLS[c]}{r + 1}"


def rel_name(dr: int, dc: int) -> str:
    if (dr, dc) == (0, 0):
        return "here"
    if max(abs(dr), abs(dc)) == 1:
        return data.DIR_SHORT[data.DIRS.index((dr, dc))]
    out = ""
    if dr:
        out += f"{abs(dr)}{'N' if dr < 0 else 'S'}"
    if dc:
        out += f"{abs(dc)}{'W' if dc < 0 else 'E'}"
    return out


FACT_WORD = ((data.ATL, "Atlantis"), (data.ART, "an artifact"), (data.ROD, "trace or mine"), (data.TRACE, "a trace"),
             (data.DANGER, "danger"), (data.DEEP_F, "deep ocean"), (data.SEA, "seamount"), (data.NOTRACE, "no trace"))


def fact_word(f: int) -> str:
    """The strongest thing chart facts ``f`` say about a space, in a word or two."""
    if f == 0:
        return "nothing"
    if f & data.SEA and f & data.NOTRACE:
        return "bare seamount"
    for bit, word in FACT_WORD:
        if f & bit:
            return word
    return "clear"


def card_name(card: str) -> str:
    return data.CARDS[card][0]


def describe_action(action: Any, view: Any = None) -> str:
    """The action in a few words; a cell is named on the map of ``view`` (the actor's),
    or on the default 6x6 map without one."""
    name = type(action).__name__
    n = view.n if view is not None else DEFAULT_SIZE
    if name == "ChooseCaptain":
        return f"keep the {data.CAPTAINS[action.captain][0]}"
    if name == "FirstMove":
        return f"free hidden first move {data.DIR_NAMES[action.dir]}"
    if name == "JellyRod":
        return f"Jelly Rod {data.AXIS_NAMES[action.axis]}"
    if name in ("Silent", "LongSilent", "DropMine"):
        label = {"Silent": "Silent Running", "LongSilent": "Long Silent Running", "DropMine": "Drop Mine"}[name]
        return f"{label} {data.DIR_NAMES[action.dir]}"
    if name == "Burn":
        return f"burn {card_name(action.card)} to move 1 space {data.DIR_NAMES[action.dir]}"
    if name == "UseCaptain":
        if action.steps:
            return f"use the captain: {counted(action.steps, 'space')} {data.DIR_NAMES[action.arg]}"
        return "use the captain" + (f" (choice {action.arg + 1})" if action.arg >= 0 else "")
    if name == "UseArtifact":
        label = data.ARTIFACTS[action.artifact][0]
        kind = data.ARTIFACTS[action.artifact][3]
        if kind == "dir":
            return f"use the {label}: 1 space {data.DIR_NAMES[action.arg]}"
        if kind == "cell":
            return f"use the {label} on {cell_name(n, action.arg)}"
        if kind == "seat":
            return f"use the {label} on seat {action.arg + 1}"
        if kind == "seat_dir":
            return f"use the {label}: push seat {action.arg + 1} {data.DIR_NAMES[action.dir]}"
        return f"use the {label}"
    if name == "PickCell":
        return f"pick {cell_name(n, action.cell)} for the declaration"
    if name == "Declare":
        return "declare Atlantis"
    if name == "EndTurn":
        return "end the turn"
    if name in ("Sonar", "Explore", "Surface", "Periscope"):
        return name
    return name.lower()


def _facts_text(cells) -> str:
    return ", ".join(f"{rel_name(dr, dc)} {fact_word(f)}" for dr, dc, f in cells)


def _cell(telling: Telling, key: str) -> str:
    """A cell the event names (every such event carries its map's size ``n``)."""
    return cell_name(telling.data["n"], telling.data[key])


def _turn(telling: Telling) -> str:
    return "Your turn." if telling.you else f"It is {telling.seat.name}'s turn."


def _turn_lost(telling: Telling) -> str:
    return f"{telling.who} {'lose' if telling.you else 'loses'} a whole turn."


def _played(telling: Telling) -> str:
    captain = telling.data.get("captain")
    if captain:
        return f"{telling.who} played {'your' if telling.you else 'their'} captain, the {telling['captain']}."
    return f"{telling.who} played {telling['card']}."


def _burnt(telling: Telling) -> str:
    extra = f" ({telling['captain']})" if telling.data.get("captain") else ""
    return f"{telling.who} burnt {telling['card']}{extra} to move 1 space {telling['dir']}."


#: The name of each look's result, where it is a card's or an artifact's.
RESULT_LABEL = {"sonar": "Sonar", "rod": "Jelly Rod", "explore": "Explore", "periscope": "Periscope",
                "geologist": "Geologist", "diver": "Deep Diver", "trident": "Trident", "orb": "Crystal Orb"}


def _result(telling: Telling) -> str:
    event, names = telling.data, telling.names
    what = event["what"]
    if what == "listener":
        return f"Nearest other submarine: {counted(event['distance'], 'move')} away."
    if what == "spotter":
        return f"{names[event['target']]} is at {telling['cell']}."
    if what == "conch":
        return "Submarines: " + ", ".join(f"{names[other]} at {cell_name(event['n'], cell)}"
                                          for other, cell in event["subs"]) + "."
    if what == "compass":
        return f"{telling.who} {'are' if telling.you else 'is'} at {telling['cell']}."
    if what == "fragment":
        return f"Under {telling['cell']}: {fact_word(event['facts'])}."
    if what == "navy":
        parts = [f"{data.DIR_SHORT[way]} {dist if dist else 'none'}"
                 for way, dist in zip(data.AXES[event["axis"]], event["dists"])]
        return "Navy Captain, nearest traces: " + ", ".join(parts) + "."
    if what == "periscope":
        danger = [rel_name(dr, dc) for dr, dc, facts in event["cells"] if facts]
        return f"Periscope: danger {', '.join(danger)}." if danger else "Periscope: no danger around."
    return f"{RESULT_LABEL.get(what, what)}: {_facts_text(event['cells'])}."


def _moved(telling: Telling) -> str:
    event, who = telling.data, telling.who
    if event.get("to") is not None and event["dir"] < 0:
        return f"{who} moved to {telling['to']}."
    way, steps, of = data.DIR_NAMES[event["dir"]], event["steps"], event["of"]
    done = counted(steps, "space") + (f" of {of}" if steps != of else "")
    if event["stop"] == "edge":
        return f"{who} moved {done} {way}: the edge of the map stopped {telling.whom}." if steps else \
            f"{who} could not move {way}: the edge of the map is there."
    if event["stop"] == "monster":
        return f"{who} moved {done} {way}: a sea monster blocked the way."
    if event["stop"] == "mine":
        return f"{who} moved {done} {way}, into a mine!"
    return f"{who} moved {done} {way}."


def _found_self(telling: Telling) -> str:
    knows = "You know where you are" if telling.you else f"{telling.who} knows where they are"
    return f"{knows} again: {telling['cell']}."


def _declared(telling: Telling) -> str:
    verdict = "right -- Atlantis is found!" if telling.data["correct"] else "wrong."
    return f"{telling.who} declared Atlantis at {telling['cells']}: {verdict}"


def _end_turn(telling: Telling) -> str:
    left = telling.data.get("left", 0)
    return f"{telling.who} ended the turn" + (f" with {counted(left, 'action')} unused." if left else ".")


EVENT_TEXT = EventText(
    templates={
        "captain_kept": "{who} kept a captain.",
        "your_captain": "{Whose} captain: {captain}.",
        "dive": "Every submarine makes one free hidden move.",
        "first_move": "{who} dived and moved unseen.",
        "turn": _turn,
        "turn_lost": _turn_lost,
        "played": _played,
        "burnt": _burnt,
        "result": _result,
        "moved": _moved,
        "artifact_drawn": "{who} found an artifact and drew a card.",
        "artifact_card": "{Whose} artifact: {artifact}.",
        "artifact_gone": "This artifact was already taken.",
        "surfaced": "{who} surfaced at {cell}.",
        "found_self": _found_self,
        "mine_dropped": "{who} dropped a mine.",
        "monster_attack": "The sea monster at {monster} attacked {whom}: pushed back, one action lost.",
        "mine_hit": "{who} ran into {owner.whose} mine!",
        "mine_artifact": "{who} handed an artifact to {owner.who}.",
        "mine_artifact_card": "The artifact was {artifact}.",
        "mine_used_artifact": "{who} handed the used {artifact} to {owner.whom}: it stays used.",
        "mine_cards": "{who} lost: {cards}.",
        "declared": _declared,
        "teleported": lambda telling: (f"{telling.who} {'were' if telling.you else 'was'}"
                                       " swept to an unknown space."),
        "end_turn": _end_turn,
        "round_limit": "Round {rounds} is over: nobody found Atlantis.",
        "monsters_roam": "The sea monsters roamed; they are now at {cells}.",
        "sabotaged": "{who} sabotaged {target.who}: one action less next turn.",
        "took_back": "{who} took back {cards}.",
        "artifact_used": "{who} used {artifact}.",
        "monster_woke": "A sea monster woke at {cell}.",
        "whirlpool": "{who} pushed {target.who} {dir}.",
        "siren": "{target.who} lost {card} to the Siren Song.",
        "undo": "{who} took back a move.",
    },
    fields={
        "captain": lambda captain: data.CAPTAINS[captain][0],
        "artifact": lambda artifact: data.ARTIFACTS[artifact][0],
        "card": lambda card: card_name(card) if card else "nothing",
        "cards": lambda cards: ", ".join(card_name(card) for card in cards) or "nothing",
        "dir": data.DIR_NAMES.__getitem__,
    },
    context_fields={
        "cell": lambda telling: _cell(telling, "cell"),
        "to": lambda telling: _cell(telling, "to"),
        "monster": lambda telling: _cell(telling, "monster"),
        "cells": lambda telling: _and([cell_name(telling.data["n"], cell) for cell in telling.data["cells"]]),
    },
    seats=("owner", "target"),
    announcements=("turn", "dive"),
)


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


#: The public trail of a submarine (``PlayerPublic.trail``) in words.
TRAIL_WORDS = {
    "first": "{its} free hidden first move", "silent": "Silent Running (1 space, unseen)",
    "long": "Long Silent Running (2 spaces, unseen)", "mine": "Drop Mine (1 space, unseen)",
    "racer": "the Speed Captain's move (1 to 3 spaces, unseen)",
    "pearl": "the Pearl of the Current (1 space, unseen)", "beacon": "the Warp Beacon (to any space, unseen)",
    "teleport": "a wrong declaration that swept {it} to an unknown space",
}


TRAIL_SHORT = {
    "first": "{its} hidden first move", "silent": "Silent Running", "long": "Long Silent Running",
    "mine": "Drop Mine", "racer": "the Speed Captain", "pearl": "the Pearl of the Current",
    "beacon": "the Warp Beacon", "teleport": "a wrong declaration",
}


def trail_word(tag: str, you: bool = False, short: bool = False) -> str:
    kind, _, way = tag.partition(":")
    if kind in ("burn", "pushed"):
        way = data.DIR_NAMES[data.DIR_SHORT.index(way)]
        if short:
            return f"a {'burnt card' if kind == 'burn' else 'push'} {way}"
        return f"a burnt card (1 space {way})" if kind == "burn" else \
            f"a push by the Whirlpool Stone (1 space {way})"
    words = (TRAIL_SHORT if short else TRAIL_WORDS).get(kind, kind)
    return words.format(its="your" if you else "its", it="you" if you else "it")


def history(public: Any, who: str, n: int, keep: int = 3, short: bool = False) -> str:
    """Where everyone last knew a submarine to be and what it did since, in a sentence:
    "Blue surfaced at C4, then made 2 moves: Silent Running (1 space, unseen) and a
    burnt card (1 space north)." (``keep``: how many of the latest moves to name;
    ``short``: their short names, for a narrow panel.)"""
    if public.surfaced >= 0:
        where = f"{who} surfaced at {cell_name(n, public.surfaced)}"
    elif public.start >= 0:
        where = f"{who} started at {cell_name(n, public.start)}"
    else:
        where = f"{who} {'have' if who == 'You' else 'has'} not been placed yet"
    moves = list(public.trail)
    if not moves:
        have = "have" if who == "You" else "has"
        return where + (f" and {have} not moved since." if public.surfaced >= 0 or public.start >= 0 else ".")
    named = [trail_word(t, who == "You", short) for t in moves[-keep:]]
    count = counted(len(moves), "move")
    if len(moves) > keep:
        return f"{where}, then made {count}; the last {keep}: {_and(named)}."
    return f"{where}, then made {count}: {_and(named)}."


# --- plain rendering ---------------------------------------------------------------
def chart_char(f: int) -> str:
    if f & data.ATL:
        return "@"
    if f & data.ART:
        return "$"
    if f & data.TRACE:
        return "T"
    if f & data.ROD:
        return "t"
    if f & data.DEEP_F:
        return "#"
    if f & data.SEA and f & data.NOTRACE:
        return "^"
    if f & data.SEA:
        return "s"
    if f & data.DANGER:
        return "!"
    if f & data.NOTRACE:
        return "x"
    return "."


def render_view(view: Any, names: Sequence[str]) -> str:
    cell_at = partial(cell_name, view.n)
    lines = []
    w = view.n + 2
    if view.chart:
        for r in range(w):
            row = []
            for c in range(w):
                index = r * w + c
                cell = (r - 1) * view.n + (c - 1) if 1 <= r <= view.n and 1 <= c <= view.n else -1
                ch = chart_char(view.chart[index]) if not (cell < 0 and view.chart[index] == data.NOTRACE) else " "
                if cell >= 0 and cell == view.pos:
                    ch = "*"
                elif cell >= 0 and cell in view.monsters:
                    ch = "M"
                row.append(ch)
            lines.append("".join(row))
    seat = "spectator" if view.seat is None else names[view.seat]
    lines.append(f"seat={seat} phase={view.phase} turn={names[view.turn]} actions={view.actions_left}"
                 f" round={view.round} deck={view.deck_count} monsters={[cell_at(m) for m in view.monsters]}")
    for s, p in enumerate(view.public):
        last = ",".join(c + (f":{data.DIR_SHORT[d]}" if d >= 0 else "") for c, d in p.last_played)
        lines.append(f"  {names[s]}: start={cell_at(p.start)} surfaced={cell_at(p.surfaced)} last=[{last}]"
                     f" hand={p.hand_count} arts={p.artifacts_held} used={list(p.used)}"
                     f" captain={p.captain or '?'} trail={'/'.join(p.trail)}{' LOST' if p.lost else ''}")
    if view.seat is not None:
        lines.append(f"me: pos={cell_at(view.pos)} hand={','.join(view.hand)} captain={view.captain}"
                     f" offers={list(view.offers)} artifacts={list(view.artifacts)} mine={cell_at(view.mine)}"
                     f" declare={view.may_declare} picks={[cell_at(c) for c in view.picks]}"
                     f" lost_obs={len(view.lost_obs)}")
    if view.failed:
        lines.append("failed=" + "; ".join(f"{names[s]}:{' '.join(cell_at(c) for c in cells)}" for s, cells in view.failed))
    if view.winners or view.phase == "over":
        lines.append(f"over: winners={[names[w] for w in view.winners]} ({view.end_reason})")
    if getattr(view, "truth", ()):
        w = view.n + 2
        lines.append("truth=" + "/".join("".join(TRUTH_CHAR[view.truth[r * w + c]] for c in range(1, w - 1))
                                         for r in range(1, w - 1)))
    return "\n".join(lines)


TRUTH_CHAR = {data.DEEP: "#", data.SEAMOUNT: "^", data.ARTIFACT: "$", data.ATLANTIS: "@"}


def reveal(state: Any, names: Sequence[str]) -> list[str]:
    """Everything that was hidden, in sentences, one line each: the result and why,
    each player's declarations, where Atlantis and the artifacts lay, the map row by
    row, and each player's position, captain, artifact cards and mine."""
    cell_at = partial(cell_name, state.n)
    n, w = state.n, state.n + 2
    cells = {kind: [c for c in range(n * n) if state.terrain[(c // n + 1) * w + c % n + 1] == kind]
             for kind in (data.ATLANTIS, data.ARTIFACT)}
    out = []
    if state.winners:
        out.append(f"{_and([names[s] for s in state.winners])} named every space of Atlantis after exploring "
                   "one of them, and wins: Finding Atlantis has no points, the first right declaration wins.")
    elif state.phase == "over":
        out.append(f"Nobody wins: {state.end_reason or 'the game ended'}.")
    else:
        out.append("The game is not over yet.")
    for s in range(state.players):
        wrong = [_and([cell_at(c) for c in cs]) for who, cs in state.failed if who == s]
        times = f"{counted(len(wrong), 'time')} ({'; '.join(wrong)})"
        if s in state.winners:
            out.append(f"{names[s]} declared the city right" + (f" after declaring wrongly {times}." if wrong else
                                                                 " at the first try."))
        elif wrong:
            out.append(f"{names[s]} declared wrongly {times}, each time swept to an unknown space.")
        else:
            out.append(f"{names[s]} never declared.")
    out.append(f"Atlantis lay at {_and([cell_at(c) for c in cells[data.ATLANTIS]])}.")
    arts = []
    for c in cells[data.ARTIFACT]:
        finder = [s for s in range(state.players) if any(found == c for _, found in state.arts[s])]
        taken = f" (found by {_and([names[f] for f in finder])})" if finder else \
            " (its card was taken)" if c in state.taken else " (its card was never drawn)"
        arts.append(cell_at(c) + taken)
    out.append(f"The artifacts lay at {_and(arts)}.")
    out.append("The map, row by row from the north: @ Atlantis, $ artifact, ^ seamount, # deep ocean.")
    for r in range(1, n + 1):
        row = " ".join(TRUTH_CHAR[state.terrain[r * w + c]] for c in range(1, n + 1))
        out.append(f"Row {r}, columns {COLS[0]} to {COLS[n - 1]}: {row}")
    for s in range(state.players):
        where = "at"
        cap = data.CAPTAINS[state.captain[s]][0] if state.captain[s] else "no captain"
        held = [data.ARTIFACTS[a][0] for a, _ in state.arts[s]]
        used = [data.ARTIFACTS[a][0] for a in state.used[s]]
        mine = f"their mine lay at {cell_at(state.mines[s])}" if state.mines[s] >= 0 else "no mine of theirs lay in the sea"
        hand = [data.CAPTAINS[state.captain[s]][0] if c == "captain" else card_name(c) for c in state.hands[s]]
        lost = " without knowing it (lost after a wrong declaration)" if state.lost[s] else ""
        out.append(f"{names[s]} ended {where} {cell_at(state.pos[s])}{lost} with the {cap}; cards in hand: "
                   f"{_and(hand) if hand else 'none'}; artifact cards held: {_and(held) if held else 'none'}; "
                   f"used: {_and(used) if used else 'none'}; {mine}.")
    if state.deck:
        out.append(f"Still in the artifact deck: {_and([data.ARTIFACTS[a][0] for a in state.deck])}.")
    return out
