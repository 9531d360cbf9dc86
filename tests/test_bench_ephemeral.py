"""The benchmark of hands in the group runs and prints its figures (no timing asserted)."""

from __future__ import annotations

import pytest

from bench import ephemeral_load


def test_ephemeral_load_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert ephemeral_load.main(["--tables", "1", "--seconds", "3", "--think", "0.05", "0.1"]) == 0
    out = capsys.readouterr().out
    for figure in (
        "everyone from the private chat",
        "half from the group",
        "a move",
        "editEphemeralMessageText",
        "press -> answer, group hand",
        "«Мои карты» -> answer",
        "a minute per group",
    ):
        assert figure in out, figure
