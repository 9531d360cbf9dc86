"""Optional rules (RULES §3-5, §9): each option's effect, and the default unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from engine import BoutEnded, Drew, Rules, State, replay
from engine.cards import NO_TRUMP, SUIT_MASK
from engine.deal import Deal, deal
from engine.rules import Mode, Opener, SeriesOpener, ThrowOrder
from tests.helpers import act, cards, game, hand, legal, outcome_of, play, refused, turn_of

# ------------------------------------------------------------ the opening


def test_single_card_opening_allows_one_card_only() -> None:
    state = game(["7S 7C 9D", "8S 8C AS"], single_card_opening=True)
    assert legal(state, 0) == {"a 7S", "a 7C", "a 9D"}
    refused(state, "0 a 7S 7C", "a bout opens with a single card")
    act(state, "0 a 7S")
    assert legal(state, 0) == {"t 7C"}  # more cards come as throw-ins


def test_several_cards_of_one_rank_open_by_default() -> None:
    state = game(["7S 7C 9D", "8S 8C AS"])
    assert "a 7S 7C" in legal(state, 0)


def test_random_opener_when_nobody_holds_a_trump() -> None:
    rules = Rules(players=2, deck=52, no_trump_opener=Opener.RANDOM)
    openers = set()
    for seed in range(1000):
        d = deal(rules, seed)
        if any(h & SUIT_MASK[d.trump_card & 3] for h in d.hands):
            assert State(rules, seed).shown is not None  # trumps: the lowest opens as usual
            continue
        state = State(rules, seed)
        assert state.shown is None and state.attacker == d.random_opener
        openers.add(state.attacker)
    assert openers == {0, 1}  # 52 cards, 2 players: some deals give nobody a trump


def test_lowest_card_opens_without_trumps_by_default() -> None:
    rules = Rules(players=4, deck=52)
    assert deal(rules, 1).random_opener is None


# ------------------------------------------------------------ throw-in


def test_simple_game_has_no_throw_in() -> None:
    state = game(["7S 7C 9D", "8S 9S AS", "7D 8D 9H"], simple=True, stock="QS KS")
    act(state, "0 a 7S")
    assert legal(state, 0) == set() and legal(state, 2) == set()
    events = act(state, "1 d 8S>7S")
    ended = [e for e in events if isinstance(e, BoutEnded)]
    assert ended and not ended[0].taken  # beaten: the bout ends at once


def test_simple_game_take_ends_the_bout_at_once() -> None:
    state = game(["7S 7C 9D", "8C 9C AC", "7D 8D 9H"], simple=True, stock="QS KS")
    act(state, "0 a 7S")
    events = act(state, "1 take")
    assert [e.taken for e in events if isinstance(e, BoutEnded)] == [True]
    assert "7S" in hand(state, 1)


def test_throw_in_after_take_by_default() -> None:
    state = game(["7S 7C 9D", "8C 9C AC", "7D 8D 9H"], stock="QS KS")
    play(state, "0 a 7S", "1 take")
    assert "t 7C" in legal(state, 0) and "t 7D" in legal(state, 2)


def test_no_throw_in_after_take() -> None:
    state = game(["7S 7C 9D", "8C 9C AC", "7D 8D 9H"], stock="QS KS", no_throw_in_after_take=True)
    act(state, "0 a 7S")
    assert "t 7C" in legal(state, 0)  # while the defender defends, throw-ins are fine
    events = act(state, "1 take")
    assert [e.taken for e in events if isinstance(e, BoutEnded)] == [True]
    assert hand(state, 1) == cards("7S 8C 9C AC")


def test_simple_and_no_throw_in_after_take_do_not_combine() -> None:
    with pytest.raises(ValueError, match="no throw-in at all"):
        Rules(simple=True, no_throw_in_after_take=True)


# ------------------------------------------------------------ transfer


def test_first_bout_cannot_be_transferred() -> None:
    kw: dict[str, Any] = {
        "mode": "perevodnoy",
        "first_bout_no_transfer": True,
        "stock": "QD KD AD QS KS AS",
    }
    state = game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"], **kw)
    act(state, "0 a 7S")
    assert "x 7C" not in legal(state, 1)
    refused(state, "1 x 7C", "the first bout of the game cannot be transferred")
    play(state, "1 d 8S>7S", "0 done", "2 done")  # the first bout ends; 1 opens the next
    act(state, "1 a 7C")
    assert state.defender == 2 and state.bouts == 1


def test_second_bout_can_be_transferred() -> None:
    kw: dict[str, Any] = {
        "mode": "perevodnoy",
        "first_bout_no_transfer": True,
        "stock": "QD KD AD QH KH AH",
    }
    state = game(["7S 9D", "8S 9S 10C", "9C 10S JS QS KS"], **kw)
    play(state, "0 a 7S", "1 d 8S>7S", "0 done", "2 done")
    play(state, "1 a 9S")
    assert "x 9C" in legal(state, 2)


def test_first_bout_transfer_allowed_by_default() -> None:
    state = game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"], mode="perevodnoy", stock="QD KD")
    act(state, "0 a 7S")
    assert "x 7C" in legal(state, 1)


# ------------------------------------------------------------ trumps and beating


def test_fixed_trump_is_diamonds_whatever_the_card() -> None:
    state = game(["7S 9D", "6D 8C"], trump="6H", fixed_trump="diamonds")
    assert state.trump == 2
    act(state, "0 a 7S")
    assert legal(state, 1) == {"d 6D>7S", "take"}  # a diamond beats a spade; no hearts


def test_fixed_trump_needs_a_suit_name() -> None:
    with pytest.raises(ValueError, match="fixed_trump is one of"):
        Rules(fixed_trump="rubies")


def test_no_trump_beats_only_within_the_suit() -> None:
    state = game(["7S 9D", "6H AH 8S"], trump="6H", no_trump=True)
    assert state.trump == NO_TRUMP
    act(state, "0 a 7S")
    assert legal(state, 1) == {"d 8S>7S", "take"}


def test_no_trump_and_fixed_trump_exclude_each_other() -> None:
    with pytest.raises(ValueError, match="without trumps"):
        Rules(no_trump=True, fixed_trump="diamonds")


def test_spades_by_spades_a_trump_does_not_beat_a_spade() -> None:
    state = game(["7S 9D", "6H 8S 10D"], trump="6H", spades_by_spades=True)
    act(state, "0 a 7S")
    assert legal(state, 1) == {"d 8S>7S", "take"}


def test_a_trump_beats_a_spade_by_default() -> None:
    state = game(["7S 9D", "6H 8S 10D"], trump="6H")
    act(state, "0 a 7S")
    assert legal(state, 1) == {"d 8S>7S", "d 6H>7S", "take"}


def test_spades_by_spades_when_spades_are_trumps_is_plain() -> None:
    state = game(["7D 9D", "6S 8C"], trump="9S", spades_by_spades=True)
    act(state, "0 a 7D")
    assert legal(state, 1) == {"d 6S>7D", "take"}


# ------------------------------------------------------------ the deal


def _turned_up_aces(rules: Rules) -> int:
    return sum(deal(rules, seed).trump_card >> 2 == 12 for seed in range(400))


def test_ace_does_not_hold_stock() -> None:
    plain = Rules(players=2, deck=36)
    rules = Rules(players=2, deck=36, ace_does_not_hold_stock=True)
    assert _turned_up_aces(plain) > 0
    assert _turned_up_aces(rules) == 0
    for seed in range(50):
        d = deal(rules, seed)
        assert len(d.stock) == 24 and d.stock[0] == d.trump_card
        held = 0
        for h in d.hands:
            held |= h
        assert held | sum(1 << c for c in d.stock) == (1 << 52) - (1 << 16)  # every card once


def test_redeal_five_of_suit() -> None:
    plain = Rules(players=6, deck=36)
    rules = Rules(players=6, deck=36, redeal_five_of_suit=True)

    def five(d: Deal) -> bool:
        return any((h & m).bit_count() >= 5 for h in d.hands for m in SUIT_MASK)

    assert any(five(deal(plain, seed)) for seed in range(200))
    assert not any(five(deal(rules, seed)) for seed in range(200))


def test_options_leave_the_default_deal_as_it_was() -> None:
    # Options drawn from the generator after the shuffle do not change the cards.
    for seed in range(20):
        a, b = deal(Rules(), seed), deal(Rules(no_trump_opener=Opener.RANDOM), seed)
        assert (a.hands, a.stock) == (b.hands, b.stock)


# ------------------------------------------------------------ drawing


def test_last_cards_evenly_goes_round_one_at_a_time() -> None:
    # After the bout seat 0 needs 3 cards, seat 2 needs 2, the defender 1 needs 1;
    # the stock holds 3 cards and the face-up 6H.
    kw: dict[str, Any] = {"stock": "QD KD AD", "trump": "6H", "last_cards_evenly": True}
    state = game(["7S 8C 9C JC", "8S 9S 10S JS QS KS", "7D 8D 9D 10D"], **kw)
    events = play(state, "0 a 7S", "1 d 8S>7S", "0 done", "2 done")
    drew = {e.seat: (e.number, e.trump_card) for e in events if isinstance(e, Drew)}
    # Drawing order 0, 2, 1 (the defender last): QD, KD, AD, then 6H to seat 0 again.
    assert drew == {0: (2, True), 2: (1, False), 1: (1, False)}
    assert hand(state, 0) == cards("8C 9C JC QD 6H")
    assert hand(state, 2) == cards("7D 8D 9D 10D KD")
    assert "AD" in hand(state, 1)
    assert "6H" in {str(c) for c in state.view(2).known[0]}  # everyone saw who took 6H


def test_short_stock_goes_in_order_by_default() -> None:
    kw: dict[str, Any] = {"stock": "QD KD AD", "trump": "6H"}
    state = game(["7S 8C 9C JC", "8S 9S 10S JS QS KS", "7D 8D 9D 10D"], **kw)
    events = play(state, "0 a 7S", "1 d 8S>7S", "0 done", "2 done")
    drew = {e.seat: (e.number, e.trump_card) for e in events if isinstance(e, Drew)}
    assert drew == {0: (3, False), 2: (1, True)}


# ------------------------------------------------------------ snapshots


def test_options_survive_a_snapshot() -> None:
    rules = Rules(
        players=3,
        mode=Mode.PEREVODNOY,
        single_card_opening=True,
        first_bout_no_transfer=True,
        fixed_trump="diamonds",
        spades_by_spades=True,
        last_cards_evenly=True,
    )
    state = State(rules, 7)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert State.from_dict(state.to_dict()) == state


def test_old_rules_without_options_load_with_defaults() -> None:
    assert Rules.from_dict({"players": 3, "deck": 36, "mode": "podkidnoy"}) == Rules(players=3)


# ------------------------------------------------------------ throw-in order


def _three(**kw: Any) -> State:
    return game(["7S 7C 9D", "8S 9S AS 10C", "7D 8D 9H"], stock="QS KS QC KC", **kw)


def test_attacker_first_others_wait_for_the_attackers_word() -> None:
    state = _three(throw_in_order="attacker_first")
    act(state, "0 a 7S")
    assert legal(state, 2) == set()
    refused(state, "2 t 7D", "seat 0 has the first word")
    act(state, "1 d 8S>7S")
    assert turn_of(state).seats == (0,)  # only the attacker is waited for
    act(state, "0 done")
    assert legal(state, 2) == {"t 7D", "t 8D", "done"}
    assert turn_of(state).seats == (2,)


def test_attacker_first_a_throw_in_by_the_attacker_frees_the_others() -> None:
    state = _three(throw_in_order="attacker_first")
    play(state, "0 a 7S", "0 t 7C")
    assert "t 7D" in legal(state, 2)


def test_free_order_anyone_throws_in_at_once() -> None:
    state = _three()
    act(state, "0 a 7S")
    assert "t 7D" in legal(state, 2)


def _four(**kw: Any) -> State:
    hands = ["7S 7C 9D", "8S 9S AS 10C 8C KH", "7D 8D 9C", "7H JD QD"]
    return game(hands, stock="QS KS QC KC", **kw)


def test_circle_the_right_goes_round_from_the_defenders_left() -> None:
    state = _four(throw_in_order="circle")
    act(state, "0 a 7S")
    assert legal(state, 0) == set() and legal(state, 3) == set()
    assert legal(state, 2) == {"t 7D"}
    refused(state, "0 t 7C", "it is seat 2's turn to throw in")
    act(state, "1 d 8S>7S")
    assert turn_of(state).seats == (2,)
    act(state, "2 done")
    assert legal(state, 3) == {"t 7H", "done"}
    play(state, "3 t 7H", "1 d KH>7H")
    assert turn_of(state).seats == (3,)  # who threw in keeps the right until «Бито»
    act(state, "3 done")
    assert turn_of(state).seats == (0,)
    act(state, "0 done")
    assert turn_of(state).seats == (2,)  # the new card gave seat 2 its say again
    events = act(state, "2 done")
    assert [e.taken for e in events if isinstance(e, BoutEnded)] == [False]


def test_simple_game_has_no_throw_in_order() -> None:
    with pytest.raises(ValueError, match="no order of throwing in"):
        Rules(simple=True, throw_in_order=ThrowOrder.CIRCLE)


# ------------------------------------------------------------ a series of games


def test_under_fool_the_last_fool_is_attacked_first() -> None:
    rules = Rules(players=3, series_opener=SeriesOpener.UNDER_FOOL)
    for seed in range(5):
        state = State(rules, seed, last_fool=1)
        assert (state.attacker, state.defender) == (0, 1)
        assert state.shown is None  # no trump is shown
        state = State(rules, seed, last_fool=0)
        assert (state.attacker, state.defender) == (2, 0)


def test_under_fool_in_pairs_the_right_neighbour_is_an_opponent() -> None:
    state = State(
        Rules(players=4, teams=True, series_opener=SeriesOpener.UNDER_FOOL), 3, last_fool=3
    )
    assert (state.attacker, state.defender) == (2, 3)


def test_after_a_draw_or_by_default_the_lowest_trump_opens() -> None:
    for seed in range(5):
        plain = State(Rules(players=3), seed)
        assert State(Rules(players=3), seed, last_fool=1).attacker == plain.attacker
        under = Rules(players=3, series_opener=SeriesOpener.UNDER_FOOL)
        assert State(under, seed).attacker == plain.attacker


# ------------------------------------------------------------ transfer by a shown trump


def _shows(**kw: Any) -> State:
    hands = ["7S 7C 9D", "7H 8S AS", "7D JS QS KS"]
    return game(hands, trump="6H", stock="QD KD AD QC", mode="perevodnoy", **kw)


def test_transfer_by_showing_a_trump_keeps_the_card() -> None:
    state = _shows(transfer_by_trump_show=True)
    act(state, "0 a 7S")
    assert {"s 7H", "x 7H"} <= legal(state, 1)
    act(state, "1 s 7H")
    assert (state.attacker, state.defender) == (1, 2)
    assert "7H" in hand(state, 1)
    assert [str(a) for a, _ in state.table] == ["7S"]
    assert "7H" in {str(c) for c in state.view(2).known[1]}  # everyone saw it


def test_a_shown_trump_transfers_once_per_bout() -> None:
    state = _shows(transfer_by_trump_show=True)
    play(state, "0 a 7S", "1 s 7H", "2 x 7D", "0 x 7C")
    assert state.defender == 1
    assert "s 7H" not in legal(state, 1)
    refused(state, "1 s 7H", "already been shown in this bout")


def test_only_a_trump_of_the_attack_rank_is_shown() -> None:
    state = game(
        ["7S 9D", "7C 8S AS", "7D JS QS"],
        trump="6H",
        stock="QD KD",
        mode="perevodnoy",
        transfer_by_trump_show=True,
    )
    act(state, "0 a 7S")
    refused(state, "1 s 7C", "only a trump of the attack's rank")


def test_no_transfer_by_a_shown_trump_by_default() -> None:
    state = _shows()
    act(state, "0 a 7S")
    assert "s 7H" not in legal(state, 1)
    refused(state, "1 s 7H", "not a shown one")


def test_shown_trump_needs_perevodnoy() -> None:
    with pytest.raises(ValueError, match="needs perevodnoy"):
        Rules(transfer_by_trump_show=True)


# ------------------------------------------------------------ «погоны»


def _last_bout(hands: list[str], *moves: str, **kw: Any) -> State:
    state = game(hands, trump="6H", **kw)
    play(state, *moves)
    assert state.is_over
    return state


def test_pogony_leaving_with_two_sixes_on_the_fool() -> None:
    state = _last_bout(["6S 6C", "7S 7C 9D"], "0 a 6S 6C", "1 d 7S>6S", "1 d 7C>6C", pogony=True)
    assert outcome_of(state).fools == (1,)
    assert outcome_of(state).pogony == (0,)


def test_no_pogony_by_default() -> None:
    state = _last_bout(["6S 6C", "7S 7C 9D"], "0 a 6S 6C", "1 d 7S>6S", "1 d 7C>6C")
    assert outcome_of(state).fools == (1,) and outcome_of(state).pogony == ()


def test_no_pogony_when_the_attacked_player_is_not_the_fool() -> None:
    moves = ("0 a 6S 6C", "1 d 7S>6S", "1 d 7C>6C")
    state = _last_bout(["6S 6C", "7S 7C", "9D 10D"], *moves, pogony=True)
    assert outcome_of(state).fools == (2,)
    assert outcome_of(state).pogony == ()


@pytest.mark.parametrize(("ranks", "expected"), [((4, 4), (0,)), ((5, 4), ())])
def test_growing_pogony_need_the_players_own_rank(
    ranks: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    state = game(["6S 6C", "7S 7C 9D"], trump="6H", pogony=True)
    state.pogony_ranks = ranks  # (5, 4): seat 0 gave pogony before, it needs sevens now
    play(state, "0 a 6S 6C", "1 d 7S>6S", "1 d 7C>6C")
    assert outcome_of(state).pogony == expected


def test_pogony_ranks_go_with_the_game() -> None:
    rules = Rules(players=3, pogony=True)
    state = State(rules, 5, pogony_ranks=(4, 6, 5))
    assert state.pogony_ranks == (4, 6, 5)
    assert State.from_dict(state.to_dict()).pogony_ranks == (4, 6, 5)
    assert replay(rules, 5, [], pogony_ranks=(4, 6, 5)) == state


def test_pogony_ranks_are_checked() -> None:
    with pytest.raises(ValueError, match="a rank 0-12 per seat"):
        State(Rules(players=2, pogony=True), 0, pogony_ranks=(4,))
