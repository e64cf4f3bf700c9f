"""A match: boardctl's engine against Fairy-Max, a random mover or a greedy one.

Run::

    .venv/bin/python bench/match.py --opponent fairymax --games 20 --movetime 0.2
    .venv/bin/python bench/match.py --opponent random --games 2 --movetime 0.05
    .venv/bin/python bench/match.py --opponent fairymax --games 60 --movetime 0.05 --odds 8

``--odds N`` gives the opponent N times boardctl's time per move (the Pi's budget
against a desktop's).  ``--nodes N`` caps boardctl by positions instead of time
(what a Pi 4 searches in the move time: 18,000 in 0.05 s), so that its side of
the match does not depend on this machine's load; the opponent's time is still
``--movetime`` times ``--odds``.  The summary ends with a 95 % interval of the score and the
Elo difference it means.

Every game starts from the initial position (Fairy-Max has no ``setboard``)
with ``--plies`` random legal opening moves from a seeded generator; each
opening is played twice, boardctl White first and then Black.  boardctl's
rules core referees with the ``falcon-xboard`` preset (Fairy-Max's castling):

- a move of the opponent that the referee finds illegal loses for it, and so
  does an opponent that resigns or claims a result while it has legal moves;
- a game that reaches 200 plies is a draw;
- boardctl's engine returning no move (or an illegal one) is a bug: it raises;
- a game in which Fairy-Max dies, hangs or refuses a legal move of boardctl's
  is aborted and left out of the score (the engine is restarted).

Fairy-Max always promotes to a queen; a promotion without a letter counts as
one.  Its draw and mate claims are ignored: the referee decides.  Prints one
line per game, then boardctl's wins/draws/losses, its score, and the mean
thinking time per move each side actually used.  Exits 0 with a message when
Fairy-Max is not installed; Ctrl-C prints the result so far.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from boardctl.engine import Engine, Limits, core
from boardctl.engine.xboard import (
    DEFAULT_PATH,
    EngineError,
    FairyMax,
    NoMoveError,
    RejectedMoveError,
)
from boardctl.rules import (
    BLACK,
    WHITE,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PieceType,
    get_variant,
    parse_uci,
)
from boardctl.rules.pgn import export

VARIANT = "falcon-xboard"
MAX_PLIES = 200
PIECE_VALUES = {
    PieceType.PAWN: 1,
    PieceType.KNIGHT: 3,
    PieceType.BISHOP: 3,
    PieceType.ROOK: 5,
    PieceType.FALCON: 5,
    PieceType.QUEEN: 9,
}
COLOUR_NAMES = {WHITE: "White", BLACK: "Black"}


class Player(Protocol):
    name: str

    def new_game(self) -> None: ...

    def moved(self, uci: str) -> None:
        """A move was played on the board by the other side (or in the opening)."""

    def choose(self, game: Game) -> str:
        """This side's move, in coordinate notation."""


class Forfeit(Exception):
    """The opponent lost the game by what it did (illegal move, no move)."""


class Aborted(Exception):
    """The game cannot go on for reasons outside the rules; it is not scored."""


# ------------------------------------------------------------------ players
class BoardctlPlayer:
    """boardctl's engine with ``limits`` a move (bench/hexmatch.py plays it by nodes)."""

    def __init__(
        self,
        skill: int,
        seed: int,
        limits: Limits,
        compiled: bool | None = None,
        name: str = "boardctl",
    ) -> None:
        self.name = name
        self.engine = Engine(skill=skill, seed=seed, compiled=compiled)
        self.limits = limits

    def new_game(self) -> None:
        self.engine.new_game()

    def moved(self, uci: str) -> None:
        pass

    def choose(self, game: Game) -> str:
        pos = game.position
        move = self.engine.search(pos, self.limits)
        if move is None:
            raise RuntimeError(f"bug: boardctl's engine found no move in {pos.fen()}")
        if not pos.is_legal(move):
            raise RuntimeError(f"bug: boardctl's engine chose illegal {move!r} in {pos.fen()}")
        return pos.uci(move)


class RandomPlayer:
    """A legal move at random; it remembers nothing between moves."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def new_game(self) -> None:
        pass

    def moved(self, uci: str) -> None:
        pass

    def choose(self, game: Game) -> str:
        return game.position.uci(self.rng.choice(game.position.legal_moves()))


def material(game: Game, colour: int) -> int:
    """``colour``'s material minus its opponent's, in PIECE_VALUES."""
    pos = game.position
    total = 0
    for ptype, value in PIECE_VALUES.items():
        total += value * (pos.pieces[ptype] & pos.colors[colour]).bit_count()
        total -= value * (pos.pieces[ptype] & pos.colors[colour ^ 1]).bit_count()
    return total


class GreedyPlayer(RandomPlayer):
    """One ply: the move that leaves it the most material; ties broken at random."""

    name = "greedy"

    def choose(self, game: Game) -> str:
        pos = game.position
        me = pos.turn
        best: list[Move] = []
        best_value = -(10**6)
        for move in pos.legal_moves():
            pos.push(move)
            value = material(game, me)
            pos.pop()
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return pos.uci(self.rng.choice(best))


class FairyMaxPlayer:
    """Fairy-Max at ``movetime`` seconds a move, or to ``depth`` plies a move
    (then ``movetime`` only bounds a move that takes too long)."""

    def __init__(
        self, path: str, movetime: float, hash_mb: int | None, depth: int | None = None
    ) -> None:
        self.name = "fairymax"
        self.movetime = movetime
        self.depth = depth
        self.engine = FairyMax(path, hash_mb=hash_mb)

    def new_game(self) -> None:
        try:
            if not self.engine.running:
                self.engine.start()
            self.engine.new_game()
        except EngineError as exc:
            raise Aborted(f"Fairy-Max failed: {exc}") from exc

    def moved(self, uci: str) -> None:
        try:
            self.engine.play_move(uci)
        except RejectedMoveError as exc:
            raise Aborted(f"Fairy-Max refused {uci}, legal for the referee: {exc.reply}") from exc
        except EngineError as exc:
            raise Aborted(f"Fairy-Max failed: {exc}") from exc

    def choose(self, game: Game) -> str:
        try:
            return self.engine.go(self.movetime, self.depth)
        except NoMoveError as exc:
            raise Forfeit(f"Fairy-Max did not move ({exc.reply}) but has legal moves") from exc
        except EngineError as exc:
            raise Aborted(f"Fairy-Max failed: {exc}") from exc

    def close(self) -> None:
        self.engine.close()


# ------------------------------------------------------------------ referee
@dataclass
class GameRecord:
    number: int
    opening: list[str]
    boardctl_colour: int
    result: str  # "1-0", "0-1", "1/2-1/2", or "*" when aborted
    plies: int
    reason: str

    @property
    def boardctl_score(self) -> float | None:
        if self.result == "*":
            return None
        if self.result == "1/2-1/2":
            return 0.5
        return 1.0 if (self.result == "1-0") == (self.boardctl_colour == WHITE) else 0.0


@dataclass
class Clock:
    """Thinking time used by one side."""

    seconds: float = 0.0
    moves: int = 0
    longest: float = 0.0

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.moves += 1
        self.longest = max(self.longest, seconds)

    def mean(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


@dataclass
class Match:
    opponent: str
    records: list[GameRecord] = field(default_factory=list)
    clocks: dict[str, Clock] = field(default_factory=dict)
    pgn: TextIO | None = None


def loud(text: str) -> None:
    print(f"!!! {text}", file=sys.stderr, flush=True)


def parse_opponent_move(game: Game, text: str) -> Move:
    """The opponent's move; a promotion without a letter is a queen's.

    :raises Forfeit: when the referee finds it illegal.
    """
    try:
        return parse_uci(game.position, text)
    except (IllegalMoveError, InvalidMoveError):
        if len(text) == 4:
            try:
                return parse_uci(game.position, text + "q")
            except (IllegalMoveError, InvalidMoveError):
                pass
        raise Forfeit(f"illegal move {text!r} in {game.position.fen()}") from None


# A judge of unfinished games: (result, reason) to end one early, else None.
Adjudicator = Callable[[Game], tuple[str, str] | None]


def play_game(
    number: int,
    opening: list[str],
    players: dict[int, Player],
    match: Match,
    variant: str = VARIANT,
    adjudicate: Adjudicator | None = None,
) -> GameRecord:
    """One game; ``adjudicate``, when given, is asked before every move
    whether the game is decided already (bench/levels.py's rule)."""
    game = Game(get_variant(variant))
    boardctl_colour = WHITE if players[WHITE].name == "boardctl" else BLACK

    def record(result: str, reason: str) -> GameRecord:
        if match.pgn is not None:
            names = {side: players[side].name for side in (WHITE, BLACK)}
            match.pgn.write(
                export(
                    game,
                    {
                        "Event": "bench/match.py",
                        "Round": str(number),
                        "White": names[WHITE],
                        "Black": names[BLACK],
                        "Result": result,
                        "Termination": reason,
                    },
                )
                + "\n"
            )
            match.pgn.flush()
        return GameRecord(number, opening, boardctl_colour, result, len(game.moves), reason)

    try:
        for player in players.values():
            player.new_game()
        for uci in opening:
            game.push(parse_uci(game.position, uci))
            for player in players.values():
                player.moved(uci)
        while True:
            outcome = game.outcome()
            if outcome is not None:
                return record(outcome.result, outcome.termination.value)
            if len(game.moves) >= MAX_PLIES:
                return record("1/2-1/2", f"{MAX_PLIES}-ply limit")
            judged = adjudicate(game) if adjudicate is not None else None
            if judged is not None:
                return record(*judged)
            side = game.position.turn
            player, other = players[side], players[side ^ 1]
            started = time.perf_counter()
            text = player.choose(game)
            match.clocks.setdefault(player.name, Clock()).add(time.perf_counter() - started)
            move = parse_opponent_move(game, text)
            uci = game.position.uci(move)
            game.push(move)
            other.moved(uci)
    except Forfeit as exc:
        loser = game.position.turn
        loud(f"game {number}: {players[loser].name} forfeits: {exc}")
        loud(f"game {number}: moves {' '.join(game.sans())}")
        return record("0-1" if loser == WHITE else "1-0", f"{players[loser].name} forfeits")
    except Aborted as exc:
        loud(f"game {number}: aborted, not scored: {exc}")
        return record("*", "aborted")


def random_opening(rng: random.Random, plies: int, variant: str = VARIANT) -> list[str]:
    """``plies`` random legal moves from the start that do not end the game."""
    while True:
        game = Game(get_variant(variant))
        moves = []
        for _ in range(plies):
            move = rng.choice(game.position.legal_moves())
            moves.append(game.position.uci(move))
            game.push(move)
        if game.outcome() is None:
            return moves


# ------------------------------------------------------------------ report
def describe(record: GameRecord, opponent: str) -> str:
    white, black = (
        ("boardctl", opponent) if record.boardctl_colour == WHITE else (opponent, "boardctl")
    )
    score = record.boardctl_score
    verdict = {1.0: "boardctl wins", 0.5: "draw", 0.0: "boardctl loses", None: "no result"}[score]
    opening = " ".join(record.opening) or "-"
    return (
        f"game {record.number:3d}  opening {opening:<24}  {white} (White) v {black} (Black)"
        f"  {record.result:<7}  {verdict:<14}  {record.plies:3d} plies  {record.reason}"
    )


def summary(match: Match) -> list[str]:
    scored = [r for r in match.records if r.boardctl_score is not None]
    wins = sum(r.boardctl_score == 1.0 for r in scored)
    draws = sum(r.boardctl_score == 0.5 for r in scored)
    losses = sum(r.boardctl_score == 0.0 for r in scored)
    points = wins + draws / 2
    percent = 100 * points / len(scored) if scored else 0.0
    lines = [
        f"boardctl v {match.opponent}: {len(scored)} games scored"
        f" ({len(match.records) - len(scored)} aborted)",
        f"boardctl wins {wins}, draws {draws}, losses {losses}",
        f"boardctl score {points:g}/{len(scored)} = {percent:.1f}%",
    ]
    if scored:
        low, high = score_interval(wins, draws, losses)
        lines.append(
            f"95% interval of the score: {100 * low:.1f}% to {100 * high:.1f}%;"
            f" Elo difference {elo(points / len(scored)):+.0f}"
            f" ({elo(low):+.0f} to {elo(high):+.0f})"
        )
    for name in ("boardctl", match.opponent):
        clock = match.clocks.get(name, Clock())
        lines.append(
            f"mean thinking time per move, {name}: {clock.mean():.3f} s"
            f" over {clock.moves} moves (longest {clock.longest:.3f} s)"
        )
    return lines


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """A 95 % interval of the expected score per game (normal approximation
    with the games' own spread: a win 1, a draw 1/2, a loss 0)."""
    n = wins + draws + losses
    mean = (wins + draws / 2) / n
    spread = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    half = 1.96 * math.sqrt(spread / n)
    return max(0.0, mean - half), min(1.0, mean + half)


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (clamped short of 0 and 1)."""
    score = min(max(score, 0.001), 0.999)
    return -400 * math.log10(1 / score - 1)


# ------------------------------------------------------------------ main
def make_opponent(args: argparse.Namespace, rng: random.Random) -> Player:
    if args.opponent == "fairymax":
        return FairyMaxPlayer(args.fairymax, args.movetime * args.odds, args.fairymax_hash)
    if args.opponent == "greedy":
        return GreedyPlayer(rng)
    return RandomPlayer(rng)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    if args.core == "compiled" and not core.available():
        print("match: the compiled core is not built (see setup.py)", file=sys.stderr)
        return 1
    print(
        f"boardctl (skill {args.skill}, {args.core} core) v {args.opponent}: {args.games} games,"
        f" {f'{args.nodes} nodes' if args.nodes else f'movetime {args.movetime:g} s'} a move"
        f" (the opponent {args.movetime * args.odds:g} s),"
        f" {args.plies} opening plies, seed {seed}",
        flush=True,
    )
    openings_rng = random.Random(f"{seed}:openings")
    limits = Limits(nodes=args.nodes) if args.nodes else Limits(movetime=args.movetime)
    boardctl = BoardctlPlayer(args.skill, seed, limits, args.core == "compiled")
    try:
        opponent = make_opponent(args, random.Random(f"{seed}:opponent"))
    except EngineError as exc:
        print(f"match: cannot start Fairy-Max: {exc}", file=sys.stderr)
        return 1
    match = Match(args.opponent, pgn=args.pgn)
    try:
        opening: list[str] = []
        for number in range(1, args.games + 1):
            if number % 2 == 1:
                opening = random_opening(openings_rng, args.plies)
                players: dict[int, Player] = {WHITE: boardctl, BLACK: opponent}
            else:
                players = {WHITE: opponent, BLACK: boardctl}
            record = play_game(number, opening, players, match)
            match.records.append(record)
            print(describe(record, args.opponent), flush=True)
    except KeyboardInterrupt:
        print(f"interrupted: {len(match.records)} of {args.games} games finished")
        for line in summary(match):
            print(line)
        return 130
    finally:
        if isinstance(opponent, FairyMaxPlayer):
            opponent.close()
    for line in summary(match):
        print(line)
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--opponent", choices=("fairymax", "random", "greedy"), required=True)
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument(
        "--movetime", type=float, required=True, help="seconds per move for both sides"
    )
    parser.add_argument(
        "--odds",
        type=float,
        default=1.0,
        help="the opponent thinks this many times as long as boardctl "
        "(1:8 time odds: --odds 8; default 1)",
    )
    parser.add_argument(
        "--nodes", type=int, help="boardctl searches this many positions a move instead"
    )
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    parser.add_argument("--seed", type=int, help="seed for openings, opponents and boardctl")
    parser.add_argument("--skill", type=int, default=20, help="boardctl's skill (default 20)")
    parser.add_argument(
        "--core",
        choices=("compiled", "python"),
        default="compiled",
        help="boardctl's search core (default compiled)",
    )
    parser.add_argument(
        "--pgn",
        type=argparse.FileType("a"),
        metavar="FILE",
        help="append every game to FILE as PGN, for analysis",
    )
    parser.add_argument("--fairymax", default=DEFAULT_PATH, help=f"default {DEFAULT_PATH}")
    parser.add_argument(
        "--fairymax-hash",
        type=int,
        metavar="MB",
        help="Fairy-Max's hash size (default: its own, about 100 MB)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.plies < 0 or not args.movetime > 0:
        parser.error("--games must be 1 or more, --plies 0 or more, --movetime positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.opponent == "fairymax" and not os.access(args.fairymax, os.X_OK):
        print(
            f"match: skipped: Fairy-Max is not installed ({args.fairymax}; Debian package fairymax)"
        )
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
