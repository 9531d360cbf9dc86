"""Who opens the first bout (RULES §3) and what everyone learns from it (§11)."""

from __future__ import annotations

import pytest

from engine import Rules, State
from engine.cards import Card, cards_of, mask_of, parse_cards
from engine.deal import Deal, first_attacker
from engine.state import opening
from tests.helpers import turn_of

TRUMP_SUITS = {"S": 0, "C": 1, "D": 2, "H": 3}


def masks(*hands: str) -> list[int]:
    return [mask_of(parse_cards(h)) for h in hands]


def test_lowest_trump_opens() -> None:
    hands = masks("6S 7H AC", "9H 6C 10D", "8H KH QS")
    assert first_attacker(hands, TRUMP_SUITS["H"]) == (0, Card.parse("7H"))
    assert first_attacker(hands, TRUMP_SUITS["C"]) == (1, Card.parse("6C"))
    assert first_attacker(hands, TRUMP_SUITS["S"]) == (0, Card.parse("6S"))


def test_lowest_trump_beats_any_lower_plain_card() -> None:
    # Seat 0 holds the lowest card of all, but seat 1 holds the lowest trump.
    hands = masks("6S 6C 6D", "AH 7S")
    assert first_attacker(hands, TRUMP_SUITS["H"]) == (1, Card.parse("AH"))


def test_without_trumps_lowest_card_opens_unshown() -> None:
    hands = masks("8S 9C", "7D KS", "JS 10C")
    assert first_attacker(hands, TRUMP_SUITS["H"]) == (1, None)


@pytest.mark.parametrize(
    ("hands", "trump", "opener"),
    [
        (("7C 9D", "7S 8D"), "H", 1),  # ♠ before ♣
        (("7D 9S", "7C 8D"), "H", 1),  # ♣ before ♦
        (("7D 9S", "7H 8D"), "C", 0),  # ♦ before ♥
        (("7H AD", "7D AC", "7C KC"), "S", 2),
    ],
)
def test_without_trumps_suit_order_breaks_ties(
    hands: tuple[str, ...], trump: str, opener: int
) -> None:
    assert first_attacker(masks(*hands), TRUMP_SUITS[trump]) == (opener, None)


def _lowest_trump(state: State) -> tuple[int, Card]:
    """The holder of the lowest trump, found the slow way from the hands."""
    best = None
    for seat, h in enumerate(state.hands):
        for card in cards_of(h):
            if card.suit == state.trump and (best is None or card.rank < best[1].rank):
                best = (seat, card)
    assert best is not None
    return best


@pytest.mark.parametrize(("players", "deck"), [(2, 36), (3, 24), (4, 36), (6, 52)])
def test_lowest_trump_holder_opens_and_the_trump_is_shown_to_all(players: int, deck: int) -> None:
    for seed in range(8):
        state = State(Rules(players=players, deck=deck), seed)
        seat, card = _lowest_trump(state)
        assert state.attacker == state.opener == seat
        assert turn_of(state).kind == "attack" and turn_of(state).seats == (seat,)
        for viewer in [None, *range(players)]:
            view = state.view(viewer)
            assert view.shown == card
            assert card in view.known[seat]


def _fixed_deal(hands: list[str], trump_card: str, stock: str) -> Deal:
    order = parse_cards(stock)
    tc = Card.parse(trump_card)
    return Deal(masks(*hands), [tc, *reversed(order)], tc, None, None)


def test_game_without_trumps_in_hands_opens_with_lowest_card_and_shows_nothing() -> None:
    hands = ["8S 9S 10S JS QS KS", "7C 8C 9C 10C JC QC", "7S 8D 9D 10D JD QD"]
    fixed = _fixed_deal(hands, "6H", "7H 8H 9H")
    rules = Rules(players=3, deck=36)
    state = State(rules, 0, position=opening(rules, fixed))
    assert state.attacker == 2  # 7S is the lowest card: ♠ before ♣
    assert state.defender == 0
    for viewer in [None, 0, 1, 2]:
        view = state.view(viewer)
        assert view.shown is None
        assert all(known == () for known in view.known)


def test_first_defender_is_left_of_the_opener() -> None:
    hands = ["8S 9S 10S JS QS KS", "7C 8C 9C 10C JC QC", "7S 8D 9D 10D JD 6H"]
    fixed = _fixed_deal(hands, "AH", "7H 8H 9H")
    rules = Rules(players=3, deck=36)
    state = State(rules, 0, position=opening(rules, fixed))
    assert (state.attacker, state.defender) == (2, 0)
    assert state.view(1).shown == Card.parse("6H")
    assert state.view(1).known[2] == (Card.parse("6H"),)
