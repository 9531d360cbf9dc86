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
from collections.abc import Sequence

from engine.actions import (
    ACCUSE,
    BEAT,
    DONE,
    OPEN,
    PASS,
    QUIT,
    SHOW,
    TAKE,
    THROW,
    TRANSFER,
    Action,
)
from engine.cards import SUIT_SYMBOLS, Card, sort_for_hand
from engine.events import Accused, BoutEnded, Drew, Event, GameOver, Left, Outcome, Played
from engine.players import GreedyPlayer, Player, RandomPlayer
from engine.presets import PRESETS
from engine.rules import Rules
from engine.state import State
from locales import LANGS, t


class Names:
    """How the tool names the seats: «Вы» for the person, «Бот 2» for the others."""

    def __init__(self, lang: str, human: int) -> None:
        self.lang, self.human = lang, human

    def __call__(self, seat: int) -> str:
        if seat == self.human:
            return t(self.lang, "cli.you")
        return t(self.lang, "cli.bot", n=seat + 1)

    def text(self, key: str, seat: int, **params: object) -> str:
        """``key`` said of ``seat``: its verb agrees with «Вы» when that is the person."""
        who = "you" if seat == self.human else "other"
        return t(self.lang, key, who=who, name=self(seat), **params)


def cards_text(cards: Sequence[Card], lang: str) -> str:
    return " ".join(c.label(lang) for c in cards)


CARD_KINDS = {OPEN: "open", THROW: "throw", TRANSFER: "transfer", SHOW: "show"}
WORD_KINDS = {TAKE: "take", DONE: "done", PASS: "pass"}


def action_text(a: Action, names: Names) -> str:
    lang = names.lang
    if a.kind == BEAT and a.target is not None:
        return names.text(
            "cli.beat", a.seat, card=a.cards[0].label(lang), target=a.target.label(lang)
        )
    if a.kind == ACCUSE and a.accused is not None:
        return names.text("cli.accuse", a.seat, accused=names(a.accused))
    if a.kind in CARD_KINDS:
        return names.text(f"cli.{CARD_KINDS[a.kind]}", a.seat, cards=cards_text(a.cards, lang))
    if a.kind in WORD_KINDS or a.kind == QUIT:
        return names.text(f"cli.{WORD_KINDS.get(a.kind, 'quit')}", a.seat)
    return f"{names(a.seat)}: {a.text}"


def event_text(e: Event, names: Names) -> str | None:
    lang = names.lang
    if isinstance(e, BoutEnded):
        if e.taken:
            return names.text("cli.taken", e.defender, n=len(e.cards))
        return t(lang, "cli.discarded")
    if isinstance(e, Drew):
        return names.text("cli.drew", e.seat, n=e.number)
    if isinstance(e, Left):
        return names.text("cli.left", e.seat, place=e.place)
    if isinstance(e, Accused):
        return t(lang, "cli.caught" if e.exposed else "cli.missed", name=names(e.accused))
    if isinstance(e, GameOver):
        return outcome_text(e.outcome, names)
    return None


def outcome_text(o: Outcome, names: Names) -> str:
    if o.draw:
        return t(names.lang, "cli.draw")
    fools = ", ".join(names(s) for s in o.fools)
    return t(names.lang, "cli.fool" if len(o.fools) == 1 else "cli.fools", names=fools)


def show_table(state: State, seat: int, names: Names) -> None:
    v, lang = state.view(seat), names.lang
    print()
    trump = v.trump_card.label(lang)
    print(
        t(
            lang,
            "cli.trump",
            card=trump,
            suit=SUIT_SYMBOLS[v.trump],
            stock=v.stock_size,
            discard=len(v.discard),
        )
    )
    for s, size in enumerate(v.hand_sizes):
        line = names.text("cli.player", s, n=size)
        if v.places[s]:
            line += " " + t(lang, "cli.out")
        elif s in (v.defender, v.attacker):
            line += " " + names.text("cli.defends" if s == v.defender else "cli.attacks", s)
        print("  " + line)
    if v.table:
        pairs = [a.label(lang) + (f"/{d.label(lang)}" if d else "") for a, d in v.table]
        print(t(lang, "cli.on_table", pairs="  ".join(pairs)))
    print(t(lang, "cli.hand", cards=cards_text(sort_for_hand(v.hand, v.trump), lang)))


def option_text(a: Action, names: Names) -> str:
    lang = names.lang
    if a.kind == BEAT and a.target is not None:
        card, target = a.cards[0].label(lang), a.target.label(lang)
        return t(lang, "cli.option_beat", card=card, target=target)
    if a.kind == ACCUSE and a.accused is not None:
        return t(lang, "cli.option_accuse", accused=names(a.accused))
    if a.kind in CARD_KINDS:
        return t(lang, f"cli.option_{CARD_KINDS[a.kind]}", cards=cards_text(a.cards, lang))
    if a.kind in WORD_KINDS:
        return t(lang, f"cli.option_{WORD_KINDS[a.kind]}")
    return a.text


def ask(options: list[Action], optional: bool, names: Names) -> Action | None:
    for i, a in enumerate(options, 1):
        print(f"  {i}. {option_text(a, names)}")
    if optional:
        print(f"  0. {t(names.lang, 'cli.option_none')}")
    print(f"  q. {t(names.lang, 'cli.option_quit')}")
    while True:
        answer = input("> ").strip().lower()
        if answer == "q":
            return Action(options[0].seat, QUIT) if options else None
        if answer == "0" and optional:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        print(t(names.lang, "cli.ask"))


def play(rules: Rules, seed: int, human: int, lang: str = "ru") -> Outcome:
    state = State(rules, seed)
    bots: dict[int, Player] = {s: GreedyPlayer() for s in range(rules.players) if s != human}
    name = Names(lang, human)

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


def report(state: State, events: list[Event], name: Names) -> None:
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
            p.add_argument("--lang", choices=LANGS, default="ru", help="the game's language")
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
        play(rules, seed, args.seat, args.lang)
    except (EOFError, KeyboardInterrupt):
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
