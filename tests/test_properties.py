"""Property tests: random games over every table setting keep the engine's promises."""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, BoutEnded, Card, Drew, IllegalAction, Rules, State, replay
from engine.actions import ACCUSE, BACK, BEAT, OPEN, QUIT, SHOW, THROW, TRANSFER
from engine.board import FIELDS
from engine.cards import CARDS, SUIT_MASK, deck_mask, lowest
from engine.rules import Mode, ThrowIn

MAX_ACTIONS = 3000


def _rules(table: tuple[int, int, str, str, bool], options: dict[str, Any]) -> Rules | None:
    players, deck, mode, throw_in, teams = table
    try:
        return Rules(
            players=players,
            deck=deck,
            mode=Mode(mode),
            throw_in=ThrowIn(throw_in),
            teams=teams,
            **options,
        )
    except ValueError:
        return None


# Every optional rule of RULES §9 that the engine plays, switched on at random.
options_strategy = st.fixed_dictionaries(
    {
        "first_bout_cap_5": st.booleans(),
        "single_card_opening": st.booleans(),
        "no_trump_opener": st.sampled_from(["lowest", "random"]),
        "first_bout_no_transfer": st.booleans(),
        "transfer_by_trump_show": st.booleans(),
        "throw_in_order": st.sampled_from(["free", "attacker_first", "circle"]),
        "series_opener": st.sampled_from(["lowest_trump", "under_fool"]),
        "no_throw_in_after_take": st.booleans(),
        "simple": st.booleans(),
        "fixed_trump": st.sampled_from([None, "diamonds"]),
        "no_trump": st.booleans(),
        "spades_by_spades": st.booleans(),
        "ace_does_not_hold_stock": st.booleans(),
        "redeal_five_of_suit": st.booleans(),
        "last_cards_evenly": st.booleans(),
        "pogony": st.booleans(),
        "cheating": st.booleans(),
    }
)
table_strategy = st.tuples(
    st.integers(2, 6),
    st.sampled_from([24, 36, 52]),
    st.sampled_from(["podkidnoy", "perevodnoy"]),
    st.sampled_from(["all", "neighbors"]),
    st.booleans(),
)
# Half the time the default options, so the classic rules stay well covered.
rules_strategy = (
    st.tuples(table_strategy, st.one_of(st.just({}), options_strategy))
    .map(lambda t: _rules(*t))
    .filter(lambda r: r is not None)
)


def cards_in(obj: Any, skip: tuple[str, ...] = ()) -> set[int]:
    """Every card mentioned anywhere inside a view (fields, tuples, actions)."""
    found: set[int] = set()
    _collect(obj, skip, found)
    return found


_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass's field names (none: not one)


def _collect(obj: Any, skip: tuple[str, ...], found: set[int]) -> None:
    kind = type(obj)
    if kind is Card:
        found.add(int(obj))
        return
    if kind is Action:  # the most common: every legal move of the view
        found.update(map(int, obj.cards))
        if obj.target is not None:
            found.add(int(obj.target))
        return
    if isinstance(obj, tuple | list):
        for item in obj:
            _collect(item, (), found)
        return
    names = _FIELDS.get(kind)
    if names is None:
        data = is_dataclass(obj) and not isinstance(obj, type)
        names = _FIELDS[kind] = tuple(f.name for f in fields(obj)) if data else ()
    for name in names:
        if name not in skip:
            _collect(getattr(obj, name), (), found)


class PublicKnowledge:
    """What everyone knows about each hand, tracked independently of the engine."""

    def __init__(self, state: State) -> None:
        self.known: list[set[int]] = [set() for _ in range(state.n)]
        trumps = SUIT_MASK[state.trump]
        holders = [s for s in range(state.n) if state.hands[s] & trumps]
        under_fool = state.rules.series_opener == "under_fool" and state.last_fool is not None
        if holders and not under_fool:
            card = min(lowest(state.hands[s] & trumps) for s in holders)
            opener = next(s for s in holders if state.hands[s] >> card & 1)
            self.known[opener].add(card)
        if not state.stock:  # the whole deck was dealt: the trump card's holder is public
            holder = next(s for s in range(state.n) if state.hands[s] >> state.trump_card & 1)
            self.known[holder].add(int(state.trump_card))

    def update(self, state: State, action: Action, events: list[Any]) -> None:
        for c in action.cards:
            if action.kind == SHOW:  # shown for a transfer, kept in hand
                self.known[action.seat].add(int(c))
            else:
                self.known[action.seat].discard(int(c))
        for e in events:
            if isinstance(e, BoutEnded) and e.taken:
                self.known[e.defender].update(int(c) for c in e.cards)
            if isinstance(e, Drew) and e.trump_card:
                self.known[e.seat].add(int(state.trump_card))

    def secrets(self, state: State) -> list[set[int]]:
        """Per seat: the cards in its hand that nobody else may know."""
        return [
            {c for c in range(52) if state.hands[s] >> c & 1} - self.known[s]
            for s in range(state.n)
        ]


def check_cards_conserved(state: State, full: int) -> None:
    parts = [*state.hands, state.discard, *(1 << c for c in state.stock)]
    parts += [1 << c for c in state.att] + [1 << c for c in state.dfn if c >= 0]
    union = 0
    for p in parts:
        assert not union & p, "a card exists twice"
        union |= p
    assert union == full, "a card went missing"


def random_action(rng: random.Random, state: State) -> Action:
    """Any action of any kind, legal or not."""
    seat = rng.randrange(state.n)
    kind = rng.choice([OPEN, THROW, BEAT, TRANSFER, SHOW, ACCUSE, "take", "done", "pass", BACK])
    card, other = CARDS[rng.randrange(52)], CARDS[rng.randrange(52)]
    if kind == OPEN:
        return Action(seat, kind, tuple(sorted({card, other})))
    if kind == BEAT:
        return Action(seat, kind, (card,), other)
    if kind in (THROW, TRANSFER, SHOW):
        return Action(seat, kind, (card,))
    if kind == ACCUSE:
        return Action(seat, kind, accused=rng.randrange(state.n + 1))
    return Action(seat, kind)


def check_legality_agrees(rng: random.Random, state: State) -> None:
    """apply() accepts exactly what legal_actions() and cheat_actions() list (meta
    actions aside)."""
    moves = (state.legal_actions(s) + state.cheat_actions(s) for s in range(state.n))
    ordered = list(dict.fromkeys(a for seat_moves in moves for a in seat_moves))  # no str sort
    legal = set(ordered)
    probes = rng.sample(ordered, min(3, len(ordered))) + [
        random_action(rng, state) for _ in range(4)
    ]
    before = slots(state)
    for a in probes:
        trial = state.copy()
        meta = a.kind == BACK and state.idle(a.seat) and not state.place[a.seat]
        if a in legal or meta:
            trial.apply(a)
        else:
            with pytest.raises(IllegalAction):
                trial.apply(a)
            assert slots(trial) == before, f"refused {a} but changed the state"


def slots(state: State) -> list[Any]:
    """Every attribute of the state: a stricter and much cheaper ``to_dict()`` compare."""
    return [getattr(state, name) for name in FIELDS]


def last_fool_of(rules: Rules, policy_seed: int) -> int | None:
    """A previous game's fool (or None: a first game or a draw) drawn from the seed."""
    fool = policy_seed % (rules.players + 1)
    return None if fool == rules.players else fool


def play_random_game(rules: Rules, seed: int, policy_seed: int) -> State:
    rng = random.Random(policy_seed)
    state = State(rules, seed, last_fool=last_fool_of(rules, policy_seed))
    full = deck_mask(rules.deck)
    public = PublicKnowledge(state)
    viewers: list[int | None] = [*range(state.n), None]
    for _step in range(MAX_ACTIONS):
        if state.is_over:
            break
        check_cards_conserved(state, full)
        secrets = public.secrets(state)
        for viewer in viewers:
            # The history holds only played cards; it is checked once at the end.
            seen = cards_in(state.view(viewer), skip=("history",))
            for owner, hidden in enumerate(secrets):
                leaked = seen & hidden if owner != viewer else set()
                assert not leaked, f"seat {viewer} sees hidden cards {leaked} of seat {owner}"
        check_legality_agrees(rng, state)
        roll = rng.random()
        turn = state.turn()
        assert turn is not None
        if roll < 0.002:
            seat = rng.choice([s for s in range(state.n) if not state.place[s]])
            action, auto = Action(seat, QUIT), False
        elif roll < 0.1 and turn.seats:
            action, auto = state.timeout_actions()[0], True
        else:
            idle = [s for s in range(state.n) if state.idle(s) and not state.place[s]]
            legal = [a for s in range(state.n) for a in state.legal_actions(s)]
            legal += [a for s in range(state.n) for a in state.cheat_actions(s)][:2]
            if idle and roll < 0.15:
                action, auto = Action(rng.choice(idle), BACK), False
            else:
                action, auto = rng.choice(legal), False
        events = state.apply(action, auto=auto)
        public.update(state, action, events)
    else:
        pytest.fail(f"the game did not end within {MAX_ACTIONS} actions")
    check_cards_conserved(state, full)
    played = {int(c) for a in state.history for c in (*a.cards, a.target) if c is not None}
    assert not played & set().union(*public.secrets(state))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**16))
def test_random_games_keep_every_promise(rules: Rules, seed: int, policy: int) -> None:
    state = play_random_game(rules, seed, policy)
    outcome = state.outcome
    assert outcome is not None
    assert sorted(outcome.places)[0] == 1
    assert outcome.draw == (not outcome.fools)
    log = list(zip(state.history, state.auto, strict=True))
    last_fool = last_fool_of(rules, policy)
    assert replay(rules, seed, log, last_fool=last_fool) == state
    assert replay(rules, seed, [(str(a), auto) for a, auto in log], last_fool=last_fool) == state
    assert State.from_dict(state.to_dict()) == state


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_snapshot_mid_game_continues_like_the_original(rules: Rules, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    state = State(rules, seed)
    for _ in range(cut):
        if state.is_over:
            break
        state.apply(rng.choice([a for s in range(state.n) for a in state.legal_actions(s)]))
    restored = State.from_dict(state.to_dict())
    assert restored == state
    copy = state.copy()
    for _ in range(50):
        if state.is_over:
            break
        action = rng.choice([a for s in range(state.n) for a in state.legal_actions(s)])
        assert state.apply(action) == restored.apply(action) == copy.apply(action)
    assert restored == state == copy


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_same_seed_deals_the_same_game(rules: Rules, seed: int) -> None:
    assert State(rules, seed) == State(rules, seed)
    a, b = State(rules, seed), State(rules, seed ^ 0x5A5A)
    assert a.hands != b.hands or a.stock != b.stock


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_simulation_path_plays_like_apply(rules: Rules, seed: int) -> None:
    """all_legal_actions() is every seat's legal_actions() in one list, and play()
    leaves the same position as apply() for each of them."""
    rng = random.Random(seed)
    checked, trusted = State(rules, seed), State(rules, seed)
    while not checked.is_over:
        legal = trusted.all_legal_actions()
        assert legal == [a for s in range(rules.players) for a in checked.legal_actions(s)]
        action = rng.choice(legal)
        checked.apply(action)
        trusted.play(action)
        assert trusted == checked
    assert trusted.all_legal_actions() == []
