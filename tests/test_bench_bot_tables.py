"""The benchmark of tables with computer players runs and prints its figures (no
timing is asserted)."""

from __future__ import annotations

import pytest

from bench import bot_tables


def test_bot_tables_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--bot-tables", "1", "--people-tables", "2", "--seconds", "1.5"]
    argv += ["--think", "0.1", "0.3", "--pause", "0.05", "0.1", "--drain", "1", "--pairs", "2"]
    argv += ["--hold", "0.4"]  # the thinking held every other 0.4 s in the runs beside
    assert bot_tables.main(argv) == 0
    out = capsys.readouterr().out
    for figure in (
        "run 1: 1 tables of 1 person + 2 «Мастер» beside 2 tables of 2 people",
        "bot tables (1):",
        "people tables (2):",
        "press -> answer  p50",
        "press -> next person's keyboard current  p50",
        "computer decisions:",
        "time in a worker  p50",  # in one run at least
        "per second",
        "CPU: bot process",
        "worker processes",
        "games finished",
        "people tables' press -> answer, the computers held every other 0.4 s:",
        "    while the computers think  ",
        "    while they are held  ",
        "the host's steal time ",
        "run 2 (baseline): the 2 tables of 2 people alone",
        "targets: press -> answer p99 under 100 ms",
        "with the bot tables beside them / alone: p50 x",
        "run 3 (baseline): the 2 tables of 2 people alone",  # the second pair: alone first
        "run 4: 1 tables of 1 person + 2 «Мастер» beside 2 tables of 2 people",
        "over the 2 pairs: p50 x",
        "pairs in which the host stole under 1% of the time",  # "over the N ..." or "no ..."
        "(target ≈ 1); the host's steal time ",
        "run 5: people in the bots' seats: 1 tables of 3 people beside",
        "3-people (the bots' seats) tables (1):",
        "with the bot tables beside them / beside people in their seats: p50 x",
    ):
        assert figure in out
    # both kinds, the baseline, the baseline, both kinds, both kinds with people seated;
    # the bot tables' one person may not press in so short a run ("none")
    assert out.count("press -> answer  ") == 8
    assert out.count("press -> answer  p50") >= 6
    assert out.count("with the bot tables beside them / alone: p50 x") == 2
    assert out.count("the computers held every other") == 2  # not with people in their seats


@pytest.mark.parametrize("hold", ["0.1", "6"])
def test_a_hold_shorter_than_its_margin_or_near_the_workers_timeout_is_refused(
    hold: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        bot_tables.main(["--hold", hold])
    assert "--hold: more than 0.25 s and less than 5 s" in capsys.readouterr().err
