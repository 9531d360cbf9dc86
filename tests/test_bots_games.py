"""Whole games among bots: they always end, and «Мастер» beats a random player."""

from __future__ import annotations

import itertools

import pytest

from bench import tournament
from engine import Rules, State
from engine.bots import BUDGETS, Budget, MonteCarloBot, NoviceBot
from engine.bots.arena import play_game
from engine.players import Player, RandomPlayer
from engine.rules import Mode, ThrowIn

# Every action moves a card or closes a bout, so a game of bots is short; this
# bound is far above any game seen and far below an endless loop.
MAX_GAME_ACTIONS = 1200
TINY = Budget(worlds=2, seconds=None)


def all_rules() -> list[Rules]:
    out = []
    for players, deck, mode, throw_in, teams, cap5 in itertools.product(
        range(2, 7),
        (24, 36, 52),
        ("podkidnoy", "perevodnoy"),
        ("all", "neighbors"),
        (False, True),
        (True, False),
    ):
        try:
            out.append(
                Rules(
                    players=players,
                    deck=deck,
                    mode=Mode(mode),
                    throw_in=ThrowIn(throw_in),
                    teams=teams,
                    first_bout_cap_5=cap5,
                )
            )
        except ValueError:
            continue
    return out


OPTIONS: tuple[dict[str, object], ...] = (
    {"single_card_opening": True, "first_bout_cap_5": False, "no_trump_opener": "random"},
    {"first_bout_no_transfer": True},
    {"no_throw_in_after_take": True},
    {"simple": True},
    {"fixed_trump": "diamonds", "spades_by_spades": True},
    {"no_trump": True},
    {"ace_does_not_hold_stock": True, "redeal_five_of_suit": True, "last_cards_evenly": True},
    {"cheating": True, "pogony": True},
    {"throw_in_order": "circle", "series_opener": "under_fool"},
    {"throw_in_order": "attacker_first"},
)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "+".join(o))
def test_bots_finish_games_under_every_optional_rule(options: dict[str, object]) -> None:
    tables = (
        {"players": 2, "deck": 36},
        {"players": 3, "deck": 24, "mode": "perevodnoy"},
        {"players": 4, "deck": 36, "mode": "perevodnoy", "teams": True},
        {"players": 6, "deck": 52, "throw_in": "neighbors"},
    )
    for i, table in enumerate(tables):
        rules = Rules(**table, **options)  # type: ignore[arg-type]  # fields by name
        for seed in range(2):
            players: list[Player] = [
                MonteCarloBot("m", TINY, seed) if s == seed else NoviceBot()
                for s in range(rules.players)
            ]
            outcome = play_game(State(rules, 10 * i + seed), players, max_actions=MAX_GAME_ACTIONS)
            assert outcome.draw or outcome.fools


def test_every_all_bot_game_ends_within_a_bounded_number_of_actions() -> None:
    games = 0
    for i, rules in enumerate(all_rules()):
        for seed in range(3):
            players: list[Player] = [
                NoviceBot() if (s + seed) % 3 else RandomPlayer(seed * 7 + s)
                for s in range(rules.players)
            ]
            state = State(rules, 1000 * i + seed)
            outcome = play_game(state, players, max_actions=MAX_GAME_ACTIONS)
            assert outcome.draw or outcome.fools
            games += 1
    assert games >= 300


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2, deck=24, mode=Mode.PEREVODNOY),
        Rules(players=4, deck=36, teams=True, mode=Mode.PEREVODNOY),
        Rules(players=6, deck=52, throw_in=ThrowIn.NEIGHBORS, teams=True),
        Rules(players=5, deck=36),
    ],
    ids=str,
)
def test_games_of_monte_carlo_bots_end(rules: Rules) -> None:
    players: list[Player] = [
        MonteCarloBot("Мастер", TINY, seed=s) if s % 2 else NoviceBot()
        for s in range(rules.players)
    ]
    state = State(rules, 5)
    play_game(state, players, max_actions=MAX_GAME_ACTIONS)
    assert state.is_over


def test_master_beats_a_random_player() -> None:
    rules = Rules(players=2, deck=36)
    fools = {"master": 0, "random": 0}
    for seed in range(12):
        for swap in (False, True):
            master = MonteCarloBot("Мастер", Budget(worlds=3, seconds=None), seed=seed)
            seats: list[Player] = [master, RandomPlayer(seed)]
            if swap:
                seats.reverse()
            outcome = play_game(State(rules, seed), seats)
            fools["master"] += int(swap) in outcome.fools
            fools["random"] += int(not swap) in outcome.fools
    assert fools["master"] <= 4 < fools["random"]


def test_the_tournament_prints_rates_intervals_and_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--lineup", "expert,random", "--deals", "2", "--worlds", "2", "--seconds", "1"]
    assert tournament.main(argv) == 0
    out = capsys.readouterr().out
    for text in ("2 deals, 4 games", "expert", "random", "fool", "draw", "p95", "max", "["):
        assert text in out


def test_the_tournament_command_line_sets_the_budgets_fields(
    capsys: pytest.CaptureFixture[str],
) -> None:
    limits = tournament.Limits(actions=500, draw=1.0, lacks=1.0)
    budget = limits.budget("expert")
    assert (budget.actions, budget.draw, budget.lacks) == (500, 1.0, 1.0)
    assert budget.worlds == BUDGETS["expert"].worlds
    assert str(limits) == "actions=500, draw=1.0, lacks=1.0"
    argv = ["--lineup", "expert,random", "--deals", "1", "--worlds", "2", "--lacks", "1"]
    assert tournament.main(argv) == 0
    assert "budgets: worlds=2, lacks=1.0" in capsys.readouterr().out
    assert tournament.Limits(mix=("lowest",)).budget("master").mix == ("lowest",)
    assert tournament.Limits().budget("master").mix == BUDGETS["master"].mix
    argv = ["--lineup", "master,random", "--deals", "1", "--actions", "300", "--mix", ""]
    assert tournament.main(argv) == 0
    assert "budgets: actions=300, mix=()" in capsys.readouterr().out


def test_the_tournament_reports_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--lineup", "novice,random", "--deals", "3", "--progress", "1", "--jobs", "2"]
    assert tournament.main(argv) == 0
    captured = capsys.readouterr()
    assert "1 deals, 2 games" in captured.err and "2 deals, 4 games" in captured.err
    assert "3 deals, 6 games" not in captured.err and "3 deals, 6 games" in captured.out


def test_wilson_interval_brackets_the_rate() -> None:
    lo, hi = tournament.wilson(30, 100)
    assert lo < 0.3 < hi and lo > 0.2 and hi < 0.4
    assert tournament.wilson(0, 0) == (0.0, 1.0)
