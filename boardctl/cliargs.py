"""The ``boardctl`` command line's arguments: every command and its options,
each number read by the one parser for numbers from outside and bounded, and
every mistake one line (:class:`UsageError`), never argparse's usage dump.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from .board import lights
from .config import CHOICES, HEADLESS_SEED
from .engine import MAX_SKILL, cecp, uci
from .engine.frontend import MAX_SEED
from .engine.params import MAX_PLY
from .errors import BoardctlError
from .hall.place import HALL_PORT
from .review.analysis import DEFAULT_MOVETIME, MOVETIME_RANGE
from .rules import DEFAULT_VARIANT, VARIANTS
from .rules.digits import NumberError, parse_decimal, parse_whole
from .rules.perft import MAX_DEPTH
from .ui import gallery, keys


class UsageError(BoardctlError, ValueError):
    """Bad arguments on the command line."""


_VARIANTS_HELP = f"rule preset, one of {', '.join(VARIANTS)} (default: {DEFAULT_VARIANT.name})"

_SETUP_HELP = "first guide the player to set up this position on the board, then play on from it"
_REPLAY_HELP = (
    "step through stored game GAME on the board (set up at its start first): the lights "
    "show each move to carry out, forward and back, and a new game can play on from any move"
)

_PUZZLE_HELP = (
    "set up this puzzle (see 'boardctl puzzles') and solve it on the board, "
    "the engine defending; its preset is played"
)

N = TypeVar("N", int, float)

# Game numbers are SQLite rowids, which never exceed a signed 64-bit integer.
MAX_GAME_ID = 2**63 - 1


def _bounded(read: Callable[[str, N, N], N], low: N, high: N) -> Callable[[str], N]:
    """An argparse type: ``read`` (the one parser for numbers from outside)
    within ``[low, high]``, else one clear line."""

    def parse(text: str) -> N:
        try:
            return read(text, low, high)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _whole(low: int, high: int) -> Callable[[str], int]:
    """ASCII digits in ``[low, high]``."""
    return _bounded(parse_whole, low, high)


def _decimal(low: float, high: float) -> Callable[[str], float]:
    """An ASCII decimal in ``[low, high]``."""
    return _bounded(parse_decimal, low, high)


class _Help(argparse.RawDescriptionHelpFormatter):
    """Options wrapped at spaces only: a preset's name is never cut at its
    hyphen ("falcon-" / "hex"); epilogs keep their own lines."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        # argparse would print the usage too: one clear line is the contract.
        raise UsageError(f"{self.prog}: {message}")


def _lights_help() -> str:
    """The LED colours and what each means, as the simulator's help shows them."""
    width = max(len(hue.name) for hue, _ in lights.legend())
    return "\n".join(f"  {hue.name.ljust(width)}  {meaning}" for hue, meaning in lights.legend())


# long: one subcommand after another, a few lines each, in the order --help lists them
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardctl", description="Falcon Chess board controller.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = commands.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("depth", type=_whole(0, MAX_DEPTH), help=f"plies to search (0 to {MAX_DEPTH})")
    p.add_argument("--fen", help="start from this position (default: the variant's start)")
    p.add_argument("--variant", default=DEFAULT_VARIANT.name, help=_VARIANTS_HELP)
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p = commands.add_parser("replay", help="feed a sensor log through the move reconciler")
    p.add_argument("log", help="sensor log: '<seconds> lift|place <square>' or 'choose <piece>'")
    p.add_argument("--fen", help="the position the log starts from (default: the start)")
    p.add_argument("--variant", default=DEFAULT_VARIANT.name, help=_VARIANTS_HELP)
    commands.add_parser(
        "uci",
        help="play as a UCI engine on stdin and stdout (for chess GUIs)",
        epilog="UCI options (setoption name NAME value VALUE):\n" + uci.options_help(),
    )
    commands.add_parser(
        "xboard",
        help="play as an XBoard (CECP) engine on stdin and stdout (XBoard, WinBoard)",
        epilog="XBoard options (Engine Settings): " + cecp.options_help(),
    )
    p = commands.add_parser("run", help="run the board (the service's main loop)")
    p.add_argument(
        "--config",
        type=Path,
        help="configuration file (default /etc/boardctl/config.toml if it exists)",
    )
    p.add_argument("--setup", metavar="FEN", help=_SETUP_HELP)
    p.add_argument("--puzzle", metavar="ID", help=_PUZZLE_HELP)
    _add_replay(p)
    _add_sim(commands)
    p = commands.add_parser("pgn", help="export stored games as PGN")
    p.add_argument(
        "game", nargs="?", type=_whole(1, MAX_GAME_ID), help="game number (default: the latest)"
    )
    p.add_argument("--all", action="store_true", help="every stored game")
    p.add_argument("--db", type=Path, help="game database (default: in the state directory)")
    _add_review(commands)
    _add_puzzles(commands)
    _add_screenshot(commands)
    _add_hall(commands)
    _add_diag(commands)
    return parser


def _add_sim(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "sim",
        help="the desktop simulator (a window, or --headless)",
        epilog=f"in the window:\n{keys.help_text()}\n\nwhat the lights mean:\n{_lights_help()}",
    )
    p.add_argument("--config", type=Path, help="configuration file")
    p.add_argument(
        "--mode",
        choices=CHOICES["game", "mode"],
        help="override the configured mode: teaching plays the engine with a coach (a lifted "
        "piece lights its moves, a losing move is offered back, hints name the good moves)",
    )
    p.add_argument(
        "--level",
        type=_whole(0, MAX_SKILL),
        help=f"the engine's level, 0 (a beginner) to {MAX_SKILL} (full strength; "
        "default: the configuration's [engine] skill); + and - change it in the window",
    )
    p.add_argument("--human", choices=CHOICES["game", "human"], help="the human's colour")
    p.add_argument(
        "--variant",
        help=f"rule preset, one of {', '.join(VARIANTS)} (default: the configuration's)",
    )
    p.add_argument("--setup", metavar="FEN", help=_SETUP_HELP)
    p.add_argument("--puzzle", metavar="ID", help=_PUZZLE_HELP)
    _add_replay(p)
    p.add_argument("--headless", action="store_true", help="no window: play --script")
    p.add_argument("--script", type=Path, help="sensor log to play (replay format)")
    p.add_argument(
        "--seed",
        type=_whole(0, MAX_SEED),
        help="the engine's seed ([engine] seed): the same replies every run (0: varied;"
        f" a headless script's default is {HEADLESS_SEED})",
    )
    p.add_argument("--web", action="store_true", help="serve the spectator page ([web] enabled)")
    p.add_argument(
        "--speak", action="store_true", help="say moves aloud with espeak-ng ([speech] enabled)"
    )


def _add_hall(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "hall",
        help="serve a tournament's round to spectators from the boards' broadcast "
        "(--round), show this board's broadcast key (key), or one page of several "
        "boards' feeds (HALL.toml)",
    )
    p.add_argument(
        "target",
        nargs="?",
        metavar="key|HALL.toml",
        help="key: this board's broadcast key; HALL.toml: boards and their URLs (the older hall)",
    )
    p.add_argument("--round", type=Path, metavar="ROUND.toml", help="the round file (docs/hall.md)")
    p.add_argument("--config", type=Path, help="configuration file: its [hall] names the broker")
    p.add_argument(
        "--port", type=_whole(0, 65535), default=HALL_PORT, help="default: %(default)s; 0: any free"
    )
    p.add_argument("--bind", default="auto", help="an address, or auto: the local network's")
    p.add_argument(
        "--pgn", type=Path, metavar="OUT.pgn", help="the round's PGN (default: beside ROUND.toml)"
    )


def _add_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("--replay", metavar="GAME", type=_whole(1, MAX_GAME_ID), help=_REPLAY_HELP)


def _add_review(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "review", help="mark a stored game's inaccuracies, mistakes and blunders with the engine"
    )
    p.add_argument(
        "game",
        nargs="?",
        type=_whole(1, MAX_GAME_ID),
        help="game number (default: the latest finished game)",
    )
    low, high = MOVETIME_RANGE
    p.add_argument(
        "--movetime",
        type=_decimal(low, high),
        default=DEFAULT_MOVETIME,
        metavar="SECONDS",
        help=f"the engine's time for each position ({low:g} to {high:g}, "
        f"default {DEFAULT_MOVETIME:g})",
    )
    p.add_argument(
        "--depth",
        type=_whole(1, MAX_PLY),
        help=f"also stop each search at this depth (1 to {MAX_PLY})",
    )
    p.add_argument("--db", type=Path, help="game database (default: in the state directory)")


def _add_puzzles(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser("puzzles", help="list the puzzles (play one with sim or run --puzzle)")
    p.add_argument(
        "--verify",
        action="store_true",
        help="check each puzzle's goal with the engine and the K+F v K table, with the times",
    )
    p.add_argument(
        "--every-move",
        action="store_true",
        help="with --verify: try every first move of each mate, to name all its solutions",
    )


def _add_screenshot(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser(
        "screenshot", help="render the display for a position, or a state of the gallery, to a PNG"
    )
    p.add_argument("out", help="PNG file to write")
    p.add_argument("--fen", help="position (default: the start)")
    p.add_argument(
        "--state",
        choices=list(gallery.ALL_SCENES),
        metavar="STATE",
        help=f"a state of docs/screens.md instead of a position: {', '.join(gallery.ALL_SCENES)}",
    )
    p.add_argument("--size", default="480x320", help="screen size, e.g. 480x320 or 800x480")
    p.add_argument("--variant", default=DEFAULT_VARIANT.name, help=_VARIANTS_HELP)


def _add_diag(commands: argparse._SubParsersAction[_Parser]) -> None:
    p = commands.add_parser("diag", help="check a newly built board: LEDs, sensors, wiring")
    p.add_argument("--config", type=Path, help="configuration file")
    p.add_argument(
        "--sim",
        action="store_true",
        help="a simulated board and a scripted user (a smoke test, no input)",
    )
    p.add_argument("--steps", help="comma-separated, of walk,live,sweep,order (default: all)")
    p.add_argument(
        "--variant",
        help="check the board this preset is played on (default: the "
        "configuration's [game] variant; a hex preset checks the hex board)",
    )
