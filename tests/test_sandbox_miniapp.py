"""The Mini App in the sandbox (Debian's headless Chromium, 360×760): the table
message's «🎴 Открыть стол» opens the page in a panel over the chats, signed with the
sandbox's token for the person the page acts as, and a tap on a card there plays it.
Screenshots under artifacts/sandbox/."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By

from tests.sandbox_helpers import Phone, chromium, sandbox_process, wait
from tests.test_sandbox_browser import FAST, GROUP, sit_down


def test_the_table_message_opens_the_mini_app_in_a_panel(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **FAST) as (url, _), chromium(360, 760) as driver:
        phone = Phone(driver, url)
        try:
            phone.be("Аня")
            phone.say(GROUP, "/durak")
            phone.wait_text(GROUP, "Стол для игры")
            sit_down(phone, "Аня")
            phone.press(GROUP, "Добавить бота")  # the second seat: the game begins
            phone.wait_text(GROUP, "Козырь")
            phone.press(GROUP, "🎴 Открыть стол")
            panel = wait(
                lambda: driver.find_element(By.ID, "miniapp").get_attribute("open") is not None,
                10, "the Mini App's panel",
            )  # fmt: skip
            assert panel
            frame = driver.find_element(By.CSS_SELECTOR, "#miniapp iframe")
            driver.switch_to.frame(frame)
            cards = wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#hand .card"), 20, "cards")
            assert len(cards) == 6
            names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".player .name")]
            assert "Аня" in names and len(names) == 2
            phone.screenshot("miniapp")
            playable = wait(
                lambda: driver.find_elements(By.CSS_SELECTOR, "#hand .card.playable"), 30,
                "Аня's move",
            )  # fmt: skip
            in_hand = f'#hand .card[data-card="{playable[0].get_attribute("data-card")}"]'
            playable[0].click()  # (the computer may close the bout at once: off the table)
            wait(lambda: not driver.find_elements(By.CSS_SELECTOR, in_hand), 10, "the card played")
            driver.switch_to.default_content()
            driver.find_element(By.CSS_SELECTOR, "#miniapp .bar button").click()
            wait(
                lambda: driver.find_element(By.ID, "miniapp").get_attribute("open") is None,
                5, "the panel to close",
            )  # fmt: skip
            said = ("Аня ходит", "Аня: ")  # an opening, or a defence: the table message says it
            wait(lambda: any(w in t for t in phone.texts(GROUP) for w in said), 20, "Аня's move")
        except BaseException:
            driver.switch_to.default_content()
            phone.screenshot("miniapp-failure")
            raise
