"""Two bot processes (two Apps) on one PostgreSQL database in webhook mode: every update
goes to the one that does not hold the sending lease, so it makes every move, yet only
the holder edits the hands and the table; when the holder stops, the other takes the
lease, shows every running game again and plays on."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.keyboard import Keyboard
from tests.backends import PgDatabases
from tests.e2e_helpers import (
    TOKEN,
    choose,
    game_over,
    open_table,
    play_round,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeTelegram, hand_message
from tests.processes import bot_processes, delivering, hands_current, settled


class Calls:
    """A session middleware: the hands and table messages one App sent or edited (the
    lobby and answers to commands too go out from the holder: ``tests.test_multi_relay``)."""

    def __init__(self) -> None:
        self.shown: Counter[str] = Counter()

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        if method.__api_method__ == "answerCallbackQuery":  # a press's answer: where it came
            return await make_request(bot, method)  # (its text may be «Какую карту побить?»)
        markup = getattr(method, "reply_markup", None)
        rows = markup.rows if isinstance(markup, Keyboard) else ()
        data = rows[0][0].data or "" if rows and rows[0] else ""
        if "Какую карту побить" in (getattr(method, "text", None) or ""):
            self.shown["target choice"] += 1  # a page: drawn by the holder too (bot.hand_pages)
        elif data.split(":")[0] in ("c", "m", "p"):  # a hand's buttons
            self.shown["hand"] += 1
        elif method.__api_method__ == "editMessageText" and data[:2] in ("", "e:"):  # the table
            self.shown["table"] += 1
        return await make_request(bot, method)


async def test_only_the_lease_holder_shows_the_games_and_another_takes_over(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("sending")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with bot_processes(tg, url) as (holder, other):
            assert not other.delivery.holder.held
            calls = {holder: Calls(), other: Calls()}
            for process, its in calls.items():
                process.app.bot.session.middleware(its)
            async with delivering(tg, lambda _: other.address):  # every update to the other
                await open_table(tg, other.app, group, anna)
                await seat_everyone(tg, other.app, group, [anna, boris])
                game = other.app.service.game_ids()[0]
                for _ in range(6):
                    await play_round(tg, other.app, [anna, boris])
                    await settled(holder.app, other.app)
                assert not calls[other].shown, calls[other].shown  # it moved, never showed
                assert calls[holder].shown["hand"] > 0 and calls[holder].shown["table"] > 0
                await tg.wait_for(lambda: hands_current(tg, holder.app, game, [anna, boris]))

                await holder.stop()  # the holder goes: the other takes the lease
                await tg.wait_for(lambda: other.delivery.holder.held, timeout=5)
                assert other.delivery.holder.taken == 1
                await settled(other.app)
                assert calls[other].shown["hand"] > 0  # every running game shown again
                before = calls[other].shown.total()
                for _ in range(4):
                    await play_round(tg, other.app, [anna, boris])
                    await settled(other.app)
                assert calls[other].shown.total() > before
                await tg.wait_for(lambda: hands_current(tg, other.app, game, [anna, boris]))
        assert tg.too_many_requests_sent == 0


async def test_a_word_pressed_where_the_games_are_not_shown_is_made(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("words")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with (
            bot_processes(tg, url) as (holder, other),
            delivering(tg, lambda _: other.address),  # every update to the other
        ):
            await open_table(tg, other.app, group, anna)
            await seat_everyone(tg, other.app, group, [anna, boris])
            game = other.app.service.game_ids()[0]
            words: list[str | None] = []  # the answers to «Бито», «Беру», «Пас»
            people = [anna, boris]
            for _ in range(60):
                await settled(holder.app, other.app)
                if game_over(tg, group):
                    break
                await tg.wait_for(  # the holder draws every hand, target choices too
                    lambda: hands_current(tg, holder.app, game, people), timeout=15
                )
                user, hand, data = next(
                    (u, h, d)
                    for u in people
                    if (h := hand_message(tg, u)) is not None and (d := choose(tg, h))
                )
                drawn_there = hands_current(tg, holder.app, game, [user]) and (
                    "Какую карту побить" not in (hand.text or "")  # a page: the holder's
                )
                answer = await (await tg.press(user, hand, data))
                if drawn_there and data.startswith("m:"):
                    words.append(answer.text)
                if len(words) == 3:
                    break
            # before: «Кнопка устарела» every time (a short game may end before three)
            assert words and all(w is None for w in words), words
