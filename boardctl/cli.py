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
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import journald
from .cliargs import UsageError, build_parser
from .config import DEFAULT_PATH, HEADLESS_SEED, Config, load_config, with_game
from .errors import BoardctlError
from .rules import Game, Position, divide, get_variant, perft

# A command imports what it runs when it runs: a child process started for
# one command (the tests start about a hundred) does not load the daemon,
# the store and the puzzles' library for nothing.
if TYPE_CHECKING:
    from .board.stepping import Stepping
    from .configfile import FirstFile  # tomlkit: the web page's extra
    from .puzzles import Puzzle


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
    from .board.replay import parse_log, read_log, replay_events
    from .progress import Progress
    from .userfiles import open_regular, unreadable

    game = Game(get_variant(args.variant), args.fen)
    try:
        stream = open_regular(args.log)  # closed by the with below
        size = os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise UsageError(unreadable(args.log, exc)) from None
    progress = Progress("boardctl replay", size, sys.stderr)
    with stream, progress:
        try:
            events = parse_log(read_log(stream, progress.update), game.variant)
            for line in replay_events(events, game):
                print(line)
        except OSError as exc:
            raise UsageError(unreadable(args.log, exc)) from None
    return 0


def _config(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    overrides = {
        key: getattr(args, key)
        for key in ("mode", "human", "variant")
        if getattr(args, key, None) is not None
    }
    level = getattr(args, "level", None)
    if level is not None:
        config = replace(config, engine=replace(config.engine, skill=level))
    return with_game(config, **overrides)


def _run_config(args: argparse.Namespace) -> tuple[Config, FirstFile | None]:
    """``boardctl run``'s configuration, and the file to write first when this
    is the first start: ``--config`` names a file not there yet, in a folder
    that is (as the service's /etc/boardctl/config.toml after installing).
    That file has the web page on and a new PIN, which the screen shows; it
    is written only once every other argument has been found good
    (:func:`_run`).  Without the web page's packages, a missing file is
    refused as before."""
    path = args.config
    if path is None or os.path.lexists(path) or not path.parent.is_dir():
        return _config(args), None
    if importlib.util.find_spec("aiohttp") is None or importlib.util.find_spec("tomlkit") is None:
        return _config(args), None
    from .configfile import first_file

    first = first_file(path)
    return first.config, first


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
    from . import puzzles

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
    from . import puzzles

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
    from .daemon import wiring
    from .storage.store import default_db_path

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
    from .daemon import wiring

    # Under systemd each line carries its priority: journalctl -p err shows the errors.
    journald.setup_logging("%(levelname)s %(message)s")
    # Every argument is checked before anything is written: a refused
    # command leaves no first configuration behind.
    config, first = _run_config(args)
    config, puzzle = _puzzle(args, config)
    config, replay = _replay_game(args, config)
    setup = _setup(args, config)
    wiring.check_run(config)
    if args.config is None and not DEFAULT_PATH.exists():
        # Nothing names a board: run would play a game on sensors nobody can
        # touch (and open a screen where there may be none).
        raise UsageError(
            f"no configuration ({DEFAULT_PATH} is not there): give --config PATH (a file not "
            "there yet is written for a first start), or play on the desktop with boardctl sim"
        )
    if first is not None:
        first.write()
        logging.getLogger("boardctl").info("first start: wrote %s with the web page on", first.path)
    return wiring.run(config, setup, puzzle, replay, first_start=first is not None)


def _again_if_asked(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``command``'s exit status; when it ended for the page's restart, and
    not under systemd (which starts the service again itself, see
    boardctl.daemon.restart), the same command line runs again in this
    process, everything of the first run closed."""
    from .daemon.restart import RESTART_STATUS, command_line, reexec, under_systemd

    systemd, folder = under_systemd(), os.getcwd()  # as they were at the start
    status = command(args)
    if status == RESTART_STATUS and not systemd:
        reexec(command_line(), folder)
    return status


def _sim(args: argparse.Namespace) -> int:
    from .daemon import wiring
    from .daemon.headless import run_script
    from .daemon.session import LEVEL_SETTING
    from .storage.store import GameStore, default_db_path
    from .userfiles import SCRIPT_LIMIT, read_text, unreadable

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
    if args.seed is not None:
        config = replace(config, engine=replace(config.engine, seed=args.seed))
    if not args.headless:
        if args.script:
            raise UsageError("--script needs --headless")
        config, puzzle = _puzzle(args, config)
        config, replay = _replay_game(args, config)
        setup = _setup(args, config)
        if args.level is not None:
            # A level set at the board (+ and -) wins over the file's; the one
            # asked for here is set as those are, and kept as they are.
            with GameStore(default_db_path()) as store:
                store.set_setting(LEVEL_SETTING, str(args.level))
        return wiring.sim(config, setup, puzzle, replay)
    for option, value in (
        ("--setup", args.setup),
        ("--puzzle", args.puzzle),
        ("--replay", args.replay),
    ):
        if value is not None:
            raise UsageError(f"{option} needs the window (a script starts from the start position)")
    if args.script is None:
        raise UsageError("--headless needs --script LOG")
    if args.seed is None and not config.engine.seed:
        # A script is a test: the same moves get the same replies every run
        # and on every machine, unless --seed 0 asks for variety.
        config = replace(config, engine=replace(config.engine, seed=HEADLESS_SEED))
    try:
        text = read_text(args.script, SCRIPT_LIMIT)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(unreadable(args.script, exc)) from None
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        # A headless run is a test: its games go to a throw-away database.
        store = GameStore(Path(tmp) / "games.sqlite")
        stack.callback(store.close)
        opponent = wiring.make_opponent(config)
        if opponent is not None:
            stack.callback(opponent.close)
        run_script(config, text, store, opponent=opponent)
    return 0


def _hall(args: argparse.Namespace) -> int:
    """``boardctl hall``: key, --round, or the older HALL.toml (see boardctl.hall.command)."""
    from .storage.store import default_db_path

    target = args.target
    if (target is None) == (args.round is None):
        raise UsageError("give one of key, --round ROUND.toml or HALL.toml")
    try:
        from .hall import command
        from .remote.transport import BrokerSettings
        from .web import hall
    except ImportError as exc:
        raise UsageError(f"needs {exc.name}: pip install 'boardctl[web,remote]'") from None
    if target == "key":
        return command.key_command(default_db_path().parent)
    if args.round is not None:
        login = load_config(args.config).hall
        broker = BrokerSettings(login.broker, login.username, login.password, login.ca_file)
        return command.round_command(
            args.round, broker, port=args.port, bind=args.bind, pgn=args.pgn
        )
    return hall.hall_command(Path(target))


def _pgn(args: argparse.Namespace) -> int:
    from .storage.command import pgn_command
    from .storage.store import default_db_path

    db = args.db or default_db_path()
    if args.all and args.game is not None:
        raise UsageError("give a game number or --all, not both")
    return pgn_command(db, args.game, args.all, sys.stdout, sys.stderr)


def _review(args: argparse.Namespace) -> int:
    from .engine import Limits
    from .review.command import review_command
    from .storage.store import default_db_path

    limits = Limits(depth=args.depth, movetime=args.movetime)
    return review_command(args.db or default_db_path(), args.game, limits, sys.stdout)


def _screenshot(args: argparse.Namespace) -> int:
    from .ui import gallery
    from .ui.screenshot import parse_size, render_state, screenshot_command

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
        args = build_parser().parse_args(argv)
    except UsageError as exc:  # already "boardctl COMMAND: what is wrong"
        print(exc, file=sys.stderr)
        return 2
    try:
        if args.command == "perft":
            return _perft(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "uci":
            from .engine import uci

            return uci.main()
        if args.command == "xboard":
            from .engine import cecp

            return cecp.main()
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
            return _hall(args)
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
