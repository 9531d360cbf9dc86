"""The sandbox page on a 360×760 phone (Debian's headless Chromium): what a newcomer sees
first, a chat opened after news came to it, and a hand's keyboard across the chat.
Screenshots under artifacts/sandbox/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from tests.sandbox_helpers import Phone, chromium, sandbox_process, wait
from tests.test_sandbox_browser import FAST, GROUP, PRIVATE


def hint(phone: Phone) -> str | None:
    """The note an empty group shows, if it shows one."""
    section = phone.section(GROUP)
    assert section is not None
    found = section.find_elements(By.CSS_SELECTOR, ".log .empty")
    return str(found[0].text) if found and found[0].is_displayed() else None


def test_an_empty_group_says_to_type_durak(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **FAST) as (url, _), chromium() as driver:
        phone = Phone(driver, url)
        phone.be("Аня")
        note = wait(lambda: hint(phone), 10, "the empty group's note")
        assert "/durak" in note
        phone.screenshot("empty-group")
        phone.be("Emma")  # in the person's language
        wait(lambda: "Type /durak" in (hint(phone) or ""), 10, "the note in English")
        phone.be("Аня")
        phone.say(GROUP, "/durak")
        phone.wait_text(GROUP, "Стол для игры")
        assert hint(phone) is None  # the group is no longer empty


def scrolled(driver: Any, section: WebElement) -> dict[str, float]:
    log = section.find_element(By.CSS_SELECTOR, ".log")
    return dict(
        driver.execute_script(
            "const l = arguments[0];"
            "return {top: l.scrollTop, height: l.scrollHeight, shown: l.clientHeight};",
            log,
        )
    )


def at_the_bottom(driver: Any, section: WebElement) -> None:
    """The chat scrolls, and shows its newest message."""
    where = scrolled(driver, section)
    assert where["height"] > where["shown"] + 100, where
    assert where["top"] + where["shown"] >= where["height"] - 2, where  # before: top 0


def widths(driver: Any, article: WebElement) -> dict[str, Any]:
    """The hand's keyboard and buttons: their widths, the chat's, and the labels cut."""
    return dict(
        driver.execute_script(
            "const a = arguments[0], log = a.closest('.log'), s = getComputedStyle(log);"
            "const inner = log.clientWidth - parseFloat(s.paddingLeft)"
            " - parseFloat(s.paddingRight);"
            "const buttons = [...a.querySelectorAll('.keyboard button')];"
            "return {keyboard: a.querySelector('.keyboard').getBoundingClientRect().width,"
            " inner: inner, widest_row: Math.max(...[...a.querySelectorAll('.row')]"
            ".map((r) => r.children.length)),"
            " cut: buttons.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent),"
            " ten: ten(buttons[0]), card: buttons[0].clientWidth};"
            "function ten(b) {"  # the widest card label in the buttons' font and padding
            "  const c = b.cloneNode(); c.textContent = '10\u2660\ufe0f';"
            "  Object.assign(c.style, {position: 'absolute', width: 'auto', flex: 'none'});"
            "  b.parentNode.append(c); const w = c.getBoundingClientRect().width;"
            "  c.remove(); return w; }",
            article,
        )
    )


def test_a_hand_that_came_meanwhile_opens_at_the_bottom_across_the_chat(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **FAST) as (url, _), chromium() as driver:
        phone = Phone(driver, url)
        try:
            phone.be("Аня")
            phone.open(PRIVATE)
            phone.start()
            phone.wait_text(PRIVATE, "Ваши карты будут приходить сюда")
            for _ in range(3):  # a chat longer than the phone's screen
                phone.say(PRIVATE, "/help")
            wait(lambda: len(phone.articles(PRIVATE)) >= 8, 20, "the answers to /help")
            phone.open(GROUP)
            phone.say(GROUP, "/durak")
            phone.wait_text(GROUP, "Стол для игры")
            phone.press(GROUP, "Сесть за стол")
            phone.press(GROUP, "Добавить бота")  # the second seat: the game begins
            wait(lambda: phone.last_with_buttons(PRIVATE), 20, "the hand, in the hidden chat")
            at_the_bottom(driver, phone.open(PRIVATE))  # the tab opened after the hand came
            phone.open(GROUP)
            at_the_bottom(driver, phone.open(PRIVATE))  # and again
            phone.be("Борис")
            phone.be("Аня")  # back as Аня: her private chat drawn anew, its compose bar too
            at_the_bottom(driver, phone.open(PRIVATE))
            driver.refresh()  # the page opened anew
            wait(lambda: phone.section(PRIVATE), 20, "the chats")
            at_the_bottom(driver, phone.open(PRIVATE))
            hand = phone.last_with_buttons(PRIVATE)
            assert hand is not None and hand.is_displayed()
            size = widths(driver, hand)
            assert size["widest_row"] >= 6, size  # six cards in a row
            assert size["keyboard"] >= size["inner"] - 1, size  # as wide as the chat
            assert size["cut"] == [] and size["ten"] <= size["card"], size  # no «10…»
            phone.screenshot("hand-at-the-bottom")
        except BaseException:
            phone.screenshot("page-failure")
            raise


def shown_chat(phone: Phone, title: str) -> WebElement | None:
    section = phone.section(title)
    return section if section is not None and section.is_displayed() else None


def test_another_person_sees_their_own_private_chat_at_once(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **FAST) as (url, _), chromium() as driver:
        phone = Phone(driver, url)
        phone.be("Аня")
        phone.open(PRIVATE)
        phone.be("Борис")  # where his cards would be, without a tab to find
        shown = wait(lambda: shown_chat(phone, PRIVATE), 10, "Борис's private chat")
        assert shown.get_attribute("id") == "chat2"
        phone.screenshot("switched-to-boris")
        phone.open(GROUP)
        phone.be("Вера")  # from the group, the group stays
        wait(lambda: shown_chat(phone, GROUP), 10, "the group")
