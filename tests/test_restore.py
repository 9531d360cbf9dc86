"""Restoring at start, each game on its own: a bad snapshot is rebuilt from the log,
a game that cannot be rebuilt ends alone, and the others start normally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Rules, SnapshotError, State
from service import GameService
from storage.records import TableStatus
from storage.repos import GameRepo, TableRepo
from tests.e2e_helpers import latest, open_table, running_bot, seat_everyone, settle
from tests.fakes import FakeTelegram
from tests.service_helpers import held, humans, new_table, open_service, play_moves

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

RULES = Rules(players=2, deck=36)


async def three_games(path: Path) -> tuple[GameService, list[int]]:
    service = await open_service(path)
    games = []
    for chat, seed in ((-1001, 4), (-1002, 5), (-1003, 6)):
        table = await new_table(service, 2, chat)
        game = (await service.create_game(table, RULES, humans(2), seed)).game_id
        await play_moves(service, game, 10)
        games.append(game)
    return service, games


async def damage(service: GameService, sql: str, *args: object) -> None:
    async with service.db.tx() as c:
        await c.execute(sql, args)


def test_a_snapshot_without_its_seed_raises_a_snapshot_error_saying_so() -> None:
    data = State(RULES, 3).to_dict()
    del data["seed"]
    with pytest.raises(SnapshotError, match="'seed'"):
        State.from_dict(data)
    with pytest.raises(SnapshotError, match="format"):
        State.from_dict({"format": 999})


async def test_each_game_is_restored_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    first, (lost_seed, stale, hopeless) = await three_games(path)
    before = {g: held(first, g).state for g in (lost_seed, stale, hopeless)}
    record = await GameRepo(first.db).get(lost_seed)
    assert record is not None
    snapshot = dict(record.snapshot)
    del snapshot["seed"]
    await damage(
        first, "UPDATE games SET snapshot = ? WHERE id = ?", json.dumps(snapshot), lost_seed
    )
    old = State(RULES, 5).to_dict()  # a snapshot of the deal, before the ten moves
    await damage(first, "UPDATE games SET snapshot = ? WHERE id = ?", json.dumps(old), stale)
    await damage(first, "UPDATE games SET snapshot = '{not json' WHERE id = ?", hopeless)
    await first.db.close()

    second = await open_service(path)
    assert await second.restore() == 2
    assert held(second, lost_seed).state == before[lost_seed]  # rebuilt from the log
    assert held(second, stale).state == before[stale]
    assert hopeless not in second.game_ids()
    assert [(b.game_id, b.user_ids) for b in second.broken] == [(hopeless, ())]
    record = await GameRepo(second.db).get(lost_seed)
    assert record is not None and State.from_dict(record.snapshot) == before[lost_seed]
    gone = await second.db.fetch_one("SELECT status FROM games WHERE id = ?", (hopeless,))
    assert gone is not None and gone[0] == "over"
    table = await TableRepo(second.db).open_in_chat(-1003)
    assert table is not None and table.status == "lobby"  # a new game can start there
    await play_moves(second, stale, 1000)  # the others play on
    assert held(second, stale).state.is_over
    await second.db.close()


async def test_a_game_whose_log_cannot_be_replayed_ends_and_its_players_are_told(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    vika, gleb = tg.add_user(3, "Вика"), tg.add_user(4, "Глеб")
    broken = tg.add_group(-100, "Друзья", members=[anna, boris])
    fine = tg.add_group(-200, "Соседи", members=[vika, gleb])
    for user in (anna, boris, vika, gleb):
        tg.start_private(user)
    async with running_bot(tg, path) as app:
        for group, users, table in ((broken, [anna, boris], 1), (fine, [vika, gleb], 2)):
            await open_table(tg, app, group, users[0])
            await seat_everyone(tg, app, group, users, table=table)
        games = {held(app.service, g).table_id: g for g in app.service.game_ids()}
        await damage(app.service, "UPDATE games SET snapshot = '{}' WHERE id = ?", games[1])
        await damage(
            app.service,
            "INSERT INTO actions (game_id, seq, seat, action, auto, at)"
            " VALUES (?, 1, 0, 'zz', 0, 0)",
            games[1],
        )
        await settle(app)
    async with running_bot(tg, path) as app:
        await settle(app)
        assert games[1] not in app.service.game_ids() and games[2] in app.service.game_ids()
        said = "Партию не удалось восстановить"
        assert said in (latest(tg, broken).text or "")
        for user in (anna, boris):
            assert said in (latest(tg, tg.private(user)).text or "")
        assert all(said not in (m.text or "") for m in tg.messages(fine))
        record = await app.tables.get(1)
        assert record.status == TableStatus.LOBBY
