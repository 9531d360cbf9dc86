"""What operators read of a running bot: ``/metrics`` after a game's presses (presses,
moves, the press→answer histogram, calls by method), ``/healthz``, and ``/readyz``,
which turns 503 when the database is closed or cut off; in polling mode on the port
``DURAK_METRICS_PORT`` names, in webhook mode on the webhook's server."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.config import Config
from bot.outbox import Limits
from tests.backends import PgDatabases, db_target
from tests.cable import through_a_cable
from tests.e2e_helpers import (
    TOKEN,
    open_table,
    play_round,
    seat_everyone,
    served_bot,
    settle,
    two_friends,
)
from tests.fakes import FakeTelegram
from tests.service_helpers import held
from tests.test_webhook import free_port

FAST = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
SECRET = "metrics-test-secret"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def scrape(base: str) -> Samples:
    """Every sample of ``/metrics``, by name and labels."""
    status, text = await get(f"{base}/metrics")
    assert status == 200
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def readiness(base: str) -> tuple[int, str]:
    status, text = await get(f"{base}/readyz")
    return status, text.strip()


async def becomes(base: str, status: int, seconds: float = 10.0) -> str:
    """Wait until ``/readyz`` answers ``status``; its text."""
    async with asyncio.timeout(seconds):
        while (answer := await readiness(base))[0] != status:
            await asyncio.sleep(0.2)
    return answer[1]


def polling_bot(tg: FakeTelegram, db: str) -> AbstractAsyncContextManager[tuple[App, str]]:
    """The bot polling the emulator, its endpoints on a port of their own (any free one):
    the app, and the endpoints' base URL."""
    config = Config(
        token=TOKEN, db_path=db, api_base=tg.base_url, limits=FAST, bot_pause=(0.0, 0.0),
        metrics_port=0,
    )  # fmt: skip
    return served_bot(tg, config)


def pressed_a_game(samples: Samples) -> None:
    """What a game's presses leave in the metrics."""
    assert value(samples, "durak_updates_total", kind="callback_query") >= 3
    assert value(samples, "durak_updates_total", kind="message") >= 1
    assert value(samples, "durak_moves_total") > 0
    assert value(samples, "durak_press_answer_seconds_count") >= 3
    assert value(samples, "durak_press_answer_seconds_sum") > 0
    inf = value(samples, "durak_press_answer_seconds_bucket", le="+Inf")
    assert inf == value(samples, "durak_press_answer_seconds_count")
    ok = {"answerCallbackQuery", "sendMessage", "editMessageText", "getMe"}
    for method in ok:
        assert value(samples, "durak_api_calls_total", method=method, result="ok") > 0, method
    assert value(samples, "durak_games_in_memory") == 1
    assert value(samples, "durak_showing") == value(samples, "durak_shards") == 64  # all
    assert value(samples, "durak_thinking_workers") >= 1
    assert ("durak_outbox_queued", frozenset()) in samples
    assert ("durak_outbox_429_total", frozenset()) in samples
    assert ("durak_updates_in_hand", frozenset()) in samples


async def test_polling_bot_serves_metrics_and_health_on_its_port(
    tg: FakeTelegram, tmp_path: Path, backend: str
) -> None:
    anna, boris, group = two_friends(tg)
    async with polling_bot(tg, await db_target(tmp_path / "db.sqlite3")) as (app, base):
        assert await get(f"{base}/healthz") == (200, "ok\n")
        assert await readiness(base) == (200, "ready")
        lobby = await open_table(tg, app, group, anna)
        assert lobby is not None
        await seat_everyone(tg, app, group, [anna, boris])
        for _ in range(3):
            assert await play_round(tg, app, [anna, boris])
        await settle(app)
        samples = await scrape(base)
        pressed_a_game(samples)
        assert value(samples, "durak_moves_total") == len(held(app.service, 1).state.history)

        await app.db.close()  # (the stop closes it again: a second close is harmless)
        status, reason = await readiness(base)
        assert status == 503 and reason.startswith("database: ")
        assert await get(f"{base}/healthz") == (200, "ok\n")  # alive all the same


async def test_polling_bot_is_not_ready_while_its_database_is_cut_off(
    tg: FakeTelegram, pg_databases: PgDatabases
) -> None:
    async with (
        through_a_cable(await pg_databases.target("cut")) as (cable, url),
        polling_bot(tg, url) as (_app, base),
    ):
        assert await readiness(base) == (200, "ready")
        cable.cut()
        assert (await becomes(base, 503)).startswith("database: ")
        cable.mend()
        assert await becomes(base, 200) == "ready"


async def test_webhook_processes_serve_metrics_and_health_on_the_webhook_server(
    tg: FakeTelegram, pg_databases: PgDatabases
) -> None:
    anna, boris, group = two_friends(tg)
    port = free_port()
    async with through_a_cable(await pg_databases.target("webhook")) as (cable, url):
        config = Config.from_env(
            {
                "BOT_TOKEN": TOKEN,
                "DURAK_DB": url,
                "BOT_API_BASE": tg.base_url,
                "DURAK_WEBHOOK_URL": "https://durak.example.org/tg",
                "DURAK_WEBHOOK_PORT": str(port),
                "DURAK_WEBHOOK_SECRET": SECRET,
            }
        )
        assert config.shared and config.metrics_port is None
        app = await App.create(replace(config, limits=FAST, bot_pause=(0.0, 0.0)))
        running = asyncio.create_task(app.run())
        base, address = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port}/tg"
        try:
            await tg.wait_for_call("setWebhook")
            assert await get(f"{base}/healthz") == (200, "ok\n")
            assert await becomes(base, 200) == "ready"
            await tg.send_text(anna, group, "/durak")
            assert await tg.deliver_to_webhook(address) == [200] * 3  # (/start twice first)
            lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
            for user in (anna, boris):
                press = await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
                assert await tg.deliver_to_webhook(address) == [200]
                assert (await press).text == "Вы за столом!"
            await tg.wait_for(lambda: app.delivery.showing == 64, what="every shard")
            await tg.wait_for(lambda: app.service.game_ids() != [], what="the game")
            samples = await scrape(base)
            assert value(samples, "durak_updates_total", kind="callback_query") == 2
            assert value(samples, "durak_updates_total", kind="message") == 3
            assert value(samples, "durak_press_answer_seconds_count") == 2
            replied = value(
                samples, "durak_api_calls_total", method="answerCallbackQuery", result="reply"
            )
            assert replied == 2  # both in the webhook's answers (``bot.replies``)
            assert value(samples, "durak_api_calls_total", method="setWebhook", result="ok") == 1
            assert value(samples, "durak_showing") == value(samples, "durak_shards") == 64
            assert value(samples, "durak_games_in_memory") == 1

            cable.cut()
            assert (await becomes(base, 503)).startswith("database: ")
            assert await get(f"{base}/healthz") == (200, "ok\n")
            cable.mend()
            assert await becomes(base, 200) == "ready"
            await app.db.close()
            assert (await becomes(base, 503)).startswith("database: ")
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
