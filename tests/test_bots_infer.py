"""Reading the other players' moves (engine.bots.infer): sound clues, fading with draws,
trusted as far as they predicted their player's own moves."""

from __future__ import annotations

import random

import pytest

from engine import Action, Rules, State, View
from engine.actions import ACCUSE, BACK, DONE
from engine.bots import Budget, MonteCarloBot, pimc
from engine.bots.heuristic import state_policy
from engine.bots.infer import RULED_OUT, Replay, lacking
from engine.bots.pimc import candidates
from engine.bots.tracker import Tracker
from engine.bots.tree import Search
from engine.bots.world import Lacking, sample_hands, sample_state
from engine.cards import Card, cards_of, deck_mask
from tests.helpers import act, game, play
from tests.test_bots_tracker import RULES, masks

LACKS = 0.05


def full_game(hand0: str, hand1: str, *, opener: int = 0) -> State:
    """Two players, 36 cards, hearts trumps (6H face up): the cards not in either
    hand make the stock, so the public counts are those of a real deal."""
    used = masks(f"{hand0} {hand1} 6H")
    rest = " ".join(str(Card(c)) for c in cards_of(deck_mask(36) & ~used))
    return game([hand0, hand1], trump="6H", stock=rest, opener=opener)


def weights_of(state: State, seat: int, other: int) -> dict[str, float]:
    """The weights below 1 of ``other``'s hidden cards, as ``seat`` reads them."""
    view = state.view(seat)
    lack = lacking(view, Tracker.from_view(view), LACKS)
    assert lack is not None  # the replay ends where the view is
    w = lack[other]
    return {} if w is None else {str(Card(c)): x for c, x in enumerate(w) if x < 1.0}


def replayed(state: State) -> Replay:
    """Seat 0's reading of the game so far (every move read by people's hands)."""
    replay = Replay(state.view(0))
    for a in state.history:
        assert replay.move(a, 0, LACKS, False)
    return replay


def test_an_opening_says_no_lower_plain_card_and_no_other_of_its_rank() -> None:
    state = full_game("6D 7D 8D 9D 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, "1 a 9C")
    lack = weights_of(state, 0, 1)
    hidden_below = {f"{r}{s}" for r in ("6", "7", "8") for s in "SC"} | {"9S"}
    assert set(lack) == hidden_below  # its own 6-9D are seat 0's; hearts are trumps
    assert all(w == LACKS for w in lack.values())


def test_a_take_of_one_card_says_nothing_cheap_beats_it() -> None:
    state = full_game("10D 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC")
    play(state, "0 a 10D", "1 take")
    lack = weights_of(state, 0, 1)
    # The stock is long: a high trump (K, A) might have been kept rather than spent.
    assert set(lack) == {"JD", "QD", "KD", "AD", "7H", "8H", "9H", "10H", "JH", "QH"}


def test_a_beat_says_no_cheaper_card_beats_it() -> None:
    state = full_game("6D 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C 7H")
    play(state, "0 a 6D", "1 d 7H>6D")
    assert set(weights_of(state, 0, 1)) == {"7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"}


def test_a_done_with_room_on_the_table_says_no_plain_card_of_its_ranks() -> None:
    state = full_game("6D 7S 8S 10C JS QS", "9C JC QC KC AC 8H", opener=1)
    play(state, "1 a 9C", "0 d 10C>9C")
    assert not {"10D", "10S"} & set(weights_of(state, 0, 1))  # the opening said the nines
    act(state, "1 done")  # the bout ends in «Бито»: both draw a card
    after = weights_of(state, 0, 1)
    assert set(after) >= {"9D", "9S", "10D", "10S"}
    # One card drawn since, from a stock of 21 hidden: the clues fade but still count.
    for card, w in after.items():
        assert LACKS < w < 0.5, card


def test_clues_that_fit_their_players_moves_keep_their_strength() -> None:
    state = full_game("6D 7D 8D 9H 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, "1 a 9C", "0 d 9H>9C")
    replay = replayed(state)
    assert replay.strength(1) == 1.0
    lack = weights_of(state, 0, 1)
    assert set(lack) >= {"6S", "7S", "8S", "6C", "7C", "8C", "9S"}
    assert all(w == LACKS for w in lack.values())


def test_a_card_played_that_its_clues_said_was_not_there_fades_them() -> None:
    # Seat 1 opens with a ten while it holds a nine: not how «Новичок» plays.
    state = full_game("6D 7D 8D 9H 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, "1 a 10C", "0 d 9H>10C")
    before = weights_of(state, 0, 1)
    assert before["9C"] == LACKS and before["7S"] == LACKS
    act(state, "1 t 9C")  # the nine its opening said it lacked, nothing drawn since
    replay = replayed(state)
    trust = replay.strength(1)  # the clue's weight, times the little its opening earned
    assert LACKS <= trust < 2 * LACKS
    after = weights_of(state, 0, 1)
    # What is left of its clues is read at a twentieth of their strength or so.
    assert set(after) == set(before) - {"9C"}
    assert all(w == pytest.approx(1 - trust * (1 - LACKS)) for w in after.values())


def test_the_rules_rule_out_a_trump_below_the_one_shown() -> None:
    state = next(
        s
        for seed in range(200)
        if (s := State(Rules(), seed)).shown is not None and s.shown >> 2 >= 2
    )
    shown = state.shown
    assert shown is not None
    seat = 1 - state.attacker
    view = state.view(seat)
    lack = lacking(view, Tracker.from_view(view), LACKS)
    assert lack is not None and lack[seat] is None  # one's own hand needs no clue
    w = lack[state.attacker]
    assert w is not None
    lower = [c for c in range(shown & 3, shown, 4)]
    hidden = Tracker.from_view(view).hidden
    assert all(w[c] == RULED_OUT for c in lower if hidden >> c & 1)
    assert all(w[c] == 1.0 for c in range(52) if c not in lower)


def test_timeouts_and_unmodelled_moves_tell_nothing() -> None:
    state = full_game("6D 7S 8S 10C JS QS", "9C JC QC KC AC 8H", opener=1)
    play(state, "1 a 9C", "0 d 10C>9C")
    quiet = replayed(state)
    clues = dict(quiet.clues[1])
    assert quiet.move(Action(1, DONE), 0, LACKS, True)  # a timeout's «Бито»
    assert quiet.move(Action(1, BACK), 0, LACKS, False)  # back from idling: no cards move
    assert quiet.clues[1] == clues
    assert not quiet.move(Action(1, ACCUSE, accused=0), 0, LACKS, False)


def test_of_two_clues_at_one_moment_the_stronger_stays() -> None:
    replay = Replay(full_game("6D 7D 8D 9D 10D JD", "9C 10C JC QC KC AC").view(0))
    replay.clue(1, masks("7H"), RULED_OUT)
    replay.clue(1, masks("7H 8H"), LACKS)
    assert replay.clues[1] == {Card.parse("7H"): (0, RULED_OUT), Card.parse("8H"): (0, LACKS)}


def test_the_weight_of_a_lacked_card_is_a_weight() -> None:
    for bad in (0.0, -0.5, 1.5):
        with pytest.raises(ValueError, match="lacks"):
            Budget(lacks=bad)


def test_both_searches_sample_by_what_the_moves_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    state = full_game("6D 7D 8D 9D 10D JC", "9C 10C QC KC AC 7H", opener=1)
    play(state, "1 a 9C")
    view = state.view(0)
    moves = candidates(view)  # beat with the jack, or take
    assert len(moves) == 2
    seen: list[Lacking] = []

    def sample(view: View, tracker: Tracker, rng: random.Random, lacking: Lacking = None) -> State:
        seen.append(lacking)
        return sample_state(view, tracker, rng, lacking)

    monkeypatch.setattr(pimc, "sample_state", sample)
    for lacks, read in ((LACKS, True), (1.0, False)):
        seen.clear()
        MonteCarloBot("Опытный", Budget(worlds=3, seconds=None, lacks=lacks)).choose(view)
        assert seen and all((w is not None) == read for w in seen)
        tree = Search(
            view, moves, random.Random(0), state_policy, max_steps=9, draw=0.5, lacks=lacks
        )
        assert (tree.lacking is not None) == read


MORE_RULES = [
    Rules(last_cards_evenly=True, players=5),
    Rules(simple=True, cheating=True, players=3),  # everyone closes a bout with «Бито»
]


@pytest.mark.parametrize("rules", RULES + MORE_RULES, ids=str)
def test_every_clue_about_a_novice_is_true_and_every_history_replays(rules: Rules) -> None:
    rng = random.Random(2)
    clues = 0
    for seed in range(3):
        state = State(rules, seed)
        while state.outcome is None:
            turn = state.turn()
            assert turn is not None
            seats = list(turn.seats)
            for seat in seats:
                view = state.view(seat)
                tracker = Tracker.from_view(view)
                lack = lacking(view, tracker, LACKS)
                assert lack is not None, len(view.history)
                replay = Replay(view)
                for a, auto in zip(view.history, view.auto, strict=True):
                    assert replay.move(a, seat, LACKS, auto)
                assert all(replay.strength(s) == 1.0 for s in range(rules.players))
                for other, w in enumerate(lack):
                    if w is None:
                        continue
                    for c in range(52):
                        if w[c] <= LACKS and tracker.hidden >> c & 1:
                            clues += 1
                            assert not state.hands[other] >> c & 1
            rng.shuffle(seats)
            moves = (state_policy(state, s) for s in seats)
            state.apply(next(a for a in moves if a is not None))
    assert clues > 100


def test_sampled_hands_rarely_hold_what_their_owner_lacks() -> None:
    state = full_game("6D 7D 8D 9D 10D JD", "9C 10C JC QC KC AC", opener=1)
    play(state, "1 a 9C")
    view = state.view(0)
    tracker = Tracker.from_view(view)
    lack = lacking(view, tracker, LACKS)
    lacked = masks("6S 7S 8S 6C 7C 8C 9S")
    rng = random.Random(3)
    held = {None: 0, "read": 0}
    for _ in range(2000):
        for key, weights in ((None, None), ("read", lack)):
            hands, stock = sample_hands(tracker, rng, weights)
            assert hands[0] == state.hands[0] and len(stock) == view.stock_size
            assert hands[1].bit_count() == view.hand_sizes[1]
            held[key] += (hands[1] & lacked).bit_count()
    # Uniformly 5 of 29 hidden cards go to seat 1: about 1.2 of the 7 lacked a deal.
    assert held[None] > 2000
    assert held["read"] < held[None] / 8
