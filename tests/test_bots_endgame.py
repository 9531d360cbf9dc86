"""The exact endgame: known best moves, brute force agrees, deterministic, bounded."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Action, Rules, State
from engine.actions import ACCUSE
from engine.bots import BUDGETS, Budget, MonteCarloBot, make_bot
from engine.bots.arena import play_game
from engine.bots.endgame import DRAW, LOSS, WIN, Solver, grade, solvable
from engine.cards import deck_cards, deck_mask
from engine.rules import Mode
from tests.helpers import game, play
from tests.test_bots_decisions import shuffled_hidden
from tests.test_bots_tracker import positions


def known_game(hands: list[str], *, trump: str) -> State:
    """A scripted two-player endgame with every other card in the discard, so that
    each player can count the other's hand."""
    state = game(hands, trump=trump)
    state.discard = deck_mask(state.rules.deck) & ~(state.hands[0] | state.hands[1])
    return state


def values(state: State, seat: int, nodes: int = 10**6) -> dict[str, int]:
    """The exact value of each move of ``seat`` for that seat's team."""
    moves = [a for a in state.legal_actions(seat) if a.kind != ACCUSE]
    found = Solver(state.partners[seat], nodes).values(state, moves)
    assert found is not None
    return {a.text: v for a, v in zip(moves, found, strict=True)}


def brute_force(state: State, team: int) -> int:
    """Plain minimax over every move, no table and no cut-offs."""
    if state.outcome is not None:
        return grade(state, team)
    turn = state.turn()
    assert turn is not None
    seat = turn.seats[0]
    results = []
    for action in state.legal_actions(seat):
        child = state.copy()
        child.play(action)
        results.append(brute_force(child, team))
    return max(results) if team >> seat & 1 else min(results)


def test_a_throw_in_that_cannot_be_beaten_wins() -> None:
    state = game(["7S 7C", "8S 9D"], trump="6H")
    play(state, "0 a 7S", "1 d 8S>7S")
    # 7C empties seat 0's hand; «Бито» instead lets seat 1 lead 9D, which 7C cannot beat.
    assert values(state, 0) == {"t 7C": WIN, "done": LOSS}


def test_beating_the_last_cards_with_the_last_cards_draws() -> None:
    state = game(["9S 9C", "10S 6H"], trump="7H")
    play(state, "0 a 9S 9C")
    # The trump must go on 9C: on 9S it leaves 10S, which cannot beat 9C.
    assert values(state, 1) == {"d 10S>9S": DRAW, "d 6H>9C": DRAW, "d 6H>9S": LOSS, "take": LOSS}


def test_a_take_that_wins_later() -> None:
    state = game(["KS 7D QD", "AS 7H"], trump="QH")
    play(state, "0 a QD")
    # Beating with 7H lets 7D in, which AS cannot beat; taking keeps 7H for later.
    assert values(state, 1) == {"d 7H>QD": LOSS, "take": WIN}


def test_the_issues_position_is_won_by_leading_the_seven_of_diamonds() -> None:
    state = known_game(["7C 7D AD 7H 8H", "9C"], trump="6H")
    found = values(state, 0)
    assert found["a 7D"] == WIN and found["a 7C"] < WIN
    for level in ("expert", "master"):
        choice = make_bot(level).choose(state.view(0))
        assert choice is not None and found[choice.text] == WIN


def test_a_lost_endgame_is_played_for_the_opponents_mistakes() -> None:
    """Every move loses against the best defence; against «Новичок», who may go wrong,
    leading the king of spades wins where the heuristic's nine loses."""
    state = game(["9H JC QS QH AC", "9S KS AH"], trump="9H", opener=1)
    state.discard = deck_mask(36) & ~(state.hands[0] | state.hands[1])
    assert set(values(state, 1).values()) == {LOSS}
    novice = make_bot("novice")
    heuristic = state.copy()
    play(heuristic, "1 a 9S")
    assert play_game(heuristic, [novice, novice]).fools == (1,)
    for level in ("expert", "master"):
        choice = make_bot(level).choose(state.view(1))
        assert choice is not None and choice.text == "a KS", level
        assert play_game(state.copy(), [novice, make_bot(level)]).fools == (0,)


def test_a_known_win_is_taken_over_a_draw_by_every_level_that_searches() -> None:
    """«Мастер» counts a draw as good as a win in its playouts; when every card is
    known, a move that wins must still beat one that only draws."""
    checked = 0
    for state in small_endgames(Rules(players=2, deck=36), 400, seed=11, most=4):
        state.discard = deck_mask(36) & ~(state.hands[0] | state.hands[1])
        turn = state.turn()
        assert turn is not None
        seat = turn.seats[0]
        found = values(state, seat)
        if not {WIN, DRAW} <= set(found.values()):
            continue
        for level in ("expert", "master"):
            choice = make_bot(level).choose(state.view(seat))
            assert choice is not None and found[choice.text] == WIN, (level, found)
        checked += 1
    assert checked >= 5


def small_endgames(
    rules: Rules, count: int, seed: int, stock: int = 0, most: int = 3
) -> list[State]:
    """Random positions of one to ``most`` cards a hand; ``stock`` cards are left to
    draw before the face-up trump card (0: the stock is empty)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        deck = deck_cards(rules.deck)
        rng.shuffle(deck)
        a, b = rng.randint(1, most), rng.randint(1, most)
        state = State.scripted(
            rules,
            [deck[:a], deck[a : a + b]],
            deck[-1],
            deck[a + b : a + b + stock],
            opener=rng.randrange(2),
        )
        for _ in range(rng.randrange(3)):  # sometimes start in the middle of a bout
            turn = state.turn()
            if turn is None:
                break
            state.play(rng.choice(state.legal_actions(turn.seats[0])))
        if state.outcome is None:
            out.append(state)
    return out


@pytest.mark.parametrize(
    ("rules", "stock", "most"),
    [
        (Rules(players=2, deck=36), 0, 3),
        (Rules(players=2, deck=24, mode=Mode.PEREVODNOY), 0, 3),
        (Rules(players=2, deck=36), 1, 2),  # two cards to draw, the trump card last
    ],
    ids=["36", "24 perevodnoy", "36 with a stock"],
)
def test_the_solver_agrees_with_brute_force_on_small_endgames(
    rules: Rules, stock: int, most: int
) -> None:
    outcomes = set()
    for state in small_endgames(rules, 60, seed=3, stock=stock, most=most):
        assert solvable(state)
        turn = state.turn()
        assert turn is not None
        for seat in (0, 1):
            team = state.partners[seat]
            exact = brute_force(state, team)
            assert Solver(team, 10**6).solve(state) == exact
            outcomes.add(exact)
        mover = turn.seats[0]
        for text, value in values(state, mover).items():
            child = state.copy()
            child.play(Action.from_text(mover, text))
            assert value == brute_force(child, state.partners[mover])
    assert outcomes == {LOSS, DRAW, WIN}


def test_the_solver_is_deterministic() -> None:
    state = game(["6S 8S 10C QD KH 7H", "7S 9S JC AD 8C 6H"], trump="9H")
    runs = []
    for _ in range(2):
        solver = Solver(1, 10**6)
        runs.append((solver.solve(state), solver.spent, len(solver.table)))
    assert runs[0] == runs[1] and runs[0][0] is not None


def test_the_solver_stops_at_its_node_limit() -> None:
    state = game(["6S 8S 10C QD KH 7H 9D", "7S 9S JC AD 8C 6H JD"], trump="9H")
    solver = Solver(1, 200)
    assert solver.solve(state) is None
    assert solver.spent == 200


def test_a_bot_whose_search_runs_out_samples_within_the_same_budget() -> None:
    state = known_game(["6S 8S 10C QD KH 7H 9D", "7S 9S JC AD 8C 6H JD"], trump="9H")
    budget = Budget(worlds=4, actions=1000, seconds=None, endgame=300)
    bot = MonteCarloBot("Мастер", budget)
    choice = bot.choose(state.view(0))
    assert choice in state.legal_actions(0)
    assert bot.last_worlds == 1  # the one possible deal, played out once per candidate
    assert bot.last_actions > 300  # the search's 300 moves, then the playouts


def test_default_budgets_bound_the_search_by_the_work_budget() -> None:
    for level in ("expert", "master"):
        budget = BUDGETS[level]
        assert budget.actions is not None and 0 < budget.endgame <= budget.actions


SEARCHED = (("novice", ""), ("expert", "flat"), ("master", "plan"), ("master", "tree"))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2, deck=36),
        Rules(players=3, deck=24, mode=Mode.PEREVODNOY),
        Rules(players=4, deck=36, teams=True),
    ],
    ids=str,
)
def test_no_level_reads_hidden_cards_from_the_deal_to_the_end(rules: Rules) -> None:
    small = Budget(worlds=4, actions=2000, seconds=None, endgame=2000)
    rng = random.Random(5)
    solved = 0
    for state in positions(rules, seed=21, every=4):
        turn = state.turn()
        assert turn is not None
        seat = turn.seats[0]
        other = shuffled_hidden(state, seat, rng)
        assert other.view(seat) == state.view(seat)
        for level, search in SEARCHED:
            choices = []
            for position in (state, other):
                bot = make_bot(level, seed=8, budget=replace(small, search=search or "flat"))
                choices.append(bot.choose(position.view(seat)))
            assert choices[0] == choices[1]
        probe = MonteCarloBot("Мастер", small, seed=8)
        probe.choose(state.view(seat))
        solved += probe.last_worlds == 0 and probe.last_actions > 0
    assert solved  # the exact search decided some of these moves


def test_with_only_the_trump_card_left_to_draw_the_bot_searches_exactly() -> None:
    searched = 0
    for seed in range(60):  # a stock of one card lasts one bout: rare
        state = State(Rules(players=2, deck=36), 700 + seed)
        while state.outcome is None:
            turn = state.turn()
            assert turn is not None
            seat = turn.seats[0]
            if len(state.stock) == 1:  # the face-up trump card alone
                bot = MonteCarloBot("Мастер", Budget(worlds=4, seconds=None, endgame=10**6))
                choice = bot.choose(state.view(seat))
                if bot.last_actions:  # several candidates
                    found = values(state, seat)
                    assert choice is not None and found[choice.text] == max(found.values())
                    # Decided by the exact search, not by sampling, unless every move
                    # loses (then the search plays for the opponent's mistakes).
                    assert bot.last_worlds == 0 or set(found.values()) == {LOSS}
                    searched += 1
            action = make_bot("novice").choose(state.view(seat))
            assert action is not None
            state.apply(action)
    assert searched >= 2
