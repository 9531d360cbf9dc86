"""The Mini App page in Chromium, played as a person plays it: by taps alone. A page
says what it shows in ``body``'s data (``state``: lobby, table or over; ``version``)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    StaleElementReferenceException,
)
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from tests.sandbox_helpers import wait

THEME = {  # Telegram's night theme, as its clients pass it
    "bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
    "button_color": "#5288c1", "button_text_color": "#ffffff", "secondary_bg_color": "#232e3c",
}  # fmt: skip
WORDS = ("done", "pass", "take")  # «Бито», «Пас», then «Беру»: when no card can be played
MISSED = (StaleElementReferenceException, ElementClickInterceptedException,
          ElementNotInteractableException)  # fmt: skip


def opened(base: str, init_data: str, start: str) -> str:
    """The page's URL as Telegram opens it: the launch in the fragment."""
    fragment = urlencode({
        "tgWebAppData": init_data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "android",
        "tgWebAppThemeParams": json.dumps(THEME), "tgWebAppStartParam": start,
    })  # fmt: skip
    return f"{base}/app#{fragment}"


class TablePage:
    def __init__(self, driver: Chrome, url: str) -> None:
        self.driver = driver
        driver.get(url)
        wait(lambda: self.state in ("lobby", "table", "over"), 30, "the page to draw")
        self.taps = 0
        self.several = 0  # openings made with «Несколько карт»

    @property
    def state(self) -> str:
        found = self.driver.execute_script("return document.body.dataset.state || ''")
        return str(found)

    @property
    def version(self) -> int:
        found = self.driver.execute_script("return document.body.dataset.version || '-1'")
        return int(found)

    def find(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css: str) -> str:
        return " ".join(e.text for e in self.find(css))

    def words(self) -> dict[str, WebElement]:
        """The move buttons under the table, by the move's text."""
        found = self.find("#words button[data-move]")
        return {e.get_attribute("data-move") or "": e for e in found}

    def step(self) -> bool:
        """One sensible tap, if this person has a move: a card (a choice on the sheet
        when asked), several cards of one rank when they may open, else a word."""
        try:
            return self._step()
        except MISSED:  # drawn anew under the finger: look again
            return False

    def _step(self) -> bool:
        sheet = self.find("#sheet:not([hidden]) .choices button[data-move]")
        if sheet:
            return self._tap(sheet[0])
        go = self.find("#words button.go")  # cards marked before the table was drawn anew
        if go:
            return self._tap(go[0])
        several = self.find("#words button.several")
        if several and self.several < 3:
            return self._open_several(several[0])
        playable = self.find("#hand .card.playable")
        if playable:
            return self._tap(playable[0])
        words = self.words()
        for word in WORDS:
            if word in words:
                return self._tap(words[word])
        return False

    def _tap(self, element: WebElement) -> bool:
        element.click()
        self.taps += 1
        return True

    def _open_several(self, button: WebElement) -> bool:
        """«Несколько карт»: two cards of one rank marked, then «Ходить (2)»."""
        before = self.version
        button.click()
        cards = self.find("#hand .card.playable")
        by_rank: dict[str, list[WebElement]] = {}
        for card in cards:
            by_rank.setdefault((card.get_attribute("data-card") or "")[:-1], []).append(card)
        pair = next((c for c in by_rank.values() if len(c) > 1), None)
        if pair is None or self.version != before:
            return False
        for name in [c.get_attribute("data-card") for c in pair[:2]]:  # (drawn anew at each)
            self.find(f'#hand .card[data-card="{name}"]')[0].click()
        go = wait(lambda: self.find("#words button.go"), 5, "«Ходить (2)»")
        assert go[0].text.endswith("(2)"), go[0].text
        self.taps += 3
        self.several += 1
        return self._tap(go[0])

    def moved_from(self, version: int, timeout: float = 10.0) -> None:
        """Wait until the page shows a version after ``version`` (or the game's end)."""
        wait(lambda: self.version > version or self.state == "over", timeout, "the move shown")
