"""What one step writes: the game's new state and the actions that made it, in the
caller's transaction, only if the game is still at the version the step started from.

That compare-and-set is what serializes a game's moves across bot processes: the
per-game ``asyncio.Lock`` orders the steps of one process, the database those of
all. A step that finds the game moved on raises ``Behind``; its transaction rolls
back and the service reloads the game (``GameService.catch_up``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Action, Outcome, State
from storage.db import Tx
from storage.repos import GameRepo, TableRepo, TableStatus

from .live import LiveGame
from .rating import record_game
from .series import pogony_pairs, series_after


class Behind(Exception):
    """The game is no longer at the version the step started from: another process
    moved first (or ended the game)."""


class Unclaimed(Behind):
    """A timeout whose deadline is not due in the database, or that another process
    is firing (its row is locked)."""


def deadline_of(state: State, now: float) -> tuple[float | None, str | None]:
    """When the state's move times out, and whose kind of move it is (None: nobody's)."""
    turn = state.turn()
    if turn is None:
        return None, None
    rules = state.rules
    seconds = rules.throw_seconds if turn.kind == "throw" else rules.move_seconds
    return now + seconds, turn.kind


@dataclass(frozen=True)
class Step:
    """A step as the engine left it, read out before its transaction opens: the state's
    version and snapshot, its deadline, the actions that made it, the outcome."""

    version: int
    start: int  # the version it was made from
    snapshot: dict[str, Any]
    deadline: float | None
    kind: str | None  # whose kind of move the deadline is for
    actions: list[tuple[int, str, bool]]  # seat, text, made automatically
    outcome: Outcome | None
    teams: bool
    pogony: list[tuple[int, int]]  # (giver, fool) of every «погоны» given

    @classmethod
    def of(cls, state: State, done: list[tuple[Action, bool]], now: float) -> Step:
        version = len(state.history)
        deadline, kind = deadline_of(state, now)
        outcome = state.outcome
        return cls(
            version,
            version - len(done),
            state.to_dict(),
            deadline,
            kind,
            [(action.seat, action.text, auto) for action, auto in done],
            outcome,
            state.rules.teams,
            [] if outcome is None else pogony_pairs(outcome, state.pogony_awards),
        )


async def write_step(
    c: Tx, game_id: int, live: LiveGame, step: Step, now: float, *, timeout: bool = False
) -> None:
    """Store ``step``, made from the cached state. The game's row is changed first: that
    takes its lock, and checks its version. ``timeout``: the steps of a passed deadline,
    which this process must claim first (raises ``Unclaimed``): each deadline fires
    once, in one of the processes."""
    if timeout and not await GameRepo.claim_due(c, game_id, step.start, now):
        raise Unclaimed(game_id)
    outcome = step.outcome
    if not await GameRepo.save_state(
        c,
        game_id,
        version=step.version,
        snapshot=step.snapshot,
        deadline=step.deadline,
        deadline_for=step.kind,
        outcome=None if outcome is None else outcome.to_dict(),
        expect_version=step.start,
    ):
        raise Behind(game_id)
    for seq, (seat, text, auto) in enumerate(step.actions, step.start + 1):
        await GameRepo.append_action(c, game_id, seq, seat, text, auto, now)
    await GameRepo.changed(c, game_id, step.version, live.chat_id)
    if outcome is not None:
        await record_game(c, live.chat_id, live.seats, outcome, step.teams, step.pogony)
        series = series_after(await TableRepo.series_in(c, live.table_id), live.seats, outcome)
        if not await TableRepo.update(
            c,
            live.table_id,
            status=TableStatus.LOBBY,
            series=series,
            expect_status=TableStatus.PLAYING,
        ):
            raise Behind(game_id)  # the table was closed meanwhile
