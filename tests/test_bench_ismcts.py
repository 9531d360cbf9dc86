"""The ISMCTS yardstick (bench.ismcts): legal, reproducible, blind to hidden cards."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from bench import tournament
from bench.ismcts import Allowance, IsmctsPlayer, Search, lowest_card
from engine import Action, Rules, State, View
from engine.actions import ACCUSE
from engine.bots import NoviceBot
from engine.bots.arena import play_game
from engine.bots.heuristic import must_act, state_policy
from engine.bots.tracker import Tracker
from engine.cards import Card, cards_of
from engine.players import Player, RandomPlayer
from engine.rules import Mode
from tests.helpers import game, outcome_of

# The clock off: a decision is its view, its seed and this cap, on any machine.
SMALL = Allowance(seconds=None, iterations=30)


class Checked:
    """Passes a player's moves on, failing on any move its view does not list."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.moves = 0

    def choose(self, view: View) -> Action | None:
        action = self.player.choose(view)
        if action is not None:
            assert action in view.legal and action.kind != ACCUSE, (action, view.legal)
            self.moves += 1
        elif must_act(view):
            pytest.fail(f"waited where it had to move: {view.legal}")
        return action


def mid_game(rules: Rules, seed: int) -> State:
    """A «Новичок» game stopped where the seat to move has a choice, the stock still
    holds hidden cards and the other hand holds cards that seat cannot see."""
    state = State(rules, seed)
    while not state.is_over:
        turn = state.turn()
        assert turn is not None
        seat = turn.seats[0]
        view = state.view(seat)
        tracker = Tracker.from_view(view)
        deep = len(state.history) >= 8 and tracker.stock_hidden >= 4
        if deep and len(view.legal) >= 2 and any(tracker.slots):
            return state
        action = state_policy(state, seat)
        assert action is not None
        state.apply(action)
    raise AssertionError(f"game {seed} never reached a position to test")


def swapped(state: State, seat: int, swaps: int) -> State:
    """The same game with ``swaps`` hidden cards of the other hands traded for hidden
    stock cards: a deal ``seat`` cannot tell from the real one."""
    position = state.position()
    hidden = Tracker.from_view(state.view(seat)).hidden
    hands, stock = list(position.hands), list(position.stock)
    rng = random.Random(swaps)
    for _ in range(swaps):
        s = rng.choice([s for s in range(state.n) if s != seat and hands[s] & hidden])
        card = rng.choice(cards_of(hands[s] & hidden))
        i = rng.randrange(1, len(stock))  # stock[0] is the face-up trump card
        hands[s] = hands[s] & ~(1 << card) | 1 << stock[i]
        stock[i] = card
    return State(state.rules, state.seed, position=position._replace(hands=hands, stock=stock))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=3, deck=24, mode=Mode.PEREVODNOY),
        Rules(players=4, deck=36, teams=True),
        Rules(players=2, deck=36, cheating=True),
    ],
    ids=["2p-podkidnoy", "3p-perevodnoy", "4p-pairs", "2p-cheating"],
)
def test_it_plays_only_legal_moves_and_the_game_ends(rules: Rules) -> None:
    seats = [
        Checked(IsmctsPlayer(s, SMALL) if s % 2 == 0 else NoviceBot(s))
        for s in range(rules.players)
    ]
    state = State(rules, 7)
    outcome = play_game(state, seats)
    assert outcome is not None and state.is_over
    assert seats[0].moves > 5


def test_a_match_against_novice_finishes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "games.jsonl"
    argv = ["--lineup", "ismcts,novice", "--deals", "1", "--ismcts-iterations", "30"]
    assert tournament.main([*argv, "--seed", "5", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "budgets: ismcts_iterations=30" in out
    assert "1 deals, 2 games" in out
    assert "ismcts  2 seat-games" in out and "novice  2 seat-games" in out
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [g["levels"] for g in games] == [["ismcts", "novice"], ["novice", "ismcts"]]
    for g in games:  # each record replays to its outcome
        state = State(Rules(), g["deal"])
        for logged in g["moves"]:
            seat, _, text = logged.partition(" ")
            state.apply(Action.from_text(int(seat), text))
        assert state.outcome is not None
        assert (list(outcome_of(state).fools), outcome_of(state).draw) == (g["fools"], g["draw"])


def test_the_same_seed_and_cap_give_the_same_game() -> None:
    def moves(seed: int) -> list[Action]:
        state = State(Rules(), 11)
        play_game(state, [IsmctsPlayer(seed, SMALL), NoviceBot()])
        return state.history

    first = moves(3)
    assert moves(3) == first
    state = mid_game(Rules(), 5)
    turn = state.turn()
    assert turn is not None
    v = state.view(turn.seats[0])
    player = IsmctsPlayer(3, Allowance(seconds=None, iterations=200))
    assert player.choose(v) == player.choose(v) == IsmctsPlayer(3, player.allowance).choose(v)
    assert player.last_iterations == 200


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_its_decision_is_the_same_whatever_the_hidden_cards_are(seed: int) -> None:
    rules = Rules(players=3, deck=36) if seed == 3 else Rules()
    state = mid_game(rules, seed)
    turn = state.turn()
    assert turn is not None
    seat = turn.seats[0]
    other = swapped(state, seat, swaps=3)
    assert other.hands != state.hands or other.stock != state.stock
    assert other.view(seat) == state.view(seat)
    allowance = Allowance(seconds=None, iterations=300)
    first = IsmctsPlayer(9, allowance).choose(state.view(seat))
    assert first is not None
    assert IsmctsPlayer(9, allowance).choose(other.view(seat)) == first


def test_its_deals_agree_with_the_view_and_spread_the_hidden_cards_evenly() -> None:
    state = mid_game(Rules(), 4)
    turn = state.turn()
    assert turn is not None
    seat = turn.seats[0]
    view = state.view(seat)
    moves = [a for a in view.legal if a.kind != ACCUSE]
    search = Search(view, moves, random.Random(0), 0.7)
    tracker = search.tracker
    other = 1 - seat
    counts: Counter[Card] = Counter()
    samples = 3000
    for _ in range(samples):
        deal = search.determinize()
        seen = deal.view(seat)
        for field in ("hand", "hand_sizes", "known", "stock_size", "discard", "table", "legal"):
            assert getattr(seen, field) == getattr(view, field), field
        assert deal.trump_card == view.trump_card
        hand = deal.hands[other]
        assert hand & tracker.known[other] == tracker.known[other]
        assert hand & ~(tracker.known[other] | tracker.hidden) == 0
        counts.update(cards_of(hand & tracker.hidden))
    share = tracker.slots[other] / tracker.unseen
    assert set(counts) == set(cards_of(tracker.hidden))
    for card in cards_of(tracker.hidden):
        assert abs(counts[card] / samples - share) < 0.05, (card, counts[card], share)


def test_the_playouts_play_the_lowest_card() -> None:
    state = game(["6S 9H AH 7C", "10S JS QS KS"], trump="6H", stock="8D 9D 10D JD QD KD")
    legal = state.legal_actions(0)
    assert lowest_card(legal, state.trump).text == "a 6S"
    state.apply(Action.from_text(0, "a 6S"))
    assert lowest_card(state.legal_actions(1), state.trump).text == "d 10S>6S"


def test_it_beats_a_random_player() -> None:
    fools = Counter[str]()
    for deal in range(3):
        for swap in (False, True):
            seats: list[Player] = [IsmctsPlayer(deal, Allowance(seconds=None, iterations=60))]
            seats.append(RandomPlayer(deal))
            if swap:
                seats.reverse()
            outcome = play_game(State(Rules(), 100 + deal), seats)
            fools["ismcts"] += int(swap) in outcome.fools
            fools["random"] += int(not swap) in outcome.fools
    assert fools["ismcts"] < fools["random"]
