"""The sandbox in a real browser (Debian's headless Chromium): one person opens a table
in the group, seats a second person and a computer player, plays the whole game alone by
pressing the page's buttons, and reads the summary and /stats. Screenshots of the lobby,
a hand and the table are saved under artifacts/sandbox/."""

from __future__ import annotations

import time
from pathlib import Path

from bench.playing import PRIORITY
from tests.sandbox_helpers import Phone, choose, chromium, sandbox_process, wait

GROUP, PRIVATE = "Друзья", "Дурак"
FAST = {
    "DURAK_BOT_PAUSE": "0",
    "DURAK_CHAT_INTERVAL": "0",
    "DURAK_GROUP_PER_MINUTE": "6000",
    "DURAK_BOT_WORKERS": "1",
}
GAME_OVER = ("Партия окончена", "Ничья")


def sit_down(phone: Phone, name: str) -> None:
    """``name`` starts the bot in the private chat (their cards will come there), then
    presses «Сесть за стол» in the group. (Who never started it plays from the group:
    tests/test_e2e_ephemeral.py; the deep link: tests/test_sandbox.py.)"""
    phone.be(name)
    phone.open(PRIVATE)
    phone.start()
    phone.wait_text(PRIVATE, "Ваши карты будут приходить сюда")
    phone.open(GROUP)
    phone.press(GROUP, "Сесть за стол")
    phone.wait_text(GROUP, name)


def over(phone: Phone) -> bool:
    return any(any(w in t for w in GAME_OVER) for t in phone.texts(GROUP))


def play_turns(phone: Phone, names: list[str], seconds: float) -> list[str]:
    """Each person in turn presses what a simple player would (but takes the first time
    they may), until the game is over; returns the labels pressed."""
    pressed: list[str] = []
    deadline, shot = time.monotonic() + seconds, False
    while not over(phone):
        assert time.monotonic() < deadline, f"the game did not end in {seconds} s"
        for name in names:
            phone.be(name)
            phone.open(PRIVATE)
            hand = phone.last_with_buttons(PRIVATE)
            buttons = phone.buttons(hand) if hand is not None else []
            playable = {b.text for b in buttons if b.get_attribute("data-style") == "success"}
            labels = [("• " if b.text in playable else "") + b.text for b in buttons]
            # a playable card as «• 7♠️», as the emulator gives it; «Беру» once
            label = choose(labels, PRIORITY if "Беру" in pressed else ("Беру", *PRIORITY))
            if hand is None or label is None:
                continue
            if not shot:
                phone.screenshot("hand")
                phone.open(GROUP)
                phone.screenshot("table")
                phone.open(PRIVATE)
                shot = True
            phone.press(PRIVATE, label.removeprefix("• "))
            pressed.append(label)
        time.sleep(0.1)
    return pressed


def test_one_person_plays_a_whole_game_in_the_browser(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **FAST) as (url, started), chromium() as driver:
        print(f"sandbox started in {started:.2f} s")
        phone = Phone(driver, url)
        assert phone.titles() == [GROUP, PRIVATE]
        try:
            phone.be("Emma")  # the page speaks the person's language
            assert driver.find_element("id", "title").text == "Durak sandbox"
            phone.be("Аня")
            assert driver.find_element("id", "title").text == "Песочница «Дурака»"
            phone.say(GROUP, "/durak")
            phone.wait_text(GROUP, "Стол для игры")
            phone.press(GROUP, "2 места")  # three seats: Аня, Борис and a computer player
            for label in ("Правила…", "Домашние правила…", "⬜ Бескозырка"):
                phone.press(GROUP, label)
            phone.press(GROUP, "⬜ Козырь всегда ♦️")  # not with no trumps: an alert
            assert "бескозырной" in phone.alert()
            for label in ("✅ Бескозырка", "Назад", "Назад"):  # and back to the lobby
                phone.press(GROUP, label)
            phone.be("Борис")
            phone.press(GROUP, "3 места")  # only the creator changes settings: a toast
            assert "создатель" in phone.toast("создатель")
            sit_down(phone, "Аня")
            sit_down(phone, "Борис")
            phone.be("Аня")
            lobby = phone.wait_text(GROUP, "Стол для игры")
            assert "Аня" in lobby and "Борис" in lobby and "свободно" in lobby
            phone.screenshot("lobby")
            phone.press(GROUP, "Добавить бота")  # the last seat: the game begins
            phone.wait_text(GROUP, "Козырь")
            pressed = play_turns(phone, ["Аня", "Борис"], 300.0)
            assert len(pressed) > 5 and "Беру" in pressed
            phone.open(GROUP)
            summary = wait(
                lambda: next(
                    (t for t in phone.texts(GROUP) if any(w in t for w in GAME_OVER)), None
                ),
                10,
                "the summary",
            )
            assert "Аня" in summary and "Борис" in summary
            assert phone.last_with_buttons(GROUP) is not None
            phone.screenshot("summary")
            phone.say(GROUP, "/stats")
            stats = phone.wait_text(GROUP, "Статистика чата")
            assert "Аня" in stats and "Борис" in stats and "побед" in stats
            tables = sum("Козырь" in t for t in phone.texts(GROUP))
            phone.press(GROUP, "Ещё партию")  # the same three sit down to a new game
            wait(lambda: sum("Козырь" in t for t in phone.texts(GROUP)) > tables, 20, "game 2")
        except BaseException:
            phone.screenshot("failure")  # what the page showed when it failed
            raise
