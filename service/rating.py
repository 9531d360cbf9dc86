"""Per-chat statistics and the OpenSkill (Plackett-Luce) rating, updated when a game ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from openskill.models import PlackettLuce

from engine import Outcome
from storage.repos import Conn, Seat, Stats, StatsRepo

_MODEL = PlackettLuce()
RATING_BASE, RATING_SCALE = 1000, 40  # a new player's points; points per unit of mu - 3 sigma


def new_stats(chat_id: int, user_id: int) -> Stats:
    fresh = _MODEL.rating()
    return Stats(chat_id, user_id, 0, 0, 0, 0, 0, 0, fresh.mu, fresh.sigma)


def rating_points(stats: Stats) -> int:
    """The rating as players read it: 1000 for a new player, more for better ones. The
    conservative estimate mu - 3 sigma that orders the tables starts at 0 and goes
    below it after one lost game; scaled and offset, it never reads as negative."""
    return round(RATING_BASE + RATING_SCALE * (stats.mu - 3 * stats.sigma))


def ranks(outcome: Outcome, teams: bool) -> list[float]:
    """Rank per seat for the rating: places, or the team result in team games."""
    if not teams:
        return [float(p) for p in outcome.places]
    return [2.0 if s in outcome.fools else 1.0 for s in range(len(outcome.places))]


async def record_game(
    c: Conn,
    chat_id: int,
    seats: Sequence[Seat],
    outcome: Outcome,
    teams: bool,
    pogony: Sequence[tuple[int, int]] = (),
) -> None:
    """Count the game for every human seat and move their ratings; ``pogony`` lists
    the (giver, fool) pairs of the «погоны» given.

    Bots take part in the rating as fresh, unstored players, so that beating a
    bot still counts a little and a game with one human still moves their rating.
    """
    old: list[Stats | None] = []
    for info in seats:
        user = info.user_id if info.human else None
        if user is None:
            old.append(None)
            continue
        old.append(await StatsRepo.get_in(c, chat_id, user) or new_stats(chat_id, user))
    players = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) if s else _MODEL.rating()] for s in old]
    rated = _MODEL.rate(players, ranks=ranks(outcome, teams))
    for seat, (stats, team) in enumerate(zip(old, rated, strict=True)):
        if stats is None:
            continue
        fool = seat in outcome.fools
        await StatsRepo.put(
            c,
            replace(
                stats,
                games=stats.games + 1,
                wins=stats.wins + (not fool and not outcome.draw),
                fools=stats.fools + fool,
                draws=stats.draws + outcome.draw,
                surrenders=stats.surrenders + (outcome.surrendered == seat),
                pogony=stats.pogony + sum(fool == seat for _, fool in pogony),
                pogony_given=stats.pogony_given + sum(giver == seat for giver, _ in pogony),
                mu=team[0].mu,
                sigma=team[0].sigma,
            ),
        )
