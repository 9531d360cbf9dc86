"""The engine's modules import one another without a cycle (not even for their types),
and a State is built in one place."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine import Rules, State
from engine.bout import FIRST_FREE, next_active, next_opponent
from engine.position import Position
from engine.rules import Mode

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports, for its types (under TYPE_CHECKING) too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_the_engine_core_has_no_import_cycle() -> None:
    graph = {p.stem: _imports(p) for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
    assert graph["view"] <= {"actions", "board", "bout", "cards", "events", "legal", "rules"}


def test_no_engine_module_imports_inside_a_function() -> None:
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom)]
                assert not inner, f"{path.name}: {node.name} imports at run time"


def test_a_position_rebuilds_the_same_state_and_shares_no_list() -> None:
    rules = Rules(players=4, deck=36, mode=Mode.PEREVODNOY, cheating=True, pogony=True)
    state = State(rules, seed=5)
    rng = random.Random(5)
    while state.outcome is None:
        copy = State(rules, state.seed, position=state.position())
        assert copy == state and copy.history == state.history
        copy.play(rng.choice(copy.all_legal_actions()))
        assert copy != state  # the move changed the copy only
        state.play(copy.history[-1])
    assert State(rules, 5, position=state.position()).outcome == state.outcome


def test_a_position_and_a_series_cannot_be_given_together() -> None:
    state = State(Rules(players=2), seed=1)
    with pytest.raises(ValueError, match="position carries its own"):
        State(state.rules, 1, last_fool=0, position=state.position())


def test_a_scripted_deal_is_a_position() -> None:
    state = State.scripted(Rules(players=2), [[20, 21], [30, 31]], trump_card=51, opener=1)
    assert isinstance(state.position(), Position)
    assert (state.attacker, state.defender, state.hands) == (1, 0, [3 << 20, 3 << 30])


def test_the_next_seat_table_scans_clockwise() -> None:
    # bout.FIRST_FREE replaces a scan at the end of every bout: it must give the same seat.
    for n in range(2, 7):
        for skip in range(1 << n):
            for seat in range(n):
                ring = [(seat + i) % n for i in range(n)]
                free = [s for s in ring if not skip >> s & 1]
                assert FIRST_FREE[n][skip][seat] == (free[0] if free else -1)
    state = State(Rules(players=4, teams=True), seed=3)
    state.out = 0b0100
    assert (next_active(state, 1), next_opponent(state, 1)) == (3, 0)  # 3 is a partner
    assert (next_active(state, 3), next_opponent(state, 3)) == (0, 0)
    state.out = 0b1010
    assert (next_active(state, 0), next_active(state, 2)) == (2, 0)
    with pytest.raises(RuntimeError, match="no opponent"):
        next_opponent(state, 0)
