"""Cards, their labels, and the compact text form of actions (RULES §2, STYLE)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import CARDS, Action, Card, IllegalAction, MalformedAction
from engine.actions import BEATS, OPENINGS, THROWS, TRANSFERS, WORDS
from engine.cards import deck_cards, parse_cards


def test_card_parse_reads_rank_and_suit() -> None:
    ten = Card.parse("10S")
    assert str(ten) == "10S"
    assert ten.suit == 0  # ♠ is the first suit
    assert Card.parse("AH").rank == 12  # ace is the highest of 2..A
    assert Card.parse(" qd ") == Card.parse("QD")


@pytest.mark.parametrize("text", ["1S", "11H", "10", "S", "", "10X", "ZZ"])
def test_card_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


@pytest.mark.parametrize(
    ("text", "ru", "en"),
    [
        ("7S", "7♠", "7♠"),
        ("10H", "10♥", "10♥"),
        ("QD", "Д♦", "Q♦"),
        ("JC", "В♣", "J♣"),
        ("KS", "К♠", "K♠"),
        ("AH", "Т♥", "A♥"),
    ],
)
def test_card_labels_in_russian_and_english(text: str, ru: str, en: str) -> None:
    card = Card.parse(text)
    assert card.label() == ru
    assert card.label("en") == en


def test_rank_order_two_to_ace() -> None:
    order = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert [c.rank for c in order] == list(range(13))
    assert order == sorted(order)


@pytest.mark.parametrize(("size", "low"), [(24, "9"), (36, "6"), (52, "2")])
def test_deck_sizes_and_lowest_rank(size: int, low: str) -> None:
    deck = deck_cards(size)
    assert len(deck) == len(set(deck)) == size
    assert str(min(deck))[:-1] == low
    assert sum(1 for c in deck if str(c)[:-1] == low) == 4
    assert {c.suit for c in deck} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    "text",
    [
        *("a 7S", "a 7S 7H", "a 10S 10C 10D 10H", "t 7D", "d 9H>7H", "x 7C"),
        *("take", "done", "pass", "quit", "back"),
    ],
)
def test_action_text_round_trip(text: str) -> None:
    action = Action.from_text(3, text)
    assert action.seat == 3
    assert action.text == text
    assert str(action) == f"3 {text}"
    assert Action.parse(str(action)) == action


def test_action_kinds_and_cards_parsed() -> None:
    beat = Action.parse("1 d 9H>7H")
    assert (beat.seat, beat.kind) == (1, "d")
    assert beat.cards == (Card.parse("9H"),)
    assert beat.target == Card.parse("7H")
    opening = Action.parse("0 a 7H 7S")
    assert opening.kind == "a"
    assert set(opening.cards) == {Card.parse("7S"), Card.parse("7H")}
    assert Action.parse("2 x 7C") == Action(2, "x", (Card.parse("7C"),))
    assert Action.parse("4 take") == Action(4, "take")


def test_opening_text_is_canonical_whatever_the_card_order() -> None:
    assert Action.parse("0 a 7H 7S").text == Action.parse("0 a 7S 7H").text == "a 7S 7H"


@pytest.mark.parametrize(
    "logged",
    [
        "x take",  # no seat
        "0 take 7S",  # words take no cards
        "0 d 9H 7H",  # a defence needs ">"
        "0 t 7S 8S",  # one card per throw-in
        "0 x",  # a transfer needs a card
        "0 a",  # an attack needs a card
        "0 jump",  # unknown kind
        "0 d 9H>7X",  # bad card
        "0 a 7S 7",  # a card without its suit
        "0 accuse ²",  # a digit, but not a seat's number
        "² take",
    ],
)
def test_malformed_action_text_raises_malformed_action(logged: str) -> None:
    with pytest.raises(MalformedAction):
        Action.parse(logged)


def test_a_malformed_action_is_a_value_error_but_not_an_illegal_one() -> None:
    assert issubclass(MalformedAction, ValueError)
    assert not issubclass(MalformedAction, IllegalAction)
    assert not issubclass(IllegalAction, MalformedAction)


@given(st.text(alphabet="adtxs >takedonepsquibc0123456789²SHDCJQKA", max_size=16) | st.text())
def test_any_text_is_an_action_or_malformed(text: str) -> None:
    """Forged callback data: whatever the text, it parses or raises MalformedAction."""
    try:
        action = Action.from_text(1, text)
    except MalformedAction:
        return
    assert Action.from_text(1, action.text) == action


def _all_actions() -> Iterator[Action]:
    yield from (a for row in THROWS for a in row)
    yield from (a for row in TRANSFERS for a in row)
    yield from (a for seat in BEATS for row in seat for a in row)
    yield from (a for seat in OPENINGS for rank in seat for suits in rank for a in suits)
    yield from (a for row in WORDS.values() for a in row)


def test_every_action_text_fits_40_bytes_and_round_trips() -> None:
    count = 0
    for action in _all_actions():
        logged = str(action)
        assert len(logged.encode()) <= 40, logged
        assert logged.isascii()
        assert Action.parse(logged) == action
        count += 1
    # 6 seats x (52 throws + 52 transfers + 52*52 defences + 5 words + openings): the
    # openings are listed per hand suit mask, every non-empty subset of each: 3^4 - 2^4.
    assert count == 6 * (52 + 52 + 52 * 52 + 5 + 13 * (3**4 - 2**4))


def test_longest_action_is_four_tens() -> None:
    logged = str(Action.parse("5 a 10S 10C 10D 10H"))
    assert logged == "5 a 10S 10C 10D 10H"
    assert len(logged.encode()) == 19


def test_cards_are_ints_ordered_by_rank_then_suit() -> None:
    # The suit tie-break order of RULES §3 is ♠ ♣ ♦ ♥.
    assert Card.parse("7S") < Card.parse("7C") < Card.parse("7D") < Card.parse("7H")
    assert Card.parse("7H") < Card.parse("8S")
    assert len(CARDS) == 52
