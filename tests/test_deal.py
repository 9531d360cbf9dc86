"""Shuffling and dealing (RULES §2): seeded, 6 cards each, trump card drawn last."""

from __future__ import annotations

import random

import pytest

from engine import Rules, State, replay
from engine.cards import CARDS, Card, cards_of, deck_cards, deck_mask
from engine.deal import deal, shuffle
from engine.rules import Mode

SETUPS = [(2, 24), (3, 24), (2, 36), (3, 36), (5, 36), (2, 52), (6, 52)]


@pytest.mark.parametrize(("players", "deck"), SETUPS)
def test_deal_is_determined_by_the_seed(players: int, deck: int) -> None:
    rules = Rules(players=players, deck=deck)
    assert deal(rules, 11) == deal(rules, 11)
    assert State(rules, 11).to_dict() == State(rules, 11).to_dict()
    # Another seed gives another deal (with overwhelming likelihood for any of these).
    assert any(deal(rules, 11).hands != deal(rules, s).hands for s in (12, 13, 14))


def test_shuffle_draws_as_random_shuffle() -> None:
    # The engine's own shuffle (compiled with it) must keep every seed's deal.
    for seed in range(300):
        for size in (0, 1, 2, 24, 36, 52, 53):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, stdlib = [Card(c) for c in range(size)], list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(stdlib)
            assert mine == stdlib
            assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize(
    ("players", "deck", "seed", "hands", "stock"),
    [
        (2, 36, 7, ["8S 8D 9D KS KC KH", "7C 9S JD JH QS QH"], "AD JS 8C"),
        (
            4,
            52,
            123456789,
            ["2S 4S 8S 9D JH QH", "2D 3D 10S 10C JS QS", "3H 5S 5H 6S 7S AS", "2H 3S 3C 9H JC KH"],
            "6D QC 9S",
        ),
    ],
)
def test_a_seed_deals_what_it_always_dealt(
    players: int, deck: int, seed: int, hands: list[str], stock: str
) -> None:
    # Pinned deals: games replayed from their seed and log must find the same cards.
    d = deal(Rules(players=players, deck=deck), seed)
    assert [" ".join(map(str, cards_of(h))) for h in d.hands] == hands
    assert " ".join(str(CARDS[c]) for c in d.stock[:3]) == stock


def test_deal_does_not_touch_the_global_generator() -> None:
    random.seed(5)
    expected = random.random()
    random.seed(5)
    deal(Rules(), 3)
    State(Rules(players=4), 8)
    assert random.random() == expected


@pytest.mark.parametrize(("players", "deck"), SETUPS)
def test_everyone_gets_six_cards_and_every_card_is_dealt_once(players: int, deck: int) -> None:
    d = deal(Rules(players=players, deck=deck), 3)
    assert [h.bit_count() for h in d.hands] == [6] * players
    union = 0
    for h in d.hands:
        assert union & h == 0
        union |= h
    for c in d.stock:
        assert not union >> c & 1
        union |= 1 << c
    assert union == deck_mask(deck)
    assert len(d.stock) == deck - 6 * players


@pytest.mark.parametrize(("players", "deck"), SETUPS)
def test_trump_card_lies_at_the_bottom_of_the_stock(players: int, deck: int) -> None:
    d = deal(Rules(players=players, deck=deck), 21)
    assert d.trump_holder is None
    assert d.stock[0] == d.trump_card  # the stock is drawn from the end
    state = State(Rules(players=players, deck=deck), 21)
    assert state.trump == d.trump_card % 4
    assert state.view(None).trump_card == d.trump_card
    assert state.view(None).stock_size == deck - 6 * players


def test_cards_are_dealt_one_at_a_time_from_seat_zero() -> None:
    rules = Rules(players=3, deck=36)
    order = deck_cards(36)
    random.Random(9).shuffle(order)
    d = deal(rules, 9)
    for seat in range(3):
        assert set(cards_of(d.hands[seat])) == set(order[seat:18:3])
    # The next card is turned up as the trump; the rest is drawn in order after the deal.
    assert d.trump_card == order[18]
    assert d.stock[:0:-1] == order[19:]


@pytest.mark.parametrize(("players", "deck"), [(6, 36), (4, 24)])
def test_whole_deck_deal_has_no_stock_and_last_player_holds_the_trump_card(
    players: int, deck: int
) -> None:
    rules = Rules(players=players, deck=deck)
    order = deck_cards(deck)
    random.Random(4).shuffle(order)
    d = deal(rules, 4)
    assert d.stock == []
    assert d.trump_card == order[-1]  # the last card dealt shows the trump
    assert d.trump_holder == players - 1
    assert d.hands[players - 1] >> d.trump_card & 1
    assert [h.bit_count() for h in d.hands] == [6] * players


@pytest.mark.parametrize(("players", "deck"), [(6, 36), (4, 24)])
def test_whole_deck_trump_card_holder_is_public(players: int, deck: int) -> None:
    for seed in range(5):
        state = State(Rules(players=players, deck=deck), seed)
        trump_card = state.trump_card
        last = players - 1
        assert state.hands[last] >> trump_card & 1
        for seat in [None, *range(players)]:
            view = state.view(seat)
            assert view.stock_size == 0
            assert view.trump_card == trump_card
            assert trump_card in view.known[last]


def test_whole_deck_is_only_24_with_4_or_36_with_6() -> None:
    assert deal(Rules(players=6, deck=52), 1).trump_holder is None
    assert len(deal(Rules(players=6, deck=52), 1).stock) == 16
    assert deal(Rules(players=5, deck=36), 1).trump_holder is None
    assert len(deal(Rules(players=3, deck=24), 1).stock) == 6


def test_game_rebuilds_from_seed_and_action_log() -> None:
    rules = Rules(players=3, deck=36, mode=Mode.PEREVODNOY)
    state = State(rules, 77)
    for _ in range(40):  # timeouts make a legal game without a policy of our own
        if state.is_over:
            break
        state.apply(state.timeout_actions()[0])
    assert len(state.history) > 10
    again = replay(rules, 77, [str(a) for a in state.history])
    assert again.to_dict() == state.to_dict()
    assert State.from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_trump_card_of_a_full_stock_is_one_of_the_deck() -> None:
    for seed in range(10):
        d = deal(Rules(players=2, deck=24), seed)
        assert CARDS[d.trump_card] in deck_cards(24)
