"""The command-line tool: a game against computer players and simulations."""

from __future__ import annotations

import itertools

import pytest

from engine import cli


def test_plural_forms_follow_russian_grammar() -> None:
    forms = [cli.plural(n, "карта", "карты", "карт") for n in (1, 2, 5, 11, 12, 21, 22, 25, 111)]
    assert forms == [
        "1 карта", "2 карты", "5 карт", "11 карт", "12 карт",
        "21 карта", "22 карты", "25 карт", "111 карт",
    ]  # fmt: skip


def test_simulate_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "20", "--players", "3", "--seed", "1", "--policy", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "20 games of 3 players" in out
    assert "games/s" in out and "fool rate by seat" in out


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--players", "4", "--teams", "--mode", "perevodnoy"],
        ["--preset", "transfer_cheating", "--players", "3"],
        ["--preset", "durak_online", "--players", "3", "--mode", "perevodnoy"],
    ],
)
def test_play_runs_a_whole_game_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    answers = itertools.cycle(["x", "1"])  # a typo first: the tool asks again
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "--seed", "5", *extra]) == 0
    out = capsys.readouterr().out
    assert "Ваши карты:" in out and "Козырь" in out
    assert "Введите номер хода." in out
    assert "Дурак" in out or "Ничья" in out


def test_play_refuses_impossible_settings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--players", "5", "--deck", "24"])
    assert "24-card deck is for 2 to 4 players" in capsys.readouterr().err


def test_a_preset_keeps_to_its_rulebook(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--preset", "duraka_net", "--players", "3"])
    assert "duraka_net is played by 2 players" in capsys.readouterr().err
