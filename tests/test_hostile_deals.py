"""A deal cannot be computed from what a player sees: the seed has 128 random bits (no
search of all 2^32 seeds), is never logged, and still rebuilds the game from the log,
also after a restart."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine import Rules
from service import GameService
from storage.connect import open_database
from storage.repos import GameRepo
from tests.service_helpers import held, humans, new_table, open_service, play_moves


async def test_seeds_are_128_random_bits_never_logged_and_replay_the_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    service = await open_service(tmp_path / "d.sqlite3")
    try:
        await deal_and_check(service, tmp_path, caplog)
    finally:
        await service.db.close()


async def deal_and_check(
    service: GameService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # (aiosqlite's DEBUG lines show every SQL parameter)
    seeds, games = [], []
    for chat in range(1, 13):
        table_id = await new_table(service, chat=-chat)
        update = await service.create_game(table_id, Rules(players=2), humans(2))
        record = await GameRepo(service.db).get(update.game_id)
        assert record is not None
        seeds.append(record.seed)
        games.append(update.game_id)
    # before: secrets.randbits(32); 12 draws of 128 bits all below 2^100: p = 2^-336
    assert max(seed.bit_length() for seed in seeds) > 100
    assert len(set(seeds)) == len(seeds)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "game 1 started" in logged  # the game id is enough to find the row
    leaked = [seed for seed in seeds if str(seed) in logged or f"{seed:x}" in logged]
    assert not leaked, logged

    await play_moves(service, games[0], 12)
    state = held(service, games[0]).state
    assert (await service.rebuild_from_log(games[0])).to_dict() == state.to_dict()
    again = GameService(await open_database(tmp_path / "d.sqlite3"))  # as after a restart
    try:
        assert await again.restore() == len(games)
        assert held(again, games[0]).state.to_dict() == state.to_dict()
        rebuilt = await again.rebuild_from_log(games[0])
        assert rebuilt.to_dict() == state.to_dict()
    finally:
        await again.db.close()
