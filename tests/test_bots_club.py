"""The club-strength yardstick (bench.club) and the benches that measure the bots."""

from __future__ import annotations

import pytest

from bench import agreement, endgame_grades, tournament
from bench.club import ClubPlayer
from engine import Action, Rules, State
from engine.bots import NoviceBot
from engine.bots.arena import play_game
from engine.players import Player
from engine.rules import Mode
from tests.helpers import game, play
from tests.test_bots_endgame import known_game


def test_the_club_player_finishes_games_with_legal_moves_only() -> None:
    for rules in (Rules(players=2, deck=36), Rules(players=3, deck=36, mode=Mode.PEREVODNOY)):
        for seed in range(3):
            players: list[Player] = [
                ClubPlayer() if s % 2 == 0 else NoviceBot() for s in range(rules.players)
            ]
            state = State(rules, seed)
            outcome = play_game(state, players)  # ``apply`` refuses any illegal move
            assert outcome.draw or outcome.fools


def test_the_club_player_solves_a_known_endgame() -> None:
    state = known_game(["7C 7D AD 7H 8H", "9C"], trump="6H")
    assert ClubPlayer().choose(state.view(0)) in {
        Action.from_text(0, "a 7D"),
        Action.from_text(0, "a AD"),
    }


def test_the_club_player_keeps_a_high_trump_while_the_stock_is_long() -> None:
    state = game(
        ["7S 8C 9C 10C JC QC", "AH 6D 7D 8D 9D 10D"],
        trump="6H",
        stock="6C 7C 8S 9S 10S JS QS KS AS 6S JD QD",
    )
    play(state, "0 a 7S")
    assert ClubPlayer().choose(state.view(1)) == Action.from_text(1, "take")


def test_the_tournament_knows_the_club_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament.main(["--lineup", "club,novice", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "club" in out and "4 games" in out


def test_the_endgame_grades_print_their_counts(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--level", "expert", "--deals", "1", "--grader-nodes", "20000"]
    assert endgame_grades.main(argv) == 0
    out = capsys.readouterr().out
    for figure in ("fully known decisions graded", "decided by sampling", "value given away"):
        assert figure in out


def test_the_agreement_bench_prints_its_counts(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--level", "expert", "--positions", "2", "--seeds", "2", "--scale", "0.2"]
    assert agreement.main(argv) == 0
    out = capsys.readouterr().out
    assert "every seed agreed in" in out and "of 2 positions" in out
