"""Whole games played from the Mini App page in Debian's headless Chromium, by taps
alone at 360×760: two people each on their page, and one person against a computer
player. A choice left open on the page while the game moves on sends nothing the
engine would refuse. Screenshots under artifacts/miniapp/."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from bot.callbacks import LobbyCb, LobbyOp
from engine import Action, Card, Rules, State
from tests.autoplay_helpers import deal_where
from tests.e2e_helpers import latest, open_table, seat_everyone, settle, two_friends
from tests.fakes import FakeTelegram
from tests.miniapp_helpers import launch_of, miniapp_bot, two_playing
from tests.miniapp_pages import TablePage, opened
from tests.sandbox_helpers import ROOT, chromium, wait
from tests.service_helpers import held

ARTIFACTS = ROOT / "artifacts" / "miniapp"  # gitignored
ROUNDS = 600  # taps and waits; a game of 36 cards takes far fewer


def play_out(pages: list[TablePage], shots: str) -> None:
    """Each page taps when it has a move, until every page shows the game's end."""
    idle_since = time.monotonic()
    shot = False
    for _ in range(ROUNDS):
        if all(p.state == "over" for p in pages):
            break
        tapped = False
        for page in pages:
            before = page.version
            if page.step():
                tapped = True
                with contextlib.suppress(AssertionError):  # a sheet opened, or refused
                    page.moved_from(before, 3.0)
            if not shot and page.find("#table .card.cover") and len(page.find("#log li")) >= 3:
                page.driver.save_screenshot(str(ARTIFACTS / f"{shots}-bout.png"))
                shot = True
        if tapped:
            idle_since = time.monotonic()
        elif time.monotonic() - idle_since > 30:
            raise AssertionError("nobody could move for 30 s")
        else:
            time.sleep(0.1)  # a computer player thinks
    for i, page in enumerate(pages):
        page.driver.save_screenshot(str(ARTIFACTS / f"{shots}-last-{i}.png"))
    assert all(p.state == "over" for p in pages), [(p.version, p.text("#status")) for p in pages]
    pages[0].driver.save_screenshot(str(ARTIFACTS / f"{shots}-over.png"))


async def test_two_people_play_a_whole_game_each_on_their_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    rules = Rules(players=2, deck=36)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        app.service.new_seed = lambda: deal_where(rules, pairs_for_both)
        anna, boris, token = await two_playing(tg, app)
        urls = [opened(base, launch_of(user, token), token) for user in (anna, boris)]

        def play() -> tuple[list[str], list[int], int]:
            with chromium(360, 760) as one, chromium(360, 760) as other:
                pages = [TablePage(one, urls[0]), TablePage(other, urls[1])]
                play_out(pages, "two")
                endings = [p.text("#status") for p in pages]
                return endings, [p.taps for p in pages], sum(p.several for p in pages)

        endings, taps, several = await asyncio.to_thread(play)
        await settle(app)
        live = held(app.service, 1)
        state = live.state
        assert state.outcome is not None
        played = [(a, auto) for a, auto in zip(state.history, state.auto, strict=True)]
        autos = [str(a) for a, auto in played if auto and a.kind not in ("done", "pass")]
        assert not autos, autos  # every card was a tap on a page (a forced word is the bot's)
        assert min(taps) > 5 and several >= 1  # both played; «Несколько карт» was used
        assert all(e.startswith("Партия окончена") for e in endings), endings
        assert any("Партия окончена" in (m.text or "") for m in tg.messages(-100))


def pairs_for_both(state: State) -> bool:
    """Each of the two holds two cards of one rank (not trumps): both may open with two."""
    return all(_pair(state, seat) for seat in range(2))


def _pair(state: State, seat: int) -> bool:
    ranks = [c.rank for c in state.view(seat).hand if c.suit != state.trump]
    return len(ranks) != len(set(ranks))


async def test_a_person_plays_a_whole_game_against_a_computer_from_the_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, _, group = two_friends(tg)
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna])
        await (await tg.press(anna, latest(tg, group), LobbyCb(table=1, op=LobbyOp.BOT).pack()))
        await settle(app)
        table = await app.tables.get(1)
        url = opened(base, launch_of(anna, table.join_token), table.join_token)

        def play() -> str:
            with chromium(360, 760) as driver:
                page = TablePage(driver, url)
                play_out([page], "bot")
                names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".player .name")]
                assert len(names) == 2 and "Аня" in names
                return page.text("#status")

        ending = await asyncio.to_thread(play)
        state = held(app.service, app.service.game_of(1) or 1).state
        assert state.outcome is not None and ending.startswith("Партия окончена")
        seat = next(i for i, s in enumerate(held(app.service, 1).seats) if s.human)
        mine = [a for a, auto in zip(state.history, state.auto, strict=True) if a.seat == seat]
        assert mine and all(a.kind != "quit" for a in mine)


async def test_a_choice_left_open_while_the_game_moves_on_sends_no_refused_move(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The defender's page asks which card a trump should beat; meanwhile the defender
    beats one of them from the keyboard. The page's choice is of a table that is gone:
    it closes, and nothing is sent that the engine would refuse (it was once sent with
    the newer table's version, and refused as illegal)."""
    rules = Rules(players=2, deck=36)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        app.service.new_seed = lambda: deal_where(rules, trump_beats_a_pair)
        anna, boris, token = await two_playing(tg, app)
        live = held(app.service, 1)
        state = live.state
        attacker, defender = state.attacker, state.defender
        pair = pair_of(state, attacker)
        await app.service.act(1, Action(attacker, "a", pair), 0)  # the attacker opens with two
        await settle(app)
        trump = next(c for c in sorted(state.view(defender).hand) if c.suit == state.trump)
        user = anna if live.seats[defender].user_id == anna.id else boris
        url = opened(base, launch_of(user, token), token)
        loop = asyncio.get_running_loop()

        def beat_from_the_keyboard() -> None:
            beat = Action(defender, "d", (trump,), pair[0])
            asyncio.run_coroutine_threadsafe(app.service.act(1, beat, 1), loop).result(10)

        def choose_late() -> tuple[bool, str]:
            with chromium(360, 760) as driver:
                page = TablePage(driver, url)
                wait(lambda: page.version == 1, 10, "the opening")
                cards = [e.get_attribute("data-card") for e in page.find("#hand .card")]
                assert str(trump) in cards, (str(trump), cards)
                page.find(f'#hand .card[data-card="{trump}"]')[0].click()
                choices = wait(
                    lambda: page.find("#sheet:not([hidden]) .choices button[data-move]"), 5,
                    "the choice of the card to beat",
                )  # fmt: skip
                assert len(choices) == 2
                beat_from_the_keyboard()
                page.moved_from(1)
                late = page.find("#sheet:not([hidden]) .choices button[data-move]")
                if late:  # a page that kept the old choice: a person taps it now
                    late[-1].click()
                time.sleep(1.0)
                toast = page.find("#toast:not([hidden])")
                return bool(late), toast[0].text if toast else ""

        kept, toast = await asyncio.to_thread(choose_late)
        assert not kept, f"the page kept a choice of a table that is gone ({toast!r})"
        assert toast == ""
        assert len(held(app.service, 1).state.history) == 2


def pair_of(state: State, seat: int) -> tuple[Card, ...]:
    hand = [c for c in sorted(state.view(seat).hand) if c.suit != state.trump]
    return next((a, b) for i, a in enumerate(hand) for b in hand[i + 1 :] if a.rank == b.rank)


def trump_beats_a_pair(state: State) -> bool:
    """The attacker may open with two cards of one rank and the defender holds a trump,
    which beats either of them."""
    defender = state.view(state.defender).hand
    return _pair(state, state.attacker) and any(c.suit == state.trump for c in defender)
