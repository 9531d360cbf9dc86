"""End to end, the hand in the group itself: «🃏 Мои карты» on the table message shows it
as an ephemeral message only its player sees (Bot API 10.2), played from, edited, and
gone when the game ends; pushed at the turn by a bot that administers the group; the
private hand and its deep link where Telegram refuses one."""

from __future__ import annotations

from pathlib import Path

from bench.playing import ephemeral_hand
from bot.app import App
from bot.callbacks import CardsCb, LobbyCb, LobbyOp
from tests.e2e_helpers import (
    choose,
    game_over,
    hand_message,
    latest,
    open_table,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeChat, FakeEphemeral, FakeMessage, FakeTelegram, FakeUser
from tests.service_helpers import held

CARDS = CardsCb(game=1).pack()


def friends(tg: FakeTelegram, *, admin: bool = False) -> tuple[FakeUser, FakeUser, FakeChat]:
    """Аня (started the bot) and Борис in «Друзья»; Борис will play from the group."""
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris], bot_admin=admin)
    tg.start_private(anna)
    tg.start_private(boris)
    return anna, boris, group


async def seated_then_blocked(tg: FakeTelegram, app: App, group: FakeChat) -> FakeMessage:
    """Both sit down; Борис blocks the bot before the game: only the group can show him
    his cards. Returns the table message."""
    anna, boris = tg.users[1], tg.users[2]
    await open_table(tg, app, group, anna)
    lobby = latest(tg, group)
    assert lobby is not None
    assert (await (await tg.press(boris, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))).text
    await settle(app)
    tg.block(boris)
    await tg.wait_quiet()
    await seat_everyone(tg, app, group, [anna])
    table = latest(tg, group)
    assert table is not None and "Козырь" in (table.text or "")
    return table


async def my_cards(tg: FakeTelegram, app: App, user: FakeUser, table: FakeMessage) -> str | None:
    answer = await (await tg.press(user, table, CARDS))
    await settle(app)
    return answer.text


def hand_of(tg: FakeTelegram, user: FakeUser, group: FakeChat) -> FakeMessage | None:
    """The hand the user plays from: the one in the group if they see one."""
    return ephemeral_hand(tg, user, group) or hand_message(tg, user)


async def play_on(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser], rounds: int = 400
) -> None:
    """Each plays from their hand (Борис from the group's), to the end."""
    for _ in range(rounds):
        pressed = False
        for user in users:
            message = hand_of(tg, user, group)
            data = choose(tg, message) if message else None
            if message is None or data is None:
                continue
            assert (await (await tg.press(user, message, data))) is not None
            pressed = True
            await settle(app)
        if game_over(tg, group) or not pressed:
            break


async def test_a_player_plays_a_whole_game_from_the_group_unseen_by_the_other(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, group = friends(tg)
    vika = tg.add_user(3, "Вика")
    group.members[vika.id] = "member"
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        table = await seated_then_blocked(tg, app, group)
        assert [t for row in table.keyboard for t, _ in row] == ["🃏 Мои карты"]
        assert hand_message(tg, boris) is None and tg.ephemerals(group) == []
        assert await my_cards(tg, app, vika, table) == (
            "Карты видят только игроки этой партии, а вы в ней не играете."
        )
        assert await my_cards(tg, app, boris, table) == (
            "Ваши карты — внизу чата, их видите только вы."
        )
        (hand,) = tg.ephemerals(group, boris)
        assert "Козырь" in (hand.text or "") and hand.keyboard
        assert tg.ephemerals(group, anna) == [] and tg.ephemerals(group, vika) == []
        assert not any(isinstance(m, FakeEphemeral) for m in tg.seen_by(anna, group))
        await play_on(tg, app, group, [anna, boris])
        assert game_over(tg, group)
        await settle(app)
        assert tg.ephemerals(group) == []  # his hand went with the game
        assert tg.count("editEphemeralMessageText") > 0  # edited as the game went on
        pushed = [c for c in tg.calls_to("sendMessage", group) if "ephemeral" in str(c.params)]
        assert len(pushed) == 1  # only at his press: the bot administers nothing here
        hands = [c for c in tg.calls_to("sendMessage", boris) if "Козырь" in c.params["text"]]
        assert hands == []  # no private hand: he blocked the bot
        assert not table.keyboard  # no «Мои карты» on a finished game's table
    assert tg.unanswered_callbacks() == []


async def test_a_hand_that_disappeared_comes_back_with_my_cards(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        table = await seated_then_blocked(tg, app, group)
        await my_cards(tg, app, boris, table)
        (first,) = tg.ephemerals(group, boris)
        tg.vanish(first)  # Telegram dropped it (the app restarted, say)
        assert ephemeral_hand(tg, boris, group) is None
        await my_cards(tg, app, boris, table)
        (second,) = tg.ephemerals(group, boris)
        assert second is not first and first.deleted  # the lost one is deleted too
        tg.expire(second)  # gone for the server as well: the next edit fails
        await play_on(tg, app, group, [anna], rounds=1)
        await my_cards(tg, app, boris, table)
        (third,) = tg.ephemerals(group, boris)
        assert third.ephemeral_id > second.ephemeral_id and "Козырь" in (third.text or "")
        tg.lose_ephemeral()  # sent but never shown: pressing again is the way
        await my_cards(tg, app, boris, table)
        assert tg.ephemerals(group, boris) == []
        await my_cards(tg, app, boris, table)
        assert len(tg.ephemerals(group, boris)) == 1


async def test_an_administrator_bot_pushes_the_hand_at_the_turn(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = friends(tg, admin=True)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        lobby = latest(tg, group)
        assert lobby is not None and "к вашему ходу бот покажет их" in (lobby.text or "")
        table = await seated_then_blocked(tg, app, group)
        assert ephemeral_hand(tg, boris, group) is not None  # nobody pressed anything
        live = held(app.service, 1)
        assert live is not None
        seat = next(i for i, s in enumerate(live.seats) if s.user_id == boris.id)
        sends = 0
        for _ in range(40):  # until the turn comes to him from Аня's side
            turn = live.state.turn()
            if turn is not None and seat not in turn.seats:
                sends = tg.count("sendMessage", group)
                await play_on(tg, app, group, [anna], rounds=1)
                turn = live.state.turn()
                if turn is not None and seat in turn.seats:
                    break
            else:
                await play_on(tg, app, group, [boris], rounds=1)
        assert tg.count("sendMessage", group) > sends  # a new hand at his turn
        assert len(tg.ephemerals(group, boris)) == 1  # the older one deleted
        assert [t for row in table.keyboard for t, _ in row] == ["🃏 Мои карты"]


async def test_a_non_administrator_bot_pushes_nothing_and_says_how_to_get_it(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, group = friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        lobby = latest(tg, group).text or ""  # short: the owner's part is in /help
        assert lobby.endswith("🃏 Карты — по кнопке «Мои карты» на столе (см. /help).")
        await seated_then_blocked(tg, app, group)
        await play_on(tg, app, group, [anna], rounds=3)
        assert tg.ephemerals(group, boris, seen=False) == []
        assert not any("ephemeral" in str(c.params) for c in tg.calls_to("sendMessage"))
        await tg.send_text(anna, group, "/help")
        told = await tg.wait_for_message(group, lambda m: "Что я умею" in (m.text or ""))
        assert "Сделайте меня администратором группы — и я сам" in (told.text or "")


async def test_a_refused_ephemeral_hand_falls_back_to_the_private_chat(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = friends(tg)
    tg.ephemeral_api = False  # a Bot API server older than 10.2
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        assert "Карты придут в личный чат с ботом." in (latest(tg, group).text or "")
        table = await seated_then_blocked(tg, app, group)
        answer = await (await tg.press(anna, table, CARDS))
        assert answer.show_alert and answer.text == (
            "Telegram не показал карты здесь. Они у вас в личном чате с ботом — ходите оттуда."
        )
        assert not (await (await tg.press(anna, table, CARDS))).show_alert  # said once
        answer = await (await tg.press(boris, table, CARDS))
        assert answer.show_alert and "Нажмите «Мои карты» ещё раз" in (answer.text or "")
        answer = await (await tg.press(boris, table, CARDS))
        assert answer.url == f"https://t.me/{tg.bot_user.username}?start=cards"
        tg.start_private(boris, "cards")  # the link: his private hand comes
        await settle(app)
        await tg.wait_for(lambda: hand_message(tg, boris), what="Борис's private hand")
        private = hand_message(tg, boris)
        assert private is not None and "Козырь" in (private.text or "")
        assert [m for m in tg.messages(group) if "Козырь" in (m.text or "")] == [table]
        await play_on(tg, app, group, [anna, boris])
        assert game_over(tg, group)


async def test_a_hand_an_older_server_posted_for_everyone_is_deleted_at_once(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    _, boris, group = friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        table = await seated_then_blocked(tg, app, group)
        assert app.group_hands.supported  # (the lobby asked: it said yes)
        tg.ephemeral_api = False
        answer = await (await tg.press(boris, table, CARDS))
        await settle(app)
        assert answer.show_alert
        leaked = [
            m for m in tg.messages(group, include_deleted=True) if m.message_id > table.message_id
        ]
        assert leaked and all(m.deleted for m in leaked)
        assert app.group_hands.supported is False


async def test_a_player_refused_an_ephemeral_hand_keeps_the_private_one(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = friends(tg)
    tg.refuse_ephemeral(anna)  # Telegram answers 400 for her
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        table = await seated_then_blocked(tg, app, group)
        answer = await (await tg.press(anna, table, CARDS))
        assert answer.show_alert and "Они у вас в личном чате" in (answer.text or "")
        assert await my_cards(tg, app, boris, table) == (
            "Ваши карты — внизу чата, их видите только вы."
        )
        await play_on(tg, app, group, [anna, boris])
        assert game_over(tg, group)


async def test_stop_takes_the_hands_in_the_group_away(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        table = await seated_then_blocked(tg, app, group)
        await my_cards(tg, app, boris, table)
        assert len(tg.ephemerals(group, boris)) == 1
        await tg.send_text(anna, group, "/stop")
        await tg.wait_for(lambda: not tg.ephemerals(group), what="the hand to go")
        await tg.wait_for(lambda: not table.keyboard, what="the table's buttons to go")


def newcomer(tg: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    """Аня, who started the bot, and Глеб, who never opened its private chat."""
    anna, gleb = tg.add_user(1, "Аня"), tg.add_user(4, "Глеб")
    group = tg.add_group(-100, "Друзья", members=[anna, gleb])
    tg.start_private(anna)
    return anna, gleb, group


async def test_one_who_never_started_the_bot_joins_and_plays_from_the_group(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, gleb, group = newcomer(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna])
        lobby = latest(tg, group)
        assert lobby is not None
        answer = await (await tg.press(gleb, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        await settle(app)
        assert answer.url is None  # no deep link: his seat and his cards are here
        assert answer.text == "Ваши карты — внизу чата, их видите только вы."
        (hand,) = tg.ephemerals(group, gleb)  # his join started the game
        assert "Козырь" in (hand.text or "") and hand.keyboard
        await play_on(tg, app, group, [anna, gleb])
        assert game_over(tg, group)
        assert tg.calls_to("sendMessage", gleb) == []  # nothing was ever sent privately
    assert tg.unanswered_callbacks() == []


async def test_one_who_never_started_the_bot_is_seated_and_told_where_the_cards_will_be(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, gleb, group = newcomer(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)  # Аня is not seated yet
        answer = await (await tg.press(gleb, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        await settle(app)
        assert answer.show_alert and "нажмите «🃏 Мои карты» на столе" in (answer.text or "")
        await seat_everyone(tg, app, group, [anna])  # her join starts the game
        table = latest(tg, group)
        assert table is not None and "Глеб" in (table.text or "")
        assert await my_cards(tg, app, gleb, table) == (
            "Ваши карты — внизу чата, их видите только вы."
        )


async def test_one_who_never_started_the_bot_gets_the_deep_link_where_the_group_cannot_show(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, gleb, group = newcomer(tg)
    tg.ephemeral_api = False  # a server older than 10.2
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        answer = await (await tg.press(gleb, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        await settle(app)
        assert answer.url is not None and "start=" in answer.url
        record = await app.tables.record(1)
        assert record is not None and record.seats == []  # not seated
