"""The running games this process holds: one owner, ``LiveGames``.

The game service and its loaders (``restore``, ``follow``) change it through its verbs
(``hold``, ``let_go``); everyone else reads it (the presenter through ``Games``). Each
game is its state as last committed (here, or in another process and caught up since),
with when its current move runs out.
"""

from __future__ import annotations

from typing import Protocol

from .live import LiveGame


class Games(Protocol):
    """What the other layers may read of the running games."""

    def live(self, game_id: int) -> LiveGame | None: ...
    def deadline(self, game_id: int) -> float | None: ...
    def ids(self) -> list[int]: ...


class LiveGames:
    def __init__(self) -> None:
        self._games: dict[int, LiveGame] = {}

    # --- reads ----------------------------------------------------------------------

    def live(self, game_id: int) -> LiveGame | None:
        """A running (or just finished) game as last committed; read-only for callers."""
        return self._games.get(game_id)

    def deadline(self, game_id: int) -> float | None:
        """When the game's current move times out (epoch seconds), if it has a timer."""
        live = self._games.get(game_id)
        return None if live is None or live.state.is_over else live.deadline

    def ids(self) -> list[int]:
        """Every game held (running, or just finished)."""
        return list(self._games)

    def items(self) -> list[tuple[int, LiveGame]]:
        return list(self._games.items())

    def of_table(self, table_id: int) -> list[int]:
        """The table's games held (running or just finished)."""
        return [g for g, live in self._games.items() if live.table_id == table_id]

    def running(self, table_id: int) -> int | None:
        """The id of the table's running game, if one is being played."""
        for game_id, live in self._games.items():
            if live.table_id == table_id and not live.state.is_over:
                return game_id
        return None

    def __len__(self) -> int:
        return len(self._games)

    # --- changes (the game service's) -------------------------------------------------

    def hold(self, game_id: int, live: LiveGame) -> None:
        """Hold a game just started or loaded: one game per table, so the table's
        finished games leave memory (their rows stay)."""
        for old_id, old in list(self._games.items()):
            if old.table_id == live.table_id and old.state.is_over and old_id != game_id:
                del self._games[old_id]
        self._games[game_id] = live

    def let_go(self, game_id: int, live: LiveGame) -> bool:
        """Forget the game if ``live`` is still what is held of it."""
        if self._games.get(game_id) is not live:
            return False
        del self._games[game_id]
        return True

    def holds(self, game_id: int, live: LiveGame) -> bool:
        """Whether ``live`` is still what is held of the game (its table not closed)."""
        return self._games.get(game_id) is live

    def chat_moved(self, old: int, new: int) -> None:
        """A group became a supergroup: its games now belong to the new chat id."""
        for live in self._games.values():
            if live.chat_id == old:
                live.chat_id = new
