"""Shared set-up for the game service tests."""

from __future__ import annotations

from pathlib import Path

from engine import Action, Rules, State
from engine.players import GreedyPlayer
from service import Clock, FakeClock, GameService, Seat, Update
from service.autoplay import forced_word
from storage.db import Database
from storage.repos import ChatRepo, TableRepo, TableSettings, UserRepo
from tests.backends import db_target

CHAT = -1001


async def open_service(path: Path, clock: Clock | None = None) -> GameService:
    """The service on the database ``path`` names (on the test's backend, see backends)."""
    db = await Database.open(await db_target(path))
    return GameService(db, clock=clock or FakeClock())


async def new_table(service: GameService, users: int = 2, chat: int = CHAT) -> int:
    async with service.db.tx() as c:
        await ChatRepo.upsert(c, chat, "Стол")
        for u in range(1, users + 1):
            await UserRepo.upsert(c, u, f"Игрок {u}")
        return await TableRepo.create(c, chat, 1, TableSettings(), [])


def humans(n: int) -> list[Seat]:
    return [Seat("human", f"Игрок {u}", user_id=u) for u in range(1, n + 1)]


async def start(service: GameService, rules: Rules, seed: int, seats: list[Seat]) -> Update:
    table_id = await new_table(service, sum(s.kind == "human" for s in seats))
    return await service.create_game(table_id, rules, seats, seed)


def say_forced_words(state: State) -> None:
    """Say for people what the service says for them: each forced «Бито»/«Пас»,
    in the order the service looks at the seats (see ``autoplay.forced_word``)."""
    while not state.is_over:
        turn = state.turn()
        waiting = turn.seats if turn else ()
        order = [*waiting, *(s for s in range(state.n) if s not in waiting)]
        word = next((w for s in order if (w := forced_word(state, s)) is not None), None)
        if word is None:
            return
        state.apply(word, auto=True)


def next_move(state: State) -> tuple[int, str]:
    """A deterministic, sensible move for whoever should move (a greedy player's)."""
    player = GreedyPlayer()
    turn = state.turn()
    assert turn is not None
    order = [*turn.seats, *range(state.n)]
    for seat in order:
        action = player.choose(state.view(seat))
        if action is not None:
            return seat, action.text
    raise AssertionError("nobody can move")


async def play_moves(service: GameService, game_id: int, limit: int) -> int:
    """Play up to ``limit`` greedy moves through the service (waiting for the computer
    players' moves after each); returns how many."""
    for made in range(limit):
        await service.idle()
        state = service.games[game_id].state
        if state.is_over:
            return made
        seat, text = next_move(state)
        await service.act(game_id, Action.from_text(seat, text), len(state.history))
    await service.idle()
    return limit
