"""A whole game where Аня plays only from the Mini App page (Debian's headless
Chromium, 360×760, by taps) and Борис only from his private keyboard: each one's moves
reach the other's view, and the game ends for both."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from tests.e2e_helpers import choose, hand_message, settle
from tests.fakes import FakeTelegram
from tests.miniapp_helpers import launch_of, miniapp_bot, two_playing
from tests.miniapp_pages import TablePage, opened
from tests.sandbox_helpers import ROOT, chromium, wait
from tests.service_helpers import held

ARTIFACTS = ROOT / "artifacts" / "miniapp"  # gitignored
ROUNDS = 400  # one tap and one press a round, at most; a game takes far fewer
IDLE = 60  # rounds in a row with no move: stuck


async def test_one_plays_from_the_page_the_other_from_the_keyboard(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with miniapp_bot(tg, tmp_path / "db.sqlite3") as (app, base):
        anna, boris, token = await two_playing(tg, app)
        url = opened(base, launch_of(anna, token), token)
        taps = presses = idle = 0
        with chromium(360, 760) as driver:
            page = await asyncio.to_thread(TablePage, driver, url)
            for _ in range(ROUNDS):
                if held(app.service, 1).state.outcome is not None or idle > IDLE:
                    break
                before = await asyncio.to_thread(lambda: page.version)
                tapped = await asyncio.to_thread(page.step)
                if tapped:
                    taps += 1
                    with contextlib.suppress(AssertionError):  # a sheet opened, or refused
                        await asyncio.to_thread(page.moved_from, before, 3.0)
                await settle(app)
                hand = hand_message(tg, boris)
                data = choose(tg, hand) if hand is not None else None
                if hand is not None and data is not None:
                    answer = await (await tg.press(boris, hand, data))
                    assert answer is not None
                    presses += 1
                    await settle(app)
                idle = 0 if tapped or data else idle + 1
                if not (tapped or data):
                    await asyncio.sleep(0.05)
            await asyncio.to_thread(wait, lambda: page.state == "over", 10, "the game's end")
            driver.save_screenshot(str(ARTIFACTS / "mixed-over.png"))
            ending = await asyncio.to_thread(page.text, "#status")
        state = held(app.service, 1).state
        assert state.outcome is not None, "the game did not end"
        humans: dict[int, list[str]] = {0: [], 1: []}
        for action, auto in zip(state.history, state.auto, strict=True):
            if not auto:
                humans[action.seat].append(str(action))
        assert all(len(moves) > 3 for moves in humans.values()), humans  # both played
        assert taps > 3 and presses > 3
        assert ending.startswith("Партия окончена"), ending
        assert any("Партия окончена" in (m.text or "") for m in tg.messages(-100))
        assert hand_message(tg, boris) is None  # his hand followed to the end: no buttons left
