"""The Mini App's live channel through the real bot and the emulator: a seated person
gets their own view and no other hand, a spectator the public table; every committed
step is pushed; a move from the page is made once, for its own seat only."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from engine import Card, State
from tests.e2e_helpers import (
    hand_message,
    open_table,
    play_round,
    seat_everyone,
    settle,
    three_friends,
)
from tests.fakes import FakeTelegram
from tests.miniapp_helpers import LINK, launch_of, miniapp_bot, page, two_playing
from tests.service_helpers import held


def cards_in(shown: dict[str, object]) -> set[str]:
    """Every card the pushed table names, wherever it is."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and _is_card(value):
            found.add(value)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    walk(shown)
    return found


def hidden_of(state: State, seat: int) -> set[str]:
    """The cards of the seat's hand that nobody else knows it holds."""
    public = state.view(None)
    return {str(c) for c in state.view(seat).hand if c not in public.known[seat]}


def _is_card(text: str) -> bool:
    try:
        return str(Card.parse(text)) == text
    except ValueError:
        return False


async def test_a_player_sees_their_own_hand_and_moves_from_the_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, boris, token = await two_playing(tg, app)
        live = held(app.service, 1)
        state = live.state
        people = {anna.id: anna, boris.id: boris}
        attacker = people[live.seats[state.attacker].user_id or 0]
        other = boris if attacker is anna else anna
        seat, other_seat = state.attacker, 1 - state.attacker
        async with page(base, launch_of(attacker, token), token) as mine:
            hello = await mine.next()
            assert hello["type"] == "hello" and hello["texts"]["stock"] == "Колода"
            shown = await mine.table()
            assert shown["seat"] == seat and shown["version"] == len(state.history)
            assert shown["hand"] and {Card.parse(c) for c in shown["hand"]} == set(
                state.view(seat).hand
            )
            assert not cards_in(shown) & hidden_of(state, other_seat)  # no card of the other hand
            assert [p["name"] for p in shown["players"]] == [s.name for s in live.seats]
            assert shown["players"][seat]["turn"] and shown["players"][seat]["role"] == "attack"
            assert shown["status"] == "Ваш ход — нажмите карту."

            opening = next(m for m in shown["moves"] if m["kind"] == "a")
            version = shown["version"]
            await mine.move(opening["text"], version, seat)
            moved = await mine.table(version + 1)
            assert moved["table"] == [[opening["cards"][0], None]]
            assert opening["cards"][0] not in moved["hand"]
            await settle(app)  # the keyboards went the usual way: the defender's hand shows it
            assert len(held(app.service, 1).state.history) == version + 1
            hand = hand_message(tg, other)
            assert hand is not None and "Отбивайтесь" in (hand.text or ""), hand

            await mine.move(opening["text"], version, seat)  # the same message again
            again = await mine.next("refused")
            assert again["reason"] == "refused.stale" and "ушла вперёд" in again["text"]
            assert len(held(app.service, 1).state.history) == version + 1  # made once

            before = held(app.service, 1).state.view(other_seat)
            beat = next(a for a in before.legal if a.kind in ("d", "take"))
            await mine.move(beat.text, version + 1, other_seat)  # the defender's move
            refused = await mine.next("refused")
            assert refused["reason"] == "refused.not_your_seat"
            assert len(held(app.service, 1).state.history) == version + 1

            await mine.send({"type": "move", "text": "a 7Z", "version": version + 1})
            assert (await mine.next("refused"))["reason"] == "refused.bad_request"

            assert await play_round(tg, app, [other])  # a press on the keyboard...
            pushed = await mine.table(version + 2)  # ...reaches the page
            assert pushed["table"][0][0] == opening["cards"][0]
            assert not cards_in(pushed) & hidden_of(held(app.service, 1).state, other_seat)


async def test_the_table_message_opens_the_page_on_its_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Beside «🃏 Мои карты», the Mini App's direct link with the table's join token
    (what the page's launch then carries)."""
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, _):
        _, _, token = await two_playing(tg, app)
        await settle(app)
        table = next(m for m in tg.messages(-100) if "Козырь" in (m.text or ""))
        assert table.reply_markup is not None
        (row,) = table.reply_markup["inline_keyboard"]
        assert [b["text"] for b in row] == ["🃏 Мои карты", "🎴 Открыть стол"]
        assert row[1]["url"] == f"{LINK}?startapp={token}"


async def test_a_person_not_seated_at_the_table_is_refused(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The table's link travels with a forwarded table message: someone not seated at
    the table (here not even in the group) sees nothing of it."""
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        _, _, token = await two_playing(tg, app)
        vika = tg.add_user(3, "Вика")
        async with page(base, launch_of(vika, token), token) as watching:
            answer = await watching.next()
            assert (answer["type"], answer["reason"]) == ("refused", "auth.not_seated")
            assert "hand" not in answer and "table" not in answer
        assert app.watchers.count == 0


async def test_forged_expired_and_unknown_launches_are_refused(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, _, token = await two_playing(tg, app)
        forged = launch_of(anna, token).replace("hash=", "hash=00")
        cases = [
            (forged, token, "auth.forged"),
            (launch_of(anna, token, age=2 * 86400), token, "auth.expired"),
            (launch_of(anna, token), "SomeoneElsesTable", "auth.tampered"),
            (launch_of(anna, "NoSuchTableToken"), "NoSuchTableToken", "auth.no_table"),
            (launch_of(anna, None), None, "auth.tampered"),
            ("", token, "auth.missing"),
        ]
        for init_data, start, reason in cases:
            async with page(base, init_data, start) as refused:
                answer = await refused.next()
                assert (answer["type"], answer["reason"]) == ("refused", reason), answer
                assert answer["text"]
                closing = await refused.ws.receive()
                assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        async with aiohttp.ClientSession() as http, http.get(f"{base}/app") as response:
            assert response.status == 200 and "/app/static/app.js" in await response.text()
        assert app.watchers.count == 0  # the refused pages watch nothing


async def test_the_private_hand_opens_the_page_by_a_web_app_button(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Under the cards' own buttons (which keep the hand's key), a row with the page's
    ``web_app`` button naming the table; the table message keeps its direct link."""
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, _):
        anna, boris, token = await two_playing(tg, app)
        await settle(app)
        for user in (anna, boris):
            hand = hand_message(tg, user)
            assert hand is not None and hand.reply_markup is not None
            *cards, last = hand.reply_markup["inline_keyboard"]
            assert [b["text"] for b in last] == ["🎴 Открыть стол"]
            assert last[0]["web_app"] == {"url": f"https://durak.example.org/app?startapp={token}"}
            assert all("callback_data" in b for row in cards for b in row)
        assert await play_round(tg, app, [anna, boris])  # the keyboard still plays


async def test_a_member_of_the_group_watches_the_public_table(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Вика is in the group but not at the table: the page shows her the table as the
    group sees it (getChatMember says she is a member), with no hand and no moves."""
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        (anna, boris, vika), group = three_friends(tg)
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        token = (await app.tables.get(1)).join_token
        state = held(app.service, 1).state
        async with page(base, launch_of(vika, token), token) as watching:
            shown = await watching.table()
            assert shown["seat"] is None and shown["hand"] == [] and shown["moves"] == []
            assert not shown["playing"] and shown["cheats"] == []
            assert [p["name"] for p in shown["players"]] == ["Аня", "Борис"]
            assert not cards_in(shown) & (hidden_of(state, 0) | hidden_of(state, 1))
            opening = state.legal_actions(state.attacker)[0]
            await watching.move(opening.text, 0, None)
            assert (await watching.next("refused"))["reason"] == "refused.not_seated"
            assert held(app.service, 1).state.history == []
