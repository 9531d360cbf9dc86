"""What one step writes: the game's new state and the actions that made it, in the
caller's transaction, only if the game is still at the version the step started from.

That compare-and-set is what serializes a game's moves across bot processes: the
per-game ``asyncio.Lock`` orders the steps of one process, the database those of
all. A step that finds the game moved on raises ``Behind``; its transaction rolls
back and the service reloads the game (``GameService.catch_up``).
"""

from __future__ import annotations

from engine import Action, State
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


async def write_step(
    c: Tx,
    game_id: int,
    live: LiveGame,
    state: State,
    done: list[tuple[Action, bool]],
    now: float,
    *,
    timeout: bool = False,
) -> tuple[float | None, str | None]:
    """Store ``state``, reached from the cached one by ``done``; returns its deadline.
    The game's row is changed first: that takes its lock, and checks its version.
    ``timeout``: the steps of a passed deadline, which this process must claim first
    (raises ``Unclaimed``): each deadline fires once, in one of the processes."""
    version = len(state.history)
    if timeout and not await GameRepo.claim_due(c, game_id, version - len(done), now):
        raise Unclaimed(game_id)
    deadline, kind = deadline_of(state, now)
    outcome = state.outcome
    if not await GameRepo.save_state(
        c,
        game_id,
        version=version,
        snapshot=state.to_dict(),
        deadline=deadline,
        deadline_for=kind,
        outcome=None if outcome is None else outcome.to_dict(),
        expect_version=version - len(done),
    ):
        raise Behind(game_id)
    for seq, (action, auto) in enumerate(done, version - len(done) + 1):
        await GameRepo.append_action(c, game_id, seq, action.seat, action.text, auto, now)
    await GameRepo.changed(c, game_id, version, live.chat_id)
    if outcome is not None:
        pogony = pogony_pairs(outcome, state.pogony_awards)
        await record_game(c, live.chat_id, live.seats, outcome, state.rules.teams, pogony)
        series = series_after(await TableRepo.series_in(c, live.table_id), live.seats, outcome)
        if not await TableRepo.update(
            c,
            live.table_id,
            status=TableStatus.LOBBY,
            series=series,
            expect_status=TableStatus.PLAYING,
        ):
            raise Behind(game_id)  # the table was closed meanwhile
    return deadline, kind
