"""The attack: openings, the mandatory first card and the attack limit (RULES §4)."""

from __future__ import annotations

from engine import BoutEnded
from tests.helpers import act, game, hand, legal, play, refused, turn_of


def test_opening_may_be_several_cards_of_one_rank() -> None:
    state = game(["7S 7C 7D 9H", "8S 8C 8D KH AS"])
    assert legal(state, 0) == {
        "a 7S",
        "a 7C",
        "a 7D",
        "a 7S 7C",
        "a 7S 7D",
        "a 7C 7D",
        "a 7S 7C 7D",
        "a 9H",
    }
    act(state, "0 a 7C 7S 7D")
    assert [str(a) for a, _ in state.table] == ["7S", "7C", "7D"]
    assert hand(state, 0) == {"9H"}
    assert turn_of(state).kind == "defend"


def test_opening_of_mixed_ranks_is_refused() -> None:
    state = game(["7S 8S 9H", "8C 9C 10C"])
    refused(state, "0 a 7S 8S", "only cards of one rank")


def test_opening_with_a_card_not_held_is_refused() -> None:
    state = game(["7S 8S 9H", "8C 9C 10C"])
    refused(state, "0 a 7C", "seat 0 does not hold 7C")
    refused(state, "0 a 7S 7C", "does not hold 7C")


def test_only_the_attacker_opens() -> None:
    state = game(["7S 8S 9H", "8C 9C 10C", "7D 8D 9D"], opener=1)
    refused(state, "0 a 7S", "seat 1 opens this bout, not seat 0")
    refused(state, "2 a 7D", "seat 1 opens")
    assert legal(state, 0) == legal(state, 2) == set()


def test_first_card_is_mandatory() -> None:
    state = game(["7S 8S 9H", "8C 9C 10C", "7D 8D 9D"])
    refused(state, "0 done", "not open")
    refused(state, "0 pass", "not open")
    refused(state, "2 done", "not open")
    refused(state, "2 t 7D", "not open")
    refused(state, "1 take", "not open yet")
    assert all(text.startswith("a ") for text in legal(state, 0))
    assert legal(state, 1) == set()
    assert turn_of(state).kind == "attack" and turn_of(state).seats == (0,)


def test_opening_cannot_exceed_the_defenders_hand() -> None:
    state = game(["7S 7C 7D 7H 8S", "9S 9C 9D"])
    refused(state, "0 a 7S 7C 7D 7H", "at most 3 cards")
    assert "a 7S 7C 7D 7H" not in legal(state, 0)
    assert {"a 7S 7C 7D", "a 7C 7D 7H"} <= legal(state, 0)
    act(state, "0 a 7S 7C 7D")
    assert len(state.table) == 3


def test_limit_counts_attack_cards_not_beaten_ones() -> None:
    # Defender holds 3: three attack cards at most, even after one is beaten.
    state = game(["7S 7C 7D 8C 8D", "8S 9C 9D"])
    play(state, "0 a 7S 7C 7D", "1 d 8S>7S")
    assert state.view(0).limit == 3
    refused(state, "0 t 8C", "most attack cards: 3")
    assert legal(state, 0) == set()


def test_defender_hand_size_sets_the_limit_when_the_bout_starts() -> None:
    state = game(["7S 7C 8C 8H 9S", "8S 9D"])
    assert state.view(None).limit == 2
    play(state, "0 a 7S", "1 d 8S>7S")
    # Defender now holds one card, but the limit stays 2: one more card may come.
    assert legal(state, 0) == {"t 7C", "t 8C", "t 8H", "done"}
    act(state, "0 t 8C")
    refused(state, "0 t 8H", "most attack cards: 2")


# Bout shape used for the cap: seat 1 opens four eights against seat 0's six cards,
# seat 0 beats one, and seat 1 adds the two nines. Trump is diamonds.
CAP_HANDS = ["9S 9C 10H JH QD KD", "8S 8C 8D 8H 9D 9H"]


def test_first_bout_cap_is_five_attack_cards() -> None:
    state = game(CAP_HANDS, trump="AD", opener=1)
    assert state.view(None).limit == 5  # min(5, six cards in the defender's hand)
    play(state, "1 a 8S 8C 8D 8H", "0 d 9S>8S", "1 t 9H")
    assert len(state.table) == 5
    refused(state, "1 t 9D", "most attack cards: 5")
    assert "t 9D" not in legal(state, 1)


def test_first_bout_cap_off_allows_six() -> None:
    state = game(CAP_HANDS, trump="AD", opener=1, first_bout_cap_5=False)
    play(state, "1 a 8S 8C 8D 8H", "0 d 9S>8S", "1 t 9H", "1 t 9D")
    assert len(state.table) == 6


def test_cap_is_six_after_the_first_bito() -> None:
    # Bout 1: 0 attacks with 6S, 1 beats, «Бито». Then 0 draws KD, 1 draws 9D.
    state = game(["6S 9S 9C 10H JH QD", "7S 8S 8C 8D 8H 9H"], trump="AD", stock="KD 9D", opener=0)
    events = play(state, "0 a 6S", "1 d 7S>6S", "0 done")
    assert any(isinstance(e, BoutEnded) and not e.taken for e in events)
    assert (state.attacker, state.defender) == (1, 0)
    assert hand(state, 0) == {"9S", "9C", "10H", "JH", "QD", "KD"}
    assert hand(state, 1) == {"8S", "8C", "8D", "8H", "9D", "9H"}
    assert state.view(None).limit == 6
    play(state, "1 a 8S 8C 8D 8H", "0 d 9S>8S", "1 t 9H", "1 t 9D")
    assert len(state.table) == 6


def test_a_taken_bout_does_not_lift_the_five_card_cap() -> None:
    # Bout 1 ends with a take; bout 2 (same attacker in 2 players) keeps the cap 5.
    state = game(["6S 7C 8C 9C 10C JC", "7D 8D 9D 10D JD"], trump="AH", stock="QS KS AS AC QC")
    play(state, "0 a 6S", "1 take", "0 pass")
    assert (state.attacker, state.defender) == (0, 1)
    assert state.hands[1].bit_count() >= 6
    assert state.view(None).limit == 5
