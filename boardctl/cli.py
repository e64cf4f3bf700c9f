"""The ``boardctl`` command line.

Every error a user can cause ends in one line on stderr and a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .board.replay import replay
from .engine import uci
from .errors import BoardctlError
from .rules import Game, Position, divide, get_variant, perft


class UsageError(BoardctlError, ValueError):
    """Bad arguments on the command line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse would print the usage too: one clear line is the contract.
        raise UsageError(f"{self.prog}: {message}")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardctl", description="Falcon Chess board controller.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = commands.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("depth", type=int, help="plies to search (0 or more)")
    p.add_argument("--fen", help="start from this position (default: the variant's start)")
    p.add_argument("--variant", default="falcon", help="rule preset (default: falcon)")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p = commands.add_parser("replay", help="feed a sensor log through the move reconciler")
    p.add_argument("log", help="sensor log: '<seconds> lift|place <square>' or 'choose <piece>'")
    p.add_argument("--fen", help="the position the log starts from (default: the start)")
    p.add_argument("--variant", default="falcon", help="rule preset (default: falcon)")
    commands.add_parser("uci", help="play as a UCI engine on stdin and stdout (for chess GUIs)")
    return parser


def _perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise UsageError(f"boardctl perft: depth must be 0 or more, got {args.depth}")
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
        text = Path(args.log).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"boardctl replay: cannot read {args.log}: {exc}") from None
    for line in replay(text, game):
        print(line)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _build_parser().parse_args(argv)
        if args.command == "perft":
            return _perft(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "uci":
            return uci.main()
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except BoardctlError as exc:
        print(f"boardctl: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 1
