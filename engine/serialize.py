"""JSON-safe snapshots of a game (cards as ``"10S"``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .actions import Action
from .board import Board
from .cards import CARDS, Card, cards_of, mask_of
from .events import Outcome
from .position import Bout, Position
from .rules import Rules

FORMAT = 1
G = TypeVar("G")


def _cards(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def _mask(items: Iterable[str]) -> int:
    return mask_of(Card.parse(t) for t in items)


def state_to_dict(s: Board) -> dict[str, Any]:
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
        "closing": s.closing,
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


def state_from_dict(data: dict[str, Any], build: Callable[[Rules, int, Position], G]) -> G:
    """A snapshot's game, made by ``build(rules, seed, position)``; raises
    ``SnapshotError`` saying what is wrong (``build``'s ``ValueError`` too)."""
    if not isinstance(data, dict):
        raise SnapshotError(f"a snapshot is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise SnapshotError(f"unsupported snapshot format {data.get('format')!r}")
    try:
        return build(*_parts(data))
    except KeyError as e:
        raise SnapshotError(f"the snapshot has no {e.args[0]!r}") from None
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        raise SnapshotError(f"the snapshot is damaged: {e}") from None


def _parts(data: dict[str, Any]) -> tuple[Rules, int, Position]:
    n = len(data["place"])
    dfn = [-1 if c is None else Card.parse(c) for c in data["defence"]]
    defender = data["defender"]
    bout = Bout(
        attacker=data["attacker"],
        defender=defender,
        cap=data["cap"],
        limit=data["limit"],
        att=[Card.parse(c) for c in data["attack"]],
        dfn=dfn,
        taking=data["taking"],
        said=_seats(data["said"]),
        throwers=_seats(data["throwers"]),
        # Snapshots made before the optional rules lack these: their defaults.
        spoke=data.get("spoke", False),
        token=data.get("token", (defender + 1) % n),
        shows=_mask(data.get("shows", ())),
        cheats=_seats(data.get("cheats", ())),
        barred=[_seats(b) for b in data.get("barred", [[]] * n)],
        bout_attacks=[_mask(m) for m in data.get("bout_attacks", [[]] * n)],
        closing=data.get("closing", False),
    )
    history = [Action.parse(a) for a in data["history"]]
    autos = set(data["auto"])
    position = Position(
        hands=[_mask(h) for h in data["hands"]],
        stock=[Card.parse(c) for c in data["stock"]],
        trump_card=Card.parse(data["trump_card"]),
        opener=data["opener"],
        known=[_mask(k) for k in data["known"]],
        shown=None if data["shown"] is None else Card.parse(data["shown"]),
        discard=_mask(data["discard"]),
        place=list(data["place"]),
        missed=list(data["missed"]),
        bito_seen=data["bito_seen"],
        bouts=data.get("bouts", 0),  # snapshots before the optional rules lack it
        last_fool=data.get("last_fool"),
        pogony_ranks=data.get("pogony_ranks"),
        pogony_awards=[(a, b) for a, b in data.get("pogony_awards", ())],
        history=history,
        auto=[i in autos for i in range(len(history))],
        outcome=None if data["outcome"] is None else Outcome.from_dict(data["outcome"]),
        bout=bout,
    )
    return Rules.from_dict(data["rules"]), data["seed"], position


def _seats(seats: Iterable[int]) -> int:
    return sum(1 << i for i in seats)
