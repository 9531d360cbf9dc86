"""The compiled and the pure-Python bots choose the same moves (engine.build.BOTS).

Run as ``python -m tests.test_bots_builds``, it prints the moves of the build the
environment selects, as JSON.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import replace
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import engine
from engine import Mode, Rules, State
from engine.bots import Budget, MonteCarloBot, NoviceBot
from engine.bots.heuristic import state_policy
from engine.build import BOTS
from tests.test_builds import run_module

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = all(
    any((ROOT / "engine" / "bots" / f"{m}{suffix}").is_file() for suffix in EXTENSION_SUFFIXES)
    for m in BOTS
)
BUDGET = Budget(worlds=24, actions=10_000, seconds=None, endgame=10_000)
TREES = (replace(BUDGET, search="tree"), replace(BUDGET, search="plan"))
RULES = (
    Rules(players=2, deck=36),
    Rules(players=4, deck=36, mode=Mode.PEREVODNOY),
    Rules(players=4, deck=36, teams=True),
)


def decisions() -> dict[str, object]:
    """Moves of small PIMC bots, flat and with both trees (clock off, endgame search
    on), on positions of heuristic games, every few moves, from the deal to the end;
    and whether the bots' modules run compiled."""
    moves = []
    for rules in RULES:
        for seed in range(3):
            state = State(rules, seed)
            while state.outcome is None:
                turn = state.turn()
                assert turn is not None
                seat = turn.seats[0]
                if len(state.history) % 6 == 0:
                    for budget in (BUDGET, *TREES):
                        bot = MonteCarloBot("Мастер", budget, seed=seed)
                        moves.append(str(bot.choose(state.view(seat))))
                    moves.append(str(NoviceBot().choose(state.view(seat))))
                action = state_policy(state, seat)
                assert action is not None
                state.play(action)
    modules = [importlib.import_module(f"engine.bots.{m}") for m in BOTS]
    return {
        "compiled": [not str(m.__file__).endswith(".py") for m in modules],
        "engine": engine.COMPILED,
        "moves": moves,
    }


def run(*, pure: bool) -> dict[str, object]:
    out = run_module(["tests.test_bots_builds"], pure=pure, timeout=600)
    result: dict[str, object] = json.loads(out)
    return result


@pytest.mark.skipif(not INSTALLED, reason="the bots were not compiled at install time")
def test_both_builds_choose_the_same_moves() -> None:
    compiled, pure = run(pure=False), run(pure=True)
    assert compiled.pop("compiled") == [True] * len(BOTS) and compiled.pop("engine") is True
    assert pure.pop("compiled") == [False] * len(BOTS) and pure.pop("engine") is False
    assert compiled == pure
    moves = pure["moves"]
    assert isinstance(moves, list) and len(moves) > 100


def test_the_players_classes_stay_python() -> None:
    from bench.club import ClubPlayer  # subclasses NoviceBot

    assert issubclass(ClubPlayer, NoviceBot)
    assert "novice" not in BOTS and "pimc" not in BOTS


if __name__ == "__main__":
    print(json.dumps(decisions()))
