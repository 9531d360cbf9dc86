"""End to end: only members of a table's group sit at it. The deep link names the table
by a random token, not by its id; a link passed on to a stranger, or used by someone who
left or was removed from the group, is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from service.tables import Person
from tests.e2e_helpers import open_table, running_bot, settle
from tests.fakes import FakeChat, FakeTelegram, FakeUser


async def seats(app: App) -> list[int | None]:
    table = await app.tables.get(1)
    return [s.user_id for s in table.seats]


async def start_with(tg: FakeTelegram, app: App, user: FakeUser, payload: str) -> str:
    """``user`` opens the bot with ``payload``; the bot's answer there."""
    chat = tg.private(user)
    mark = len(tg.messages(chat))
    tg.start_private(user, payload)
    answer = await tg.wait_for_message(chat, lambda m: m in tg.messages(chat)[mark:])
    await settle(app)
    return answer.text or ""


def friends(tg: FakeTelegram) -> tuple[list[FakeUser], FakeChat]:
    """Аня, Борис, Вика (who left) and Глеб (removed) of «Друзья», and Дима from outside."""
    names = ("Аня", "Борис", "Вика", "Глеб", "Дима")
    users = [tg.add_user(i, name) for i, name in enumerate(names, 1)]
    group = tg.add_group(-100, "Друзья", members=users[:4])
    group.members[3] = "left"
    group.members[4] = "kicked"
    return users, group


async def test_the_deep_link_needs_the_tables_token_and_a_member_of_its_group(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    tg.ephemeral_api = False  # the deep link (else a newcomer plays from the group)
    (anna, boris, vika, gleb, dima), group = friends(tg)
    tg.start_private(anna)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        answer = await (await tg.press(boris, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        assert answer.url is not None
        payload = answer.url.partition("?start=")[2]
        token = payload.removeprefix("join_")
        assert len(token) >= 22 and token != "1"  # 128 random bits, not the table id
        other, _ = await app.tables.open(-200, "Другая", Person(anna.id, "Аня"))
        assert other.join_token != token

        nowhere = "Эта ссылка никуда не ведёт: такого стола нет или его уже закрыли."
        for guess in ("join_1", "join_2", f"join_{token[:-1]}", f"join_{token}x"):
            assert (await start_with(tg, app, dima, guess)).startswith(nowhere)
        members_only = "За этот стол садятся только участники группы «Друзья»."
        for stranger in (dima, vika, gleb):  # outside, left, removed
            assert await start_with(tg, app, stranger, payload) == members_only
        assert await seats(app) == []  # before: each of them got a seat
        tg.inject_429(count=1, retry_after=30, methods=["getChatMember"])
        assert await start_with(tg, app, boris, payload) == (
            "Не получилось узнать у Telegram, состоите ли вы в группе."
            " Попробуйте ещё раз чуть позже."
        )
        assert await seats(app) == []
        assert (await start_with(tg, app, boris, payload)).startswith(
            "Вы за столом в группе «Друзья», место 1 из 2."
        )
        assert await seats(app) == [boris.id]
    assert tg.unanswered_callbacks() == [] and tg.internal_errors == []


async def test_a_lobby_button_counts_only_on_its_own_tables_message(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    (anna, boris, *_), group = friends(tg)
    elsewhere = tg.add_group(-200, "Другая", members=[boris, anna])
    for user in (anna, boris):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        their_lobby = await open_table(tg, app, elsewhere, boris)  # table 2
        # table 1's button, forged onto table 2's message in another group
        forged = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        answer = await (await tg.press(boris, their_lobby, forged, forge=True))
        assert answer.text == "Стола больше нет."
        assert await seats(app) == []
    assert tg.unanswered_callbacks() == [] and tg.internal_errors == []
