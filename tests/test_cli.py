"""The command-line tool: a game against computer players and simulations."""

from __future__ import annotations

import itertools

import pytest

from cli import main as cli
from engine import Action, Card
from engine.actions import BEAT, OPEN
from engine.events import BoutEnded


def test_the_persons_own_moves_are_told_in_the_second_person() -> None:
    names = cli.Names("ru", human=0)
    beat = Action(0, BEAT, (Card.parse("9H"),), target=Card.parse("8H"))
    assert cli.action_text(beat, names) == "Вы отбиваетесь: 9♥ на 8♥"
    beat = Action(1, BEAT, (Card.parse("9H"),), target=Card.parse("8H"))
    assert cli.action_text(beat, names) == "Бот 2 отбивается: 9♥ на 8♥"
    assert cli.action_text(Action(0, OPEN, (Card.parse("7S"),)), names) == "Вы ходите: 7♠"
    cards = tuple(Card.parse(c) for c in ("7S", "7D", "8S", "8D", "9S"))
    assert cli.event_text(BoutEnded(True, 1, cards), names) == ("Бот 2 забирает 5 карт")
    assert cli.event_text(BoutEnded(True, 0, cards[:2]), names) == ("Вы забираете 2 карты")


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


def test_play_speaks_english_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = itertools.cycle(["x", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "--seed", "5", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Your cards:" in out and "Trump" in out and "Type the number of a move." in out
    assert "The fool" in out or "A draw" in out
    assert not any("а" <= ch <= "я" for ch in out)


def test_play_refuses_impossible_settings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--players", "5", "--deck", "24"])
    assert "24-card deck is for 2 to 4 players" in capsys.readouterr().err


def test_a_preset_keeps_to_its_rulebook(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--preset", "duraka_net", "--players", "3"])
    assert "duraka_net is played by 2 players" in capsys.readouterr().err
