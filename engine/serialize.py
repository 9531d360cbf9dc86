"""JSON-safe snapshots of a game (cards as ``"10S"``) and replay from the action log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import CARDS, RANK_MASK, Card, cards_of, mask_of
from .events import Outcome
from .rules import Rules

if TYPE_CHECKING:
    from .state import State

FORMAT = 1


def _cards(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def _mask(items: Iterable[str]) -> int:
    return mask_of(Card.parse(t) for t in items)


def state_to_dict(s: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": s.rules.to_dict(),
        "seed": s.seed,
        "trump_card": str(s.trump_card),
        "hands": [_cards(h) for h in s.hands],
        "stock": [str(CARDS[c]) for c in s.stock],
        "discard": _cards(s.discard),
        "known": [_cards(k & h) for k, h in zip(s.known, s.hands, strict=True)],
        "shown": None if s.shown is None else str(s.shown),
        "place": list(s.place),
        "missed": list(s.missed),
        "bito_seen": s.bito_seen,
        "bouts": s.bouts,
        "opener": s.opener,
        "attacker": s.attacker,
        "defender": s.defender,
        "cap": s.cap,
        "limit": s.limit,
        "attack": [str(CARDS[c]) for c in s.att],
        "defence": [str(CARDS[c]) if c >= 0 else None for c in s.dfn],
        "taking": s.taking,
        "said": [i for i in range(s.n) if s.said >> i & 1],
        "throwers": [i for i in range(s.n) if s.throwers >> i & 1],
        "spoke": s.spoke,
        "token": s.token,
        "shows": _cards(s.shows),
        "last_fool": s.last_fool,
        "cheats": [i for i in range(s.n) if s.cheats >> i & 1],
        "barred": [[i for i in range(s.n) if m >> i & 1] for m in s.barred],
        "pogony_ranks": list(s.pogony_ranks),
        "bout_attacks": [_cards(m) for m in s.bout_attacks],
        "pogony_awards": [list(pair) for pair in s.pogony_awards],
        "history": [str(a) for a in s.history],
        "auto": [i for i, a in enumerate(s.auto) if a],
        "outcome": None if s.outcome is None else s.outcome.to_dict(),
    }


class SnapshotError(ValueError):
    """A snapshot that cannot be loaded; the message says what is wrong with it."""


def state_from_dict(data: dict[str, Any]) -> State:
    if not isinstance(data, dict):
        raise SnapshotError(f"a snapshot is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise SnapshotError(f"unsupported snapshot format {data.get('format')!r}")
    try:
        return _state(data)
    except KeyError as e:
        raise SnapshotError(f"the snapshot has no {e.args[0]!r}") from None
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        raise SnapshotError(f"the snapshot is damaged: {e}") from None


def _state(data: dict[str, Any]) -> State:
    from .state import State

    s = State.__new__(State)
    rules = Rules.from_dict(data["rules"])
    s._setup(
        rules,
        data["seed"],
        [_mask(h) for h in data["hands"]],
        [Card.parse(c) for c in data["stock"]],
        Card.parse(data["trump_card"]),
    )
    s.discard = _mask(data["discard"])
    s.known = [_mask(k) for k in data["known"]]
    s.shown = None if data["shown"] is None else Card.parse(data["shown"])
    s.place = list(data["place"])
    s.out = sum(1 << i for i, p in enumerate(s.place) if p)
    s.missed = list(data["missed"])
    s.bito_seen = data["bito_seen"]
    s.bouts = data.get("bouts", 0)  # snapshots before the optional rules lack it
    s.opener, s.attacker, s.defender = data["opener"], data["attacker"], data["defender"]
    s.cap, s.limit = data["cap"], data["limit"]
    s.att = [Card.parse(c) for c in data["attack"]]
    s.dfn = [-1 if c is None else Card.parse(c) for c in data["defence"]]
    s.unbeaten = s.dfn.count(-1)
    s.cover = 0
    for c in s.att + s.dfn:
        if c >= 0:
            s.cover |= RANK_MASK[c >> 2]
    s.taking = data["taking"]
    s.said = sum(1 << i for i in data["said"])
    s.throwers = sum(1 << i for i in data["throwers"])
    # Snapshots made before the optional rules lack these: their defaults.
    s.spoke = data.get("spoke", False)
    s.token = data.get("token", (s.defender + 1) % s.n)
    s.shows = _mask(data.get("shows", ()))
    s.last_fool = data.get("last_fool")
    s.cheats = sum(1 << i for i in data.get("cheats", ()))
    s.barred = [sum(1 << i for i in b) for b in data.get("barred", [[]] * s.n)]
    if "pogony_ranks" in data:
        s.pogony_ranks = tuple(data["pogony_ranks"])
        s.bout_attacks = [_mask(m) for m in data["bout_attacks"]]
        s.pogony_awards = [(a, b) for a, b in data["pogony_awards"]]
    s.history = [Action.parse(a) for a in data["history"]]
    autos = set(data["auto"])
    s.auto = [i in autos for i in range(len(s.history))]
    s.outcome = None if data["outcome"] is None else Outcome.from_dict(data["outcome"])
    return s


def replay(
    rules: Rules,
    seed: int,
    log: Iterable[Action | str | tuple[Action | str, bool]],
    *,
    last_fool: int | None = None,
    pogony_ranks: Sequence[int] | None = None,
) -> State:
    """Rebuild a game from its deal and its action log (the series as for ``State``).

    Log entries are actions, logged texts (``"1 d 9H>7H"``) or ``(action, auto)``.
    """
    from .state import State

    s = State(rules, seed, last_fool=last_fool, pogony_ranks=pogony_ranks)
    for entry in log:
        auto = False
        if isinstance(entry, tuple) and not isinstance(entry, Action):
            entry, auto = entry
        action = Action.parse(entry) if isinstance(entry, str) else entry
        s.apply(action, auto=auto)
    return s
