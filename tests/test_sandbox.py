"""The sandbox without a browser: its page's WebSocket plays the real bot against the
emulator (the tests' own fake Telegram), refuses bad input without changing anything,
and ``python -m bot`` names it when there is no token."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiohttp import ClientSession, ClientWebSocketResponse

import tests.fakes
from bot.config import Config
from bot.outbox import Limits
from bot.session import JsonSession
from sandbox import Sandbox, sandbox
from telegram_emulator import FakeTelegram
from tests.sandbox_helpers import sandbox_process

Check = Callable[[dict[str, Any]], bool]


@contextlib.asynccontextmanager
async def running(tmp_path: Path) -> AsyncIterator[Sandbox]:
    limits = Limits(per_chat=0.0, group_per_minute=6000)
    config = Config(token="", db_path=str(tmp_path / "db.sqlite3"), limits=limits)
    async with sandbox(config, 0) as box:
        task = asyncio.create_task(box.app.run())
        await box.tg.wait_for(lambda: box.tg.count("getUpdates"), 30.0, what="polling")
        try:
            yield box
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def receive(ws: ClientWebSocketResponse, check: Check, timeout: float = 10.0) -> Any:
    """The next pushed message that passes ``check``."""
    async with asyncio.timeout(timeout):
        while True:
            data = json.loads(await ws.receive_str())
            if check(data):
                return data


def chat(state: dict[str, Any], chat_id: int) -> dict[str, Any]:
    return next(c for c in state["chats"] if c["id"] == chat_id)


def says(chat_id: int, part: str) -> Check:
    def check(data: dict[str, Any]) -> bool:
        if data["type"] != "state":
            return False
        return any(part in m["html"] for m in chat(data, chat_id)["messages"])

    return check


def lobby_button(state: dict[str, Any], label: str) -> tuple[int, str]:
    for message in reversed(chat(state, -1001)["messages"]):
        for row in message["keyboard"]:
            for button in row:
                if button["text"] == label:
                    return message["id"], button["callback_data"]
    raise AssertionError(f"no {label!r}")


async def test_the_page_plays_the_real_bot_and_joins_by_the_deep_link(tmp_path: Path) -> None:
    assert tests.fakes.FakeTelegram is FakeTelegram  # one emulator for tests and sandbox
    async with running(tmp_path) as box, ClientSession() as http:
        box.tg.ephemeral_api = False  # as an older server: a newcomer gets the deep link
        async with http.get(box.url) as page:
            html = await page.text()
        assert page.status == 200 and "/static/sandbox.js" in html
        async with http.get(box.url + "static/sandbox.js") as script:
            assert script.status == 200
        async with http.ws_connect(box.url + "ws?as=2") as ws:
            state = await receive(ws, lambda d: d["type"] == "state")
            assert state["me"] == 2 and [c["title"] for c in state["chats"]] == ["Друзья", "Дурак"]
            assert not chat(state, 2)["started"]
            await ws.send_json({"op": "send", "chat": -1001, "text": "/durak"})
            state = await receive(ws, says(-1001, "Стол для игры"))
            assert any(c["command"] == "durak" for c in chat(state, -1001)["commands"])
            message, data = lobby_button(state, "Сесть за стол")
            await ws.send_json({"op": "press", "chat": -1001, "message": message, "data": data})
            answer = await receive(ws, lambda d: d["type"] == "answer")
            assert answer["url"].startswith("https://t.me/durak_sandbox_bot?start=join_")
            payload = answer["url"].partition("?start=")[2]
            await ws.send_json({"op": "start", "payload": payload})
            state = await receive(ws, says(2, "Вы за столом в группе «Друзья»"))
            assert chat(state, 2)["started"]
            assert chat(state, 2)["messages"][0]["html"] == "/start"  # as Telegram shows it
            if not says(-1001, "Борис")(state):  # (the lobby's edit may have come first)
                await receive(ws, says(-1001, "Борис"))
            await ws.send_json({"op": "as", "user": 4})
            state = await receive(ws, lambda d: d["type"] == "state" and d["me"] == 4)
            assert state["lang"] == "en" and chat(state, 4)["title"] == "Дурак"


BAD_INPUT = [
    ("not json", "bad_request"),
    ("[1]", "bad_request"),
    ({"op": "fly"}, "bad_request"),
    ({"op": "as", "user": 123456}, "no_person"),
    ({"op": "as", "user": "1; drop"}, "no_person"),
    ({"op": "as", "user": "--5"}, "no_person"),  # before: a ValueError closed the page
    ({"op": "as", "user": "9" * 5000}, "no_person"),  # beyond int()'s digit limit
    ("[" * 100_000, "bad_request"),  # before: a RecursionError closed the page
    ({"op": "send", "chat": 3, "text": "hi"}, "no_chat"),  # Вера's private chat
    ({"op": "send", "chat": -5, "text": "hi"}, "no_chat"),
    ({"op": "send", "chat": -1001, "text": "   "}, "bad_text"),
    ({"op": "send", "chat": -1001, "text": "x" * 4097}, "bad_text"),
    ({"op": "press", "chat": -1001, "message": 999, "data": "x"}, "stale_button"),
    ({"op": "press", "chat": -1001, "message": 1, "data": "forged"}, "stale_button"),
    ({"op": "start", "payload": "a b"}, "bad_link"),
    ({"op": "start", "payload": "x" * 65}, "bad_link"),
]


async def test_bad_input_gets_a_clear_answer_and_changes_nothing(tmp_path: Path) -> None:
    async with (
        running(tmp_path) as box,
        ClientSession() as http,
        http.ws_connect(box.url + "ws") as ws,
    ):
        await receive(ws, lambda d: d["type"] == "state")
        await ws.send_json({"op": "send", "chat": -1001, "text": "/durak"})
        await receive(ws, says(-1001, "Стол для игры"))
        await box.tg.wait_quiet()
        before = (len(box.tg.updates), len(box.tg.messages(-1001)), box.tg.users[1].started)
        for request, code in BAD_INPUT:
            await ws.send_str(request if isinstance(request, str) else json.dumps(request))
            refused = await receive(ws, lambda d: d["type"] == "refused")
            assert refused["code"] == code, request
        after = (len(box.tg.updates), len(box.tg.messages(-1001)), box.tg.users[1].started)
        assert after == before


async def test_the_sandbox_holds_the_bot_to_telegrams_limits(tmp_path: Path) -> None:
    config = Config(token="", db_path=str(tmp_path / "db.sqlite3"))  # Telegram's pace
    async with sandbox(config, 0) as box:
        box.tg.start_private(box.tg.users[1])
        bot = box.tg.make_bot(JsonSession)
        try:
            sent = await bot.send_message(-1001, "hi")
            with pytest.raises(TelegramBadRequest, match="message is not modified"):
                await bot.edit_message_text("hi", chat_id=-1001, message_id=sent.message_id)
            for _ in range(3):  # a quiet chat's burst
                await bot.send_message(1, "hi")
            with pytest.raises(TelegramRetryAfter):
                await bot.send_message(1, "hi")
        finally:
            await bot.session.close()
            await box.app.stop()
    assert box.tg.too_many_requests_sent == 1


def test_without_a_token_the_one_line_names_the_sandbox() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: BOT_TOKEN is not set: get a token from @BotFather and export it,"
        " or try the bot in a browser without one: .venv/bin/python -m bot --sandbox"
    ]  # the project's own interpreter: works outside an activated environment


def test_the_sandbox_prints_its_address_whatever_the_log_level(tmp_path: Path) -> None:
    with sandbox_process(tmp_path, DURAK_LOG_LEVEL="WARNING") as (url, _):
        assert url.startswith("http://127.0.0.1:")  # before: logged at INFO, so not shown


def test_a_copy_without_the_sandbox_says_how_to_install_it(monkeypatch: Any, capsys: Any) -> None:
    from bot.__main__ import main

    monkeypatch.setitem(sys.modules, "sandbox", None)  # ``import sandbox`` finds nothing
    assert main(["--sandbox", "--port", "0"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: the sandbox is not installed with this copy of the bot;"
        " install the project with it: pip install -e '.[sandbox]' (in the project's folder)"
    ]


PORT = "error: --port must be a whole number (0-65535), not "
BAD_OPTIONS = [
    (["--sandbox", "--port", "nan"], PORT + "'nan'"),
    (["--sandbox", "--port", "70000"], PORT + "'70000'"),
    (["--port", "8081"], "error: --port and --db are options of --sandbox (python -m bot --sandbox)"),  # noqa: E501
    (["--sandbox", "--db", "/no/x.db"], "error: --db must be a file in an existing folder, not '/no/x.db'"),  # noqa: E501
    (["--sandbox", "--fast"], "error: unrecognized arguments: --fast"),
]  # fmt: skip


def test_the_durak_bot_command_reads_its_options() -> None:
    command = Path(sys.executable).with_name("durak-bot")
    done = subprocess.run(
        [str(command), "--sandbox", "--port", "x"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.splitlines() == [PORT + "'x'"]


@pytest.mark.parametrize(("argv", "line"), BAD_OPTIONS)
def test_a_bad_option_is_one_line_and_exit_2(argv: list[str], line: str, capsys: Any) -> None:
    from bot.__main__ import main

    assert main(argv) == 2
    assert capsys.readouterr().err.splitlines() == [line]
