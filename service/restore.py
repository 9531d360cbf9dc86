"""Loading the running games at start, each on its own: one bad row stops one game.

A snapshot that does not load, or does not match the game's action log, is
rebuilt from (rules, seed, log); a game that cannot be rebuilt either is
reported as broken, and the service ends it and reopens its table's lobby.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Rules, SnapshotError, State, replay
from storage.repos import ActionRecord, GameRecord


@dataclass(frozen=True)
class Broken:
    """A game that could not be restored: whom to tell."""

    game_id: int
    table_id: int
    chat_id: int
    user_ids: tuple[int, ...]


def rebuild(record: GameRecord, log: list[ActionRecord]) -> State:
    """The game from (rules, seed, action log) alone."""
    entries = [(f"{a.seat} {a.action}", a.auto) for a in log]
    return replay(
        Rules.from_dict(record.rules),
        record.seed,
        entries,
        last_fool=record.last_fool,
        pogony_ranks=record.pogony_ranks,
    )


def snapshot_of(record: GameRecord) -> State | None:
    """The game's snapshot when it loads and is at the record's version (another
    process's newest step: the log is not read), else None."""
    try:
        state = State.from_dict(record.snapshot)
    except SnapshotError:
        return None
    return state if len(state.history) == record.version else None


def load(record: GameRecord, log: list[ActionRecord]) -> tuple[State, str | None]:
    """The game's state, and what was wrong with its snapshot (None: nothing).
    Raises whatever the rebuild raises when the log cannot be replayed either."""
    try:
        state = State.from_dict(record.snapshot)
        logged = [f"{a.seat} {a.action}" for a in log]
        if [str(a) for a in state.history] == logged and len(logged) == record.version:
            return state, None
        problem = "the snapshot does not match the action log"
    except SnapshotError as e:
        problem = str(e)
    return rebuild(record, log), problem
