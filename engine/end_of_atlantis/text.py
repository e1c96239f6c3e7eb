"""End of Atlantis in words: the help page, event sentences, action names, and a
plain-text picture of a view (golden transcripts, the replay viewer)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..text import EventText, Telling, counted
from . import actions
from . import data

HELP = """\
# End of Atlantis

**Goal.** Atlantis is sinking. Lead one of its royal houses, get as many of your
people as you can onto ships bound for the Promised Land, and end with the most
victory points. Everyone starts with 2 points and 20 cubes behind a screen: a
cube is an *influence token* while you bid with it and a *refugee* once it is
aboard a ship.

**A turn has four phases.**

1. **Senate.** Everyone secretly chooses how many tokens to send to the Senate
   pool; all choices are shown at once. More tokens in the pool puts you higher
   in the *Senate order*, which breaks every tie. Equal pools: the player whose
   marker stands further left on the Faction row is higher.
2. **Factions.** In Senate order each player takes one Faction token, paying
   tokens by position (table below), or passes. Passing players then take one
   free, in Senate order. A token nobody took gets a **+1**: the next player to
   take it scores 1 point. Costs (first, second, ... in Senate order):
   5 players 2 2 1 1 0 · 4 players 2 1 1 0 · 3 players 2 1 0 · 2 players 1 0.
3. **Voting.** Everyone secretly lays 5 of their 7 Politics cards face down in
   order; all are turned up at once. Then five votes, one per position:
   - *hidden vote*: everyone chooses a bid in secret, shown at once;
   - *open vote*: in reverse Senate order each player names a bid that nobody
     else has named, or passes (0; several may pass; a pass never wins).
   The two highest bids win (ties by Senate order); with 5 players three win,
   with 2 players one. The winners may play the card at that position: first
   place plays first and may play the card of the player to the left instead
   (skipping players who also won). Every token bid is spent and lies on its
   card until the Doom phase. A card you play must be carried out in full.
   The last Event card sets the kind of vote; the first turn uses hidden votes.
4. **Doom.** 2 points to the most cubes that reached the Promised Land this
   turn (unless more neutral cubes got there) and 2 to the largest Senate pool.
   Turn up an Event card and carry it out; neutral refugees board ships in port,
   largest ship first. Then three ships sail one area each (two in a 2-player
   game): full ships first, then the most refugees aboard, ties to the left;
   never an empty ship. Finally everyone takes back the tokens on Faction
   buildings, on their cards and in the Promised Land, and half their Senate
   pool rounded up (all of it after a Doom!, Senate Pays or Senate's
   Leadership card).

**Ships.** Port -> ocean -> Promised Land. A ship arriving scores for every
player aboard: 1/3/6/10/15 for 1-5 of their refugees (Royal Ship card:
2/5/9/14/20), plus 1 for every other colour aboard (neutral black counts); the
player who moved it scores 1 more. The ship then returns to port empty. Each
ship has one name, its letter and name, on the board, in the log and in the
choices: A Ark (7 spaces), B Science Vessel (5), C Royal Vessel (5), D Airship
(3), E Warship (3). The first Doom! upgrades A and B, the second C, D and E
(a `+` then follows the letter everywhere, e.g. `A+ Ark`; an advanced tile
chosen with `chosen_ships` is named so from the start): the upgraded A Ark has
8 spaces, one always taken by a neutral; the upgraded B Science Vessel gives its
mover 2 points when moved off the ocean by a card; the upgraded C Royal Vessel
gives its mover a special card the same way; the upgraded D Airship flies from
port to the Promised Land in one move (no Royal Ship card on it); the upgraded
E Warship is immune to red cards.

**Politics cards (80).** Refugees 1 (24), 2 (12), 2+1 (4): put that many of
your cubes on ships in port (2+1: two on one ship, one on another).
Aristocracy (8): one refugee; on a full ship push off a cube of another colour.
Ships (12): move exactly two different ships. Royal Ship (8): move one ship,
scoring the royal chart. Support (4): draw a special card. Sabotage (4): a ship
on the ocean loses everyone aboard and goes home. Betrayal (4): discard up to 4
cubes from a ship in port, or 4 of one player's tokens from the Senate pool.

**Factions.** Archont: at the end of the Factions phase draw 5 cards, then
discard 5. Basileus: then put one refugee on a ship in port. Demiurgos: then
draw a special card. Demagogos (once a turn): in a hidden vote look at one
player's bid and change yours; in an open vote make one player bid first.
Oraklos: keep up to 2 of your voting cards face down until their vote is over.
Philosophios: when you win a vote you play first and may play the card of the
player to your left. Strategos: a vote in which you play no card returns 2 of
the tokens you bid.

**Events (10).** Three Doom! cards (the third ends the game at once, from
turn 4 on), and:
Senate Pays Its Debts (5 and 3 points to the two largest pools), Wrath of the
Ocean God (ships on the ocean are lost), We're All In This Together (in turn,
up to 3 refugees each, one at a time), Chaos Spreads (next turn has no Senate
or Factions phase; Factions and the pool stay), We're All Doomed (next turn
only first place plays; 2 players: 3 voting cards), No Mercy For The Weak (next
turn the lowest bid of each vote loses a point), Under The Senate's Leadership
(next Doom phase: the largest pool scores one point per neutral in the Promised
Land, the second half of that).

**Special cards (25, our design).** Empath x3 (with Aristocracy: two
refugees), Alliance x3 (with a Refugees card: first discard a cube of another
colour from a ship in port), Favourable Winds x3 (with Ships: three ships),
Royal Decree x2 (with Support: +2 points), Saboteurs' Guild x2 (with a red
card: a point per cube discarded, at most 3), Senate Favour x2 (Factions, your
turn: your token is free), Night Boarding x3 (Factions, your turn: one
refugee aboard), Hidden Treasury x3 (end: 3 points), Senate Favourite x2
(end: 4 points if first in Senate order), Ark Builders x2 (end: a point per
refugee of yours still aboard, at most 4).

**Variants (game options).** 2 players (no Ark; two Factions each, the first
paid; one winner per vote; two ships sail; the Philosophios's card cannot be
taken by first place; the Demagogos is immune to red cards), 5 players (three
winners per vote), `family` (no Senate phase; ties by the Faction markers),
`chosen_ships` (e.g. `A+,B,C,D+,E`: these tiles from the start, no upgrades;
each tile at most once; they stand in port in letter order, A on the left, a
starting tile before the advanced one, whatever order you list them in),
`revealed_events` (the top Event card is face up), `revealed_specials` (three
special cards face up to choose from), `aggressive_neutrals` (a neutral that
finds a ship full pushes off a cube of the last player in Senate order).

**Our decisions where the rule book is silent.**

- Hands are refilled to 7 as soon as your voting cards are face down (the new
  cards are for the next turn).
- The Faction markers start on random spaces, so the first tie-breaks are fair.
- The third Doom! comes too early in game turns 1-3 (the rule book says
  "third" in one place and "fourth" in another; its overview promises 4 to 8
  turns): turned up in the Doom phase of game turn 1, 2 or 3 it is shuffled
  back into the Event deck and another Event card is turned up instead. From
  turn 4 on it ends the game at once.
- Ties "to the left" among ships (which ship sails in the Doom phase, which
  ship neutrals board first) go by the ship's place in port, letter order.
- In a hidden vote every bid counts, 0 too (ties by Senate order); in an open
  vote a pass never wins. The Philosophios, when winning, always plays first.
- First place (and the Philosophios) may take the card of the nearest player
  to the left who did not win this vote; a card is played at most once.
- The Demagogos decides at the start of an open vote whom to call first.
- Betrayal on the Senate pool removes as many as it can, up to 4.
- Neutrals skip full ships (unless aggressive); the refugee camp can run out.
- No player drops below 0 points. Final ties go to the Senate order.

**Keys.** Up/Down (or `j`/`k`) move through what you may do now, Enter
chooses it; digits type a bid; `p` passes; `l` shows or hides the legend; `?`
help, `u` undo (only before anything is revealed), `s` save, `q` leave.
"""


def card_name(card: int) -> str:
    return data.CARD_NAME[data.CARD_KIND[card]] if card >= 0 else "face-down card"


def ship_name(tile: int) -> str:
    return data.ship_full_name(tile)


def ship_at(index: int, tile: int | None) -> str:
    """A ship's one name, its letter and name as the board shows them ("B Science Vessel",
    "D+ Airship"), from its tile: every ship event carries the tile (which ship it is,
    public on the board) beside its place in port.  (An event without one, from an older
    host, is named by its place alone.)"""
    if tile is None or tile < 0:
        return f"in place {index + 1}"
    return data.ship_full_name(tile)


def ship_of(event_data: dict) -> str:
    return ship_at(event_data["ship"], event_data.get("tile"))


def _and(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else "nobody"


def vote_words(vote: dict, names: Sequence[str], hidden: bool, short: bool = False) -> str:
    """Every bid of a vote, who won and why: the highest bids win, ties go to the player
    higher in the Senate order; a player with no card at this place cannot win, and in an
    open vote a pass (0) never wins."""
    bids, order, winners = vote["bids"], vote["order"], vote["winners"]
    no_card, pool = set(vote["no_card"]), vote["pool"]
    rank = {p: i for i, p in enumerate(order)}
    ranking = sorted(order, key=lambda p: (-bids[p], rank[p]))
    shown = [f"{names[p]} {'passed' if not hidden and bids[p] == 0 else bids[p]}" for p in ranking]
    if short:
        out = [", ".join(shown) + "."]
        out.append(f"{_and([names[p] for p in winners])} {'win' if len(winners) > 1 else 'wins'}."
                   if winners else "Nobody wins.")
    else:
        out = [f"Vote {vote['vote'] + 1}. Bids: " + ", ".join(shown) + "."]
        places = vote.get("places", 0)
        rule = (" (the highest bid wins)" if places == 1 else f" (the {places} highest bids win)") if places else ""
        out.append(f"Won by {_and([names[p] for p in winners])}{rule}." if winners else f"Nobody wins{rule}.")
    can = [p for p in order if p not in no_card and (hidden or bids[p] > 0)]
    ties: list[str] = []
    for value in sorted({bids[p] for p in winners}, reverse=True):
        tied = sorted((p for p in can if bids[p] == value), key=rank.get)
        if len(tied) < 2:
            continue
        top, second = tied[0], tied[1]
        if pool[top] != pool[second]:
            why = f"{names[top]} has more tokens in the Senate pool: {pool[top]} against {pool[second]}"
        else:
            why = f"equal Senate pools, and {names[top]}'s Faction marker stands further left"
        if short:  # (the Senate line above shows the pools)
            ties.append(f"{names[top]} over {_and([names[p] for p in tied[1:]])}")
            continue
        who = _and([names[p] for p in tied])
        if all(p in winners for p in tied):
            out.append(f"Tie at {value} between {who}: all win; {names[top]} is higher in the"
                       f" Senate order and takes the higher place ({why}).")
        else:
            won = [names[p] for p in tied if p in winners]
            verb = ("is", "wins") if len(won) == 1 else ("are", "win")
            out.append(f"Tie at {value} between {who}: {_and(won)} {verb[0]} higher in the Senate"
                       f" order and {verb[1]} ({why}).")
    if ties:
        out.append(f"Tie{'s' if len(ties) > 1 else ''} by Senate order: {', '.join(ties)}.")
    for p in order:
        if p in no_card:
            out.append(f"{names[p]} has no card at this place and cannot win.")
    if not hidden and any(bids[p] == 0 for p in order if p not in no_card):
        out.append("A pass never wins an open vote.")
    play = vote.get("play_order", winners)
    if winners and play and play[0] != winners[0]:
        out.append(f"{names[play[0]]} holds the Philosophios and plays first.")
    return " ".join(out)


def colour_name(c: int, names: Sequence[str]) -> str:
    return "neutral" if c == data.NEUTRAL else names[c]


def _special_name(card: int) -> str:
    return data.SPECIAL_NAME[data.SPECIAL_KEY[card]]


ACTION_WORDS: dict[type, Callable[[Any], str]] = {
    actions.Bid: lambda action: f"bid {action.tokens}",
    actions.Faction: lambda action: f"take {data.FACTIONS[action.faction]}",
    actions.Pass: lambda action: "pass",
    actions.PlaySpecial: lambda action: f"play special {_special_name(action.card)}" + (
        f" on ship {action.ship}" if action.ship >= 0 else ""),
    actions.UseAbility: lambda action: "use the Faction ability",
    actions.Discard: lambda action: f"discard {card_name(action.card)}",
    actions.TakeSpecial: lambda action: ("draw a special card" if action.slot == actions.DECK_SLOT
                              else f"take face-up special {action.slot + 1}"),
    actions.LayCard: lambda action: f"lay {card_name(action.card)}" + (" face down" if action.face_down else ""),
    actions.Demagogos: lambda action: f"Demagogos on seat {action.player}",
    actions.Play: lambda action: f"play the card of seat {action.source}" + (
        f" with {_special_name(action.special)}" if action.special >= 0 else ""),
    actions.Target: lambda action: f"target {action.ship} {action.colour}",
    actions.Done: lambda action: "done",
}


def describe_action(action: Any, view: Any = None) -> str:
    """The action in a few words (``view``, the actor's, is not needed here)."""
    words = ACTION_WORDS.get(type(action))
    return words(action) if words is not None else repr(action)


WHY = {
    "promised_land": "most refugees in the Promised Land", "senate": "the largest Senate pool",
    "leadership": "the Senate's Leadership", "senate_pays": "the Senate paying its debts",
    "decree": "Royal Decree", "guild": "Saboteurs' Guild", "science": "the Science Vessel",
    "treasury": "Hidden Treasury", "favourite": "Senate Favourite", "builders": "Ark Builders",
}


def _bid(telling: Telling) -> str:
    return "You have chosen your bid." if telling.you else f"{telling.who} has chosen a bid."


def _revealed(telling: Telling) -> str:
    what = telling.data["what"]
    if what == "vote":
        return f"Vote {telling['vote']}: everyone reveals their bids (the board shows them until the next vote)."
    return f"Everyone reveals their {REVEALED[what]}."


REVEALED = {"senate": "Senate bids", "cards": "voting cards", "vote": "bids"}


def _faction(telling: Telling) -> str:
    cost = telling.data["cost"]
    extra = f" for {cost}" if cost else " free"
    plus = " (+1 point)" if telling.data["bonus"] else ""
    return f"{telling.who} took {telling['faction']}{extra}{plus}."


def _special(telling: Telling) -> str:
    on = f" on ship {telling['ship']}" if telling.data.get("ship", -1) >= 0 else ""
    return f"{telling.who} played {telling['key']}{on}."


def _my_order(telling: Telling) -> str:
    veiled = " (face down)." if telling.data["veiled"] else "."
    return f"{telling.who} laid {telling['card']} in place {telling['slot']}{veiled}"


def _open_bid(telling: Telling) -> str:
    bid = telling.data["n"]
    return f"{telling.who} bid {bid}." if bid else f"{telling.who} passed."


def _vote_result(telling: Telling) -> str:
    if "bids" in telling.data:
        return vote_words(telling.data, telling.names, hidden=False)
    winners = ", ".join(telling.names[p] for p in telling.data["winners"]) or "nobody"
    return f"Vote {telling['vote']} won by {winners}."


def _play(telling: Telling) -> str:
    event = telling.data
    source = "" if event["source"] == event["seat"] else f" from {telling.names[event['source']]}'s row"
    extra = f" with {telling['key']}" if event["key"] else ""
    return f"{telling.who} played {data.CARD_NAME[event['kind']]}{source}{extra}."


def _placed(telling: Telling) -> str:
    return f"{telling.who} put {counted(telling.data['n'], 'refugee')} on ship {telling['ship']}."


def _cubes_lost(telling: Telling) -> str:
    return f"{counted(telling.data['n'], 'cube')} lost."


def _archont(telling: Telling) -> str:
    """Said after the cards were drawn ("drew"): what the Archont does with them."""
    count = telling.data["count"]
    if not count:
        return f"{telling.who} (Archont) found no card to draw."
    return f"{telling.who} (Archont) must now discard {counted(count, 'card')}."


def _sailed(telling: Telling) -> str:
    by = f" (moved by {telling.whom})" if telling.data["seat"] >= 0 else ""
    return f"Ship {telling['ship']} sailed out to the ocean{by}."


def _arrived(telling: Telling) -> str:
    gains = ", ".join(f"{telling.names[p]} +{gain}" for p, gain in enumerate(telling.data["gains"]) if gain)
    royal = " (royal chart)" if telling.data["royal"] else ""
    return f"Ship {telling['ship']} reached the Promised Land{royal}: {gains or 'nobody scores'}."


def _betray_ship(telling: Telling) -> str:
    verb = "betray" if telling.you else "betrays"
    return f"{telling.who} {verb} the people on ship {telling['ship']}."


def _event(telling: Telling) -> str:
    top = telling.data["top"]
    next_up = f" Next event (face up): {data.EVENT_NAME[top]}." if top >= 0 else ""
    return f"Event: {data.EVENT_NAME[telling.data['card']]}{next_up}"


def _upgraded(telling: Telling) -> str:
    tile = telling.data["tile"]
    was = ship_at(telling.data["ship"], tile - data.ADVANCED)
    return f"Ship {was} is upgraded to {telling['ship']}: {data.ADVANCED_ABILITY[tile % data.ADVANCED]}."


def _neutrals(telling: Telling) -> str:
    ships = telling.data["ships"]
    tiles = telling.data.get("tiles") or (None,) * len(ships)
    return "Neutral refugees boarded ships " + ", ".join(map(ship_at, ships, tiles)) + "."


def _returned(telling: Telling) -> str:
    return "Tokens come home." + (" (Chaos: Factions and the Senate stay.)" if telling.data["chaos"] else "")


EVENT_TEXT = EventText(
    templates={
        "turn": lambda telling: f"Turn {telling.data['turn']} begins ({telling.data['vote']} votes).",
        "chaos_skip": "Chaos: no Senate or Factions phase this turn.",
        "bid": _bid,
        "my_bid": "{Whose} secret bid: {n}.",
        "revealed": _revealed,
        "faction": _faction,
        "faction_pass": "{who} passed.",
        "ability_pass": "{who} did not use {faction}.",
        "special": _special,
        "archont": _archont,
        "discarded": "{who} discarded {card}.",
        "basileus": "{who} (Basileus) put a refugee on ship {ship}.",
        "demiurgos": "{who} used the Demiurgos.",
        "drew": lambda telling: f"{telling.who} drew {counted(telling.data['count'], 'Politics card')}.",
        "drew_special": "{who} drew a special card.",
        "drew_cards": "{who} drew: {cards}.",
        "my_special": "{Whose} new special card: {special_card}.",
        "took_special": "{who} took {special_card} from the face-up specials.",
        "reshuffled": lambda telling: f"The discard pile becomes the deck ({counted(telling.data['count'], 'card')}).",
        "ordered": lambda telling: ("You are laying your voting cards face down." if telling.you else
                                    f"{telling.who} is laying their voting cards face down."),
        "my_order": _my_order,
        "vote": "Vote {vote}: {type}.",
        "open_bid": _open_bid,
        "peek": "{who} (Demagogos) looked at {target.whose} bid.",
        "peeked": "{target} bid {n}.",
        "call": "{who} (Demagogos) made {target.whom} bid first.",
        "vote_result": _vote_result,
        "play": _play,
        "play_pass": "{who} played no card.",
        "placed": _placed,
        "bumped": "{who} threw a {colour} cube off ship {ship}.",
        "sailed": _sailed,
        "arrived": _arrived,
        "sabotage": lambda telling: f"{telling.who} sabotaged ship {telling['ship']}: {_cubes_lost(telling)}",
        "betray_ship": _betray_ship,
        "betray_senate": "{who} removed {n} of {target}'s tokens from the Senate.",
        "strategos": lambda telling: f"{telling.who} (Strategos) took back {counted(telling.data['n'], 'token')}.",
        "score": "{who} scored {n} for {why}.",
        "doom_phase": "Doom phase.",
        "doom_returned": "A third Doom! came too early: it goes back into the deck.",
        "event": _event,
        "upgraded": _upgraded,
        "wrecked": lambda telling: f"The ocean god takes ship {telling['ship']}: {_cubes_lost(telling)}",
        "together_stop": "{who} stopped placing refugees.",
        "pushed_off": "A neutral pushed a {colour} cube off ship {ship}.",
        "neutrals": _neutrals,
        "returned": _returned,
        "game_over": "Atlantis sinks: the special cards are turned up and the final points counted.",
        "undo": "{who} took back a choice.",
    },
    fields={
        "vote": lambda vote: vote + 1,
        "slot": lambda slot: slot + 1,
        "faction": data.FACTIONS.__getitem__,
        "card": card_name,
        "cards": lambda cards: ", ".join(card_name(card) for card in cards),
        "key": data.SPECIAL_NAME.__getitem__,
        "why": lambda why: WHY.get(why, why),
    },
    context_fields={
        "ship": lambda telling: ship_of(telling.data),
        "colour": lambda telling: colour_name(telling.data["colour"], telling.names),
        "special_card": lambda telling: data.SPECIAL_NAME[data.SPECIAL_KEY[telling.data["card"]]],
    },
    seats=("target",),
    runs=("ordered",),
)


LETTERS = "RBGYPN"


def cubes_text(cubes: Sequence[int]) -> str:
    return "".join(LETTERS[c] * k for c, k in enumerate(cubes))


def render_view(view: Any, names: Sequence[str]) -> str:
    """A compact, exact text picture of what one seat sees."""
    seat = "spectator" if view.seat is None else names[view.seat]
    lines = [f"seat={seat} turn={view.turn} stage={view.stage} vote={view.vote + 1 if view.vote >= 0 else '-'}"
             f"({view.vote_kind}) event={data.EVENT_NAME[view.event] if view.event >= 0 else '-'}"
             f" doom={view.doom_markers} events_left={view.events_left}"
             + (f" top={data.EVENT_NAME[view.top_event]}" if view.top_event >= 0 else "")]
    for i, sh in enumerate(view.ships):
        where = "ocean" if sh.at_sea else "port"
        lines.append(f"ship{i + 1} {data.ship_full_name(sh.tile)} {where} {aboard_text(sh)}")
    lines.append(f"promised land={list(view.promised_land)} neutral={view.promised_land_neutrals} camp={view.camp}")
    holders = view.faction_holders
    fac = " ".join(f"{data.FACTIONS[f][:4]}:{LETTERS[holders[f]] if holders[f] >= 0 else '-'}"
                   f"{'+1' if view.plus_one[f] else ''}" for f in range(7))
    lines.append(f"factions {fac} markers={list(view.markers)}")
    lines.append(f"vp={list(view.vp)} screen={list(view.screen)} pool={list(view.senate_pool)} "
                 f"building={list(view.buildings)}")
    lines.append(f"hands={list(view.hand_sizes)} specials={list(view.special_counts)} deck={view.deck_count}"
                 f" discard={len(view.discard)} sdeck={view.special_deck_count} face={list(view.face_up_specials)}")
    lines.append(f"bids={list(view.bids)} last_bids={list(view.last_bids)} winners={list(view.vote_winners)}"
                 f" queue={list(view.play_queue or view.open_bidders)} peeked={list(view.peeked_bid)}")
    for p in range(view.players):
        tokens = view.tokens_on_cards[p]
        row = " ".join(
            (data.CARD_SHORT[data.CARD_KIND[c]] if c >= 0 else "####")
            + (f"({tokens[i]})" if i < len(tokens) and tokens[i] else "")
            for i, c in enumerate(view.voting_cards[p]))
        lines.append(f"row {names[p]}: {row}")
    if view.hand is not None:
        lines.append("hand=" + ", ".join(data.CARD_SHORT[data.CARD_KIND[c]] for c in view.hand))
        lines.append("specials=" + ", ".join(_special_name(c) for c in view.my_specials))
    if view.effect is not None:
        lines.append(f"effect={view.effect.card_kind} steps={[str(step) for step in view.effect.steps]}")
    if view.game_winners:
        lines.append(f"winner={names[view.game_winners[0]]} ({view.end_reason})")
    return "\n".join(lines)


def aboard_text(sh: Any) -> str:
    cap = data.capacity(sh.tile)
    text = cubes_text(sh.cubes)
    return "[" + text + "." * (cap - len(text)) + "]"


def _cards(cards: Sequence[int], name: Callable[[int], str]) -> str:
    counts: dict[str, int] = {}
    for c in cards:
        counts[name(c)] = counts.get(name(c), 0) + 1
    return ", ".join(n if k == 1 else f"{n} (x{k})" for n, k in counts.items()) or "none"


def reveal(state: Any, names: Sequence[str]) -> list[str]:
    """At the end: where each player's points came from, then every hand and special
    card, in sentences, one line per item (the game-over screen, replays)."""
    from .events import end_bonus
    from .state import senate_order

    order = senate_order(state)
    rank = {p: i for i, p in enumerate(order)}
    out = []
    for p in sorted(range(state.players), key=lambda p: (-state.vp[p], rank[p])):
        bonus = [(c, end_bonus(state, p, c, order[0])) for c in state.specials[p]]
        end = sum(b for _, b in bonus)
        play = state.vp[p] - data.START_VP - end
        parts = [f"{data.START_VP} at the start"]
        parts.append(f"{play} during the game (ships reaching the Promised Land, Senate awards and"
                     " cards; the log tells each)" if play >= 0 else f"{-play} lost during the game")
        if end:
            parts.append(f"{end} from special cards at the end ("
                         + ", ".join(f"{_special_name(c)} {b}" for c, b in bonus if b) + ")")
        out.append(f"{names[p]}: {state.vp[p]} points: " + ", ".join(parts) + ".")
    for p in range(state.players):
        out.append(f"{names[p]}'s hand of Politics cards: {_cards(state.hands[p], card_name)}.")
        out.append(f"{names[p]}'s special cards: {_cards(state.specials[p], _special_name)}.")
    return out


# --- the symbols the screen draws (the legend on the screen and in the help) ------------------
LEGEND: tuple[tuple[str, str], ...] = (
    ("R B G Y P", "a refugee (a cube aboard a ship) of the player of that colour"),
    ("N", "a neutral (black) refugee"),
    ("·", "an empty space aboard a ship"),
    ("full", "the ship has no free space"),
    ("+", "after a ship's letter: the ship is upgraded (its advanced tile)"),
    ("▶", "the ship your highlighted choice acts on"),
    ("≈", "the ocean; a ship drawn on it is at sea"),
    ("┄┄┄┄", "the port lane of a ship that has sailed"),
    ("▲ △", "Doom markers left, removed (3rd Doom! ends)"),
    ("┼ :", "victory track: every 10 and every 5 points"),
    ("2", "victory track: two markers on this space"),
    ("lap 2", "past 59 points a marker goes round again"),
    ("–", "a Faction token nobody has taken"),
    ("+1", "the next to take this Faction scores 1 point"),
    ("^r", "Red's marker here (it breaks Senate ties)"),
    ("▼", "the voting place being voted on now"),
    ("▒▒▒▒", "a voting card still face down"),
    ("●3", "3 tokens were bid on this card"),
    ("won 2", "voting row: won this vote, with a bid of 2"),
    ("✓", "after a voting card: it was played"),
    ("?", "your card the Oraklos keeps face down"),
)
CARD_LEGEND = ", ".join(f"{data.CARD_SHORT[k]} = {data.CARD_NAME[k]}" for k in data.CARD_NAME)
FACTION_LEGEND = ", ".join(f"{f[:4]} = {f}" for f in data.FACTIONS)
PANEL_LEGEND = ("pts or points = victory points; tok or tokens = influence tokens behind the screen; "
                "Sen or Senate = tokens in the Senate pool; cards 7+2 = 7 Politics cards and 2 special cards")
SENATE_LEGEND = "the Senate line (narrow screens): tokens in the Senate pool, in Senate order, highest first"


def legend_markdown() -> str:
    rows = "\n".join(f"- `{sym}` {words}" for sym, words in LEGEND)
    return (f"**Symbols on the screen** (also under `l` on a small terminal).\n\n{rows}\n"
            f"- Short card names (narrow screens): {CARD_LEGEND}.\n"
            f"- Short Faction names (narrow screens): {FACTION_LEGEND}.\n"
            f"- The players panel: {PANEL_LEGEND}.\n"
            f"- {SENATE_LEGEND[0].upper()}{SENATE_LEGEND[1:]}.\n"
            "- A highlight marks what the other players changed since your last move.\n")


HELP = HELP + "\n" + legend_markdown()
