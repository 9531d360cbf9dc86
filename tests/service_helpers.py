"""Shared set-up for the game service tests (the part the benchmarks use as well is
:mod:`bench.service_setup`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import pytest

from bench.service_setup import CHAT, humans, new_table, next_move
from engine import Action, Rules, State
from service import Clock, FakeClock, GameService, Listener, LiveGames, Seat, Update
from service.autoplay import forced_word
from service.live import LiveGame
from service.tables import Person, TableError, Tables
from storage.connect import open_database
from storage.records import SeatKind
from storage.repos import UserRepo
from tests.backends import db_target

__all__ = [
    "ANNA",
    "BORIS",
    "CHAT",
    "VIKA",
    "held",
    "humans",
    "new_table",
    "next_move",
    "open_service",
    "open_tables",
    "play_moves",
    "refused",
    "say_forced_words",
    "start",
    "tables_over",
]


async def open_service(
    path: Path,
    clock: Clock | None = None,
    *,
    games: LiveGames | None = None,
    listener: Listener | None = None,
) -> GameService:
    """The service on the database ``path`` names (on the test's backend, see backends);
    ``games`` and ``listener`` as ``GameService`` takes them."""
    db = await open_database(await db_target(path))
    return GameService(db, games=games, clock=clock or FakeClock(), listener=listener)


class Holding(Protocol):
    def live(self, game_id: int) -> LiveGame | None: ...


def held(games: Holding, game_id: int) -> LiveGame:
    """The game ``game_id`` as last committed, which the test knows ``games`` holds."""
    live = games.live(game_id)
    assert live is not None, f"game {game_id} is not held"
    return live


async def start(service: GameService, rules: Rules, seed: int, seats: list[Seat]) -> Update:
    table_id = await new_table(service, sum(s.kind == SeatKind.HUMAN for s in seats))
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


async def play_moves(service: GameService, game_id: int, limit: int) -> int:
    """Play up to ``limit`` greedy moves through the service (waiting for the computer
    players' moves after each); returns how many."""
    for made in range(limit):
        await service.idle()
        live = service.live(game_id)
        if live is None or live.state.is_over:
            return made
        state = live.state
        seat, text = next_move(state)
        await service.act(game_id, Action.from_text(seat, text), len(state.history))
    await service.idle()
    return limit


class Heard:
    """A game service's listener that keeps what it is told (``GameService(listener=)``)."""

    def __init__(self, each: Callable[[Update], None] | None = None) -> None:
        self.updates: list[Update] = []
        self.moved_games: list[int] = []
        self._each = each

    async def news(self, update: Update) -> None:
        self.updates.append(update)
        if self._each is not None:
            self._each(update)

    def moved(self, game_id: int) -> None:
        self.moved_games.append(game_id)

    def timeouts(self) -> list[int]:
        """The versions at which the service committed a timeout."""
        return [u.version for u in self.updates if u.actions and all(auto for _, auto in u.actions)]


ANNA, BORIS, VIKA = Person(1, "Аня"), Person(2, "Борис"), Person(3, "Вика")


async def open_tables(path: Path, people: tuple[Person, ...] = (ANNA, BORIS, VIKA)) -> Tables:
    """The lobbies over the service on ``path``; ``people`` known, each with the private
    chat with the bot open."""
    return await tables_over(await open_service(path), people)


async def tables_over(service: GameService, people: tuple[Person, ...]) -> Tables:
    """The lobbies over ``service``; ``people`` as ``open_tables`` has them."""
    tables = Tables(service.db, service)
    for p in people:
        await tables.remember(p)
        async with service.db.tx() as c:
            await UserRepo.set_can_message(c, p.id, True)
    return tables


def refused(code: str) -> AbstractContextManager[Any]:
    """Expects the lobby to refuse with ``code``."""
    return pytest.raises(TableError, match=f"^{code}$")


async def until(check: Callable[[], object], what: str, seconds: float = 10.0) -> None:
    """Wait until ``check()`` is truthy; fails the test after ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while not check():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"not within {seconds} s: {what}") from None
