"""Issue 40 played through on a 360×760 phone (the sandbox in Debian's headless Chromium):
Аня (cards in her private chat) and Борис (who never started the bot: cards in the group)
play, surrender, play again; then Аня alone against two «Мастер». Every screen the issue
changed is saved under artifacts/look40/ to be looked at, and what can be read off a
screen is asserted here."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from bench.playing import PRIORITY
from tests.sandbox_helpers import ROOT, Phone, choose, chromium, sandbox_process, wait
from tests.test_sandbox_browser import GROUP, PRIVATE

SHOTS = ROOT / "artifacts" / "look40"  # gitignored
PACE = {  # computer players at a pace a person can follow; the group's limits loosened
    "DURAK_BOT_PAUSE": "1.0",
    "DURAK_CHAT_INTERVAL": "0.05",
    "DURAK_GROUP_PER_MINUTE": "600",
    "DURAK_BOT_WORKERS": "1",
    "DURAK_TZ": "Europe/Moscow",
}
CLOCK = re.compile(r"^⏳ .+ · до\xa0\d\d:\d\d:\d\d\xa0\S+$")  # wraps whole
RANK = re.compile(r"^(10|[2-9ВДКТ])")
OVER = ("🃏 Партия окончена", "🤝 Ничья")
MORE, SURRENDER = "⋯", "Сдаться"


class Look:
    """The phone, and the screenshots taken of it, by name in order."""

    def __init__(self, phone: Phone) -> None:
        self.phone, self.driver = phone, phone.driver
        self.names: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)

    def shot(self, name: str, toast: bool = False) -> Path:
        """What the phone shows now (with its toast if ``toast``, else once it is gone)."""
        if not toast:
            box = self.driver.find_element(By.ID, "toast")
            wait(lambda: not box.is_displayed(), 10, "the toast to go")
        time.sleep(0.3)  # the last push drawn
        name = f"{len(self.names) + 1:02d}-{name}"
        path = SHOTS / f"{name}.png"
        assert self.driver.save_screenshot(str(path))
        self.names.append(name)
        return path

    def log(self, title: str) -> WebElement:
        section = self.phone.open(title)
        return section.find_element(By.CSS_SELECTOR, ".log")

    def scroll_to(self, title: str, article: WebElement, where: str = "start") -> None:
        self.log(title)
        self.driver.execute_script(f"arguments[0].scrollIntoView({{block: '{where}'}})", article)

    def article_with(self, title: str, part: str) -> WebElement:
        def found() -> WebElement | None:
            for article in reversed(self.phone.articles(title)):
                if part in str(article.find_element(By.CSS_SELECTOR, ".text").text):
                    return article
            return None

        return wait(found, 20, f"{part!r} in {title}")

    def box(self, element: WebElement) -> dict[str, float]:
        return dict(
            self.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect();"
                "const l = arguments[0].closest('.log').getBoundingClientRect();"
                "return {top: r.top, bottom: r.bottom, height: r.height,"
                " log_top: l.top, log_bottom: l.bottom};",
                element,
            )
        )

    def labels(self, article: WebElement) -> list[str]:
        return [b.text for b in self.phone.buttons(article)]

    def toast_text(self, or_else: Callable[[], str | None] = lambda: None) -> str:
        """The toast showing now, or what ``or_else`` says instead of a toast."""
        box = self.driver.find_element(By.ID, "toast")
        return wait(lambda: box.text if box.is_displayed() else or_else(), 10, "a toast")


def hand(look: Look, who: str, title: str) -> WebElement | None:
    """``who``'s hand: the newest message with card buttons in ``title``."""
    look.phone.be(who)
    look.phone.open(title)
    for article in reversed(look.phone.articles(title)):
        labels = look.labels(article)
        if any(x in labels for x in (MORE, "Беру", "Бито", "Пас")) or any(
            x[:1].isdigit() or x[:1] in "ВДКТ" for x in labels
        ):
            return article
    return None


def on_table(look: Look) -> str | None:
    """«moved» once Аня's private hand shows cards on the table (a move answers silently)."""
    article = look.phone.last_with_buttons(PRIVATE)
    return "moved" if article is not None and "На столе" in str(article.text) else None


def playable(look: Look, article: WebElement) -> list[str]:
    """The labels a simple player would consider, playable cards as «• 7♠️»."""
    out = []
    for b in look.phone.buttons(article):
        mark = "• " if b.get_attribute("data-style") == "success" else ""
        out.append(mark + b.text)
    return out


def step(look: Look, who: str, title: str) -> str | None:
    """``who`` presses what a simple player would, if anything; returns it."""
    article = hand(look, who, title)
    if article is None:
        return None
    label = choose(playable(look, article), PRIORITY)
    if label is None:
        return None
    look.phone.press(title, label.removeprefix("• "))
    return label


LINES = """
let [article, part] = arguments;
const root = article.querySelector('.text');
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
const nodes = []; let text = '';
for (let n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push([n, text.length]);
  text += n.textContent; }
const found = new RegExp(part).exec(text.replace(/\\u00a0/g, ' '));
if (!found) return -1;
const at = found.index; part = found[0];
const where = (i) => { const [n, from] = nodes.filter(([, f]) => f <= i).pop();
  return [n, i - from]; };
const range = document.createRange();
const [last, offset] = where(at + part.length - 1);
range.setStart(...where(at)); range.setEnd(last, offset + 1);
const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
  .map((r) => Math.round(r.top / 4)));
return tops.size;
"""


def lines_of(look: Look, article: WebElement, part: str) -> int:
    """On how many lines of the phone the text ``part`` (a regular expression, spaces
    matching non-breaking ones too) of ``article`` is drawn."""
    return int(look.driver.execute_script(LINES, article, part))


def answered(phone: Phone, said: WebElement) -> bool:
    """A message came after ``said``."""
    return bool(phone.articles(GROUP)[-1] != said)


def text_of(article: WebElement) -> str:
    return str(article.find_element(By.CSS_SELECTOR, ".text").get_attribute("textContent"))


def over(look: Look) -> int:
    for _ in range(5):  # a message drawn anew while read: read again
        try:
            return sum(t.startswith(OVER) for t in look.phone.texts(GROUP))
        except StaleElementReferenceException:
            continue
    return sum(t.startswith(OVER) for t in look.phone.texts(GROUP))


def table_line(look: Look) -> str:
    """The first line of the newest table message in the group."""
    texts = [t for t in look.phone.texts(GROUP) if "Козырь" in t]
    return texts[-1].split("\n")[0] if texts else ""


def cards_in_group(look: Look) -> None:
    """As one who plays from the group: «🃏 Мои карты» on the newest table message."""
    look.phone.open(GROUP)
    look.phone.press(GROUP, "🃏 Мои карты")


def play_a_while(look: Look, people: list[tuple[str, str]], presses: int) -> int:
    done = 0
    for _ in range(presses * 4):
        if done >= presses or over(look):
            break
        for who, title in people:
            if step(look, who, title):
                done += 1
        time.sleep(0.2)
    return done


def test_issue_40_played_through_on_a_phone(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, **PACE) as (url, _), chromium() as driver:
        look = Look(Phone(driver, url))
        phone = look.phone
        try:
            two_people(look)
            against_two_masters(look)
        except BaseException:
            look.shot("failure", toast=True)
            raise
        finally:
            (SHOTS / "index.txt").write_text("\n".join(look.names) + "\n")
        assert phone is not None


def two_people(look: Look) -> None:
    phone = look.phone
    phone.be("Аня")
    look.shot("empty-group")
    phone.say(GROUP, "/durak")
    lobby = look.article_with(GROUP, "Стол для игры")
    look.shot("lobby")
    where = look.box(lobby)
    assert where["height"] <= where["log_bottom"] - where["log_top"], where  # fits whole

    phone.press(GROUP, "Правила…")
    look.scroll_to(GROUP, look.article_with(GROUP, "Правила стола"))
    look.shot("rules-page")
    phone.press(GROUP, "Домашние правила…")
    page = look.article_with(GROUP, "Вини винями")
    look.scroll_to(GROUP, page)
    look.shot("house-rules-top")
    look.scroll_to(GROUP, page, "end")
    look.shot("house-rules-bottom")
    phone.press(GROUP, "⬜ Вини винями")
    look.shot("house-rule-toggled", toast=True)
    assert "«Вини винями»: включено." in look.toast_text()
    phone.press(GROUP, "✅ Вини винями")
    for label in ("Назад", "Назад"):
        phone.press(GROUP, label)

    phone.open(PRIVATE)
    phone.start()
    phone.wait_text(PRIVATE, "Ваши карты будут приходить сюда")
    phone.open(GROUP)
    phone.press(GROUP, "Сесть за стол")
    phone.be("Борис")  # never starts the bot: his cards are in the group
    phone.open(GROUP)
    phone.press(GROUP, "Сесть за стол")
    look.shot("boris-joined-from-group", toast=True)
    phone.wait_text(GROUP, "Козырь", 30)  # two seats: the game begins

    phone.be("Аня")
    phone.open(GROUP)
    look.shot("table-clock")
    assert CLOCK.match(table_line(look)), table_line(look)
    phone.open(PRIVATE)
    look.shot("anya-hand")
    phone.be("Борис")
    cards_in_group(look)
    look.shot("boris-hand-in-group")

    phone.be("Аня")
    for command, name in (
        ("/stats", "stats-during-game"),
        ("/me", "me-during-game"),
        ("/rules", "rules-during-game"),
    ):
        phone.say(GROUP, command)
        said = look.article_with(GROUP, command)
        wait(partial(answered, phone, said), 20, f"the answer to {command}")
        time.sleep(1.0)
        look.shot(name)
    last = phone.articles(GROUP)[-1]
    assert "Козырь" in str(last.text), last.text  # the table below the long answer

    double_tap(look)
    play_a_while(look, [("Аня", PRIVATE), ("Борис", GROUP)], 4)
    several_cards(look, [("Аня", PRIVATE)])

    # Борис gives up from the group: «⋯ → Сдаться».
    surrender(look, "Борис", GROUP, "surrender-page-group")
    phone.be("Аня")
    phone.open(GROUP)
    wait(lambda: over(look) >= 1, 30, "the first result")
    summary = look.article_with(GROUP, "Счёт")
    look.scroll_to(GROUP, summary, "end")
    look.shot("summary-1")
    assert "Счёт: Аня — 1 · Борис — 0" in summary.text, summary.text

    # A rematch: Борис is put in front of his cards (a line on the new table).
    phone.press(GROUP, "Ещё партию")
    wait(lambda: "Мои карты» ниже" in phone.texts(GROUP)[-1], 30, "the reminder")
    look.shot("rematch-table-reminder")
    phone.be("Борис")
    cards_in_group(look)
    look.shot("rematch-boris-hand")
    surrender(look, "Аня", PRIVATE, "surrender-page-private")
    phone.be("Аня")
    phone.open(GROUP)
    wait(lambda: over(look) >= 2, 30, "the second result")
    look.shot("summary-2")
    first = next(a for a in phone.articles(GROUP) if text_of(a).startswith(OVER))
    assert look.labels(first) == [], look.labels(first)  # only the latest keeps the button
    look.scroll_to(GROUP, first)
    look.shot("old-summary-no-button")


def double_tap(look: Look) -> None:
    """The attacker taps one card twice within a moment."""
    phone = look.phone
    for who, title in (("Аня", PRIVATE), ("Борис", GROUP)):
        article = hand(look, who, title)
        if article is None:
            continue
        cards = [b for b in phone.buttons(article) if b.get_attribute("data-style") == "success"]
        if not cards or "Ваш ход" not in str(article.text):
            continue
        look.driver.execute_script("arguments[0].click(); arguments[0].click();", cards[0])
        answer = look.toast_text()
        look.shot("double-tap", toast=True)
        assert "устарела" not in answer, answer
        return
    raise AssertionError("nobody could open the bout")


def several_cards(look: Look, people: list[tuple[str, str]]) -> None:
    """«Несколько карт» with two cards marked, once someone may open with a pair."""
    phone = look.phone
    for _ in range(60):
        for who, title in people:
            article = hand(look, who, title)
            if article is not None and "Несколько карт" in look.labels(article):
                phone.press(title, "Несколько карт")
                page = wait(partial(phone.last_with_buttons, title), 10, "the marking page")
                look.shot("several-cards-page")
                cards = [x for x in look.labels(page) if RANK.match(x)]
                ranks = [x[:2] if x.startswith("10") else x[:1] for x in cards]
                pair = next(r for r in ranks if ranks.count(r) > 1)
                for label in [x for x in cards if x.startswith(pair)][:2]:
                    phone.press(title, label)
                page = wait(partial(phone.last_with_buttons, title), 10, "the marked page")
                look.shot("several-cards-marked")
                marked = [x for x in look.labels(page) if x.startswith("✓")]
                assert len(marked) == 2, look.labels(page)
                phone.press(title, next(x for x in look.labels(page) if x.startswith("Ходить")))
                return
        if over(look):
            return
        play_a_while(look, [("Аня", PRIVATE), ("Борис", GROUP)], 1)
    look.shot("several-cards-never")


def surrender(look: Look, who: str, title: str, name: str) -> None:
    phone = look.phone
    wait(lambda: hand(look, who, title), 20, f"{who}'s hand")
    phone.press(title, MORE)
    page = look.article_with(title, "Сдаться?")
    look.scroll_to(title, page, "end")
    look.shot(name)
    time.sleep(3.0)  # others move meanwhile: the page stays open
    page = look.article_with(title, "Сдаться?")
    assert SURRENDER in look.labels(page), page.text
    look.scroll_to(title, page, "end")
    look.shot(name + "-3s-later")
    phone.press(title, SURRENDER)
    box = look.driver.find_element(By.ID, "toast")
    said = box.text if box.is_displayed() else ""
    assert said == "", said  # the press counted: no answer but the result


def against_two_masters(look: Look) -> None:
    phone = look.phone
    phone.be("Аня")
    phone.say(GROUP, "/durak")
    lobby = look.article_with(GROUP, "Стол для игры")
    phone.be("Борис")
    phone.press(GROUP, "Выйти")
    phone.be("Аня")
    while "3 места" not in look.labels(look.article_with(GROUP, "Стол для игры")):
        phone.press(
            GROUP, choose(look.labels(lobby), ("2 места", "4 места", "5 мест", "6 мест")) or ""
        )
        lobby = look.article_with(GROUP, "Стол для игры")
    for _ in range(4):
        if "🤖 Мастер" in look.labels(lobby):
            break
        phone.press(GROUP, next(x for x in look.labels(lobby) if x.startswith("🤖")))
        look.shot("bots-toggled", toast=True)
        lobby = look.article_with(GROUP, "Стол для игры")
    look.shot("lobby-masters")
    phone.press(GROUP, "Добавить бота")
    phone.press(GROUP, "Добавить бота")
    phone.wait_text(GROUP, "Козырь", 30)
    look.shot("table-3p")
    assert CLOCK.match(table_line(look)), table_line(look)

    seen: set[str] = set()  # the screens caught: "clock", "out_of_turn", "taken"
    for _ in range(300):
        try:
            if over(look) >= 3 or len(seen) == 3:
                break
            masters_turn(look, seen)
        except StaleElementReferenceException:
            continue  # a message drawn anew meanwhile: look again
    if over(look) < 3:
        surrender(look, "Аня", PRIVATE, "surrender-page-masters")
    phone.open(GROUP)
    wait(lambda: over(look) >= 3, 60, "the result against the bots")
    summary = look.article_with(GROUP, "Счёт")
    look.scroll_to(GROUP, summary, "end")
    look.shot("summary-masters")
    assert "Борис" not in summary.text  # a new series: other seats
    score = text_of(summary).split("Счёт: ")[1].split("\n")[0].replace("\u00a0", " ")
    score = score.removesuffix("изменено")
    for player in score.split(" · "):  # «Мастер 2 — 1» on one line, wherever it wraps
        assert lines_of(look, summary, re.escape(player)) == 1, (player, score)


def masters_turn(look: Look, seen: set[str]) -> None:
    """One look at the game against two «Мастер»: the screens not yet caught, else a
    simple press in Аня's hand."""
    phone = look.phone
    if "clock" not in seen and "Отбивается Мастер" in table_line(look):
        phone.open(GROUP)
        table = look.article_with(GROUP, "Козырь")
        look.shot("table-clock-long-name")
        until = r"до \d\d:\d\d:\d\d \S+"  # «до 21:06:27 мск» wraps whole
        assert lines_of(look, table, until) == 1, table_line(look)
        seen.add("clock")
    article = hand(look, "Аня", PRIVATE)
    if article is None:
        time.sleep(0.2)
        return
    text = str(article.text)
    labels = playable(look, article)
    if "out_of_turn" not in seen and "На столе" not in text and "Ходит" in text:
        cards = [x for x in labels if RANK.match(x)]
        if cards and "Ваш ход" not in text:
            phone.press(PRIVATE, cards[0])
            answer = look.toast_text(or_else=partial(on_table, look))
            if not answer.startswith("Сейчас не ваш ход"):  # a bot opened at her meanwhile:
                now = hand(look, "Аня", PRIVATE)  # her card beat it (silently) or could not
                assert now is not None and "На столе" in str(now.text), answer
                return
            look.shot("out-of-turn-3p", toast=True)
            seen.add("out_of_turn")
            return
    if "taken" not in seen and "Беру" in labels:
        take = next(b for b in phone.buttons(article) if b.text == "Беру")
        look.driver.execute_script("arguments[0].click()", take)  # shot at once:
        time.sleep(0.4)  # the others throw in within the bot's pause
        name = f"{len(look.names) + 1:02d}-after-take-hand"
        look.driver.save_screenshot(str(SHOTS / f"{name}.png"))
        look.names.append(name)
        phone.open(GROUP)
        look.shot("after-take-table")
        seen.add("taken")
        return
    label = choose(labels, PRIORITY)
    if label and label != "• Беру":
        phone.press(PRIVATE, label.removeprefix("• "))
    time.sleep(0.2)
