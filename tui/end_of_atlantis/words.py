"""End of Atlantis screen words: the sentences of the choice list, the stage lines,
the "last vote" explanation (read from the view, since a hidden vote's bids reach the
table through the views, not the events), the legend, and what others changed since
this seat's last move (the ``recent`` highlight).  No widgets here."""

from __future__ import annotations

from typing import Any, Sequence

from engine.end_of_atlantis import data, text
from engine.end_of_atlantis.actions import (
    DECK_SLOT, Bid, Demagogos, Discard, Done, Faction, LayCard, Pass, Play, PlaySpecial, TakeSpecial, Target,
    UseAbility,
)
from engine.end_of_atlantis.factions import faction_cost
from engine.end_of_atlantis.state import PAID, senate_order_of, winners_needed
from engine.text import counted

from ..seat_labels import NEUTRAL, NEUTRAL_LETTER, SEAT_LETTERS

CUBE_LETTERS = SEAT_LETTERS[:NEUTRAL] + NEUTRAL_LETTER  # cube colours 0-4 are the seats', 5 neutral
COLOUR_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")
SHIP_NOTES = ("", "", "", "", "", "upgraded: one neutral always aboard", "upgraded: its mover scores 2 more",
              "upgraded: its mover draws a special card", "upgraded: flies from port to the Promised Land",
              "upgraded: immune to red cards")
PHASE = {"senate": "Senate phase", "faction": "Factions phase", "ability": "Factions phase",
         "archont": "Factions phase", "order": "Voting phase", "together": "Doom phase", "over": "game over"}
VOTING = ("vote", "open", "play", "peek", "rebid", "call")
STAGE_WORDS = {
    "senate": "Senate: choose your secret bid",
    "faction": "Factions",
    "ability": "End of Factions: abilities",
    "archont": "Archont: discard",
    "order": "Voting: lay your cards face down, in order",
    "vote": "Hidden vote: choose your secret bid",
    "peek": "Demagogos: look at one bid?",
    "rebid": "Demagogos: change your bid?",
    "call": "Demagogos: who bids first?",
    "open": "Open vote: name a bid nobody has named (0 passes)",
    "play": "Winners play their cards",
    "together": "We're All In This Together: place refugees",
    "over": "Game over",
}
# Why ``p`` (pass) does nothing in a stage where no Pass is offered.
NO_PASS = {
    "senate": "the Senate bid is secret and everyone makes one: choose a bid (0 is allowed)",
    "vote": "in a hidden vote everyone bids: choose a bid (0 is allowed)",
    "rebid": "choose your bid again (keep it, or change it)",
    "order": "every voting card must be laid: choose the next one",
    "archont": "the Archont must discard: choose a card",
}


def card_name(card: int) -> str:
    return data.CARD_NAME[data.CARD_KIND[card]]


def card_short(card: int) -> str:
    return data.CARD_SHORT[data.CARD_KIND[card]]


def special_name(card: int) -> str:
    return data.SPECIAL_NAME[data.SPECIAL_KEY[card]]


def ship_words(view: Any, i: int) -> str:
    sh = view.ships[i]
    return f"{data.ship_full_name(sh.tile)} ({'at sea' if sh.at_sea else 'in port'})"


def grouped(names: Sequence[str]) -> list[str]:
    """"Refugees 1 x2" for two alike cards (a hand reads at a glance)."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [n if k == 1 else f"{n} x{k}" for n, k in counts.items()]


# --- the last vote, explained ---------------------------------------------------------------
def last_vote_index(view: Any) -> int:
    """The voting place whose result the view holds in ``last_bids``, or -1."""
    if view.stage not in VOTING or not view.last_bids:
        return -1
    return view.vote if view.stage == "play" else view.vote - 1


def last_vote_text(view: Any, names: Sequence[str], short: bool = False) -> str:
    """Every bid of the last vote of this turn and why the winners won."""
    vote = last_vote_index(view)
    if vote < 0:
        return ""
    bids = view.last_bids
    order = senate_order_of(view.senate_pool, view.markers)
    winners = tuple(view.last_winners)
    play = list(winners)
    philosophios = view.faction_holders[data.PHILOSOPHIOS]
    if philosophios in play:
        play.remove(philosophios)
        play.insert(0, philosophios)
    hidden = view.vote_kind == "hidden"
    result = {"vote": vote, "bids": bids, "order": order, "winners": winners, "pool": view.senate_pool,
              "no_card": tuple(p for p in range(view.players) if len(view.voting_cards[p]) <= vote),
              "play_order": tuple(play), "places": winners_needed(view)}
    said = text.vote_words(result, names, hidden, short)
    if view.event >= 0 and data.EVENT_KEY[view.event] == "no_mercy":
        loser = sorted(order, key=lambda p: (-bids[p], order.index(p)))[-1]
        said += f" No Mercy For The Weak: {names[loser]} bid lowest and loses 1 point."
    return said


# --- what the other seats changed since this seat's last move -------------------------------
def recent_changes(base: Any, view: Any) -> dict[str, set]:
    """Cells that differ between ``base`` (right after this seat's last move) and ``view``."""
    out: dict[str, set] = {"ships": set(), "vp": set(), "factions": set(), "pool": set(), "cards": set()}
    if base is None or base.players != view.players:
        return out
    if len(base.ships) == len(view.ships):
        out["ships"] = {i for i, (a, b) in enumerate(zip(base.ships, view.ships)) if a != b}
    out["vp"] = {p for p in range(view.players) if base.vp[p] != view.vp[p]}
    out["pool"] = {p for p in range(view.players) if base.senate_pool[p] != view.senate_pool[p]}
    out["factions"] = {f for f in range(7) if base.faction_holders[f] != view.faction_holders[f]
                       or base.plus_one[f] != view.plus_one[f]}
    for p in range(view.players):
        old, new = base.voting_cards[p], view.voting_cards[p]
        for i in range(len(new)):
            def at(rows: Any, p: int = p, i: int = i) -> Any:
                return rows[p][i] if i < len(rows[p]) else None
            if i >= len(old) or old[i] != new[i] or at(base.tokens_on_cards) != at(view.tokens_on_cards) \
                    or at(base.played) != at(view.played):
                out["cards"].add((p, i))
    return out


# --- the legend -----------------------------------------------------------------------------
def legend_lines(names: Sequence[str], players: int, width: int, short_names: bool) -> list[str]:
    """The legend on the screen: the same entries as in the help (``text.LEGEND``), in
    columns when there is room; the short card and Faction names only when they are drawn."""
    colours = "Colours: " + ", ".join(
        f"{CUBE_LETTERS[p]} {COLOUR_NAMES[p]}" + (f" ({names[p]})" if names[p] != COLOUR_NAMES[p] else "")
        for p in range(players)) + ", N neutral (black)."
    entries = [f"{sym:<5} {words}" for sym, words in text.LEGEND[1:]]
    columns = max(1, width // (max(len(e) for e in entries) + 2))
    rows = -(-len(entries) // columns)
    lines = [colours]
    if columns == 1:
        lines += entries
    else:
        col = width // columns
        for r in range(rows):
            cells = [entries[c * rows + r] for c in range(columns) if c * rows + r < len(entries)]
            lines.append("".join(cell[: col - 1].ljust(col) for cell in cells).rstrip())
    if short_names:
        lines += ["Cards: " + text.CARD_LEGEND + ".", "Factions: " + text.FACTION_LEGEND + ".",
                  text.SENATE_LEGEND[0].upper() + text.SENATE_LEGEND[1:] + "."]
    lines.append("Players panel: " + text.PANEL_LEGEND + ".")
    lines.append("Highlighted: what the other players changed since your last move.")
    return lines


# --- the choice list ------------------------------------------------------------------------
def default_choice(view: Any, legal: Sequence[Any]) -> int:
    """Where the cursor starts: on a re-bid the bid you already made (Enter keeps it),
    else the first real choice (not Pass)."""
    if view is not None and view.stage == "rebid":
        for i, a in enumerate(legal):
            if type(a) is Bid and a.tokens == view.bids[view.seat]:
                return i
    for i, a in enumerate(legal):
        if type(a) is not Pass:
            return i
    return 0


def choice_text(view: Any, a: Any, names: Sequence[str], describe: Any) -> str:
    st = view.stage
    kind = type(a)
    if kind is Bid:
        if st == "open" and a.tokens == 0:
            return "Pass (bid 0)"
        keep = st == "rebid" and a.tokens == view.bids[view.seat]
        return f"Bid {a.tokens}" + (" (keep it)" if keep else "")
    if kind is Faction:
        paid = view.faction_queue[view.faction_pos].kind == PAID
        cost = faction_cost(view, view.seat) if paid else 0
        plus = " +1 point" if view.plus_one[a.faction] else ""
        return f"{data.FACTIONS[a.faction]} ({counted(cost, 'token') if cost else 'free'}{plus})"
    if kind is Pass:
        return {
            "faction": "Pass (take a Faction free at the end)", "play": "Play no card",
            "ability": "Do not use the ability", "peek": "Do not look at a bid",
            "call": "Nobody bids out of turn", "together": "Stop placing refugees",
        }.get(st, "Pass")
    if kind is PlaySpecial:
        said = f"Play special: {special_name(a.card)}"
        return said + (f" → ship {ship_words(view, a.ship)}" if a.ship >= 0 else "")
    if kind is UseAbility:
        f = view.ability_queue[0].faction
        return f"Use {data.FACTIONS[f]}: {data.FACTION_ABILITY[f]}"
    if kind is Discard:
        return f"Discard {card_name(a.card)}"
    if kind is TakeSpecial:
        if a.slot == DECK_SLOT:
            return "Draw a special card from the deck"
        return f"Take face-up special: {special_name(view.face_up_specials[a.slot])}"
    if kind is LayCard:
        return f"Lay {card_name(a.card)}" + (" face down (Oraklos)" if a.face_down else "")
    if kind is Demagogos:
        return f"Look at {names[a.player]}'s bid" if st == "peek" else f"Make {names[a.player]} bid first"
    if kind is Play:
        card = view.voting_cards[a.source][view.vote]
        whose = "your" if a.source == view.seat else f"{names[a.source]}'s"
        extra = f" with {special_name(a.special)}" if a.special >= 0 else ""
        return f"Play {whose} {card_name(card)}{extra}"
    if kind is Done:
        return "Stop discarding refugees"
    if kind is Target:
        return target_text(view, a, names)
    return describe(a)


def target_text(view: Any, a: Target, names: Sequence[str]) -> str:
    ship = (lambda: f"ship {ship_words(view, a.ship)}")
    if view.stage == "together":
        return f"One refugee on {ship()}"
    if view.stage == "ability":
        return f"Basileus: a refugee on {ship()}"
    step = view.effect.steps[0] if view.effect is not None else ""
    colour = (lambda c: "neutral" if c == data.NEUTRAL else names[c])
    if step in ("place1", "place1x"):
        return f"1 refugee on {ship()}"
    if step == "place2":
        return f"2 refugees on {ship()}"
    if step == "aristo":
        base = f"1 refugee on {ship()}"
        return base + (f", pushing off a {colour(a.colour)} cube" if a.colour >= 0 else "")
    if step == "bump":
        return f"Discard a {colour(a.colour)} cube from {ship()}"
    if step in ("move", "royal"):
        sh = view.ships[a.ship]
        to = "Promised Land" if sh.at_sea or sh.tile == data.AIRSHIP + data.ADVANCED else "ocean"
        return f"Move {ship()} → {to}"
    if step == "sabotage":
        return f"Sabotage {ship()}"
    if step == "betray":
        if a.ship >= 0:
            return f"Betray the refugees on {ship()}"
        return f"Remove up to 4 of {names[a.colour]}'s tokens from the Senate"
    if step == "remove":
        return f"Discard a {colour(a.colour)} cube"
    return f"Target {ship()}"


# --- a card the seat may play that is not offered: why ------------------------------------------
def unplayable_text(view: Any, legal: Sequence[Any], names: Sequence[str]) -> str:
    """In the Voting phase's play: each card this seat may play (its own, or the left
    player's) that is not among the choices, and why (a card is offered only when it can
    be carried out in full now: the Ships card with every ship empty cannot).  ''
    when every such card is offered."""
    from engine.end_of_atlantis.effects import play_sources

    if view.stage != "play" or view.seat is None or not legal or view.vote < 0:
        return ""
    offered = {a.source for a in legal if type(a) is Play}
    out = []
    for source in play_sources(view, view.seat):
        cards = view.voting_cards[source]
        card = cards[view.vote] if view.vote < len(cards) else -1
        if card >= 0 and source not in offered:
            whose = "Your" if source == view.seat else f"{names[source]}'s"
            out.append(f"{whose} {card_name(card)} is not offered: it cannot be carried out in full now.")
    return " ".join(out)


# --- a choice that does not fit the list: the same choice in fewer words ----------------------
# (in turn, until it fits; the lanes mark the target ship with ▶, so where it is can go)
_SHORTER = (
    (" (in port)", ""), (" (at sea)", ""), ("end of Factions: ", ""), (" Politics cards", " cards"),
    (", then discard", ", discard"), ("Play special: ", "Play "), ("ship ", ""),
    ("'s tokens from the Senate", "'s Senate tokens"), ("Take face-up special: ", "Take "),
    ("Draw a special card from the deck", "Draw a special card"),
)


def fit_choice(text: str, room: int) -> str:
    """``text`` shortened (whole words, the same meaning) until it is at most ``room``
    cells, or as short as it gets."""
    return fit_choices([text], room)[0]


def fit_choices(texts: Sequence[str], room: int) -> list[str]:
    """A list's choices shortened alike, step by step, until each is at most ``room``
    cells (or as short as they get): choices side by side say the same things the same
    way ("Move ship A Ark → ..." beside "Move ship B Science Vessel → ...", never one
    with "(at sea)" and one without)."""
    out = list(texts)
    for long, short in _SHORTER:
        if all(len(text) <= room for text in out):
            break
        out = [text.replace(long, short) for text in out]
    return out


# --- the Senate bids, revealed: the Senate order and why a tie went one way ------------------
def senate_reveal_text(view: Any, names: Sequence[str], short: bool = False) -> str:
    """During the Factions phase: every Senate bid, the Senate order the phase was played
    in (``faction_order``, set when the bids were revealed), and for each tie in the pool
    why one player went first: the marker further left at that moment (rulebook
    "Breaking Ties").  A marker that has moved since (its player took a Faction) is not
    named by the space it stands on now.  '' outside the phase."""
    if view.family or view.stage not in ("faction", "ability", "archont") or not view.last_bids:
        return ""
    pool, markers = view.senate_pool, view.markers
    order = list(view.faction_order) or senate_order_of(pool, markers)
    moved = set(view.faction_holders) - {-1}
    who = (lambda p: CUBE_LETTERS[p]) if short else (lambda p: names[p])
    bids = ", ".join(f"{who(p)} {view.last_bids[p]}" for p in range(view.players))
    said = f"{bids}. Senate order: " + ", ".join(who(p) for p in order) + "."
    ties = []
    groups: list[list[int]] = []
    for p in order:
        if groups and pool[groups[-1][0]] == pool[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    for group in (g for g in groups if len(g) > 1):
        listed = ", ".join(who(p) for p in group[:-1]) + " and " + who(group[-1])
        first = group[0]
        if short:
            ties.append(f"{listed} tie at {pool[first]}: {who(first)}'s marker was further left at the reveal")
        elif not moved & set(group):
            where = ", ".join(f"{names[p]} on {data.FACTIONS[markers[p]]}" for p in group)
            ties.append(f"{listed} tie at {pool[first]} in the pool: {names[first]}'s Faction marker "
                        f"stands further left ({where}), so {names[first]} is higher")
        else:
            ties.append(f"{listed} tie at {pool[first]} in the pool: {names[first]}'s Faction marker stood "
                        f"further left when the bids were revealed, so {names[first]} is higher")
    if ties:
        said += " " + "; ".join(ties) + "."
    return said
