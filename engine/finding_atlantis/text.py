"""Finding Atlantis in words: event sentences, action names, the help page, and
a plain text rendering of a view (golden transcripts and the replay viewer)."""

from __future__ import annotations

from typing import Any, Sequence

from ..core import Event
from . import data

COLS = "ABCDEFGH"

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
    "Your result is drawn first in a space; other markers sit beside it or on the line below.",
    "The dark ring around the map lies beyond its edge: it cannot be entered, but Sonar reads it.",
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


def _who(seat: int, viewer: int | None, names: Sequence[str]) -> str:
    return "You" if seat == viewer else names[seat]


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


def describe_action(a: Any) -> str:
    name = type(a).__name__
    if name == "ChooseCaptain":
        return f"keep the {data.CAPTAINS[a.captain][0]}"
    if name == "FirstMove":
        return f"free hidden first move {data.DIR_NAMES[a.dir]}"
    if name == "JellyRod":
        return f"Jelly Rod {data.AXIS_NAMES[a.axis]}"
    if name in ("Silent", "LongSilent", "DropMine"):
        label = {"Silent": "Silent Running", "LongSilent": "Long Silent Running", "DropMine": "Drop Mine"}[name]
        return f"{label} {data.DIR_NAMES[a.dir]}"
    if name == "Burn":
        return f"burn {card_name(a.card)} to move 1 space {data.DIR_NAMES[a.dir]}"
    if name == "UseCaptain":
        if a.steps:
            return f"use the captain: {a.steps} space{'s' if a.steps != 1 else ''} {data.DIR_NAMES[a.arg]}"
        return "use the captain" + (f" (choice {a.arg + 1})" if a.arg >= 0 else "")
    if name == "UseArtifact":
        label = data.ARTIFACTS[a.artifact][0]
        kind = data.ARTIFACTS[a.artifact][3]
        if kind == "dir":
            return f"use the {label}: 1 space {data.DIR_NAMES[a.arg]}"
        if kind == "cell":
            return f"use the {label} on {_cell(a.arg)}"
        if kind == "seat":
            return f"use the {label} on seat {a.arg + 1}"
        if kind == "seat_dir":
            return f"use the {label}: push seat {a.arg + 1} {data.DIR_NAMES[a.dir]}"
        return f"use the {label}"
    if name == "PickCell":
        return f"pick {_cell(a.cell)} for the declaration"
    if name == "Declare":
        return "declare Atlantis"
    if name == "EndTurn":
        return "end the turn"
    if name in ("Sonar", "Explore", "Surface", "Periscope"):
        return name
    return name.lower()


def _facts_text(cells) -> str:
    return ", ".join(f"{rel_name(dr, dc)} {fact_word(f)}" for dr, dc, f in cells)


def describe(event: Event, viewer: int | None, names: Sequence[str], n: int = 8) -> str:
    d = event.data
    k = event.kind
    if "n" in d:
        set_size(d["n"])
    who = _who(d["seat"], viewer, names) if "seat" in d else ""
    if k == "captain_kept":
        return f"{who} kept a captain."
    if k == "your_captain":
        return f"Your captain: {data.CAPTAINS[d['captain']][0]}."
    if k == "dive":
        return "Every submarine makes one free hidden move."
    if k == "first_move":
        return f"{who} dived and moved unseen."
    if k == "turn":
        return "Your turn." if d["seat"] == viewer else f"It is {names[d['seat']]}'s turn."
    if k == "turn_lost":
        return f"{who} lose{'s' if who != 'You' else ''} a whole turn."
    if k == "played":
        if d.get("captain"):
            return f"{who} played {'your' if who == 'You' else 'their'} captain, the {data.CAPTAINS[d['captain']][0]}."
        return f"{who} played {card_name(d['card'])}."
    if k == "burnt":
        extra = f" ({data.CAPTAINS[d['captain']][0]})" if d.get("captain") else ""
        return f"{who} burnt {card_name(d['card'])}{extra} to move 1 space {data.DIR_NAMES[d['dir']]}."
    if k == "result":
        what = d["what"]
        if what == "listener":
            return f"Nearest other submarine: {d['distance']} moves away."
        if what == "spotter":
            return f"{names[d['target']]} is at {_cell(d['cell'])}."
        if what == "conch":
            return "Submarines: " + ", ".join(f"{names[o]} at {_cell(c)}" for o, c in d["subs"]) + "."
        if what == "compass":
            return f"You are at {_cell(d['cell'])}."
        if what == "fragment":
            return f"Under {_cell(d['cell'])}: {fact_word(d['facts'])}."
        if what == "navy":
            parts = []
            for dd, dist in zip(data.AXES[d["axis"]], d["dists"]):
                parts.append(f"{data.DIR_SHORT[dd]} {dist if dist else 'none'}")
            return "Navy Captain, nearest traces: " + ", ".join(parts) + "."
        label = {"sonar": "Sonar", "rod": "Jelly Rod", "explore": "Explore", "periscope": "Periscope",
                 "geologist": "Geologist", "diver": "Deep Diver", "trident": "Trident",
                 "orb": "Crystal Orb"}.get(what, what)
        if what == "periscope":
            danger = [rel_name(dr, dc) for dr, dc, f in d["cells"] if f]
            return f"Periscope: danger {', '.join(danger)}." if danger else "Periscope: no danger around."
        return f"{label}: {_facts_text(d['cells'])}."
    if k == "moved":
        if d.get("to") is not None and d["dir"] < 0:
            return f"You moved to {_cell(d['to'])}."
        way, steps, of = data.DIR_NAMES[d["dir"]], d["steps"], d["of"]
        done = f"{steps} space{'s' if steps != 1 else ''}" + (f" of {of}" if steps != of else "")
        if d["stop"] == "edge":
            return f"You moved {done} {way}: the edge of the map stopped you." if steps else \
                f"You could not move {way}: the edge of the map is there."
        if d["stop"] == "monster":
            return f"You moved {done} {way}: a sea monster blocked the way."
        if d["stop"] == "mine":
            return f"You moved {done} {way}, into a mine!"
        return f"You moved {done} {way}."
    if k == "artifact_drawn":
        return f"{who} found an artifact and drew a card."
    if k == "artifact_card":
        return f"Your artifact: {data.ARTIFACTS[d['artifact']][0]}."
    if k == "artifact_gone":
        return "This artifact was already taken."
    if k == "surfaced":
        return f"{who} surfaced at {_cell(d['cell'])}."
    if k == "found_self":
        return f"You know where you are again: {_cell(d['cell'])}."
    if k == "mine_dropped":
        return f"{who} dropped a mine."
    if k == "monster_attack":
        return f"The sea monster at {_cell(d['monster'])} attacked {who if who != 'You' else 'you'}: pushed back, one action lost."
    if k == "mine_hit":
        return f"{who} ran into {_who(d['owner'], viewer, names) if d['owner'] != viewer else 'your'}{'' if d['owner'] == viewer else chr(39) + 's'} mine!"
    if k == "mine_artifact":
        return f"{who} handed an artifact to {_who(d['owner'], viewer, names)}."
    if k == "mine_artifact_card":
        return f"The artifact was {data.ARTIFACTS[d['artifact']][0]}."
    if k == "mine_used_artifact":
        owner = "you" if d["owner"] == viewer else names[d["owner"]]
        return f"{who} handed the used {data.ARTIFACTS[d['artifact']][0]} to {owner}: it stays used."
    if k == "mine_cards":
        lost = ", ".join(card_name(c) for c in d["cards"]) or "nothing"
        return f"{who} lost: {lost}."
    if k == "declared":
        cells = _and([_cell(c) for c in d["cells"]])
        verdict = "right -- Atlantis is found!" if d["correct"] else "wrong."
        return f"{who} declared Atlantis at {cells}: {verdict}"
    if k == "teleported":
        return f"{who} {'were' if who == 'You' else 'was'} swept to an unknown space."
    if k == "end_turn":
        left = d.get("left", 0)
        return f"{who} ended the turn" + (f" with {left} action{'s' if left != 1 else ''} unused." if left else ".")
    if k == "round_limit":
        return f"Round {d['rounds']} is over: nobody found Atlantis."
    if k == "monsters_roam":
        return "The sea monsters roamed; they are now at " + _and([_cell(c) for c in d["cells"]]) + "."
    if k == "sabotaged":
        return f"{who} sabotaged {_who(d['target'], viewer, names)}: one action less next turn."
    if k == "took_back":
        return f"{who} took back {', '.join(card_name(c) for c in d['cards']) or 'nothing'}."
    if k == "artifact_used":
        return f"{who} used {data.ARTIFACTS[d['artifact']][0]}."
    if k == "monster_woke":
        return f"A sea monster woke at {_cell(d['cell'])}."
    if k == "whirlpool":
        return f"{who} pushed {_who(d['target'], viewer, names)} {data.DIR_NAMES[d['dir']]}."
    if k == "siren":
        return f"{_who(d['target'], viewer, names)} lost {card_name(d['card']) if d['card'] else 'nothing'} to the Siren Song."
    if k == "undo":
        return f"{who} took back a move."
    return k


_N = [8]


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
    count = f"{len(moves)} move{'s' if len(moves) != 1 else ''}"
    if len(moves) > keep:
        return f"{where}, then made {count}; the last {keep}: {_and(named)}."
    return f"{where}, then made {count}: {_and(named)}."


def _cell(cell: int) -> str:
    return cell_name(_N[0], cell)


def set_size(n: int) -> None:
    """Cell names depend on the map size; the screen and transcripts set it."""
    _N[0] = n


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
    set_size(view.n)
    lines = []
    w = view.n + 2
    if view.chart:
        for r in range(w):
            row = []
            for c in range(w):
                x = r * w + c
                cell = (r - 1) * view.n + (c - 1) if 1 <= r <= view.n and 1 <= c <= view.n else -1
                ch = chart_char(view.chart[x]) if not (cell < 0 and view.chart[x] == data.NOTRACE) else " "
                if cell >= 0 and cell == view.pos:
                    ch = "*"
                elif cell >= 0 and cell in view.monsters:
                    ch = "M"
                row.append(ch)
            lines.append("".join(row))
    seat = "spectator" if view.seat is None else names[view.seat]
    lines.append(f"seat={seat} phase={view.phase} turn={names[view.turn]} actions={view.actions_left}"
                 f" round={view.round} deck={view.deck_count} monsters={[_cell(m) for m in view.monsters]}")
    for s, p in enumerate(view.public):
        last = ",".join(c + (f":{data.DIR_SHORT[d]}" if d >= 0 else "") for c, d in p.last_played)
        lines.append(f"  {names[s]}: start={_cell(p.start)} surfaced={_cell(p.surfaced)} last=[{last}]"
                     f" hand={p.hand_count} arts={p.artifacts_held} used={list(p.used)}"
                     f" captain={p.captain or '?'} trail={'/'.join(p.trail)}{' LOST' if p.lost else ''}")
    if view.seat is not None:
        lines.append(f"me: pos={_cell(view.pos)} hand={','.join(view.hand)} captain={view.captain}"
                     f" offers={list(view.offers)} artifacts={list(view.artifacts)} mine={_cell(view.mine)}"
                     f" declare={view.may_declare} picks={[_cell(c) for c in view.picks]}"
                     f" lost_obs={len(view.lost_obs)}")
    if view.failed:
        lines.append("failed=" + "; ".join(f"{names[s]}:{' '.join(_cell(c) for c in cells)}" for s, cells in view.failed))
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
    set_size(state.n)
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
        wrong = [_and([_cell(c) for c in cs]) for who, cs in state.failed if who == s]
        times = f"{len(wrong)} time{'s' if len(wrong) != 1 else ''} ({'; '.join(wrong)})"
        if s in state.winners:
            out.append(f"{names[s]} declared the city right" + (f" after declaring wrongly {times}." if wrong else
                                                                 " at the first try."))
        elif wrong:
            out.append(f"{names[s]} declared wrongly {times}, each time swept to an unknown space.")
        else:
            out.append(f"{names[s]} never declared.")
    out.append(f"Atlantis lay at {_and([_cell(c) for c in cells[data.ATLANTIS]])}.")
    arts = []
    for c in cells[data.ARTIFACT]:
        finder = [s for s in range(state.players) if any(found == c for _, found in state.arts[s])]
        taken = f" (found by {_and([names[f] for f in finder])})" if finder else \
            " (its card was taken)" if c in state.taken else " (its card was never drawn)"
        arts.append(_cell(c) + taken)
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
        mine = f"their mine lay at {_cell(state.mines[s])}" if state.mines[s] >= 0 else "no mine of theirs lay in the sea"
        hand = [data.CAPTAINS[state.captain[s]][0] if c == "captain" else card_name(c) for c in state.hands[s]]
        lost = " without knowing it (lost after a wrong declaration)" if state.lost[s] else ""
        out.append(f"{names[s]} ended {where} {_cell(state.pos[s])}{lost} with the {cap}; cards in hand: "
                   f"{_and(hand) if hand else 'none'}; artifact cards held: {_and(held) if held else 'none'}; "
                   f"used: {_and(used) if used else 'none'}; {mine}.")
    if state.deck:
        out.append(f"Still in the artifact deck: {_and([data.ARTIFACTS[a][0] for a in state.deck])}.")
    return out
