"""«Мастер»'s models of an opponent who does not play like «Новичок» (tree.Search ``mix``)."""

from __future__ import annotations

import random

import pytest

from engine import Rules
from engine.bots import BUDGETS, Budget, MonteCarloBot
from engine.bots.heuristic import state_policy
from engine.bots.pimc import candidates, playout
from engine.bots.policy import lowest_policy
from engine.bots.tree import Search
from tests.helpers import game, play
from tests.test_bots_infer import LACKS, full_game
from tests.test_bots_tracker import positions

STOCK = "6S 6C 6D 7S 7C 7D 8S 8C 8D 9S"  # ten cards: a long stock


def test_the_lowest_policy_plays_its_lowest_card_and_a_word_only_without_one() -> None:
    state = game(["7S 6H 9C", "JS QS KS"], trump="6H", stock=STOCK)
    assert str(lowest_policy(state, 0)) == "0 a 7S"  # 6H is a trump: above every plain card
    state = game(["7S 8C", "AH 9D"], trump="6H", stock=STOCK)
    play(state, "0 a 7S")
    assert str(lowest_policy(state, 1)) == "1 d AH>7S"  # «Новичок» keeps the ace early
    assert str(state_policy(state, 1)) == "1 take"
    state = game(["7S 8C", "9D 10D"], trump="6H", stock=STOCK)
    play(state, "0 a 7S")
    assert str(lowest_policy(state, 1)) == "1 take"


def test_a_playout_plays_each_seat_by_its_own_policy() -> None:
    for state in positions(Rules(players=2, deck=36), seed=8, every=6)[:5]:
        both = [lowest_policy, lowest_policy]
        assert playout(state.copy(), 0, 1500, state_policy, 0.5, both) == playout(
            state.copy(), 0, 1500, lowest_policy, 0.5
        )
        assert playout(state.copy(), 1, 1500, state_policy, 0.5, [None, None]) == playout(
            state.copy(), 1, 1500, state_policy, 0.5
        )


def search(*moves: str) -> Search:
    """Seat 0's tree after ``moves`` of seat 1 (opening) and seat 0."""
    state = full_game("6D 7D 8D 9H 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, *moves)
    view = state.view(0)
    rng = random.Random(3)
    return Search(
        view,
        candidates(view),
        rng,
        state_policy,
        max_steps=1500,
        draw=0.5,
        lacks=LACKS,
        mix=[lowest_policy],
    )


def test_an_opponent_who_fits_is_played_as_novice_and_one_who_does_not_by_the_mix() -> None:
    fits = search("1 a 9C")  # its lowest plain card
    assert fits.fits[1] == 1.0
    assert all(fits.models(1) is None for _ in range(200))
    # Seat 1 opened with a ten and then threw in the nine it was read to lack.
    misfit = search("1 a 10C", "0 d 9H>10C", "1 t 9C")
    trust = misfit.fits[1]
    assert trust < 0.1
    models = [misfit.models(1) for _ in range(2000)]
    mixed = sum(m is not None and m[1] is lowest_policy and m[0] is None for m in models)
    assert abs(mixed / 2000 - (1 - trust)) < 0.03
    visits = misfit.run(200, 20_000, None)
    assert sum(visits) == misfit.iterations > 0


def test_the_mix_names_playout_policies_and_only_master_has_one() -> None:
    with pytest.raises(ValueError, match="policy"):
        Budget(mix=("cheat",))
    assert BUDGETS["master"].mix and not BUDGETS["expert"].mix
    bot = MonteCarloBot("Мастер", Budget(worlds=5, seconds=None, search="plan", mix=("club",)))
    state = full_game("6D 7D 8D 9H 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, "1 a 10C", "0 d 9H>10C", "1 t 9C")
    assert bot.choose(state.view(0)) is not None
