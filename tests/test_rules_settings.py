"""Table settings: validation with clear messages and timer seconds (RULES §2, §7, §8)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Mode, Rules, Speed, ThrowIn


def test_defaults_are_classic_two_player_podkidnoy() -> None:
    rules = Rules()
    assert (rules.players, rules.deck) == (2, 36)
    assert rules.mode is Mode.PODKIDNOY
    assert rules.throw_in is ThrowIn.ALL
    assert rules.speed is Speed.NORMAL
    assert rules.first_bout_cap_5 is True
    assert rules.teams is False
    assert rules.transfer is False


@pytest.mark.parametrize(
    ("deck", "ok", "bad"),
    [(24, (2, 3, 4), (1, 5, 6)), (36, (2, 3, 4, 5, 6), (1, 7)), (52, (2, 6), (1, 7))],
)
def test_deck_sets_the_number_of_players(
    deck: int, ok: tuple[int, ...], bad: tuple[int, ...]
) -> None:
    for players in ok:
        assert Rules(players=players, deck=deck).players == players
    for players in bad:
        with pytest.raises(ValueError, match=f"{deck}-card deck is for .* not {players}"):
            Rules(players=players, deck=deck)


def test_24_cards_with_5_players_is_refused_with_clear_message() -> None:
    with pytest.raises(ValueError) as info:
        Rules(players=5, deck=24)
    assert str(info.value) == "a 24-card deck is for 2 to 4 players, not 5"


@pytest.mark.parametrize("deck", [20, 32, 40, 54])
def test_unknown_deck_size_is_refused(deck: int) -> None:
    with pytest.raises(ValueError, match=f"24, 36 or 52 cards, not {deck}"):
        Rules(deck=deck)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_teams_need_four_or_six_players(players: int) -> None:
    with pytest.raises(ValueError, match=f"teams need 4 players .* not {players}"):
        Rules(players=players, teams=True)


def test_teams_of_two_and_three_are_accepted() -> None:
    assert Rules(players=4, teams=True).teams
    assert Rules(players=6, teams=True).teams
    assert Rules(players=4, deck=24, teams=True).teams


@pytest.mark.parametrize(
    ("field", "value"), [("mode", "durak"), ("throw_in", "anyone"), ("speed", "blitz")]
)
def test_unknown_option_values_are_refused(field: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"{field} must be one of .*{value!r}"):
        Rules(**{field: value})  # type: ignore[arg-type]  # a value outside the enum on purpose


def test_option_strings_become_enums() -> None:
    rules = Rules(mode=Mode.PEREVODNOY, throw_in=ThrowIn.NEIGHBORS, speed=Speed.FAST, players=4)
    assert rules.mode is Mode.PEREVODNOY
    assert rules.transfer is True
    assert rules.throw_in is ThrowIn.NEIGHBORS
    assert rules.speed is Speed.FAST


def test_timer_seconds_normal_30_and_10() -> None:
    rules = Rules(speed=Speed.NORMAL)
    assert (rules.move_seconds, rules.throw_seconds) == (30, 10)


def test_timer_seconds_fast_15_and_5() -> None:
    rules = Rules(speed=Speed.FAST)
    assert (rules.move_seconds, rules.throw_seconds) == (15, 5)


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 3  # type: ignore[misc]  # frozen: it must raise


def test_rules_need_keyword_arguments() -> None:
    with pytest.raises(TypeError):
        Rules(2, 36)  # type: ignore[call-arg]  # positional on purpose: it must raise


def test_rules_round_trip_through_dict() -> None:
    rules = Rules(players=6, deck=52, mode=Mode.PEREVODNOY, teams=True, speed=Speed.FAST)
    data = rules.to_dict()
    assert data["mode"] == "perevodnoy" and data["speed"] == "fast"
    assert Rules.from_dict(data) == rules


def test_rules_from_dict_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown rules: jokers"):
        Rules.from_dict({"players": 2, "jokers": True})


def test_team_ids_alternate_seats() -> None:
    pairs = Rules(players=4, teams=True)
    assert [pairs.team(s) for s in range(4)] == [0, 1, 0, 1]
    threes = Rules(players=6, teams=True)
    assert [threes.team(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    solo = Rules(players=4)
    assert len({solo.team(s) for s in range(4)}) == 4
