"""A thrower whose only move is «Бито» or «Пас» is not asked for it: the service
says it for them at once, as an automatic move."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Action, Rules, State
from engine.actions import DONE, PASS
from service import GameService
from service.autoplay import forced_word
from storage.repos import ActionRecord, GameRepo
from tests.e2e_helpers import open_table, play_to_the_end, running_bot, seat_everyone
from tests.e2e_helpers import two_friends as friends
from tests.fakes import FakeTelegram
from tests.service_helpers import held, humans, next_move, open_service, start

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL


def check_forced(rules: Rules, seed: int, log: list[ActionRecord]) -> int:
    """Replay ``log``: every automatic move was the only move its seat had; returns
    how many there were."""
    state = State(rules, seed)
    said = 0
    for record in log:
        action = Action.from_text(record.seat, record.action)
        if record.auto:
            assert forced_word(state, record.seat) == action, (record, state.legal_actions(0))
            said += 1
        state.apply(action, auto=record.auto)
    assert state.is_over
    return said


def waiting_for_a_forced_word(service: GameService, game: int) -> bool:
    state = held(service, game).state
    return any(forced_word(state, s) is not None for s in range(state.n))


async def test_words_with_nothing_to_add_are_said_for_people(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "w.sqlite3")
    rules = Rules(players=3, deck=36)
    game = (await start(service, rules, 3, humans(3))).game_id
    while not held(service, game).state.is_over:
        await service.idle()
        # Never waiting for a word that has no alternative.
        assert not waiting_for_a_forced_word(service, game)
        state = held(service, game).state
        if state.is_over:
            break
        seat, text = next_move(state)
        await service.act(game, Action.from_text(seat, text), len(state.history))
    log = await GameRepo(service.db).actions(game)
    said = check_forced(rules, 3, log)
    assert said > 0 and all(
        Action.from_text(0, a.action).kind in (DONE, PASS) for a in log if a.auto
    )
    await service.db.close()


async def test_no_word_is_said_for_anyone_where_they_could_accuse(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "c.sqlite3")
    rules = Rules(players=2, deck=36, cheating=True)
    game = (await start(service, rules, 3, humans(2))).game_id
    while not held(service, game).state.is_over:
        await service.idle()
        state = held(service, game).state
        seat, text = next_move(state)
        await service.act(game, Action.from_text(seat, text), len(state.history))
    log = await GameRepo(service.db).actions(game)
    assert log and not any(a.auto for a in log)  # «Антимухлёж» keeps the choice theirs
    await service.db.close()


@pytest.mark.sqlite_only  # the bot itself runs on SQLite here
async def test_in_the_bot_nobody_presses_a_word_they_had_no_choice_about(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 5
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        game = app.service.game_of(1)
        assert game is not None
        await play_to_the_end(tg, app, group, [anna, boris])
        rules = held(app.service, game).state.rules
        log = await GameRepo(app.service.db).actions(game)
        # No clock ran out in these few seconds: every automatic move was a word
        # said for a player with nothing to add.
        assert check_forced(rules, 5, log) > 0
    assert tg.unanswered_callbacks() == []
