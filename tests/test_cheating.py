"""Option ``cheating`` (RULES §9): the defender may cheat, anyone may say «Антимухлёж»."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Accused, Action, BoutEnded, MalformedAction, Rules, State
from engine.bots import NoviceBot
from engine.bots.heuristic import catch_cheat
from engine.presets import transfer_cheating
from tests.helpers import act, cards, game, hand, legal, play, refused


def two(**kw: Any) -> State:
    return game(["9H 10S JS", "7S 8C QD"], trump="6D", stock="AC AS AH", **kw)


def texts(actions: list[Action]) -> set[str]:
    return {a.text for a in actions}


def test_the_defender_may_beat_with_any_card() -> None:
    state = two(cheating=True)
    act(state, "0 a 9H")
    assert legal(state, 1) == {"d QD>9H", "take", "accuse 0"}  # honest moves only
    assert texts(state.cheat_actions(1)) == {"d 7S>9H", "d 8C>9H"}
    events = act(state, "1 d 7S>9H")
    assert [(str(a), str(d)) for a, d in state.table] == [("9H", "7S")]
    assert len(events) == 1  # nothing says it was a cheat


def test_without_the_option_a_card_that_does_not_beat_is_refused() -> None:
    state = two()
    act(state, "0 a 9H")
    assert state.cheat_actions(1) == []
    refused(state, "1 d 7S>9H", "7S does not beat 9H")


def test_only_the_defender_has_cheats() -> None:
    state = two(cheating=True)
    act(state, "0 a 9H")
    assert state.cheat_actions(0) == []


def test_an_exposed_cheater_takes_the_table() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d 7S>9H")
    assert "accuse 1" in legal(state, 0)
    events = act(state, "0 accuse 1")
    assert Accused(0, 1, True) in events
    ended = [e for e in events if isinstance(e, BoutEnded)]
    assert ended and ended[0].taken and ended[0].defender == 1
    assert cards("9H 7S") <= hand(state, 1)
    assert state.attacker == 0 and not state.att  # the taker is skipped


def test_a_false_accusation_bars_the_accuser_for_the_bout() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d QD>9H")
    events = act(state, "0 accuse 1")
    assert Accused(0, 1, False) in events
    assert state.att  # the bout goes on
    assert "accuse 1" not in legal(state, 0)
    refused(state, "0 accuse 1", "may not accuse seat 1 again in this bout")
    act(state, "0 done")  # a new bout: the right comes back
    act(state, "1 a 8C")
    assert "accuse 1" in legal(state, 0)


def test_a_cheating_transfer_passes_the_bout_and_can_be_caught() -> None:
    kw: dict[str, Any] = {"mode": "perevodnoy", "cheating": True, "stock": "QD KD AD QS KS AS"}
    state = game(["7S 8S 9D", "8C 9S AS", "10S JS QS KS"], trump="6H", **kw)
    act(state, "0 a 7S")
    assert "x 8C" in texts(state.cheat_actions(1))
    act(state, "1 x 8C")
    assert (state.attacker, state.defender) == (1, 2)
    assert "t 8S" in legal(state, 0)  # the transferred rank is on the table now
    events = act(state, "2 accuse 1")
    assert Accused(2, 1, True) in events
    assert cards("7S 8C") <= hand(state, 1)  # the cheater takes, not the defender
    assert state.attacker == 2  # the player after the taker opens


def test_accusations_need_the_option_a_bout_and_another_player() -> None:
    state = two()
    act(state, "0 a 9H")
    refused(state, "0 accuse 1", "no cheating at this table")
    state = two(cheating=True)
    refused(state, "1 accuse 0", "only while a bout is on the table")
    act(state, "0 a 9H")
    refused(state, "0 accuse 0", "not another player")
    refused(state, "0 accuse 5", "not another player")


def test_views_do_not_tell_who_cheated() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d 7S>9H")
    honest = state.copy()
    honest.cheats = 0  # the same table, but the engine's secret record says "honest"
    for seat in (None, 0, 1):
        assert state.view(seat) == honest.view(seat)


def test_the_secret_record_survives_a_snapshot() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d 7S>9H")
    restored = State.from_dict(state.to_dict())
    assert restored == state
    assert Accused(0, 1, True) in restored.apply(Action.parse("0 accuse 1"))


def test_accusation_text_form() -> None:
    assert Action.parse("2 accuse 1") == Action(2, "accuse", accused=1)
    assert str(Action(2, "accuse", accused=1)) == "2 accuse 1"
    with pytest.raises(MalformedAction, match="names a seat"):
        Action.parse("2 accuse")


def test_a_bot_catches_a_cheat_it_can_see() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d 7S>9H")
    assert NoviceBot().choose(state.view(0)) == Action(0, "accuse", accused=1)


def test_a_bot_does_not_accuse_an_honest_beat() -> None:
    state = two(cheating=True)
    play(state, "0 a 9H", "1 d QD>9H")
    choice = NoviceBot().choose(state.view(0))
    assert choice is not None and choice.kind != "accuse"


def test_the_cheating_preset_plays_with_cheats() -> None:
    assert transfer_cheating().cheating
    assert not Rules().cheating


def test_a_bot_never_gives_its_partner_away() -> None:
    # Pairs: seats 0+2 against 1+3. Seat 1 cheats against seat 0's attack.
    hands = ["9H 10S", "7S 8C QD", "JC QC", "KC AC"]
    state = game(hands, trump="6D", stock="AS AH", players=4, teams=True, cheating=True)
    play(state, "0 a 9H", "1 d 7S>9H")
    assert "accuse 1" in legal(state, 3)  # the rules would let the partner accuse
    assert catch_cheat(state.view(3)) is None
    assert catch_cheat(state.view(0)) == Action(0, "accuse", accused=1)


def test_views_say_who_may_throw_in_now() -> None:
    state = game(
        ["7S 7C 9D", "8S 9S AS 10C", "7D 8D 9H"],
        stock="QS KS QC KC",
        throw_in_order="attacker_first",
    )
    assert state.view().may_throw == ()  # no bout on the table yet
    act(state, "0 a 7S")
    assert state.view(2).may_throw == (0,)  # the attacker's first word
    play(state, "1 d 8S>7S", "0 done")
    assert state.view(None).may_throw == (2,)
