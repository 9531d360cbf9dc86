"""What may be done now: legal moves, the reasons a move is refused, the timers.

``legal_actions`` lists what a seat may do now (``State.legal_actions`` calls
it); ``check`` says why an action may not be made now. ``State.apply``
calls ``check`` before it changes anything, so the moves themselves need no checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .actions import (
    ACCUSE,
    ACCUSES,
    BACK,
    BEAT,
    BEATS,
    DONE,
    OPEN,
    OPENINGS_UP_TO,
    PASS,
    QUIT,
    SHOW,
    SHOWS,
    TAKE,
    THROW,
    THROWS,
    TRANSFER,
    TRANSFERS,
    WORD_KINDS,
    WORDS,
    Action,
    IllegalAction,
)
from .board import Board
from .bout import closing_seats, may_throw, next_opponent, waiting
from .cards import RANK_MASK, SUIT_MASK, Card, lowest
from .ending import fast_event
from .rules import ThrowOrder

_TAKES, _DONES, _PASSES = WORDS[TAKE], WORDS[DONE], WORDS[PASS]


class Turn(NamedTuple):
    """Who the game waits for and with which clock (RULES §8).

    ``kind`` is ``"attack"`` (open a bout), ``"defend"`` or ``"throw"`` (the
    throwers decide whether to add cards after everything is beaten or after
    «Беру»). While the defender defends, throwers may also add cards, but
    nobody waits for them.
    """

    kind: str
    seats: tuple[int, ...]


MISSES_TO_IDLE = 2  # attack/defence timeouts in a row that hand a seat to a bot


def turn_of(state: Board) -> Turn | None:
    """Whose move the game waits for (``State.turn``); None once it is over."""
    # Built by tuple.__new__ (as the hot-path events are): the bots ask every step.
    if state.outcome is not None:
        return None
    if not state.att:
        return fast_event(Turn, ("attack", (state.attacker,)))
    if state.unbeaten and not state.taking:
        return fast_event(Turn, ("defend", (state.defender,)))
    return fast_event(Turn, ("throw", waiting(state)))


def legal_actions(state: Board, seat: int) -> list[Action]:
    """The moves of play ``seat`` may make now (several seats may act at once).

    Not listed, because they are always there: «Сдаться» (``quit``) for any
    seat in the game, and ``back`` while the seat is idle (see ``idle``).
    """
    if state.outcome is not None or state.place[seat]:
        return []
    out: list[Action] = []
    if not state.att:
        if seat == state.attacker:
            _add_openings(state, out)
    elif state.closing:
        if closing_seats(state) >> seat & 1:
            out.append(_DONES[seat])
    elif seat == state.defender:
        _add_defence(state, out)
    elif (state.throwers & ~state.said if state.free_order else may_throw(state)) >> seat & 1:
        _add_throws(state, seat, out)
    if state.cheating and state.att:
        _add_accusations(state, seat, out)
    return out


def all_legal_actions(state: Board) -> list[Action]:
    """Every seat's ``legal_actions`` in one list, seat by seat: one call per step
    for simulations that pick among the moves of the whole table."""
    out: list[Action] = []
    if state.outcome is not None:
        return out
    if not state.att:
        _add_openings(state, out)
        return out
    d = state.defender
    free = state.throwers & ~state.said if state.free_order else may_throw(state)
    cheating = state.cheating
    closing = closing_seats(state) if state.closing else 0
    for seat in range(state.n):
        if closing:
            if closing >> seat & 1:
                out.append(_DONES[seat])
        elif seat == d:
            _add_defence(state, out)
        elif free >> seat & 1:
            _add_throws(state, seat, out)
        if cheating and not state.place[seat]:
            _add_accusations(state, seat, out)
    return out


def _add_openings(state: Board, out: list[Action]) -> None:
    """The attacker opens with any cards of one rank."""
    seat = state.attacker
    hand = state.hands[seat]
    if not hand:
        return
    # One rank (four suit bits) at a time, from the lowest card up.
    openings = OPENINGS_UP_TO[1 if state.rules.single_card_opening else state.limit][seat]
    rank = ((hand & -hand).bit_length() - 1) >> 2
    hand >>= 4 * rank
    while hand:
        if hand & 15:
            out += openings[rank][hand & 15]
        hand >>= 4
        rank += 1


def _add_defence(state: Board, out: list[Action]) -> None:
    if state.taking or not state.unbeaten:
        return
    seat = state.defender
    hand, beats, by_target = state.hands[seat], state.beats, BEATS[seat]
    for c, b in zip(state.att, state.dfn):  # noqa: B905 (equal lengths; strict is slower)
        if b < 0:
            row, m = by_target[c], hand & beats[c]
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
    m = hand & RANK_MASK[state.att[0] >> 2] if state.transfers else 0
    if m:  # cards of the attack's rank: can the bout be passed on?
        trumps = m & SUIT_MASK[state.trump] & ~state.shows
        if _transfer_target(state) is not None:
            row = TRANSFERS[seat]
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
        m = trumps if state.rules.transfer_by_trump_show else 0
        if m and _transfer_target(state, 0) is not None:
            row = SHOWS[seat]
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
    out.append(_TAKES[seat])


def _add_accusations(state: Board, seat: int, out: list[Action]) -> None:
    """«Антимухлёж» against every other player still in the game, unless barred."""
    row, barred, place = ACCUSES[seat], state.barred[seat], state.place
    for x in range(state.n):
        if x != seat and not place[x] and not barred >> x & 1:
            out.append(row[x])


def cheat_actions(state: Board, seat: int) -> list[Action]:
    """The cheats the defender may make now (option ``cheating``): any card of the
    hand on any unbeaten attack card, or as a transfer whenever a transfer could be
    made. Only the cheater's own keyboard offers them; ``legal_actions`` does not."""
    out: list[Action] = []
    if not state.cheating or seat != state.defender or state.outcome is not None:
        return out
    if state.taking or not state.unbeaten:
        return out
    hand, beats, by_target = state.hands[seat], state.beats, BEATS[seat]
    for c, b in zip(state.att, state.dfn):  # noqa: B905 (equal lengths; strict is slower)
        if b < 0:
            row, m = by_target[c], hand & ~beats[c]
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
    if _transfer_target(state) is not None:
        row, m = TRANSFERS[seat], hand & ~RANK_MASK[state.att[0] >> 2]
        while m:
            low = m & -m
            out.append(row[low.bit_length() - 1])
            m ^= low
    return out


def _add_throws(state: Board, seat: int, out: list[Action]) -> None:
    """A thrower who has not said «Бито»/«Пас» since the last new card."""
    hand = state.hands[seat]
    if not hand:
        return
    if len(state.att) < state.limit:
        row, m = THROWS[seat], hand & state.cover
        while m:
            low = m & -m
            out.append(row[low.bit_length() - 1])
            m ^= low
    if state.taking:
        out.append(_PASSES[seat])
    elif not state.unbeaten:
        out.append(_DONES[seat])


def timeout_actions(state: Board) -> list[Action]:
    """The automatic moves when the current turn's time runs out (RULES §8)."""
    turn = turn_of(state)
    if turn is None:
        return []
    if turn.kind == "attack":
        hand = state.hands[state.attacker]
        plain = hand & ~SUIT_MASK[state.trump]
        return [Action(state.attacker, OPEN, (lowest(plain or hand),))]
    if turn.kind == "defend":
        return [Action(state.defender, TAKE)]
    word = PASS if state.taking else DONE
    return [Action(s, word) for s in turn.seats]


def _transfer_target(state: Board, adds: int = 1) -> int | None:
    """The seat a transfer would pass the bout to, if a transfer that ``adds`` cards
    to the table (1, or 0 when a trump is only shown) is allowed now."""
    if not state.transfers or state.taking or state.unbeaten != len(state.att):
        return None
    if not state.bouts and state.rules.first_bout_no_transfer:
        return None
    count = len(state.att) + adds
    if count > state.cap:
        return None
    target = next_opponent(state, state.defender)
    if state.hands[target].bit_count() < count:
        return None
    return target


def check(state: Board, action: Action) -> None:
    """Raise ``IllegalAction`` with the reason when ``action`` is not allowed now."""
    if state.outcome is not None:
        raise IllegalAction("the game is over")
    seat = action.seat
    if not 0 <= seat < state.n:
        raise IllegalAction(f"there is no seat {seat}")
    if state.place[seat]:
        raise IllegalAction(f"seat {seat} has left the game")
    kind = action.kind
    rule = _CHECKS.get(kind)
    if rule is None:
        raise IllegalAction(f"unknown action kind {kind!r}")
    if action.target is not None and kind != BEAT:
        raise IllegalAction(f"only a defence names the card it beats, not {kind!r}")
    if action.accused is not None and kind != ACCUSE:
        raise IllegalAction(f"only «Антимухлёж» names a player, not {kind!r}")
    if action.cards and (kind in WORD_KINDS or kind == ACCUSE):
        raise IllegalAction(f"{kind!r} takes no cards")
    if len(action.cards) != 1 and kind in (THROW, BEAT, TRANSFER, SHOW):
        raise IllegalAction(f"{kind!r} takes exactly one card")
    rule(state, action)


def _hand_card(state: Board, action: Action) -> Card:
    """The action's card, which must be in the seat's hand."""
    c = action.cards[0]
    if not state.hands[action.seat] >> c & 1:
        raise IllegalAction(f"seat {action.seat} does not hold {c}")
    return c


def _check_thrower(state: Board, seat: int) -> None:
    if not state.att:
        raise IllegalAction("the bout is not open yet")
    if state.closing:
        raise IllegalAction("the bout is beaten and over: only «Антимухлёж» or «Бито» now")
    if seat == state.defender:
        raise IllegalAction("the defender does not throw in")
    if not state.throwers >> seat & 1:
        raise IllegalAction(f"seat {seat} may not throw in against seat {state.defender}")
    if state.said >> seat & 1:
        raise IllegalAction(f"seat {seat} has already said it adds nothing more")
    if not state.free_order:
        rights = may_throw(state)
        if rights >> seat & 1:
            return
        if state.rules.throw_in_order is ThrowOrder.ATTACKER_FIRST:
            raise IllegalAction(f"seat {state.attacker} has the first word: wait for them")
        raise IllegalAction(f"it is seat {rights.bit_length() - 1}'s turn to throw in")


def _check_defender(state: Board, seat: int) -> None:
    if not state.att:
        raise IllegalAction("the bout is not open yet")
    if seat != state.defender:
        raise IllegalAction(f"only the defender, seat {state.defender}, may do that now")
    if state.taking:
        raise IllegalAction("the defender has already said «Беру»")


def _check_open(state: Board, action: Action) -> None:
    seat, cards = action.seat, action.cards
    if state.att:
        raise IllegalAction("the bout is already open: throw in instead")
    if seat != state.attacker:
        raise IllegalAction(f"seat {state.attacker} opens this bout, not seat {seat}")
    if not cards:
        raise IllegalAction("an attack needs at least one card")
    hand, rank, mask = state.hands[seat], cards[0] >> 2, 0
    for c in cards:
        if not hand >> c & 1:
            raise IllegalAction(f"seat {seat} does not hold {c}")
        if c >> 2 != rank:
            raise IllegalAction("an opening may combine only cards of one rank")
        mask |= 1 << c
    if mask.bit_count() != len(cards):
        raise IllegalAction("the same card twice")
    if len(cards) > state.limit:
        raise IllegalAction(f"at most {state.limit} cards may attack in this bout")
    if len(cards) > 1 and state.rules.single_card_opening:
        raise IllegalAction("at this table a bout opens with a single card")


def _check_throw(state: Board, action: Action) -> None:
    _check_thrower(state, action.seat)
    c = _hand_card(state, action)
    if not state.cover >> c & 1:
        raise IllegalAction(f"no card of the rank of {c} is on the table")
    if len(state.att) >= state.limit:
        raise IllegalAction(f"the table already has the most attack cards: {state.limit}")


def _check_beat(state: Board, action: Action) -> None:
    _check_defender(state, action.seat)
    c = _hand_card(state, action)
    target = action.target
    if target is None or target not in state.att:
        raise IllegalAction(f"{target} is not an attack card on the table")
    if state.dfn[state.att.index(target)] >= 0:
        raise IllegalAction(f"{target} is already beaten")
    if not state.beats[target] >> c & 1 and not state.cheating:
        raise IllegalAction(f"{c} does not beat {target}")


def _check_transfer(state: Board, action: Action) -> None:
    _check_defender(state, action.seat)
    if not state.transfers:
        raise IllegalAction("transfers are played only in perevodnoy")
    c = _hand_card(state, action)
    if c >> 2 != state.att[0] >> 2 and not state.cheating:
        raise IllegalAction(f"a transfer needs a card of the attack's rank, not {c}")
    if state.unbeaten != len(state.att):
        raise IllegalAction("no transfer once a card has been beaten")
    if not state.bouts and state.rules.first_bout_no_transfer:
        raise IllegalAction("the first bout of the game cannot be transferred")
    if _transfer_target(state) is None:
        raise IllegalAction(
            "the next player must hold as many cards as there will be on the table, "
            f"and the bout may have at most {state.cap} attack cards"
        )


def _check_show(state: Board, action: Action) -> None:
    _check_defender(state, action.seat)
    if not state.rules.transfer_by_trump_show:
        raise IllegalAction("at this table a transfer needs a card on the table, not a shown one")
    c = _hand_card(state, action)
    if c >> 2 != state.att[0] >> 2 or c & 3 != state.trump:
        raise IllegalAction(f"only a trump of the attack's rank may be shown, not {c}")
    if state.shows >> c & 1:
        raise IllegalAction(f"{c} has already been shown in this bout")
    if state.unbeaten != len(state.att):
        raise IllegalAction("no transfer once a card has been beaten")
    if not state.bouts and state.rules.first_bout_no_transfer:
        raise IllegalAction("the first bout of the game cannot be transferred")
    if _transfer_target(state, 0) is None:
        raise IllegalAction("the next player must hold as many cards as there are on the table")


def _check_take(state: Board, action: Action) -> None:
    _check_defender(state, action.seat)
    if not state.unbeaten:
        raise IllegalAction("everything is beaten: there is nothing to take")


def _check_done(state: Board, action: Action) -> None:
    if state.closing and action.kind == DONE:
        if not closing_seats(state) >> action.seat & 1:
            raise IllegalAction(f"seat {action.seat} has nothing to say about this bout now")
        return
    _check_thrower(state, action.seat)
    if not state.hands[action.seat]:
        raise IllegalAction("a player without cards has nothing to decide")
    if action.kind == PASS and not state.taking:
        raise IllegalAction("«Пас» is for after «Беру»; say «Бито» when all is beaten")
    if action.kind == DONE:
        if state.taking:
            raise IllegalAction("the defender takes: say «Пас», not «Бито»")
        if state.unbeaten:
            raise IllegalAction("«Бито» only when every attack card is beaten")


def _check_accuse(state: Board, action: Action) -> None:
    seat, x = action.seat, action.accused
    if not state.cheating:
        raise IllegalAction("there is no cheating at this table, so nobody to catch")
    if not state.att:
        raise IllegalAction("«Антимухлёж» only while a bout is on the table")
    if x is None or not 0 <= x < state.n or x == seat:
        raise IllegalAction(f"{x} is not another player at this table")
    if state.place[x]:
        raise IllegalAction(f"seat {x} has left the game")
    if state.barred[seat] >> x & 1:
        raise IllegalAction(f"seat {seat} may not accuse seat {x} again in this bout")


def _check_quit(state: Board, action: Action) -> None:
    """Anyone still in the game may surrender."""


def _check_back(state: Board, action: Action) -> None:
    if state.missed[action.seat] < MISSES_TO_IDLE:
        raise IllegalAction("this seat is not played by a bot")


_CHECKS: dict[str, Callable[[Board, Action], None]] = {
    OPEN: _check_open,
    THROW: _check_throw,
    BEAT: _check_beat,
    TRANSFER: _check_transfer,
    SHOW: _check_show,
    ACCUSE: _check_accuse,
    TAKE: _check_take,
    DONE: _check_done,
    PASS: _check_done,
    QUIT: _check_quit,
    BACK: _check_back,
}
