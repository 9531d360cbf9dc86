"""The speed benchmark runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import sys
import time
from pathlib import Path

import pytest

from bench import cores, engine_speed
from bench.holds import Holds, Window, compare
from bench.host import Steal
from tests.backends import PgDatabases


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


@pytest.mark.parametrize("how", ["long polling", "webhook"])
def test_bot_load_benchmark_runs_and_prints_its_figures(
    how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import bot_load

    webhook = ["--webhook"] if how == "webhook" else []
    assert bot_load.main(["--tables", "2", "--seconds", "1.5", "--think", "0.2", *webhook]) == 0
    out = capsys.readouterr().out
    answered = re.search(r"(\d+) presses answered", out)
    assert answered is not None and int(answered[1]) > 0, out  # the updates reached the bot
    for figure in (
        f"updates by {how}",
        "2 tables x 2 players",
        "press -> answer",
        "p99",
        "Telegram calls per action: group",
        "edits per action: group",
        "429 responses: 0",
        "ms per action), fake Telegram",
        "memory (bot RSS, about every",
        "less this benchmark's own records",
        "MB/min less the records",
    ):
        assert figure in out


def test_fleet_load_benchmark_shares_the_chats_among_its_processes(
    capsys: pytest.CaptureFixture[str], pg_databases: PgDatabases
) -> None:
    from bench import fleet_load

    args = ["--pg", pg_databases.url, "--processes", "2", "--tables", "4", "--seconds", "2"]
    assert fleet_load.main([*args, "--think", "0.2"]) == 0
    out = capsys.readouterr().out
    actions = re.search(r"(\d+) actions \(", out)
    assert actions is not None and int(actions[1]) > 0, out  # the people played
    shards = [int(n) for n in re.findall(r"process \d: +(\d+) shards", out)]
    assert sorted(shards) == [32, 32], out  # the shards shared out evenly
    for figure in (
        "2 processes:",
        "ms per action of the fleet",
        "CPU per action: the processes together",
        "PostgreSQL",
        "hand freshness",
        "429 responses: 0",
    ):
        assert figure in out


def test_bot_load_benchmark_traces_what_grows(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import bot_load

    args = ["--tables", "2", "--seconds", "1.5", "--think", "0.2", "--trace-memory"]
    assert bot_load.main([*args, "--trace-after", "0"]) == 0
    out = capsys.readouterr().out
    assert "memory trace:" in out and " KB " in out and "MB/min" in out, out
    assert "locales._remembered:" in out  # a cache's entries, of its most


def test_telegram_calls_benchmark_runs_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import telegram_calls

    assert telegram_calls.main(["--calls", "20", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for figure in (
        "form, aiogram models",
        "json, own keyboard",
        "µs of CPU per call",
        "x the last",
    ):
        assert figure in out


@pytest.mark.parametrize("where", [[], ["--group-only"]])
def test_sandbox_push_benchmark_runs_and_prints_its_figures(
    where: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import sandbox_push

    assert sandbox_push.main(["--moves", "2", "--pace", "0.3", *where]) == 0
    out = capsys.readouterr().out
    for figure in ("moves: 2", "the other page's new view: median", "the sandbox's push adds"):
        assert figure in out


# A stand-in with the interface bench.versus imports from a jorisperrenet/durak checkout
# (main.GameTree, players.Random): a game of a fixed number of random steps.
STAND_IN_MAIN = """
import random

class GameTree:
    def __init__(self, players, computer_shuffle, main_attacker, print_info=True):
        self.left = 20 + random.randrange(10)
        self.is_end_state = False

    def next(self):
        self.left -= 1
        self.is_end_state = self.left == 0
"""
STAND_IN_PLAYERS = """
class Random:
    def __init__(self, name):
        self.name = name
"""


def test_versus_benchmark_times_both_engines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import versus

    (tmp_path / "python_version").mkdir()
    (tmp_path / "python_version" / "main.py").write_text(STAND_IN_MAIN)
    (tmp_path / "python_version" / "players.py").write_text(STAND_IN_PLAYERS)
    assert versus.main(["--joris", str(tmp_path), "--games", "2", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for name, _playout, _rules in versus.OURS:
        assert name in out
    assert "jorisperrenet/durak" in out and "÷ theirs" in out
    assert f"the target of x{versus.TARGET_RATIO:.0f}" in out
    if "pure Python only" not in out:
        assert "pure" in out and "compiled" in out and out.count("(x") == 6


def test_versus_benchmark_needs_their_checkout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import versus

    assert versus.main(["--joris", str(tmp_path)]) == 2
    assert "git clone" in capsys.readouterr().err


def test_the_load_world_forgets_what_only_tests_read() -> None:
    from bench.load_world import WorldTelegram
    from telegram_emulator import Call, FakeMessage

    tg = WorldTelegram()
    user = tg.add_user(7, "Аня", started=True)
    group = tg.add_group(-5, "Стол", members=[user])
    message = FakeMessage(group, 1, user, text="сейчас", history=[("раньше", None)])
    group.all_messages.append(message)
    webhook = Call("setWebhook", {"max_connections": 40}, 0.0)
    tg.calls.extend([Call("getMe", {}, 0.0), webhook, Call("sendMessage", {}, 1.0)])
    tg.updates.append({"update_id": 1})
    tg.forget()
    assert tg.calls == [webhook] and tg.webhook_params()[1] == 40
    assert not tg.updates and not message.history and message.text == "сейчас"


def test_cores_benchmark_compares_the_other_core_idle_and_busy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = os.sched_getaffinity(0)
    cores.main(["--rounds", "1", "--steps", "1000", "--table-bits", "10"])
    assert os.sched_getaffinity(0) == before  # the tests after it keep both cores
    out = capsys.readouterr().out
    if "nothing to compare" in out:  # one core: said so
        return
    assert "lookups in 1,024 entries, 1,000 steps" in out
    for kind in cores.KINDS:
        assert re.search(rf"{kind} +median +[\d.]+ ms +max +[\d.]+ ms +x\d", out), kind
        assert re.search(rf"\n    {kind} +([\d.]+%|\?)\n", out), kind  # steal time, or ? if 0 ticks


def test_the_lookups_visit_every_entry_of_the_table() -> None:
    """A full-period generator: every entry is read, not a few that stay in a cache."""
    seen: set[int] = set()

    class Table(dict[int, list[int]]):
        def __getitem__(self, key: int) -> list[int]:
            seen.add(key)
            return super().__getitem__(key)

    cores.lookups(1 << 12, Table({key: [key] for key in range(1 << 12)}))
    assert len(seen) == 1 << 12


def _state(pid: int) -> str:
    """The process's state letter in /proc: T while it is stopped."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


async def test_the_holds_stop_the_workers_in_turns_and_let_them_go_at_the_end() -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import time; time.sleep(60)"
    )
    holds = Holds(lambda: [child.pid], 0.1, after=0.1)
    began = time.monotonic()
    holding = asyncio.create_task(holds.run())
    try:
        seen = []
        for _ in range(7):
            await asyncio.sleep(0.1)
            seen.append(_state(child.pid) == "T")
        assert True in seen and False in seen  # held, and thinking, in turns
        holding.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await holding
        assert _state(child.pid) != "T"  # let go in the end, whatever the turn
    finally:
        child.kill()
        await child.wait()
    kinds = [w.held for w in holds.windows]
    assert kinds[:4] == [False, True, False, True]
    assert holds.windows[0].start >= began + 0.1  # after the tables joined in
    assert all(a.end <= b.start for a, b in itertools.pairwise(holds.windows))


def test_the_holds_compare_the_presses_of_the_two_kinds_of_window() -> None:
    holds = Holds(list, 1.0)
    holds.windows = [
        Window(0.0, 1.0, False, Steal(1, 100)),
        Window(1.0, 2.0, True, Steal(3, 100)),
        Window(2.0, 3.0, False, Steal(1, 100)),
    ]
    thinking = [(0.5, 0.51), (2.5, 2.53), (0.6, 0.62)]
    held = [(1.5, 1.51), (1.7, 1.71)]
    # a window's first moments, an answer in the next window, after the last window
    left_out = [(0.1, 0.2), (1.1, 1.2), (1.95, 2.5), (3.5, 3.6)]
    out = compare(holds, thinking + held + left_out)
    assert (
        "while the computers think  p50     20 ms  p99     30 ms  max     30 ms  (3); steal 1.0%"
        in out
    )
    assert (
        "while they are held        p50     10 ms  p99     10 ms  max     10 ms  (2); steal 3.0%"
        in out
    )
    assert "thinking / held: p50 x2.00, p99 x3.00" in out
