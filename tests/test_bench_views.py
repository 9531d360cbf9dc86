"""The benchmarks of a press's way through the bot and of the Mini App's pages run and
print their figures (on a tiny load: the figures themselves are read by hand)."""

from __future__ import annotations

import re

import pytest


def test_press_path_benchmark_traces_a_press(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import press_path

    press_path.main(["--presses", "1"])
    out = capsys.readouterr().out
    hops = re.search(r"press 1: (\d+) hops to answerCallbackQuery", out)
    assert hops and int(hops.group(1)) > 0
    assert "handler: card_button" in out  # the handler the card's press went to
    assert re.search(r"task update-\d+: \d+ entries into a layer", out)  # the press's own


def test_miniapp_push_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import miniapp_push

    miniapp_push.main(["--tables", "2", "--seconds", "3", "--think", "0.3"])
    out = capsys.readouterr().out
    for figure in ("2 tables, 4 pages", "page load", "a page shows the move  p50",
                   "bytes pushed per move", "per open page and move"):  # fmt: skip
        assert figure in out
