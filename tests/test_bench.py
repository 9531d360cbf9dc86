"""The speed benchmark runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import pytest

from bench import engine_speed


def test_benchmark_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_speed.main(["--games", "2", "--repeat", "1", "--decisions", "1"]) == 0
    out = capsys.readouterr().out
    for name, _rules in engine_speed.CONFIGS:
        assert name in out
    for figure in ("simulation", "checked", "actions/s", "«Мастер»", "decision", "playouts"):
        assert figure in out
    assert "baseline" in out and "loops/s" in out
    assert f"x {engine_speed.TARGET_GAMES_PER_SECOND} games/s" in out
    if "pure Python only" not in out:  # both builds installed: side by side, with ratios
        assert "compiled ÷ pure" in out and out.count(" (x") >= 10


def test_benchmark_of_the_running_build_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        engine_speed.main(["--games", "2", "--repeat", "1", "--decisions", "1", "--build", "this"])
        == 0
    )
    out = capsys.readouterr().out
    assert "simulation" in out and "compiled ÷ pure" not in out


def test_both_playouts_play_the_same_game() -> None:
    rules = engine_speed.CONFIGS[0][1]
    steps = engine_speed.simulation_playout(rules, seed=1)
    assert steps > 0
    assert engine_speed.checked_playout(rules, seed=1) == steps


def test_service_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import service_speed

    assert service_speed.main(["--games", "3", "--think", "0.001"]) == 0
    out = capsys.readouterr().out
    for figure in ("p50", "p99", "moves per second", "KB per finished game", "x baseline"):
        assert figure in out


def test_bot_load_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import bot_load

    assert bot_load.main(["--tables", "2", "--seconds", "1.5", "--think", "0.2"]) == 0
    out = capsys.readouterr().out
    for figure in (
        "2 tables x 2 players",
        "press -> answer",
        "p99",
        "Telegram calls per action: group",
        "edits per action: group",
        "429 responses: 0",
    ):
        assert figure in out
