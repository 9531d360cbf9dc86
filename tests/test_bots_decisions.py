"""Bots decide from their view alone, deterministically, and make the obvious moves."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Action, Rules, State
from engine.bots import BUDGETS, Budget, MonteCarloBot, NoviceBot, decide, make_bot
from engine.bots.pimc import candidates
from engine.bots.tracker import Tracker
from engine.players import Player
from engine.rules import Mode
from tests.helpers import game, play, turn_of
from tests.test_bots_tracker import positions

QUICK = Budget(worlds=6, seconds=None)


def bots() -> list[Player]:
    tree = Budget(worlds=6, seconds=None, search="plan")
    return [NoviceBot(), MonteCarloBot("Опытный", QUICK, seed=4), MonteCarloBot("Мастер", tree)]


def shuffled_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot see dealt anew among the
    other hands and the stock (known cards and hand sizes kept)."""
    tracker = Tracker.from_view(state.view(seat))
    pool = []
    for s in range(state.n):
        if s != seat:
            pool += [c for c in range(52) if (state.hands[s] & ~tracker.known[s]) >> c & 1]
    pool += state.stock[1:]  # the face-up trump card stays at the bottom
    rng.shuffle(pool)
    new = state.copy()
    i = 0
    for s in range(state.n):
        if s != seat:
            n = tracker.slots[s]
            new.hands[s] = tracker.known[s] | sum(1 << c for c in pool[i : i + n])
            i += n
    new.stock = [*state.stock[:1], *pool[i:]]
    return new


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2, deck=36),
        Rules(players=3, deck=36, mode=Mode.PEREVODNOY),
        Rules(players=4, deck=36, teams=True),
    ],
    ids=str,
)
def test_a_decision_does_not_change_when_hidden_cards_are_shuffled(rules: Rules) -> None:
    rng = random.Random(2)
    checked = 0
    for state in positions(rules, seed=11, every=3)[:12]:
        turn = state.turn()
        assert turn is not None
        seat = turn.seats[0]
        other = shuffled_hidden(state, seat, rng)
        assert other.hands != state.hands or other.stock != state.stock or rules.players == 2
        assert other.view(seat) == state.view(seat)
        for bot in bots():
            assert bot.choose(state.view(seat)) == bot.choose(other.view(seat))
        checked += 1
    assert checked


def test_the_same_seed_gives_the_same_move() -> None:
    for state in positions(Rules(players=3, deck=36), seed=2, every=4)[:8]:
        seat = turn_of(state).seats[0]
        view = state.view(seat)
        first = MonteCarloBot("Мастер", QUICK, seed=9).choose(view)
        assert MonteCarloBot("Мастер", QUICK, seed=9).choose(view) == first


def master() -> MonteCarloBot:
    return MonteCarloBot("Мастер", Budget(worlds=40, seconds=None), seed=1)


def test_a_defender_beats_with_the_last_card_and_wins() -> None:
    state = game(["9S KH", "10S"], trump="6D")
    play(state, "0 a 9S")
    for bot in [*bots(), master()]:
        assert bot.choose(state.view(1)) == Action.from_text(1, "d 10S>9S")


def test_an_attacker_opens_with_both_last_cards_when_that_wins() -> None:
    # One card alone is beaten and answered; both at once cannot be beaten.
    state = game(["7S 7C", "8S 9S 10S 8H"], trump="6D")
    for bot in [master(), MonteCarloBot("Опытный", QUICK)]:
        assert bot.choose(state.view(0)) == Action.from_text(0, "a 7S 7C")


def test_no_trump_is_spent_in_the_last_bout_when_a_plain_card_does_the_same() -> None:
    state = game(["7S JC", "8S AD"], trump="6D")
    play(state, "0 a 7S")
    view = state.view(1)
    assert Action.from_text(1, "d AD>7S") in view.legal
    for bot in [*bots(), master()]:
        assert bot.choose(view) == Action.from_text(1, "d 8S>7S")


def test_a_thrower_waits_while_the_defender_defends() -> None:
    state = game(["7S 7C 9H", "8S 9S 10S"], trump="6D", stock="QH KH AH")
    play(state, "0 a 7S")
    assert state.legal_actions(0)  # it may throw in, but nobody waits for it
    for bot in [*bots(), master()]:
        assert bot.choose(state.view(0)) is None


def test_a_single_sensible_move_is_made_without_simulating() -> None:
    state = game(["7S 9H", "8D 9D"], trump="6D", stock="QH KH AH")
    play(state, "0 a 7S")
    bot = master()
    assert bot.choose(state.view(1)) is not None
    assert bot.last_worlds == 0 or len(candidates(state.view(1))) > 1


def test_candidates_keep_one_of_each_equivalent_move() -> None:
    state = game(["7S 7C 7H 9H", "8S 9S 10S 6D"], trump="6D", stock="QH KH AH")
    texts = {a.text for a in candidates(state.view(0))}
    assert "a 7S" in texts and "a 7C" not in texts and "a 7S 7C 7H" in texts
    assert "a 7S 7C" in texts and "a 7C 7H" not in texts


def test_make_bot_names_the_three_levels() -> None:
    novice, expert, master = (make_bot(level) for level in ("novice", "expert", "master"))
    assert isinstance(novice, NoviceBot) and novice.name == "Новичок"
    assert isinstance(expert, MonteCarloBot) and expert.name == "Опытный"
    assert isinstance(master, MonteCarloBot) and master.name == "Мастер"
    with pytest.raises(ValueError, match="novice"):
        make_bot("grandmaster")


def test_a_trump_is_spent_in_the_endgame_only_when_a_plain_card_would_do_worse() -> None:
    bot = master()
    seen = 0
    for seed in range(40):
        for state in positions(Rules(players=2, deck=36), seed=seed, every=1):
            turn = state.turn()
            if state.stock or turn is None or turn.kind != "defend":
                continue
            view = state.view(state.defender)
            moves = candidates(view)
            choice = bot.choose(view)
            assert choice is not None
            if choice.kind != "d" or choice.cards[0] & 3 != view.trump:
                continue
            plain = [
                a
                for a in moves
                if a.kind == "d" and a.target == choice.target and a.cards[0] & 3 != view.trump
            ]
            if plain:
                seen += 1
                scores = bot.evaluate(view, [choice, plain[0]])
                assert scores[1] < scores[0]
    assert seen


def test_the_time_budget_stops_the_sampling() -> None:
    state = State(Rules(players=4, deck=52), seed=3)
    bot = MonteCarloBot("Мастер", Budget(worlds=10**6, seconds=0.05))
    assert bot.choose(state.view(state.attacker)) in state.legal_actions(state.attacker)
    assert 1 <= bot.last_worlds < 10**6


def test_the_work_budget_stops_the_sampling_the_same_way_every_time() -> None:
    state = State(Rules(players=4, deck=52), seed=3)
    view = state.view(state.attacker)
    budget = Budget(worlds=10**6, actions=3000, seconds=None)
    runs = []
    for _ in range(2):
        bot = MonteCarloBot("Мастер", budget, seed=7)
        runs.append((bot.choose(view), bot.last_worlds, bot.last_actions))
    assert runs[0] == runs[1]  # the same view and seed: the same move after the same work
    action, worlds, actions = runs[0]
    assert action in state.legal_actions(state.attacker)
    assert 1 <= worlds < 10**6 and actions >= 3000


def test_a_share_of_the_budget_cuts_the_sampled_work_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full = Budget(worlds=10**6, actions=30_000, seconds=0.5, endgame=9000, search="plan")
    assert full.scaled(0.1) == replace(full, actions=3000)  # the endgame and clock keep theirs
    assert full.scaled(0.1, least=5000).actions == 5000
    assert full.scaled(0.1, least=10**6).actions == 30_000  # never more than the whole
    assert full.scaled(1.0) is full
    state = State(Rules(players=3, deck=36), seed=3)
    view = state.view(state.attacker)
    bot = MonteCarloBot("Мастер", replace(full.scaled(0.1), seconds=None), seed=7)
    bot.choose(view)
    assert 3000 <= bot.last_actions < 30_000 // 2
    # The service's workers: ``decide`` with a share is the level's bot on that share,
    # never below «Опытный»'s whole budget.
    monkeypatch.setitem(BUDGETS, "expert", Budget(worlds=10**6, actions=1000, seconds=None))
    monkeypatch.setitem(BUDGETS, "master", replace(full, seconds=None))
    master = MonteCarloBot("Мастер", replace(BUDGETS["master"], actions=3000), seed=5)
    assert decide("master", view, 5, 0.1) == master.choose(view) != decide("master", view, 5)
    floor = MonteCarloBot("Мастер", replace(BUDGETS["master"], actions=1000), seed=5)
    assert decide("master", view, 5, 0.01) == floor.choose(view)
    assert decide("expert", view, 5, 0.01) == decide("expert", view, 5)


def test_default_budgets_count_work_not_time() -> None:
    for level in ("expert", "master"):
        budget = BUDGETS[level]
        assert budget.actions is not None and budget.seconds is not None
        assert budget.seconds >= 0.5  # the clock is only a safety net


def test_master_may_do_more_work_than_expert() -> None:
    expert, master = BUDGETS["expert"], BUDGETS["master"]
    assert expert.actions is not None and master.actions is not None
    assert master.worlds > expert.worlds and master.actions > expert.actions
    assert master.endgame > expert.endgame


def test_master_plays_not_to_be_the_fool() -> None:
    # A draw (nobody the fool) is worth a win to «Мастер», half a win to «Опытный».
    assert BUDGETS["master"].draw == 1.0 and BUDGETS["expert"].draw == 0.5
