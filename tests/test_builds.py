"""The compiled and the pure-Python engine play the same games (engine.build)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.build import CORE, Sources

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = all(
    any((ROOT / "engine" / f"{m}{suffix}").is_file() for suffix in EXTENSION_SUFFIXES) for m in CORE
)


def run_module(args: list[str], *, pure: bool, timeout: float) -> str:
    """What ``python -m ARGS`` prints in a fresh interpreter, on the pure-Python build or
    on whichever the environment picks."""
    env = {k: v for k, v in os.environ.items() if k != "DURAK_PURE_PYTHON"}
    if pure:
        env["DURAK_PURE_PYTHON"] = "1"
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    ).stdout


def games(*, pure: bool) -> list[dict[str, Any]]:
    out = run_module(["tests.builds_games", "30"], pure=pure, timeout=300)
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.skipif(not INSTALLED, reason="the engine was not compiled at install time")
def test_both_builds_play_the_same_seeds_alike() -> None:
    compiled, pure = games(pure=False), games(pure=True)
    assert len(compiled) == len(pure) == 150
    assert {g.pop("compiled") for g in compiled} == {True}
    assert {g.pop("compiled") for g in pure} == {False}
    for a, b in zip(compiled, pure, strict=True):
        assert a["log"] == b["log"]
        assert a["end"] == b["end"]
        assert a == b  # snapshots, rebuilt views, events and refusals along the way
    assert sum(len(g["snapshots"]) for g in pure) > 100
    assert sum(len(g["refusals"]) for g in pure) > 100


def test_the_environment_selects_the_build() -> None:
    pure = os.environ.get("DURAK_PURE_PYTHON") == "1"
    assert (Sources in sys.meta_path) == pure
    assert (INSTALLED and not pure) == engine.COMPILED


def test_the_compiled_build_runs_every_core_module_compiled() -> None:
    modules = {m: importlib.import_module(f"engine.{m}") for m in (*CORE, "card")}
    compiled = {m for m, module in modules.items() if not str(module.__file__).endswith(".py")}
    assert compiled == (set(CORE) if engine.COMPILED else set())
    assert "cards" in CORE and "card" not in CORE  # the masks compiled, Card (an int) not
    assert modules["cards"].Card is modules["card"].Card
