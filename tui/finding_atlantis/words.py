"""The Finding Atlantis screen's words: the turn line's question, the cursor line, the
player panel (public history in sentences), the cards line, and why a key does
nothing now.  Pure functions of the seat's view (and the screen's own question);
styles come in from the screen's component classes."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rich.style import Style
from rich.text import Text

from engine.finding_atlantis import data
from engine.core import LogLine
from engine.finding_atlantis.text import cell_name, fact_word, history
from engine.text import counted

from ..last_turn import deed
from ..seat_labels import seat_text
from .picture import CHANGED, MARK_WORDS

#: Before the played cards, last in the cards line: said in words, not only by grey.
PLAYED = "Played:"
DIR_KEYS = "1 N  2 NE  3 E  4 SE  5 S  6 SW  7 W  8 NW"
PHASE_FIRST = {
    "captain": "First keep a captain: press 1 or 2.",
    "first_move": "First make your free hidden move: 1-8 picks a direction (1 N, 3 E, 5 S, 7 W).",
}


def ask_text(ask: dict[str, Any], view: Any, names: Sequence[str]) -> str:
    need, what = ask["need"], ask["what"]
    if need == "dir":
        esc = "" if view.phase == "first_move" else " Esc cancels."   # (it cannot be skipped)
        return f"{what}: direction? 1-8 as the compass under the chart shows, or Enter towards the cursor.{esc}"
    if need == "axis":
        return f"{what}: axis? {AXIS_KEYS}. Esc cancels."
    if need == "seat":
        return f"{what}: which player? " + "  ".join(
            f"{o + 1} {names[o]}" for o in range(view.players) if o != view.seat)
    if need == "cell":
        return f"{what}: move the cursor to a space, Enter. Esc cancels."
    if need == "steps":
        return f"{what}: how far? 1-3."
    if need == "burn":
        return "Burn which card? 1-9 (not Surface). Esc cancels."
    if need == "artifact":
        held = "  ".join(f"{i} {data.ARTIFACTS[a][0]}" for i, a in enumerate(view.artifacts, start=1))
        return f"Which artifact? {held}. Esc cancels."
    return what


def not_your_turn(view: Any, names: Sequence[str], waiting: str | None) -> str:
    if view is None:
        return "The table is not ready yet."
    if view.phase == "over":
        return "The game is over: nothing more to play (q leaves, ? shows the rules)."
    if view.seat is None:
        return "You are watching: spectators do not play."
    who = waiting or names[view.turn]
    return f"It is {names[view.turn]}'s turn, not yours: wait for {who}."


def why_not(action: str, view: Any, legal: Sequence[Any], ask: dict[str, Any] | None,
            names: Sequence[str], waiting: str | None = None) -> str:
    """Why the game key ``action`` does nothing now ("" when it would do something)."""
    if action == "mark":
        return "" if view is not None and view.seat is not None else "Spectators have no chart to mark."
    if action == "cancel":
        if ask is not None and view.phase == "first_move":
            return "The free first move cannot be skipped: choose a direction 1-8."
        return "" if ask is not None else "Nothing to cancel."
    if not legal:
        return not_your_turn(view, names, waiting)
    if action == "number":
        return ""
    if action == "enter":
        if ask is None:
            return ("Enter answers a question (a direction, a space); first choose a card with 1-9."
                    if view.phase == "play" else PHASE_FIRST.get(view.phase, ""))
        if ask["need"] not in ("dir", "cell"):
            return "This question wants a number key: " + ask_text(ask, view, names)
        return ""
    if view.phase != "play":
        return PHASE_FIRST.get(view.phase, "Not now.")
    if action in ("pick", "declare"):
        if not view.may_declare:
            return ("You may declare Atlantis only right after exploring one of its spaces: "
                    "stand on it and play Explore.")
        return ""
    if action == "end_turn":
        return ""
    if action == "artifact":
        if not view.artifacts:
            return "You hold no artifact card: Explore an artifact space ($) to draw one."
        if view.actions_left <= 0 and not any(data.ARTIFACTS[a][2] for a in view.artifacts):
            return "Your artifacts each cost an action and you have none left: e ends your turn."
        return ""
    if action == "burn":
        if view.actions_left <= 0:
            return "You have no actions left this turn: e ends your turn."
        if not any(c not in data.UNBURNABLE for c in view.hand):
            return "You have no card you may burn (Surface cannot be burnt): surface to take them back."
        return ""
    return ""


def key_hint(view: Any, legal: Sequence[Any], names: Sequence[str]) -> str:
    """The keys that do something now, as the footer lists them (``a`` and ``b`` only
    when allowed: the footer hides a key that would only say why not)."""
    keys = ["1-9 play a card"] if view.actions_left > 0 else ["Both actions used"]
    if not why_not("artifact", view, legal, None, names):
        keys.append("a use an artifact")
    if not why_not("burn", view, legal, None, names):
        keys.append("b burn a card to move")
    keys.append("e end turn" if view.actions_left > 0 else "e ends your turn")
    return ", ".join(keys) + "."


def turn_line(view: Any, legal: Sequence[Any], names: Sequence[str], ask: dict | None, waiting: str | None,
              cursor_words: str, ask_style: Style) -> Text:
    out = Text()
    plain = Style(bold=False)
    if not legal:
        out.append_text(seat_text(view.turn, names[view.turn]))
        out.append(" to play")
        if waiting:
            out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
        return out
    out.append("Your turn ")
    out.append_text(seat_text(view.turn, names[view.turn]))
    if view.phase == "captain":
        out.append("\nKeep a captain: 1 or 2.\n", plain)
        for i, c in enumerate(view.offers, start=1):
            out.append(f"{i} {data.CAPTAINS[c][0]}: {data.CAPTAINS[c][1]}\n", plain)
        return out
    out.append(f"  actions left: {view.actions_left}\n" if view.phase == "play" else "\n", plain)
    if ask:
        out.append(ask_text(ask, view, names), ask_style)
    elif view.may_declare:
        out.append(f"Atlantis! x picks a space ({len(view.picks)}/{view.k}), D declares; or play on.", ask_style)
    else:
        out.append(key_hint(view, legal, names), plain)
    out.append("\n")
    out.append(cursor_words, Style(bold=False, dim=True))
    return out


def cursor_words(view: Any, cell: int, marks: dict[int, str], know: Any) -> str:
    words = [f"Cursor {cell_name(view.n, cell)}"]
    if view.chart and not view.paper:
        r, c = divmod(cell, view.n)
        f = view.chart[(r + 1) * (view.n + 2) + c + 1]
        if f:
            words.append(fact_word(f))
    mark = marks.get(cell)
    if mark:
        words.append(f"your mark {MARK_WORDS.get(mark, mark)}")
    if know is not None and know.certain(cell):
        words.append("certain")
    return ", ".join(words)


def players_panel(view: Any, names: Sequence[str], baseline: Any | None, recent: Style,
                  narrow: bool = False) -> Text:
    """Every player's public state; ``narrow`` (80 columns): short words, and no history
    of your own (you know where you are)."""
    out = Text()
    for s, p in enumerate(view.public):
        changed = (baseline is not None and s != view.seat and s < len(baseline.public)
                   and baseline.public[s] != p)
        out.append("▶" if s == view.turn and view.phase != "over" else " ")
        out.append_text(seat_text(s, names[s]))
        last = ", ".join(data.CARDS[c][0] + (f" (burnt, {data.DIR_NAMES[d]})" if d >= 0 else "")
                         for c, d in p.last_played)
        out.append((f": last played {last}." if last else ": nothing played yet.") + (f" {CHANGED}" if changed else ""),
                   recent if changed else Style())
        out.append("\n")
        extra = []
        if p.captain:
            extra.append(f"Captain: {data.CAPTAINS[p.captain][0]}.")
        if p.artifacts_held:
            extra.append(f"Holds {counted(p.artifacts_held, 'artifact card')}.")
        if p.used:
            extra.append("Used " + ", ".join(data.ARTIFACTS[a][0] for a in p.used) + ".")
        if p.lost:
            extra.append("Lost: does not know where it is.")
        who = "You" if s == view.seat else names[s]
        said = "" if narrow and s == view.seat else history(p, who, view.n, 2 if narrow else 3, narrow)
        said = " ".join(filter(None, [said, *extra]))
        if said:
            out.append((CHANGED if changed else " ") + said + "\n",
                       (recent if changed else Style()) + Style(dim=True))
    deck = "in the deck" if narrow else "in the artifact deck"
    out.append(f"Round {view.round} of {view.max_rounds}, {counted(view.deck_count, 'artifact')} {deck}"
               f"{', pirate mode' if view.pirate else ''}{', paper mode' if view.paper else ''}.",
               Style(dim=True))
    for s, cells in view.failed[-2:]:
        out.append(f"\n✗ {names[s]} declared wrongly: {' '.join(cell_name(view.n, c) for c in cells)}",
                   Style(dim=True))
    return out


def cards_text(view: Any, menu: list[tuple[str, str, str]], arts: list[tuple[str, str, str]],
               style: Callable[[str], Style], lost_note: str = "", width: int = 80, rows: int = 3) -> Text:
    """The numbered cards (and artifacts), wrapped by whole items to ``width``; the
    played cards on a line of their own while ``rows`` (the box's) allow it, else at
    the end of the last line, never split over two."""
    out = Text()
    if view.seat is None:
        out.append("Watching: hands are hidden.", Style(dim=True))
        return out
    if lost_note:
        out.append(lost_note + "\n", style("ask"))
    used = 0

    def room(item: str) -> None:
        nonlocal used
        if used and used + len(item.rstrip()) > width:
            out.append("\n")
            used = 0
        used += len(item)

    numbered = list(enumerate(menu, start=1))
    for i, (kind, ident, label) in numbered:
        if kind == "played":
            continue
        room(f"{i} {label}  ")
        st = Style()
        if kind == "captain":
            st = style("captain")
        elif kind == "keep":
            st = Style(bold=True)
        out.append(f"{i}", Style(reverse=True))
        out.append(f" {label}  ", st)
    played = [(i, label) for i, (kind, _, label) in numbered if kind == "played"]
    if played:   # never wrapped (a name on the next line would look playable), said in words
        named = len(PLAYED) + sum(len(f" {i} {label} ") for i, label in played)
        short = len(PLAYED) + sum(len(f" {i}") for i, _ in played)
        lines = out.plain.count("\n") + 1 + (1 if arts else 0)
        if used and lines < rows or not used:   # a line of its own, in view
            size = named if named <= width else short
            if used:
                out.append("\n")
        elif used + named <= width:               # the last row's end, whole
            size = named
        else:
            size = short
            if used + short > width:
                out.append("\n")
        out.append(PLAYED, Style(dim=True))
        for i, label in played:   # (too long for the line: the numbers only)
            out.append(f" {i}", Style(dim=True))
            if size == named:
                out.append(" ")
                out.append(label, Style(dim=True, strike=True))
                out.append(" ")
        used = width
    if arts:
        out.append("\n")
        out.append("a", Style(reverse=True))
        out.append(" artifact: ")
        used = len("a artifact: ")
        for i, (_, _, label) in enumerate(arts, start=1):
            room(f"{i} {label}  ")
            out.append(f"{i} {label}  ", style("artifact"))
    return out


AXIS_KEYS = "1 N-S  2 E-W  3 NE-SW  4 NW-SE"


def question_keys(ask: dict[str, Any] | None) -> Text | None:
    """What the number keys mean while a direction or an axis is asked (drawn in the
    cards' place), None when they choose a card."""
    if ask is None or ask["need"] not in ("dir", "axis"):
        return None
    if ask["need"] == "dir":
        return compass_text()
    out = Text("Axis? ")
    for item in AXIS_KEYS.split("  "):
        key, _, name = item.partition(" ")
        out.append(key, Style(reverse=True))
        out.append(f" {name}  ")
    out.rstrip()
    return out


def compass_text() -> Text:
    """Where each direction key goes, drawn as a compass around your submarine: shown in
    the cards' place while a direction is asked, so a digit means one thing at a time."""
    out = Text()
    short = DIR_KEYS.split()[1::2]   # N, NE, E, ...
    for row in ((7, 0, 1), (6, None, 2), (5, 4, 3)):
        for d in row:
            if d is None:
                out.append(" you  ", Style(bold=True))
                continue
            out.append(f"{d + 1}", Style(reverse=True))
            out.append(f" {short[d]:<4}")
        out.append("\n")
    out.rstrip()
    return out


def end_turn_question(unused: int) -> str:
    """What a first e says while actions are unused."""
    actions = "action" if unused == 1 else "actions"
    return f"End your turn with {unused} {actions} unused? e again to end it, Esc to play on."


def turn_summary(name: str, lines: Sequence[LogLine]) -> str:
    """One sentence for another seat's turn ("Blue played Sonar, then Jelly Rod."): the
    End turn that closes every turn is left out unless it is news (actions unused, or
    all the turn was); cards played one after the other share one "played"."""
    parts: list[str] = []
    kinds: list[str] = []
    for line in lines:
        body = deed(line, name).rstrip(".")
        if line.kind == "end_turn" and body == "ended the turn" and (parts or len(lines) > 1):
            continue
        if line.kind == "played" and kinds and kinds[-1] == "played":
            body = body.removeprefix("played ")
        if not parts and body != line.text.rstrip("."):
            body = f"{name} {body}"   # (the first part names the seat once, when its line did)
        parts.append(body)
        kinds.append(line.kind)
    return ", then ".join(parts) + "."
