"""Transfer Durak (RULES §4 Transfer): one card, before any beat, to a player who can hold it."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Action, BoutEnded, Card, IllegalAction, State
from tests.helpers import act, game, hand, legal, play, refused, turn_of

STOCK = "QD KD AD QS KS AS QC KC AC"


def transfer_game(hands: list[str], **kw: Any) -> State:
    return game(hands, trump="6H", stock=STOCK, mode="perevodnoy", **kw)


def test_transfer_passes_the_bout_to_the_next_player() -> None:
    state = transfer_game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"])
    act(state, "0 a 7S")
    assert legal(state, 1) == {"x 7C", "d 8S>7S", "d AS>7S", "take"}
    act(state, "1 x 7C")
    assert (state.attacker, state.defender) == (1, 2)
    assert [(str(a), b) for a, b in state.table] == [("7S", None), ("7C", None)]
    assert hand(state, 1) == {"8S", "AS"}
    assert turn_of(state).kind == "defend" and turn_of(state).seats == (2,)
    assert state.view(None).limit == 4  # the new defender's four cards


def test_transfer_is_one_card_in_text_form() -> None:
    with pytest.raises(ValueError, match="exactly one card"):
        Action.parse("1 x 7C 7D")


def test_transfer_action_with_two_cards_is_refused() -> None:
    state = transfer_game(["7S 9D JD", "7C 7D 8S AS", "10S JS QS KS"])
    act(state, "0 a 7S")
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply(Action(1, "x", (Card.parse("7C"), Card.parse("7D"))))
    assert state.to_dict() == before


def test_transfer_needs_a_card_of_the_attack_rank() -> None:
    state = transfer_game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"])
    act(state, "0 a 7S")
    refused(state, "1 x 8S", "a transfer needs a card of the attack's rank, not 8S")


def test_transfer_only_before_any_card_is_beaten() -> None:
    state = transfer_game(["7S 7C 9D", "7D 8S 8C AS", "10S JS QS KS"])
    play(state, "0 a 7S 7C", "1 d 8S>7S")
    assert not any(t.startswith("x ") for t in legal(state, 1))
    refused(state, "1 x 7D", "no transfer once a card has been beaten")


def test_transfer_needs_enough_cards() -> None:
    # Two attack cards plus the transfer card make three: seat 2 holds only two.
    state = transfer_game(["7S 7C 9D", "7D 8S 8C AS", "10S JS"])
    act(state, "0 a 7S 7C")
    assert "x 7D" not in legal(state, 1)
    refused(state, "1 x 7D", "must hold as many cards as there will be on the table")


def test_transfer_allowed_with_exactly_enough_cards() -> None:
    state = transfer_game(["7S 7C 9D", "7D 8S 8C AS", "10S JS QS"])
    act(state, "0 a 7S 7C")
    act(state, "1 x 7D")
    assert state.defender == 2
    assert state.view(None).limit == 3


def test_transfer_refused_past_the_cap() -> None:
    # Four cards of a rank never exceed a cap of 5, so the cap guard is checked on
    # a snapshot whose cap is lowered to two.
    state = transfer_game(["7S 7C 9D", "7D 8S 8C AS", "10S JS QS KS"])
    act(state, "0 a 7S 7C")
    data = state.to_dict()
    data["cap"] = 2
    capped = State.from_dict(data)
    assert "x 7D" not in legal(capped, 1)
    refused(capped, "1 x 7D", "at most 2 attack cards")


def test_transfer_round_the_circle() -> None:
    state = transfer_game(["7S 9D JD 10C", "7C 8S AS 9C", "7D JS QS KS"])
    act(state, "0 a 7S")
    act(state, "1 x 7C")
    assert state.defender == 2
    act(state, "2 x 7D")
    assert state.defender == 0  # back to the original attacker, who holds three
    assert state.attacker == 2
    # No seven left to pass on: beat or take.
    assert legal(state, 0) == {"d 9D>7D", "d JD>7D", "d 10C>7C", "take"}
    assert len(state.table) == 3


def test_transfer_round_the_whole_circle_back_to_the_first_defender() -> None:
    state = transfer_game(["7S 7H 9D JD", "7C 8S AS 9C 10D", "7D JS QS KS"])
    play(state, "0 a 7S", "1 x 7C", "2 x 7D", "0 x 7H")
    assert state.defender == 1
    assert len(state.table) == 4
    assert "x" not in {t.split()[0] for t in legal(state, 1)}


def test_transfer_in_two_players_goes_back_to_the_attacker() -> None:
    state = transfer_game(["7S 9S 10C", "7C 8D AS"])
    act(state, "0 a 7S")
    act(state, "1 x 7C")
    assert (state.attacker, state.defender) == (1, 0)
    assert turn_of(state).seats == (0,)
    assert legal(state, 0) == {"d 9S>7S", "d 10C>7C", "take"}


def test_transfer_in_two_players_refused_when_attacker_holds_too_few() -> None:
    state = transfer_game(["7S", "7C 8D AS"])
    act(state, "0 a 7S")
    refused(state, "1 x 7C", "must hold as many cards")


def test_transferrer_becomes_a_thrower() -> None:
    state = transfer_game(["7S 9D JD", "7C 7D 8S", "10S JC QD KD"])
    play(state, "0 a 7S", "1 x 7C")
    assert state.view(None).throwers == (0, 1)
    assert legal(state, 1) == {"t 7D"}
    play(state, "1 t 7D", "2 d 10S>7S", "2 d JC>7C", "2 d QD>7D")
    # Everything is beaten: the bout waits for both throwers, the transferrer too.
    assert turn_of(state).kind == "throw" and turn_of(state).seats == (0, 1)
    assert not [e for e in act(state, "0 done") if isinstance(e, BoutEnded)]
    assert [e for e in act(state, "1 done") if isinstance(e, BoutEnded)]


def test_transfer_refused_in_podkidnoy() -> None:
    state = game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"], stock=STOCK)
    act(state, "0 a 7S")
    assert legal(state, 1) == {"d 8S>7S", "d AS>7S", "take"}
    refused(state, "1 x 7C", "transfers are played only in perevodnoy")


def test_no_transfer_after_take() -> None:
    state = transfer_game(["7S 9D JD", "7C 8S AS", "10S JS QS KS"])
    play(state, "0 a 7S", "1 take")
    refused(state, "1 x 7C", "already said «Беру»")


def test_transfer_resets_bito_and_rights() -> None:
    # A transfer is a new attack card: nothing said before it counts.
    state = transfer_game(["7S 9D JD", "7C 8S AS", "10S JS QS KS", "9C 10C"])
    act(state, "0 a 7S")
    act(state, "1 x 7C")
    assert state.view(None).said == ()
    assert state.view(None).throwers == (0, 1, 3)
