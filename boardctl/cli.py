"""The ``boardctl`` command line.

Every error a user can cause ends in one line on stderr and a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from . import journald, puzzles
from .board import lights
from .board.replay import parse_log, read_log, replay_events
from .board.stepping import Stepping
from .config import CHOICES, Config, load_config, with_game
from .daemon import wiring
from .daemon.headless import run_script
from .daemon.restart import RESTART_STATUS, command_line, reexec, under_systemd
from .engine import Limits, uci
from .engine.params import MAX_PLY
from .errors import BoardctlError
from .progress import Progress
from .puzzles import Puzzle
from .review.analysis import DEFAULT_MOVETIME, MOVETIME_RANGE
from .review.command import review_command
from .rules import VARIANTS, Game, Position, divide, get_variant, perft
from .rules.digits import NumberError, parse_decimal, parse_whole
from .rules.perft import MAX_DEPTH
from .storage.store import GameStore, default_db_path, pgn_command
from .ui import gallery, keys
from .ui.screenshot import parse_size
from .userfiles import SCRIPT_LIMIT, open_regular, read_text


class UsageError(BoardctlError, ValueError):
    """Bad arguments on the command line."""


_VARIANTS_HELP = f"rule preset, one of {', '.join(VARIANTS)} (default: falcon)"

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


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardctl", description="Falcon Chess board controller.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = commands.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("depth", type=_whole(0, MAX_DEPTH), help=f"plies to search (0 to {MAX_DEPTH})")
    p.add_argument("--fen", help="start from this position (default: the variant's start)")
    p.add_argument("--variant", default="falcon", help=_VARIANTS_HELP)
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p = commands.add_parser("replay", help="feed a sensor log through the move reconciler")
    p.add_argument("log", help="sensor log: '<seconds> lift|place <square>' or 'choose <piece>'")
    p.add_argument("--fen", help="the position the log starts from (default: the start)")
    p.add_argument("--variant", default="falcon", help=_VARIANTS_HELP)
    commands.add_parser(
        "uci",
        help="play as a UCI engine on stdin and stdout (for chess GUIs)",
        epilog="UCI options (setoption name NAME value VALUE):\n" + uci.options_help(),
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
    p = commands.add_parser(
        "sim",
        help="the desktop simulator (a window, or --headless)",
        epilog=f"in the window:\n{keys.help_text()}\n\nwhat the lights mean:\n{_lights_help()}",
    )
    p.add_argument("--config", type=Path, help="configuration file")
    p.add_argument("--mode", choices=CHOICES["game", "mode"], help="override the configured mode")
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
    p.add_argument("--web", action="store_true", help="serve the spectator page ([web] enabled)")
    p.add_argument(
        "--speak", action="store_true", help="say moves aloud with espeak-ng ([speech] enabled)"
    )
    p = commands.add_parser("pgn", help="export stored games as PGN")
    p.add_argument(
        "game", nargs="?", type=_whole(1, MAX_GAME_ID), help="game number (default: the latest)"
    )
    p.add_argument("--all", action="store_true", help="every stored game")
    p.add_argument("--db", type=Path, help="game database (default: in the state directory)")
    _add_review(commands)
    _add_puzzles(commands)
    _add_screenshot(commands)
    p = commands.add_parser("hall", help="serve one page with several boards side by side")
    p.add_argument("config", type=Path, help="TOML file naming the boards and their URLs")
    _add_diag(commands)
    return parser


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
    p.add_argument("--variant", default="falcon", help=_VARIANTS_HELP)


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


def _perft(args: argparse.Namespace) -> int:
    pos = Position(args.fen, get_variant(args.variant))
    if args.divide and args.depth > 0:
        rows = divide(pos, args.depth)
        for move, count in rows:
            print(f"{move}: {count}")
        print(sum(count for _, count in rows))
    else:
        print(perft(pos, args.depth))
    return 0


def _replay(args: argparse.Namespace) -> int:
    game = Game(get_variant(args.variant), args.fen)
    try:
        stream = open_regular(args.log)  # closed by the with below
        size = os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise UsageError(f"cannot read {args.log}: {exc.strerror or exc}") from None
    progress = Progress("boardctl replay", size, sys.stderr)
    with stream, progress:
        try:
            events = parse_log(read_log(stream, progress.update), game.variant)
            for line in replay_events(events, game):
                print(line)
        except OSError as exc:
            raise UsageError(f"cannot read {args.log}: {exc.strerror or exc}") from None
    return 0


def _config(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    overrides = {
        key: getattr(args, key)
        for key in ("mode", "human", "variant")
        if getattr(args, key, None) is not None
    }
    return with_game(config, **overrides)


def _run_config(args: argparse.Namespace) -> tuple[Config, bool]:
    """``boardctl run``'s configuration, and whether this is the first start:
    ``--config`` names a file not there yet, in a folder that is (as the
    service's /etc/boardctl/config.toml after installing).  One is written
    then, with the web page on and a new PIN, which the screen shows.  Without
    the web page's packages, a missing file is refused as before."""
    path = args.config
    if path is None or os.path.lexists(path) or not path.parent.is_dir():
        return _config(args), False
    if importlib.util.find_spec("aiohttp") is None or importlib.util.find_spec("tomlkit") is None:
        return _config(args), False
    from .configfile import first_config

    first_config(path)
    logging.getLogger("boardctl").info("first start: wrote %s with the web page on", path)
    return _config(args), True


def _setup(args: argparse.Namespace, config: Config) -> Position | None:
    """The position ``--setup`` names, in the configured preset.

    :raises FenError: for a FEN that is no position of the preset.
    """
    if args.setup is None:
        return None
    return Position(args.setup, get_variant(config.game.variant))


def _puzzle(args: argparse.Namespace, config: Config) -> tuple[Config, Puzzle | None]:
    """The puzzle ``--puzzle`` names, and the configuration playing its preset.

    :raises UnknownPuzzleError: for an id the library does not hold.
    :raises UsageError: with ``--setup``, or another ``--variant``.
    """
    if args.puzzle is None:
        return config, None
    if args.setup is not None:
        raise UsageError("give --setup or --puzzle, not both")
    puzzle = puzzles.find(args.puzzle)
    asked = getattr(args, "variant", None)
    if asked is not None and asked != puzzle.variant:
        raise UsageError(f"puzzle {puzzle.id} is played in {puzzle.variant}, not {asked}")
    return with_game(config, variant=puzzle.variant), puzzle


def _puzzles(args: argparse.Namespace) -> int:
    """``boardctl puzzles``: the library, one puzzle a line; ``--verify``:
    each one checked, with what was found and how long it took."""
    if args.every_move and not args.verify:
        raise UsageError("--every-move needs --verify")
    found = puzzles.library()
    width = max(len(p.id) for p in found)
    goals = max(len(p.goal.summary()) for p in found)
    if not args.verify:
        for p in found:
            print(f"{p.id:<{width}}  {p.goal.summary():<{goals}}  {p.difficulty:<6}  {p.variant}")
        return 0
    from .puzzles.verify import verify

    solver, failed, total = puzzles.Solver(), 0, 0.0
    for p in found:
        report = verify(p, solver, every_move=args.every_move)
        total += report.seconds
        failed += not report.ok
        verdict = "ok" if report.ok else "WRONG"
        said = "; ".join(report.problems or report.found)
        print(f"{p.id:<{width}}  {verdict:<5}  {report.seconds:6.2f} s  {said}")
    print(f"{len(found) - failed} of {len(found)} verified in {total:.1f} s")
    return 1 if failed else 0


def _replay_game(args: argparse.Namespace, config: Config) -> tuple[Config, Stepping | None]:
    """The stored game ``--replay`` names, and the configuration to play it
    in (its own preset).

    :raises UsageError: with ``--setup``, or a ``--variant`` that is not the game's.
    :raises StoreValueError: for a game not stored, or one that cannot be read.
    :raises StartRefused: for a game without a move.
    """
    if args.replay is None:
        return config, None
    if args.setup is not None:
        raise UsageError("give --setup or --replay, not both")
    if getattr(args, "puzzle", None) is not None:
        raise UsageError("give --puzzle or --replay, not both")
    replay = wiring.load_replay(default_db_path(), args.replay)
    preset = replay.variant.name
    if getattr(args, "variant", None) not in (None, preset):
        raise UsageError(f"game {args.replay} is {preset}, not {args.variant}: leave out --variant")
    return with_game(config, variant=preset), replay


def _run(args: argparse.Namespace) -> int:
    # Under systemd each line carries its priority: journalctl -p err shows the errors.
    journald.setup_logging("%(levelname)s %(message)s")
    config, first = _run_config(args)
    config, puzzle = _puzzle(args, config)
    config, replay = _replay_game(args, config)
    return wiring.run(config, _setup(args, config), puzzle, replay, first_start=first)


def _again_if_asked(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``command``'s exit status; when it ended for the page's restart, and
    not under systemd (which starts the service again itself, see
    boardctl.daemon.restart), the same command line runs again in this
    process, everything of the first run closed."""
    systemd, folder = under_systemd(), os.getcwd()  # as they were at the start
    status = command(args)
    if status == RESTART_STATUS and not systemd:
        reexec(command_line(), folder)
    return status


def _sim(args: argparse.Namespace) -> int:
    config = _config(args)
    if args.web:
        if args.headless:
            raise UsageError("--web needs the window (a headless run is over in a moment)")
        if importlib.util.find_spec("aiohttp") is None:
            # Said before anything starts: no game is resumed for nothing.
            raise UsageError("--web needs aiohttp: pip install 'boardctl[web]'")
        config = replace(config, web=replace(config.web, enabled=True))
        logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    if args.speak:
        config = replace(config, speech=replace(config.speech, enabled=True))
    if not args.headless:
        if args.script:
            raise UsageError("--script needs --headless")
        config, puzzle = _puzzle(args, config)
        config, replay = _replay_game(args, config)
        return wiring.sim(config, _setup(args, config), puzzle, replay)
    for option, value in (
        ("--setup", args.setup),
        ("--puzzle", args.puzzle),
        ("--replay", args.replay),
    ):
        if value is not None:
            raise UsageError(f"{option} needs the window (a script starts from the start position)")
    if args.script is None:
        raise UsageError("--headless needs --script LOG")
    try:
        text = read_text(args.script, SCRIPT_LIMIT)
    except OSError as exc:
        raise UsageError(f"cannot read {args.script}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{args.script} is not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})"
        ) from None
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        # A headless run is a test: its games go to a throw-away database.
        store = GameStore(Path(tmp) / "games.sqlite")
        stack.callback(store.close)
        opponent = wiring.make_opponent(config)
        if opponent is not None:
            stack.callback(opponent.close)
        run_script(config, text, store, opponent=opponent)
    return 0


def _pgn(args: argparse.Namespace) -> int:
    db = args.db or default_db_path()
    if args.all and args.game is not None:
        raise UsageError("give a game number or --all, not both")
    return pgn_command(db, args.game, args.all, sys.stdout, sys.stderr)


def _review(args: argparse.Namespace) -> int:
    limits = Limits(depth=args.depth, movetime=args.movetime)
    return review_command(args.db or default_db_path(), args.game, limits, sys.stdout)


def _screenshot(args: argparse.Namespace) -> int:
    from .ui.screenshot import render_state, screenshot_command

    if args.state is None:
        print(screenshot_command(args.fen, args.out, args.size, get_variant(args.variant).name))
        return 0
    if args.fen is not None:
        raise UsageError("give --fen or --state, not both")
    state = gallery.ALL_SCENES[args.state][1]()
    render_state(state, Path(args.out), parse_size(args.size))
    print(args.out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _build_parser().parse_args(argv)
    except UsageError as exc:  # already "boardctl COMMAND: what is wrong"
        print(exc, file=sys.stderr)
        return 2
    try:
        if args.command == "perft":
            return _perft(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "uci":
            return uci.main()
        if args.command == "run":
            return _again_if_asked(_run, args)
        if args.command == "sim":
            return _again_if_asked(_sim, args)
        if args.command == "pgn":
            return _pgn(args)
        if args.command == "review":
            return _review(args)
        if args.command == "puzzles":
            return _puzzles(args)
        if args.command == "screenshot":
            return _screenshot(args)
        if args.command == "hall":
            try:
                from .web.hall import hall_command
            except ImportError:
                raise UsageError("needs aiohttp: pip install 'boardctl[web]'") from None
            return hall_command(args.config)
        if args.command == "diag":
            from .diag import diag_command

            variant = get_variant(args.variant) if args.variant is not None else None
            return diag_command(
                load_config(args.config), sim=args.sim, steps=args.steps, variant=variant
            )
    except BoardctlError as exc:
        # One form for every error: the command, then what is wrong (filed as
        # an error when stderr is the journal's).
        print(journald.line(logging.ERROR, f"boardctl {args.command}: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 1
