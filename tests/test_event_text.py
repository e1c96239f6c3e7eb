"""Event text as data (engine/text.py): one ``who()`` for every game, templates per event
kind, and log lines that carry who acted and the kind beside the words, so the screens
never read sentences to learn who did what."""

from __future__ import annotations

import re

import pytest

from engine.core import Event, LogLine, SeatInfo
from engine.match import Match
from engine.registry import MANIFESTS, get_game
from engine.text import EventText, Telling, counted, who, whom, whose, whose_turn

NAMES = ["Red", "Blue", "Green"]
SECOND_PERSON = re.compile(r"\b[Yy]ou(r|rs)?\b")


def test_who_names_a_seat_from_the_viewers_side():
    assert (who(1, 1, NAMES), whom(1, 1, NAMES), whose(1, 1, NAMES)) == ("You", "you", "your")
    assert (who(1, 0, NAMES), whom(1, 0, NAMES), whose(1, 0, NAMES)) == ("Blue", "Blue", "Blue's")
    assert (who(2, None, NAMES), whom(2, None, NAMES), whose(2, None, NAMES)) == ("Green", "Green", "Green's")
    turn = Event("turn", {"seat": 1})
    assert whose_turn(Telling(turn, 1, NAMES, TEXT)) == "Your turn."
    assert whose_turn(Telling(turn, None, NAMES, TEXT)) == "Blue to play."


TEXT = EventText(
    templates={
        "gave": "{who} gave {card} to {target.whom}; {Whose} hand is smaller, {target.whose} bigger.",
        "told": "{target} heard it from {who}.",
        "split": lambda telling: f"{telling.who} split {telling['pair']}.",
        "turn": "{who} to play.",
    },
    fields={"card": lambda card: f"card #{card + 1}"},
    context_fields={"pair": lambda telling: f"{telling.data['a']} and {telling.data['b']} ({telling.viewer})"},
    seats=("target",),
)


def test_a_template_reads_the_seat_forms_the_fields_and_other_seats():
    gave = Event("gave", {"seat": 0, "card": 4, "target": 1})
    assert TEXT.line(gave, 0, NAMES) == LogLine(0, "gave", "You gave card #5 to Blue; Your hand is smaller, "
                                                           "Blue's bigger.")
    assert TEXT.line(gave, 1, NAMES).text == "Red gave card #5 to you; Red's hand is smaller, your bigger."
    assert TEXT.words(Event("told", {"seat": 2, "target": 0}), 0, NAMES) == "Red heard it from Green."
    assert TEXT.words(Event("split", {"seat": 1, "a": 3, "b": 4}), None, NAMES) == "Blue split 3 and 4 (None)."


def test_the_actor_is_the_seat_that_acted_and_nobody_for_an_announcement():
    assert TEXT.line(Event("turn", {"seat": 1}), 0, NAMES) == LogLine(None, "turn", "Blue to play.")
    assert TEXT.line(Event("told", {"seat": -1, "target": 0}), 0, NAMES).actor is None
    assert TEXT.line(Event("mystery", {}), 0, NAMES) == LogLine(None, "mystery", "mystery")


def played_events(slug: str, seeds: range, max_moves: int = 250) -> list[tuple[Event, list[str]]]:
    """Every event of a few bot games (2 and the most players), with the seats' names."""
    game = get_game(slug)
    out = []
    for players in (game.min_players, game.max_players):
        names = list(game.seat_names[:players])
        for seed in seeds:
            match = Match(game, {}, [SeatInfo(name, "bot") for name in names], seed)
            bots = [game.make_bot(seat, seed, "random") for seat in range(players)]
            for _ in range(max_moves):
                if match.result() is not None:
                    break
                seat = min(match.to_act())
                for event in match.act(seat, bots[seat].choose(match.view(seat), match.legal(seat))):
                    out.append((event, names))
    return out


@pytest.mark.parametrize("slug", sorted(MANIFESTS))
def test_every_event_has_words_an_actor_from_its_data_and_spectator_words_without_you(slug):
    """The spectator's words (viewer None) never say "you", for secret events too: the
    replay shows a secret event in them, after the seats it was for."""
    game = get_game(slug)
    announcements = game._part("text").EVENT_TEXT.announcements
    for event, names in played_events(slug, range(2)):
        for viewer in (*range(len(names)), None):
            line = game.describe(event, viewer, names)
            assert line.kind == event.kind and line.text != event.kind and line.text[0].isupper(), (event, line)
            seat = event.data.get("seat")
            acted = isinstance(seat, int) and seat >= 0 and event.kind not in announcements
            assert line.actor == (seat if acted else None), (event, line)
        spectator = game.describe(event, None, names).text
        assert not SECOND_PERSON.search(spectator), (event, spectator)


@pytest.mark.parametrize("event,owner_words,spectator_words", [
    (Event("found_self", {"seat": 1, "cell": 13, "n": 6}, to=(1,)),
     "You know where you are again: B3.", "Blue knows where they are again: B3."),
    (Event("result", {"seat": 1, "what": "compass", "cells": (), "cell": 0, "n": 8}, to=(1,)),
     "You are at A1.", "Blue is at A1."),
    (Event("moved", {"seat": 1, "steps": 1, "of": 2, "dir": 0, "stop": "edge", "n": 6}, to=(1,)),
     "You moved 1 space of 2 north: the edge of the map stopped you.",
     "Blue moved 1 space of 2 north: the edge of the map stopped Blue."),
    (Event("your_captain", {"seat": 1, "captain": "diver"}, to=(1,)),
     "Your captain: Deep Diver.", "Blue's captain: Deep Diver."),
])
def test_a_finding_atlantis_secret_reads_right_to_its_owner_and_in_the_third_person(event, owner_words,
                                                                                    spectator_words):
    game = get_game("finding-atlantis")
    assert game.describe(event, 1, NAMES).text == owner_words
    assert game.describe(event, None, NAMES).text == spectator_words


def test_finding_atlantis_names_a_cell_on_the_map_of_its_own_event():
    game = get_game("finding-atlantis")
    for size, name in ((6, "B3"), (8, "F2")):
        surfaced = Event("surfaced", {"seat": 0, "cell": 13, "n": size})
        assert game.describe(surfaced, 1, NAMES).text == f"Red surfaced at {name}."


def test_counted_puts_a_count_and_its_noun_in_agreement():
    assert (counted(1, "token"), counted(0, "token"), counted(3, "token")) == ("1 token", "0 tokens", "3 tokens")
    assert counted(2, "hex", "hexes") == "2 hexes"


#: "1 tokens", "player(s)", "You looks": what a reader trips over.
ONE_PLURAL = re.compile(r"(?<![\d.])\b1 (action|card|cube|explorer|hex|move|player|point|refugee|space|step|tile"
                        r"|token|turn|vote)s\b")
YOU_THIRD_PERSON = re.compile(r"\bYou (\([A-Z][a-z]+\) )?(?!was\b|has\b)[a-z]+s\b")


@pytest.mark.parametrize("slug", sorted(MANIFESTS))
def test_every_line_agrees_in_number_and_person(slug):
    game = get_game(slug)
    for event, names in played_events(slug, range(3)):
        for viewer in (*range(len(names)), None):
            text = game.describe(event, viewer, names).text
            assert not ONE_PLURAL.search(text) and "(s)" not in text, text
            assert not YOU_THIRD_PERSON.search(text), text
