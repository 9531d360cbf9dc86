"""Shared set-up for the game service tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine import Action, Rules, State
from engine.players import GreedyPlayer
from service import Clock, FakeClock, GameService, Listener, LiveGames, Seat, Update
from service.autoplay import forced_word
from storage.connect import open_database
from storage.repos import ChatRepo, TableRepo, TableSettings, UserRepo
from tests.backends import db_target

CHAT = -1001


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
