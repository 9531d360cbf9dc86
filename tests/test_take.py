"""«Беру» (RULES §4 take, §11): throw-ins after it, who opens next, public knowledge."""

from __future__ import annotations

from engine import BoutEnded
from tests.helpers import act, cards, game, hand, legal, of_type, play, refused, turn_of

STOCK = "QD KD AD QS KS AS QC KC AC JD"


def test_take_only_while_a_card_is_unbeaten() -> None:
    state = game(["7S 7C 9D", "8S 8C 10C"], trump="6H", stock=STOCK)
    play(state, "0 a 7S 7C", "1 d 8S>7S")
    assert "take" in legal(state, 1)
    act(state, "1 d 8C>7C")
    assert "take" not in legal(state, 1)
    refused(state, "1 take", "nothing to take")


def test_take_refused_when_everything_is_beaten() -> None:
    state = game(["7S 9D", "8S 8C 10C", "JS QS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 8S>7S")
    refused(state, "1 take", "everything is beaten: there is nothing to take")


def test_after_take_the_defender_no_longer_beats_or_takes_again() -> None:
    state = game(["7S 9D", "8S 8C 10C", "JS QS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take")
    assert state.view(None).taking
    assert legal(state, 1) == set()
    refused(state, "1 d 8S>7S", "already said «Беру»")
    refused(state, "1 take", "already said «Беру»")


def test_throw_ins_after_take_within_the_limit() -> None:
    # The defender holds three cards: three attack cards at most; the take completes
    # at once when the third lands.
    state = game(["7S 7C 7D 7H 9D", "8S JC 10H"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take")
    assert legal(state, 0) == {"t 7C", "t 7D", "t 7H", "pass"}
    assert not of_type(act(state, "0 t 7C"), BoutEnded)
    ended = of_type(act(state, "0 t 7D"), BoutEnded)
    assert len(ended) == 1 and ended[0].taken
    assert hand(state, 1) >= cards("7S 7C 7D 8S JC 10H")
    assert "7H" in hand(state, 0)


def test_take_completes_at_once_when_the_limit_is_already_reached() -> None:
    state = game(["7S 7C 9D", "8S 10C"], trump="6H", stock=STOCK)
    act(state, "0 a 7S 7C")
    ended = of_type(act(state, "1 take"), BoutEnded)
    assert len(ended) == 1 and ended[0].taken


def test_defender_takes_every_card_when_all_throwers_pass() -> None:
    state = game(["7S 7C 9D", "8S 10H JH", "7D QC"], trump="6H", stock=STOCK)
    play(state, "0 a 7S 7C", "1 d 8S>7S", "1 take")
    assert turn_of(state).kind == "throw" and turn_of(state).seats == (0, 2)
    assert not of_type(act(state, "0 pass"), BoutEnded)
    ended = of_type(act(state, "2 pass"), BoutEnded)
    assert len(ended) == 1
    assert ended[0].taken and ended[0].defender == 1
    assert {str(c) for c in ended[0].cards} == {"7S", "7C", "8S"}
    assert hand(state, 1) >= cards("7S 7C 8S 10H JH")
    assert state.view(None).discard == ()


def test_after_take_the_player_left_of_the_defender_opens() -> None:
    state = game(["7S 9D", "8S 10H", "JS QS", "KS AS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take", "0 pass", "2 pass", "3 pass")
    assert (state.attacker, state.defender) == (2, 3)
    assert turn_of(state).kind == "attack" and turn_of(state).seats == (2,)


def test_after_take_in_three_players_the_defender_misses_a_turn() -> None:
    state = game(["7S 9D", "8S 10H", "JS QS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take", "0 pass", "2 pass")
    assert (state.attacker, state.defender) == (2, 0)


def test_after_take_in_two_players_the_same_attacker_again() -> None:
    state = game(["7S 9D", "8S 10H"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 take", "0 pass")
    assert (state.attacker, state.defender) == (0, 1)


def test_after_bito_the_defender_opens() -> None:
    state = game(["7S 9D", "8S 10H", "JS QS"], trump="6H", stock=STOCK)
    play(state, "0 a 7S", "1 d 8S>7S", "0 done", "2 done")
    assert (state.attacker, state.defender) == (1, 2)


def test_taken_cards_become_public_knowledge() -> None:
    state = game(["7S 7C 9D", "8S 10H JH QH", "7D QC"], trump="6H", stock="QD KD")
    play(state, "0 a 7S 7C", "1 d 8S>7S", "1 take", "0 pass", "2 t 7D", "0 pass", "2 pass")
    taken = cards("7S 7C 7D 8S")
    for viewer in [None, 0, 1, 2]:
        known = {str(c) for c in state.view(viewer).known[1]}
        assert known == taken  # and not 10H, JH or QH, which nobody has seen
    assert hand(state, 1) == taken | cards("10H JH QH")


def test_known_taken_card_is_forgotten_once_played() -> None:
    state = game(["7S 6S 9D", "8C 10H"], trump="6H", stock="QD KD AD QS KS")
    play(state, "0 a 7S", "1 take", "0 pass")
    # Seat 0 draws four, seat 1 the last two: KS and the face-up 6H, also public.
    assert {str(c) for c in state.view(0).known[1]} == {"7S", "6H"}
    play(state, "0 a 6S", "1 d 7S>6S")
    assert {str(c) for c in state.view(0).known[1]} == {"6H"}


def test_after_take_the_next_player_still_in_the_game_opens() -> None:
    # Seat 2 throws in its last card (stock empty) and leaves when the bout ends, so
    # the bout after the take is opened by seat 3, against seat 0.
    state = game(["7S 9D", "6S 8C", "7C", "JD QD"], trump="6H")
    events = play(state, "0 a 7S", "2 t 7C", "1 take")
    assert of_type(events, BoutEnded)[0].taken
    assert state.place == [0, 0, 1, 0]
    assert (state.attacker, state.defender) == (3, 0)
