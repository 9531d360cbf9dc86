"""The Mini App's controls beside the cards, each through the same service call as the
keyboard's, with the same refusals: «Сдаться» (asked first), «Вернуть управление», the
defender's cheats; and a page opened before the game, which waits and then shows it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from engine import Action
from service import FakeClock
from tests.e2e_helpers import latest, open_table, settle, two_friends
from tests.fakes import FakeTelegram
from tests.miniapp_helpers import launch_of, miniapp_bot, page, two_playing
from tests.miniapp_pages import TablePage, opened
from tests.sandbox_helpers import ROOT, chromium, wait
from tests.service_helpers import held

ARTIFACTS = ROOT / "artifacts" / "miniapp"  # gitignored


def lobby(op: str, arg: str = "") -> str:
    return LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()


async def test_surrender_is_asked_first_and_ends_the_game(tg: FakeTelegram, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, _, token = await two_playing(tg, app)
        seat = next(i for i, s in enumerate(held(app.service, 1).seats) if s.user_id == anna.id)
        url = opened(base, launch_of(anna, token), token)

        def surrender() -> tuple[str, str]:
            with chromium(360, 760) as driver:
                table = TablePage(driver, url)
                table.find("#words button.quit")[0].click()
                question = wait(
                    lambda: table.find("#sheet:not([hidden]) .title"), 5, "the question"
                )
                asked = question[0].text
                driver.save_screenshot(str(ARTIFACTS / "surrender.png"))
                table.find("#sheet .choices button.cancel")[0].click()  # not yet
                assert table.find("#sheet[hidden]") and table.state == "table"
                table.find("#words button.quit")[0].click()
                wait(lambda: table.find("#sheet:not([hidden]) button.danger"), 5, "«Да»")[0].click()
                wait(lambda: table.state == "over", 10, "the game's end")
                return asked, table.text("#status")

        asked, ending = await asyncio.to_thread(surrender)
        assert asked == "Сдаться? Партия сразу закончится, и дураком будете вы."
        assert ending == "Партия окончена. Дурак — Аня!"
        state = held(app.service, 1).state
        assert state.history[-1] == Action(seat, "quit") and state.outcome is not None
        assert state.outcome.fools == (seat,) or list(state.outcome.fools) == [seat]


async def test_a_page_opened_before_the_game_waits_and_then_shows_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, boris, group = two_friends(tg)
        await open_table(tg, app, group, anna)
        join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        await (await tg.press(anna, latest(tg, group), join))
        await settle(app)
        token = (await app.tables.get(1)).join_token
        url = opened(base, launch_of(anna, token), token)
        loop = asyncio.get_running_loop()

        async def boris_sits() -> None:
            await (await tg.press(boris, latest(tg, group), join))
            await settle(app)

        def wait_for_the_game() -> tuple[str, int]:
            with chromium(360, 760) as driver:
                table = TablePage(driver, url)
                assert table.state == "lobby"
                waiting = table.text("#status")
                driver.save_screenshot(str(ARTIFACTS / "lobby.png"))
                asyncio.run_coroutine_threadsafe(boris_sits(), loop).result(20)
                wait(lambda: table.state == "table", 10, "the game to show")
                return waiting, len(table.find("#hand .card"))

        waiting, cards = await asyncio.to_thread(wait_for_the_game)
        assert waiting.startswith("Партия ещё не началась") and "откроется здесь сам" in waiting
        assert cards == 6


async def test_the_defenders_cheats_are_on_their_page_alone_and_go_as_cheats(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """«Переводной с мухлежом»: the defender's page lists their cheats (nobody else's
    does); a cheat is made only when sent as one, an honest move only when not."""
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, boris, group = two_friends(tg)
        app.service.new_seed = lambda: 7
        message = await open_table(tg, app, group, anna)
        for data in (lobby("rules"), lobby("preset", "transfer_cheating"), lobby("back")):
            await (await tg.press(anna, message, data))
            await settle(app)
        for user in (anna, boris):
            await (await tg.press(user, latest(tg, group), lobby("join")))
            await settle(app)
        live = held(app.service, 1)
        state = live.state
        people = {anna.id: anna, boris.id: boris}
        attacker = people[live.seats[state.attacker].user_id or 0]
        defender = people[live.seats[state.defender].user_id or 0]
        token = (await app.tables.get(1)).join_token
        opening = next(a for a in state.legal_actions(state.attacker) if a.kind == "a")
        await app.service.act(1, opening, 0)
        await settle(app)
        async with (
            page(base, launch_of(defender, token), token) as mine,
            page(base, launch_of(attacker, token), token) as theirs,
        ):
            shown = await mine.table(1)
            other = await theirs.table(1)
            assert shown["cheats"] and other["cheats"] == []
            cheat = shown["cheats"][0]
            assert cheat["label"].startswith("🤫")
            honest = shown["moves"][0]
            await mine.send({"type": "move", "text": cheat["text"], "version": 1})  # not as one
            assert (await mine.next("refused"))["reason"] == "refused.illegal"
            await mine.send({"type": "move", "text": honest["text"], "version": 1, "cheat": True})
            assert (await mine.next("refused"))["reason"] == "refused.illegal"
            assert len(held(app.service, 1).state.history) == 1
            await mine.send({"type": "move", "text": cheat["text"], "version": 1, "cheat": True})
            after = await mine.table(2)
            assert held(app.service, 1).state.history[-1].text == cheat["text"]
            assert any(a == cheat["cards"][0] for pair in after["table"] for a in pair)
            seen = await theirs.table(2)
            assert seen["cheats"] == [] and "🤫" not in str(seen)


async def test_a_seat_a_computer_took_over_is_taken_back_from_the_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = FakeClock()
    async with miniapp_bot(tg, tmp_path / "db.sqlite3", clock) as (app, base):
        anna, boris, token = await two_playing(tg, app)
        live = held(app.service, 1)
        slow = live.state.attacker  # misses two moves: a computer player takes the seat
        user = anna if live.seats[slow].user_id == anna.id else boris
        for _ in range(20):
            if held(app.service, 1).state.idle(slow):
                break
            clock.advance(61)
            await app.service.fire_due()
            await settle(app)
        assert held(app.service, 1).state.idle(slow)
        launch = launch_of(user, token, now=clock.now())
        async with page(base, launch, token) as mine:
            shown = await mine.table()
            assert shown["idle"] and shown["status"].startswith("🤖 За вас играет бот")
            await mine.send({"type": "move", "text": "back", "version": 0})  # an old version:
            back = await mine.table()  # «Вернуть управление» means it whatever happened since
            assert not back["idle"] and not held(app.service, 1).state.idle(slow)
            assert held(app.service, 1).state.history[-1] == Action(slow, "back")
