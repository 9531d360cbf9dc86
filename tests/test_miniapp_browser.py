"""The Mini App page in Debian's headless Chromium, opened as Telegram opens it (the
launch in the URL's fragment): the table drawn, Telegram's theme followed, a tap on a
playable card makes the move. Screenshots at 360×760 under artifacts/miniapp/."""

from __future__ import annotations

import asyncio
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.fakes import FakeTelegram
from tests.miniapp_helpers import launch_of, miniapp_bot, two_playing
from tests.miniapp_pages import opened
from tests.sandbox_helpers import ROOT, chromium, wait
from tests.service_helpers import held

ARTIFACTS = ROOT / "artifacts" / "miniapp"  # gitignored


async def test_the_page_draws_the_table_and_a_tap_on_a_card_plays_it(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, boris, token = await two_playing(tg, app)
        live = held(app.service, 1)
        attacker = anna if live.seats[live.state.attacker].user_id == anna.id else boris
        url = opened(base, launch_of(attacker, token), token)

        def play() -> tuple[list[str], str]:
            with chromium(360, 760) as driver:
                driver.get(url)
                cards = wait(
                    lambda: driver.find_elements(By.CSS_SELECTOR, "#hand .card"), 30, "the hand"
                )
                assert len(cards) == 6
                names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".player .name")]
                trump = driver.find_element(By.CSS_SELECTOR, "#stock .card").get_attribute(
                    "data-card"
                )
                background = driver.execute_script(
                    "return getComputedStyle(document.body).backgroundColor"
                )
                assert background == "rgb(23, 33, 43)"  # the theme's bg_color
                assert "Колода: 24" in driver.find_element(By.ID, "stock").text
                assert driver.find_element(By.ID, "status").text.endswith("нажмите карту.")
                driver.save_screenshot(str(ARTIFACTS / "hand.png"))
                playable = driver.find_elements(By.CSS_SELECTOR, "#hand .card.playable")
                played = playable[0].get_attribute("data-card") or ""
                playable[0].click()
                choices = driver.find_elements(By.CSS_SELECTOR, "#sheet .choices button")
                if choices and choices[0].is_displayed():  # a pair: «Пойти: 7♠» first
                    choices[0].click()
                on_table = f'#table .card[data-card="{played}"]'
                wait(lambda: driver.find_elements(By.CSS_SELECTOR, on_table), 10, "the card played")
                left = [e.get_attribute("data-card") for e in driver.find_elements(
                    By.CSS_SELECTOR, "#hand .card")]  # fmt: skip
                assert played not in left
                driver.save_screenshot(str(ARTIFACTS / "table.png"))
                assert trump is not None
                return names, trump

        names, trump = await asyncio.to_thread(play)
        assert names == [s.name for s in live.seats]
        assert trump == str(live.state.trump_card)
        assert len(held(app.service, 1).state.history) == 1  # the tap's move, made once
