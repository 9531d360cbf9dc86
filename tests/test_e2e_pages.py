"""End to end: a page of the hand («⋯ → Сдаться») stays open while the others move,
even past the end of the bout, until its player closes it or it stops making sense."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import CardCb
from engine import Action, Rules, State
from engine.actions import BEAT, OPEN, THROW
from tests.e2e_helpers import (
    hand_message,
    hand_of,
    open_table,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.helpers import outcome_of
from tests.service_helpers import held


def beaten_opening(state: State) -> tuple[Action, Action] | None:
    """A single-card opening and the defender's beat of it, after which the attacker
    could throw in (so the bout waits for their «Бито»)."""
    for opening in state.legal_actions(state.attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        for beat in [a for a in opened.legal_actions(state.defender) if a.kind == BEAT]:
            beaten = opened.copy()
            beaten.apply(beat)
            if any(a.kind == THROW for a in beaten.legal_actions(state.attacker)):
                return opening, beat
    return None


SEED = next(s for s in range(500) if beaten_opening(State(Rules(), s)))


def tap(message: FakeMessage, action: Action) -> str:
    return next(
        d
        for d in message.button_data()
        if d[:2] == "c:" and CardCb.unpack(d).card == str(action.cards[0])
    )


def labels(message: FakeMessage) -> list[str]:
    return [text for row in message.keyboard for text, _ in row]


async def test_the_surrender_page_stays_open_past_the_end_of_the_bout(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: SEED
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        assert live is not None
        found = beaten_opening(live.state)
        assert found is not None
        opening, beat = found
        user: dict[int, FakeUser] = {
            s: u for s in range(2) for u in (anna, boris) if live.seats[s].user_id == u.id
        }
        attacker, defender = user[opening.seat], user[beat.seat]

        async def press(who: FakeUser, data: str | None = None, text: str | None = None) -> None:
            message = hand_message(tg, who)
            assert message is not None
            answer = await (await tg.press(who, message, data, button_text=text))
            assert answer.text is None
            await settle(app)

        await press(attacker, tap(hand_of(tg, attacker), opening))
        await press(defender, tap(hand_of(tg, defender), beat))
        await press(defender, text="⋯")
        page = hand_message(tg, defender)
        assert page is not None and "Сдаться?" in (page.text or "")
        surrender = next(d for row in page.keyboard for t, d in row if t == "Сдаться")
        back = next(d for row in page.keyboard for t, d in row if t == "Назад")

        # «Бито»: the bout ends and the next one begins; the page is still open.
        bouts = live.state.bouts
        await press(attacker, text="Бито")
        assert live.state.bouts == bouts + 1
        page = hand_message(tg, defender)
        assert page is not None and "Сдаться?" in (page.text or ""), page
        assert labels(page) == ["Сдаться", "Назад"]

        # «Назад» and «Сдаться» pressed as drawn before the bout ended still count.
        assert (await (await tg.press(defender, page, back, forge=True))).text is None
        await settle(app)
        assert "Сдаться?" not in (page.text or "") and "⋯" in labels(page)
        answer = await (await tg.press(defender, page, surrender, forge=True))
        assert answer.text is None
        await settle(app)
        assert live.state.is_over and live.state.outcome is not None
        assert outcome_of(live.state).fools == (beat.seat,)
    assert tg.unanswered_callbacks() == []
