"""Presets (RULES §10): each one plays its rulebook, shown by its characteristic rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import Action, Card, IllegalAction, Rules, State
from engine.actions import OPEN, TRANSFER
from engine.bots import NoviceBot
from engine.presets import (
    CLASSIC,
    DURAK_ONLINE,
    DURAKA_NET,
    PRESETS,
    TRANSFER_CHEATING,
    classic,
    durak_online,
    duraka_net,
    preset_of,
    transfer_cheating,
)
from engine.rules import Mode, SeriesOpener, ThrowOrder
from tests.helpers import outcome_of


def play_out(state: State, before: Callable[[State], None] = lambda s: None) -> State:
    """Play to the end with «Новичок» in every seat, calling ``before`` at each step."""
    bots = [NoviceBot() for _ in range(state.n)]
    while not state.is_over:
        before(state)
        turn = state.turn()
        assert turn is not None
        for seat in turn.seats:
            action = bots[seat].choose(state.view(seat))
            if action is not None:
                state.apply(action)
                break
        else:
            state.apply(state.timeout_actions()[0], auto=True)
    return state


def test_classic_is_the_default_rules() -> None:
    assert classic() == Rules()
    assert classic(players=4, teams=True, mode="perevodnoy") == Rules(
        players=4, teams=True, mode=Mode.PEREVODNOY
    )
    assert preset_of(Rules()) is CLASSIC


def test_duraka_net_refuses_a_two_card_opening_all_game_long() -> None:
    rules = duraka_net()
    assert (rules.players, rules.deck, rules.mode) == (2, 36, Mode.PODKIDNOY)
    assert not rules.first_bout_cap_5
    refusals = 0

    def no_pairs(state: State) -> None:
        nonlocal refusals
        if not state.att:
            hand = state.hands[state.attacker]
            pairs = [r for r in range(13) if (hand >> 4 * r & 15).bit_count() >= 2]
            for r in pairs[:1]:
                cards = tuple(Card(c) for c in range(4 * r, 4 * r + 4) if hand >> c & 1)[:2]
                with pytest.raises(IllegalAction, match="single card"):
                    state.copy().apply(Action(state.attacker, OPEN, cards))
                refusals += 1

    for seed in range(3):
        state = play_out(State(rules, seed), no_pairs)
        assert all(len(a.cards) == 1 for a in state.history if a.kind == OPEN)
    assert refusals > 0
    assert preset_of(rules) is DURAKA_NET


def test_duraka_net_is_for_two_players_with_36_cards() -> None:
    with pytest.raises(ValueError, match="played by 2 players"):
        duraka_net(players=3)
    with pytest.raises(ValueError, match="with 36 cards"):
        duraka_net(deck=52)


def test_transfer_with_cheating_never_transfers_the_first_bout() -> None:
    rules = transfer_cheating(players=3)
    assert rules.mode is Mode.PEREVODNOY
    assert rules.throw_in_order is ThrowOrder.ATTACKER_FIRST
    for seed in range(5):
        state = State(rules, seed)
        first = state.defender
        state.apply(state.legal_actions(state.attacker)[0])
        assert not any(a.kind == TRANSFER for a in state.legal_actions(first))
        play_out(state)
    assert preset_of(rules) is TRANSFER_CHEATING
    with pytest.raises(ValueError, match="only in perevodnoy"):
        transfer_cheating(mode="podkidnoy")


def test_durak_online_second_game_opens_against_the_last_fool() -> None:
    rules = durak_online(players=3, mode="perevodnoy")
    assert rules.series_opener is SeriesOpener.UNDER_FOOL and rules.pogony
    assert rules.transfer_by_trump_show  # in perevodnoy
    assert not durak_online(players=3).transfer_by_trump_show
    seed = 11
    while not outcome_of(play_out(first := State(rules, seed))).fools:
        seed += 1  # a draw: the next game would open by the lowest trump
    fool = outcome_of(first).fools[0]
    second = State(rules, seed + 1, last_fool=fool)
    assert second.defender == fool and second.attacker == (fool - 1) % 3
    assert second.shown is None
    play_out(second)
    assert preset_of(rules) is DURAK_ONLINE


def test_durak_online_throws_in_round_the_circle() -> None:
    throw_turns = 0

    def one_at_a_time(state: State) -> None:
        nonlocal throw_turns
        turn = state.turn()
        if turn is not None and turn.kind == "throw":
            assert len(turn.seats) == 1
            throw_turns += 1

    for seed in range(3):
        play_out(State(durak_online(players=4), seed), one_at_a_time)
    assert throw_turns > 0


def test_a_preset_takes_single_options_on_top() -> None:
    rules = durak_online(players=4, teams=True, no_throw_in_after_take=True)
    assert rules.no_throw_in_after_take and rules.teams
    assert preset_of(rules) is DURAK_ONLINE
    assert preset_of(Rules(pogony=True)) is CLASSIC  # one option is not a rulebook


def test_every_preset_has_a_key_and_valid_rules() -> None:
    for key, preset in PRESETS.items():
        assert preset.key == key
        rules = preset.rules(players=preset.players[0])
        assert preset.matches(rules)
