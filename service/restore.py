"""Loading the running games at start, each on its own: one bad row stops one game.

A snapshot that does not load, or does not match the game's action log, is
rebuilt from (rules, seed, log); a game that cannot be rebuilt either is
reported as broken, and the service ends it and reopens its table's lobby.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from engine import Rules, SnapshotError, State, replay
from storage.db import Database
from storage.repos import ActionRecord, GameRecord, GameRepo, TableRepo, TableStatus

from .live import LiveGame, bots_seed
from .logctx import log_scope
from .registry import LiveGames

Arm = Callable[[int, LiveGame, float | None], None]  # (game, live, deadline): its timer

log = logging.getLogger(__name__)


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


async def restore_games(db: Database, held: LiveGames, arm: Arm) -> list[Broken]:
    """Load every running game into ``held`` and re-arm its stored deadline (``arm``);
    returns the games that could not be loaded: each is ended, and its table goes back
    to the lobby (``GameService.restore``)."""
    broken = []
    for game_id, table_id in await GameRepo(db).running_ids():
        with log_scope(table=table_id, game=game_id):
            try:
                await _restore(db, held, arm, game_id, table_id)
            except Exception:
                log.exception("game %s cannot be restored: it ends here", game_id)
                try:
                    broken += await _give_up(db, game_id, table_id)
                except Exception:
                    log.exception("game %s could not even be ended", game_id)
    return broken


async def _restore(db: Database, held: LiveGames, arm: Arm, game_id: int, table_id: int) -> None:
    games = GameRepo(db)
    table = await TableRepo(db).get(table_id)
    if table is None or table.status is TableStatus.CLOSED:  # closed while it was being moved
        async with db.tx() as c:
            await GameRepo.abandon(c, game_id)
        return
    record = await games.get(game_id)
    assert record is not None
    state, problem = load(record, await games.actions(game_id))
    if problem is not None:
        log.warning("game %s: %s; rebuilt from its action log", game_id, problem)
        async with db.tx() as c:
            await GameRepo.save_state(
                c,
                game_id,
                version=len(state.history),
                snapshot=state.to_dict(),
                deadline=record.deadline,
                deadline_for=record.deadline_for,
            )
    live = LiveGame(state, record.table_id, table.chat_id, record.seats, bots_seed(record.seed))
    live.time_added = record.time_added
    held.hold(game_id, live)
    arm(game_id, live, record.deadline)


async def _give_up(db: Database, game_id: int, table_id: int) -> list[Broken]:
    """End a game that cannot be loaded: its table goes back to the lobby, and its
    players are returned to be told."""
    async with db.tx() as c:
        await GameRepo.abandon(c, game_id)
        await TableRepo.update(c, table_id, status=TableStatus.LOBBY)
    table = await TableRepo(db).get(table_id)
    if table is None:
        return []
    users = tuple(s.user_id for s in table.seats if s.user_id)
    return [Broken(game_id, table_id, table.chat_id, users)]
