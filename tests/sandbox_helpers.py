"""The sandbox as a process (``python -m bot --sandbox``) and a headless Chromium that
uses its page the way a person would: by the chats' titles and the buttons' labels."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

ROOT = Path(__file__).parent.parent
ARTIFACTS = ROOT / "artifacts" / "sandbox"  # screenshots; gitignored
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
URL_LINE = re.compile(r"sandbox: open (http://127\.0\.0\.1:\d+/)")
T = TypeVar("T")


@contextmanager
def sandbox_process(tmp: Path, **env: str) -> Iterator[tuple[str, float]]:
    """``python -m bot --sandbox --port 0``; yields its page's URL and the seconds from
    the process's start to the line that names it (printed: read from its output and logs
    together)."""
    log = tmp / "sandbox.log"
    environ = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env}
    started = time.monotonic()
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--sandbox", "--port", "0"],
            cwd=ROOT,
            env=environ,
            stdout=stderr,
            stderr=stderr,
        )
    try:
        url = wait(lambda: _url(log, process), 60.0, "the sandbox's address")
        yield url, time.monotonic() - started
    finally:
        process.terminate()
        process.wait(30)
    assert process.returncode == 0, log.read_text()


def _url(log: Path, process: subprocess.Popen[bytes]) -> str | None:
    if process.poll() is not None:
        raise AssertionError(f"the sandbox exited with {process.returncode}:\n{log.read_text()}")
    found = URL_LINE.search(log.read_text())
    return found.group(1) if found else None


def wait(predicate: Callable[[], T | None], timeout: float, what: str) -> T:
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except (StaleElementReferenceException, ElementClickInterceptedException):
            value = None  # drawn anew, or under a toast for a moment: as a person, try again
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


@contextmanager
def chromium(width: int = 360, height: int = 760) -> Iterator[webdriver.Chrome]:
    """Debian's headless Chromium through its chromedriver; nothing is downloaded."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager, were it asked, stays offline
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory(
        prefix="durak-chromium-", ignore_cleanup_errors=True
    ) as profile:
        for flag in (
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={profile}",
        ):  # fmt: skip
            options.add_argument(flag)
        phone = {"width": width, "height": height, "pixelRatio": 1.0}  # below a window's min.
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": phone})
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()


class Phone:
    """The sandbox page in a browser, used by labels: people, chats, messages, buttons."""

    def __init__(self, driver: webdriver.Chrome, url: str) -> None:
        self.driver = driver
        driver.get(url)
        wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "section.chat"), 30, "chats")

    def be(self, name: str) -> None:
        """Acts as ``name`` from now on."""
        self._click("#people button", name)
        wait(
            lambda: self._button("#people button", name).get_attribute("aria-pressed") == "true",
            10,
            f"acting as {name}",
        )

    def open(self, title: str) -> WebElement:
        """Shows the chat ``title`` (a tab on a narrow screen) and returns its section."""
        shown = self._visible(title)
        if shown is not None:  # a wide screen shows every chat
            return shown
        self._click("#tabs button", title)
        return wait(lambda: self._visible(title), 10, f"the chat {title}")

    def _click(self, css: str, label: str) -> None:
        def click() -> bool:
            self._button(css, label).click()
            return True

        wait(click, 10, f"{css} {label!r}")

    def _visible(self, title: str) -> WebElement | None:
        section = self.section(title)
        return section if section is not None and section.is_displayed() else None

    def titles(self) -> list[str]:
        """The chats' titles, the hidden ones (on a narrow screen) too."""
        found = self.driver.find_elements(By.CSS_SELECTOR, "section.chat > h2")
        return [str(h.get_attribute("textContent")) for h in found]

    def section(self, title: str) -> WebElement | None:
        for section in self.driver.find_elements(By.CSS_SELECTOR, "section.chat"):
            if section.find_element(By.TAG_NAME, "h2").get_attribute("textContent") == title:
                return section
        return None

    def _button(self, css: str, label: str) -> WebElement:
        found = [b for b in self.driver.find_elements(By.CSS_SELECTOR, css) if b.text == label]
        assert found, f"no {css} labelled {label!r}"
        return found[0]

    def say(self, title: str, text: str) -> None:
        field = self.open(title).find_element(By.CSS_SELECTOR, ".compose input")
        field.send_keys(text + Keys.ENTER)

    def articles(self, title: str) -> list[WebElement]:
        section = self.section(title)
        return [] if section is None else section.find_elements(By.TAG_NAME, "article")

    def texts(self, title: str) -> list[str]:
        """The messages' texts, of a hidden chat (on a narrow screen) too."""
        found = [a.find_element(By.CSS_SELECTOR, ".text") for a in self.articles(title)]
        return [str(text.get_attribute("textContent")) for text in found]

    def wait_text(self, title: str, part: str, timeout: float = 20.0) -> str:
        def found() -> str | None:
            return next((t for t in reversed(self.texts(title)) if part in t), None)

        return wait(found, timeout, f"{part!r} in {title}")

    def buttons(self, article: WebElement) -> list[WebElement]:
        return article.find_elements(By.CSS_SELECTOR, ".keyboard button")

    def last_with_buttons(self, title: str) -> WebElement | None:
        return next((a for a in reversed(self.articles(title)) if self.buttons(a)), None)

    def press(self, title: str, label: str) -> None:
        """Presses the button ``label`` of the newest message in ``title`` that has one
        (waiting for it to appear), then waits for the bot's answer."""

        def click() -> WebElement | None:  # a message drawn anew meanwhile: try again
            for article in reversed(self.articles(title)):
                for button in self.buttons(article):
                    if button.text == label:
                        button.click()
                        return button
            return None

        button = wait(click, 20, f"a button {label!r} in {title}")
        wait(lambda: _answered(button), 20, f"the answer to {label!r}")

    def start(self) -> None:
        """Presses «Запустить» at the bottom of the open private chat."""

        def click() -> bool:
            button = self._start_button()
            if button is not None:
                button.click()
            return button is not None

        wait(click, 10, "«Запустить»")

    def _start_button(self) -> WebElement | None:
        found = self.driver.find_elements(By.CSS_SELECTOR, "section.chat.open .start button")
        return found[0] if found and found[0].text.lower() == "запустить" else None

    def toast(self, part: str) -> str:
        """The toast showing now, once it says ``part``."""
        box = self.driver.find_element(By.ID, "toast")
        return wait(
            lambda: box.text if box.is_displayed() and part in box.text else None, 10, "a toast"
        )

    def alert(self) -> str:
        """The text of the alert showing now; closes it with its OK."""
        dialog = self.driver.find_element(By.ID, "alert")
        text = wait(
            lambda: dialog.text if dialog.get_attribute("open") is not None else None, 10, "alert"
        )
        dialog.find_element(By.TAG_NAME, "button").click()
        wait(lambda: dialog.get_attribute("open") is None, 10, "the alert to close")
        return text

    def screenshot(self, name: str) -> Path:
        """Saves what the page shows, once the last toast is gone, as artifacts/sandbox/."""
        toast = self.driver.find_element(By.ID, "toast")
        wait(lambda: not toast.is_displayed(), 10, "the toast to go")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        assert self.driver.save_screenshot(str(path)), f"no screenshot {path}"
        return path


def _answered(button: WebElement) -> bool:
    try:
        return button.get_attribute("aria-busy") is None
    except (StaleElementReferenceException, WebDriverException):
        return True  # the message was drawn anew: the answer came with it


def choose(labels: list[str], priority: tuple[str, ...]) -> str | None:
    for start in priority:
        for label in labels:
            if label.startswith(start):
                return label
    return None
