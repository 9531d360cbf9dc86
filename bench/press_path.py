"""The way one card press travels through the bot: the functions of this project it
passes from the update to ``answerCallbackQuery``, and the layers each task enters on
the way to the edits that show the move.

    python -m bench.press_path [--presses 5]

The real bot polls the Bot API emulator in this process; Аня and Борис play a 2-player
game. Each measured press is a card of the mover's hand; a profiler (``sys.setprofile``)
sees every call from the press until the other player's hand and the table show the
move. Printed per press:
- the hops to the answer: this project's functions on the stack (across awaits) when the
  answer is asked for, outermost first;
- per task, the layers in the order it entered them, and how often each was entered
  from another layer (a layer is entered once when it is one block of its task's calls).
The compiled engine is seen through its calls from Python (``engine``).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from aiogram.methods import AnswerCallbackQuery

from bench.local_bot import polling_bot, settle
from bench.playing import hand_buttons, hand_message
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.outbox import Limits
from telegram_emulator import TOKEN, FakeTelegram, FakeUser

COROUTINE = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
ROOT = Path(__file__).resolve().parent.parent
# a module's layer: the first prefix of its path that matches (bot/handlers before bot/)
LAYERS: tuple[tuple[str, str | None], ...] = (
    # values and helpers any layer uses (records, button data, texts, the clock, logs)
    ("storage/records.py", None),
    ("bot/callbacks.py", None),
    ("bot/keyboard.py", None),
    ("bot/i18n.py", None),
    ("bot/card_labels.py", None),
    ("bot/hand_moves.py", None),
    ("service/logctx.py", None),
    ("service/clock.py", None),
    ("bot/traffic.py", None),  # the counters of what passes in and out
    ("bot/miniapp/", "miniapp"),
    ("bot/handlers/", "handler"),
    ("bot/taps.py", "handler"),
    ("bot/delivery/", "delivery"),
    ("bot/outbox", "outbox"),
    ("bot/session.py", "outbox"),
    ("bot/http.py", "outbox"),
    ("bot/outgoing.py", "outbox"),
    ("bot/calls.py", "outbox"),
    ("bot/replies.py", "outbox"),
    ("bot/polling.py", "update"),
    ("bot/intake.py", "update"),
    ("bot/once.py", "update"),
    ("bot/inflight.py", "update"),
    ("bot/metrics.py", None),
    ("bot/logs.py", "update"),
    ("bot/", "presenter"),  # the presenter, its drawings and its collaborators
    ("service/", "service"),
    ("storage/", "storage"),
)


def layer_of(path: str) -> str | None:
    try:
        relative = Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return next((name for prefix, name in LAYERS if relative.startswith(prefix)), None)


def _engine_call(called: Any) -> str | None:
    """The name of a compiled engine function or method a C call is made to."""
    owner = getattr(called, "__self__", None)
    module = getattr(called, "__module__", None) or type(owner).__module__
    return getattr(called, "__qualname__", "?") if module.startswith("engine") else None


@dataclass
class Trace:
    """What the profiler saw of one press."""

    answer_stack: list[str] = field(default_factory=list)
    entered: dict[str, list[str]] = field(default_factory=dict)  # task -> layers in order
    entries: dict[str, Counter[str]] = field(default_factory=dict)  # task -> layer -> times
    _layers: dict[str, str | None] = field(default_factory=dict)  # code file -> layer
    _started: dict[int, FrameType] = field(default_factory=dict)  # coroutines seen (kept)

    def _layer(self, frame: FrameType) -> str | None:
        path = frame.f_code.co_filename
        if path not in self._layers:
            self._layers[path] = layer_of(path)
        return self._layers[path]

    def _caller_layer(self, frame: FrameType) -> str | None:
        """The layer of the nearest caller of this project (library frames skipped)."""
        back = frame.f_back
        while back is not None:
            found = self._layer(back)
            if found is not None:
                return found
            back = back.f_back
        return None

    def _task(self) -> str:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return "-"
        return task.get_name() if task is not None else "-"

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            name = _engine_call(arg)
            if name is not None:
                self._enter("engine", self._caller_layer_of_c(frame), name)
            return
        if event != "call":
            return
        layer = self._layer(frame)
        if layer is None or self._resumed(frame):
            return
        if frame.f_code.co_name == "make_request" and not self.answer_stack:
            method = frame.f_locals.get("method")
            if isinstance(method, AnswerCallbackQuery):
                self.answer_stack = self._stack(frame)
        self._enter(layer, self._caller_layer(frame), frame.f_code.co_qualname)

    def _resumed(self, frame: FrameType) -> bool:
        """Whether a coroutine goes on after an await (a "call" event too), not called."""
        if not frame.f_code.co_flags & COROUTINE:
            return False
        if id(frame) in self._started:
            return True
        self._started[id(frame)] = frame
        return False

    def _caller_layer_of_c(self, frame: FrameType) -> str | None:
        found = self._layer(frame)
        return found if found is not None else self._caller_layer(frame)

    def _enter(self, layer: str, caller: str | None, name: str) -> None:
        if caller == layer:
            return
        task = self._task()
        self.entered.setdefault(task, []).append(f"{layer}({name})")
        self.entries.setdefault(task, Counter())[layer] += 1

    def _stack(self, frame: FrameType) -> list[str]:
        names: list[str] = []
        at: FrameType | None = frame
        while at is not None:
            layer = self._layer(at)
            if layer is not None:
                names.append(f"{layer}: {at.f_code.co_qualname}")
            at = at.f_back
        return names[::-1]


async def _seated(tg: FakeTelegram, app: App) -> tuple[FakeUser, FakeUser]:
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    for user in (anna, boris):
        tg.start_private(user)
    await tg.send_text(anna, group, "/durak")
    lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
    for user in (anna, boris):
        await (await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
    await settle(app)
    return anna, boris


def _press(
    tg: FakeTelegram, users: tuple[FakeUser, FakeUser], marks: tuple[str, ...]
) -> tuple[FakeUser, Any, str] | None:
    """A button whose text starts with one of ``marks``, in the hand of whoever has one."""
    for user in users:
        message = hand_message(tg, user)
        for text, data in hand_buttons(message) if message else []:
            if text.startswith(marks):
                return user, message, data
    return None


async def _card_press(
    tg: FakeTelegram, app: App, users: tuple[FakeUser, FakeUser]
) -> tuple[FakeUser, Any, str]:
    """A playable card in the hand of whoever may play one now; when nobody may, the
    bout is ended first («Беру», «Бито», «Пас»: not traced)."""
    for _ in range(10):
        card = _press(tg, users, ("• ",))
        if card is not None:
            return card
        ending = _press(tg, users, ("Беру", "Бито", "Пас"))
        if ending is None:
            break
        user, message, data = ending
        await (await tg.press(user, message, data))
        await settle(app)
    raise RuntimeError("nobody has a card to play")


async def measure(presses: int) -> list[Trace]:
    limits = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
    traces: list[Trace] = []
    async with FakeTelegram(token=TOKEN) as tg, polling_bot(tg.base_url, limits) as app:
        users = await _seated(tg, app)
        for _ in range(presses):
            user, message, data = await _card_press(tg, app, users)
            trace = Trace()
            sys.setprofile(trace)
            try:
                await (await tg.press(user, message, data))
                await settle(app)
            finally:
                sys.setprofile(None)
            traces.append(trace)
    return traces


def report(traces: list[Trace]) -> None:
    for n, trace in enumerate(traces, 1):
        print(f"press {n}: {len(trace.answer_stack)} hops to answerCallbackQuery")
        for line in trace.answer_stack:
            print(f"    {line}")
        for task, entered in trace.entered.items():
            layers = [e.split("(")[0] for e in entered]
            if set(layers) <= {"update", "outbox"}:
                continue  # polling, and the calls' own wrappers
            blocks = [layer for i, layer in enumerate(layers) if i == 0 or layers[i - 1] != layer]
            again = {k: v for k, v in Counter(blocks).items() if v > 1}
            print(f"  task {task}: {len(entered)} entries into a layer")
            print(f"    {' → '.join(blocks)}")
            print(f"    layers entered more than once: {again or 'none'}")
            if task.startswith("update-"):
                print(f"    in full: {' → '.join(entered)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.press_path")
    parser.add_argument("--presses", type=int, default=3, help="card presses traced")
    args = parser.parse_args(argv)
    report(asyncio.run(measure(args.presses)))


if __name__ == "__main__":
    main()
