"""«Мастер»'s tree search: deterministic, bounded, searching where flat PIMC plays out."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Rules
from engine.actions import BEAT, OPEN, TAKE, TRANSFER
from engine.bots import BUDGETS, Budget, MonteCarloBot
from engine.bots.endgame import WIN
from engine.bots.heuristic import state_policy
from engine.bots.pimc import candidates
from engine.bots.tree import Node, Search, signed
from tests.helpers import game, play, turn_of
from tests.test_bots_endgame import known_game, values
from tests.test_bots_tracker import positions

TREE = Budget(worlds=10**6, actions=4000, seconds=None, search="tree")


def test_master_searches_a_tree_of_its_own_moves_and_expert_does_not() -> None:
    assert BUDGETS["master"].search == "plan" and BUDGETS["expert"].search == "flat"
    with pytest.raises(ValueError, match="plan"):
        MonteCarloBot("Мастер", Budget(search="deep"))


def test_the_same_view_and_seed_give_the_same_move_after_the_same_work() -> None:
    for state in positions(Rules(players=3, deck=36), seed=4, every=5)[:6]:
        seat = turn_of(state).seats[0]
        runs = []
        for _ in range(2):
            bot = MonteCarloBot("Мастер", TREE, seed=5)
            runs.append((bot.choose(state.view(seat)), bot.last_worlds, bot.last_actions))
        assert runs[0] == runs[1]


def test_the_work_budget_stops_the_search() -> None:
    state = positions(Rules(players=2, deck=36), seed=6, every=1)[0]
    view = state.view(state.attacker)
    moves = candidates(view)
    assert len(moves) > 1
    tree = Search(view, moves, random.Random(1), state_policy, max_steps=1500, draw=0.5)
    visits = tree.run(10**6, 3000, None)
    assert sum(visits) == tree.iterations
    # It stops after the iteration that reaches the budget, or earlier once settled.
    assert tree.spent < 3000 + 200
    assert tree.spent >= 3000 or max(visits) - sorted(visits)[-2] > 0


def test_the_search_stops_once_its_choice_cannot_change() -> None:
    state = game(["7S 7C", "8S 9D"], trump="6H")
    play(state, "0 a 7S", "1 d 8S>7S")
    # 7C cannot be beaten and empties seat 0's hand; «Бито» lets seat 1 lead 9D.
    bot = MonteCarloBot("Мастер", replace(TREE, actions=2000))
    choice = bot.choose(state.view(0))
    assert choice is not None and choice.text == "t 7C"
    assert 0 < bot.last_actions < 2000  # the rest could not have changed the choice


def test_a_known_deal_the_exact_search_leaves_is_searched_not_played_out_once() -> None:
    # The position: leading 7C makes seat 0 the fool, 7D wins.
    state = known_game(["7C 7D AD 7H 8H", "9C"], trump="6H")
    found = values(state, 0)
    no_solver = Budget(worlds=10**6, actions=10_000, seconds=None, endgame=0)
    flat = MonteCarloBot("Мастер", no_solver).choose(state.view(0))
    tree = MonteCarloBot("Мастер", replace(no_solver, search="tree")).choose(state.view(0))
    assert flat is not None and found[flat.text] < WIN  # one playout a move: a look-ahead
    assert tree is not None and found[tree.text] == WIN


def test_moves_of_one_signature_share_a_node_and_the_heuristics_move_leads() -> None:
    state = game(["7S 7C 9H", "8S 9S 10S 8C"], trump="6D", stock="QH KH AH")
    play(state, "0 a 7S", "1 d 8S>7S")
    legal = state.legal_actions(0)
    first = state_policy(state, 0)
    pairs = signed(legal, state.trump, first)
    assert pairs[0][1] == first
    assert len({sig for sig, _ in pairs}) == len(pairs)
    assert {a.text for _, a in pairs} <= {a.text for a in legal}


def kinds_below(node: Node, depth: int) -> set[object]:
    """The move kinds of the tree's nodes ``depth`` moves below ``node``."""
    if depth == 1:
        return {sig[0] for sig in node.children}
    return {k for child in node.children.values() for k in kinds_below(child, depth - 1)}


def test_the_opponents_replies_are_searched_or_left_to_the_heuristic() -> None:
    state = game(["7S 7C 9H QD", "8S 9S 10S 8C"], trump="6D", stock="QH KH AH JH")
    view = state.view(0)
    moves = candidates(view)
    assert all(a.kind == OPEN for a in moves)
    for opponents in (True, False):
        tree = Search(
            view,
            moves,
            random.Random(2),
            state_policy,
            max_steps=1500,
            draw=0.5,
            opponents=opponents,
        )
        tree.run(300, None, None)
        replies = set().union(*(kinds_below(root, 1) for root in tree.roots))
        if opponents:  # the defender's answers are nodes of the tree
            assert replies & {BEAT, TAKE}
        else:  # the bot's own next moves are, the defender's answers are the heuristic's
            assert replies and not replies & {BEAT, TAKE, TRANSFER}
