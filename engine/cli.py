"""``durak``: play in the terminal against simple computer players, or simulate games.

durak play --players 3 --mode perevodnoy
durak simulate 1000 --players 4 --teams --policy greedy
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from .actions import ACCUSE, BEAT, DONE, OPEN, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER, Action
from .cards import SUIT_SYMBOLS, Card, sort_for_hand
from .events import Accused, BoutEnded, Drew, Event, GameOver, Left, Outcome, Played
from .players import GreedyPlayer, Player, RandomPlayer
from .presets import PRESETS
from .rules import Rules
from .state import State


def plural(n: int, one: str, few: str, many: str) -> str:
    """Russian plural: 1 карта, 2 карты, 5 карт."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} {one}"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} {few}"
    return f"{n} {many}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.label() for c in cards)


def action_text(a: Action, name: Callable[[int], str]) -> str:
    who = name(a.seat)
    words = {
        OPEN: f"{who} ходит: {cards_text(a.cards)}",
        THROW: f"{who} подкидывает {cards_text(a.cards)}",
        TRANSFER: f"{who} переводит: {cards_text(a.cards)}",
        SHOW: f"{who} переводит, показав козырь {cards_text(a.cards)}",
        TAKE: f"{who}: «Беру»",
        DONE: f"{who}: «Бито»",
        PASS: f"{who}: «Пас»",
        QUIT: f"{who} сдаётся",
    }
    if a.kind == BEAT and a.target is not None:
        return f"{who} бьёт {a.target.label()} картой {a.cards[0].label()}"
    if a.kind == ACCUSE and a.accused is not None:
        return f"{who}: «Антимухлёж» против игрока {name(a.accused)}"
    return words.get(a.kind, f"{who}: {a.text}")


def event_text(e: Event, name: Callable[[int], str]) -> str | None:
    if isinstance(e, BoutEnded):
        if e.taken:
            return f"{name(e.defender)} забирает {plural(len(e.cards), 'карту', 'карты', 'карт')}"
        return "Бито: карты уходят в отбой"
    if isinstance(e, Drew):
        return f"{name(e.seat)} добирает {plural(e.number, 'карту', 'карты', 'карт')}"
    if isinstance(e, Left):
        return f"{name(e.seat)} выходит из игры ({e.place}-е место)"
    if isinstance(e, Accused):
        if e.exposed:
            return f"Поймали! {name(e.accused)} забирает карты со стола"
        return f"Мимо: {name(e.accused)} играет честно"
    if isinstance(e, GameOver):
        return outcome_text(e.outcome, name)
    return None


def outcome_text(o: Outcome, name: Callable[[int], str]) -> str:
    if o.draw:
        return "Ничья: дурака нет, выиграли все"
    fools = ", ".join(name(s) for s in o.fools)
    return f"Дурак: {fools}" if len(o.fools) == 1 else f"Дураки: {fools}"


def show_table(state: State, seat: int, name: Callable[[int], str]) -> None:
    v = state.view(seat)
    print()
    print(
        f"Козырь {v.trump_card.label()} ({SUIT_SYMBOLS[v.trump]}), в колоде {v.stock_size},"
        f" в отбое {len(v.discard)}"
    )
    for s, size in enumerate(v.hand_sizes):
        role = "отбивается" if s == v.defender else ("ходит" if s == v.attacker else "")
        if v.places[s]:
            role = "вышел"
        print(f"  {name(s)}: {plural(size, 'карта', 'карты', 'карт')} {role}")
    if v.table:
        pairs = [a.label() + (f"/{d.label()}" if d else "") for a, d in v.table]
        print("На столе: " + "  ".join(pairs))
    print("Ваши карты: " + cards_text(sort_for_hand(v.hand, v.trump)))


def option_text(a: Action, name: Callable[[int], str]) -> str:
    if a.kind == BEAT and a.target is not None:
        return f"побить {a.target.label()} картой {a.cards[0].label()}"
    if a.kind == ACCUSE and a.accused is not None:
        return f"«Антимухлёж» против игрока {name(a.accused)}"
    words = {
        OPEN: "сходить",
        THROW: "подкинуть",
        TRANSFER: "перевести",
        SHOW: "перевести, показав козырь",
    }
    if a.kind in words:
        return f"{words[a.kind]} {cards_text(a.cards)}"
    return {TAKE: "«Беру»", DONE: "«Бито»", PASS: "«Пас»"}.get(a.kind, a.text)


def ask(options: list[Action], optional: bool, name: Callable[[int], str]) -> Action | None:
    for i, a in enumerate(options, 1):
        print(f"  {i}. {option_text(a, name)}")
    if optional:
        print("  0. ничего не подкидывать")
    print("  q. сдаться")
    while True:
        answer = input("> ").strip().lower()
        if answer == "q":
            return Action(options[0].seat, QUIT) if options else None
        if answer == "0" and optional:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        print("Введите номер хода.")


def play(rules: Rules, seed: int, human: int) -> Outcome:
    state = State(rules, seed)
    bots: dict[int, Player] = {s: GreedyPlayer() for s in range(rules.players) if s != human}

    def name(s: int) -> str:
        return "Вы" if s == human else f"Бот {s + 1}"

    skipped_at = -1
    while state.outcome is None:
        acted = False
        for seat, bot in bots.items():
            action = bot.choose(state.view(seat))
            if action is not None:
                report(state, state.apply(action), name)
                acted = True
                break
        if acted:
            continue
        legal = state.legal_actions(human)
        turn = state.turn()
        optional = turn is not None and human not in turn.seats
        if not legal or (optional and skipped_at == len(state.history)):
            break  # nobody can move: cannot happen in a correct engine
        show_table(state, human, name)
        action = ask(legal, optional, name)
        if action is None:
            skipped_at = len(state.history)
            continue
        report(state, state.apply(action), name)
    assert state.outcome is not None
    return state.outcome


def report(state: State, events: list[Event], name: Callable[[int], str]) -> None:
    for e in events:
        text = action_text(e.action, name) if isinstance(e, Played) else event_text(e, name)
        if text:
            print(text)


def simulate(rules: Rules, games: int, seed: int, policy: str) -> None:
    """Play ``games`` games between computer players and print figures."""
    rng = random.Random(seed)
    fools = [0] * rules.players
    draws = 0
    lengths = []
    started = time.perf_counter()
    for g in range(games):
        state = State(rules, rng.getrandbits(32))
        players: list[Player] = [
            GreedyPlayer() if policy == "greedy" else RandomPlayer(rng.getrandbits(32))
            for _ in range(rules.players)
        ]
        seats = list(range(rules.players))
        while state.outcome is None:
            rng.shuffle(seats)  # who is quicker to act is a matter of chance
            for seat in seats:
                action = players[seat].choose(state.view(seat))
                if action is not None:
                    state.apply(action)
                    break
            else:
                raise RuntimeError(f"nobody can move in game {state.seed}")
        lengths.append(len(state.history))
        draws += state.outcome.draw
        for s in state.outcome.fools:
            fools[s] += 1
        if g == 0:
            first = state
    elapsed = time.perf_counter() - started
    print(f"{games} games of {rules.players} players, {rules.deck} cards, {rules.mode}, {policy}")
    print(f"  {games / elapsed:.0f} games/s, {sum(lengths) / elapsed:.0f} actions/s")
    print(f"  actions per game: median {statistics.median(lengths):.0f}, max {max(lengths)}")
    print(f"  draws: {draws / games:.1%}")
    print("  fool rate by seat: " + ", ".join(f"{s}: {f / games:.1%}" for s, f in enumerate(fools)))
    print(f"  first game: seed {first.seed}, {len(first.history)} actions")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak", description="Durak in the terminal")
    sub = parser.add_subparsers(dest="command", required=True)
    for cmd in ("play", "simulate"):
        p = sub.add_parser(cmd)
        if cmd == "simulate":
            p.add_argument("games", type=int, nargs="?", default=1000)
            p.add_argument("--policy", choices=("random", "greedy"), default="random")
        else:
            p.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
        p.add_argument("--preset", choices=tuple(PRESETS), default="classic")
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--deck", type=int, choices=(24, 36, 52), default=36)
        p.add_argument("--mode", choices=("podkidnoy", "perevodnoy"), help="the preset's")
        p.add_argument("--throw-in", choices=("all", "neighbors"), default="all")
        p.add_argument("--teams", action="store_true", help="pairs at 4, teams of three at 6")
        p.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    table = {"players": args.players, "deck": args.deck, "throw_in": args.throw_in}
    if args.mode is not None:
        table["mode"] = args.mode
    try:
        rules = PRESETS[args.preset].rules(**table, teams=args.teams)
    except ValueError as e:
        parser.error(str(e))
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.command == "simulate":
        simulate(rules, args.games, seed, args.policy)
        return 0
    if not 0 <= args.seat < rules.players:
        parser.error(f"--seat must be between 0 and {rules.players - 1}")
    try:
        play(rules, seed, args.seat)
    except (EOFError, KeyboardInterrupt):
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
