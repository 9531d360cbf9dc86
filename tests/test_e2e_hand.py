"""End to end, the hand keyboard's key: a hand that a move left as it was is not edited
and its buttons still count; a press from a keyboard the player no longer has is
refused and changes nothing; a game id that names no game is answered as such."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import CardCb, LobbyCb, MoveCb
from engine import Action, Rules, State
from engine.actions import BEAT, OPEN, THROW
from tests.e2e_helpers import (
    TOKEN,
    hand_key,
    hand_message,
    open_table,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeMessage, FakeTelegram

STALE = "Кнопка устарела: игра уже ушла дальше."


def quiet_opening(state: State) -> tuple[Action, Action, int] | None:
    """A single-card opening after which the third seat has nothing to throw in (its
    hand has nothing to show of it), and a beat of that card."""
    attacker, defender = state.attacker, state.defender
    third = next(s for s in range(state.n) if s not in (attacker, defender))
    for opening in state.legal_actions(attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        beats = [a for a in opened.legal_actions(defender) if a.kind == BEAT]
        if beats and not any(a.kind == THROW for a in opened.legal_actions(third)):
            return opening, beats[0], third
    return None


SEED = next(s for s in range(500) if quiet_opening(State(Rules(players=3), s)))


def card_data(message: FakeMessage, card: str) -> str:
    return next(d for d in message.button_data() if d[:2] == "c:" and CardCb.unpack(d).card == card)


async def test_a_hand_the_move_left_as_it_was_is_not_edited_and_still_counts(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
        group = tg.add_group(-100, "Друзья", members=users)
        for user in users:
            tg.start_private(user)
        async with running_bot(tg, tmp_path / "db.sqlite3") as app:
            app.service.new_seed = lambda: SEED
            await open_table(tg, app, group, users[0])
            seats = LobbyCb(table=1, op="set", arg="seats+").pack()
            assert (await (await tg.press(users[0], tg.latest_message(group), seats))).text
            await settle(app)
            await seat_everyone(tg, app, group, users)
            live = app.service.games[1]
            found = quiet_opening(live.state)
            assert found is not None
            opening, beat, third = found
            by_id = {u.id: u for u in users}
            attacker, defender, quiet = (
                by_id[live.seats[s].user_id] for s in (opening.seat, beat.seat, third)
            )
            before = hand_message(tg, attacker)
            other = next(c for c in live.state.view(opening.seat).hand if c != opening.cards[0])
            old_tap = card_data(before, str(other))  # it would open; now, a throw-in or nothing
            quiet_hand = hand_message(tg, quiet)
            quiet_key, quiet_text = hand_key(quiet_hand), quiet_hand.text
            edits = tg.count("editMessageText", quiet)

            hand = hand_message(tg, attacker)
            answer = await (await tg.press(attacker, hand, card_data(hand, str(opening.cards[0]))))
            assert answer.text is None
            await settle(app)
            assert live.state.history[-1] == opening
            assert tg.count("editMessageText", quiet) == edits  # a move, and no edit
            assert (hand_key(quiet_hand), quiet_hand.text) == (quiet_key, quiet_text)

            # The quiet hand's keyboard is the newest one: its «⋯» opens, a move later.
            answer = await (await tg.press(quiet, quiet_hand, button_text="⋯"))
            assert answer.text is None
            await settle(app)
            assert "Сдаться" in [t for row in quiet_hand.keyboard for t, _ in row]

            # The attacker's keyboard from before the opening is not: a press on it is
            # refused (its card would now be a throw-in) and changes nothing; nor is the
            # defender's from before the beat, with «Беру» on it.
            theirs = hand_message(tg, defender)
            before_beat = hand_key(theirs)
            answer = await (await tg.press(defender, theirs, card_data(theirs, str(beat.cards[0]))))
            assert answer.text is None
            await settle(app)
            length = len(live.state.history)
            answer = await (await tg.press(attacker, before, old_tap, forge=True))
            assert answer.text == STALE and len(live.state.history) == length
            take = MoveCb(game=1, a="take", k=before_beat).pack()
            answer = await (await tg.press(defender, theirs, take, forge=True))
            assert answer.text == STALE and len(live.state.history) == length
        assert tg.unanswered_callbacks() == []


async def test_a_press_for_a_game_that_does_not_exist_says_so(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
        group = tg.add_group(-100, "Друзья", members=[anna, boris])
        for user in (anna, boris):
            tg.start_private(user)
        async with running_bot(tg, tmp_path / "db.sqlite3") as app:
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])
            hand = hand_message(tg, anna)
            before = app.service.games[1].state.to_dict()
            for game in (2, 10**12):
                data = MoveCb(game=game, a="take", k=hand_key(hand)).pack()
                answer = await (await tg.press(anna, hand, data, forge=True))
                assert answer.text == "Такой партии нет — возможно, она уже закончилась."
            assert app.service.games[1].state.to_dict() == before
        assert tg.unanswered_callbacks() == []
