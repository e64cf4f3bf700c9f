"""One board of a remote game as a process of its own, for the tests and the
bench that kill it with SIGKILL and start it again (bench/remote_faults.py).

Usage::

    python tests/remote/side_child.py DIR --colour white --script FILE
        [--port P] [--plies N] [--broker URL] [--join INVITATION] [--name NAME]

It runs :class:`~tests.remote.live.LiveSide` in real time on DIR (its game
store and journal: started again on the same DIR, it goes on with its game).
Its board player plays the script's moves of its colour, its hand carries out
the other side's.  ``--broker``: the MQTT broker it reaches (else one of its
own).  With ``--join`` (the first start of a joining board) its owner joins
the game the invitation names.  Once the game has ``--plies`` moves, the
side to move resigns.  It prints, flushed at once:

* ``url URL`` once its server listens; ``code CODE`` and ``invite LINK``
  while its game waits for the other side to join;
* ``ply N`` whenever its board's game reaches N moves;
* ``over WINNER REASON`` once the game has ended on its board.

It runs until it is killed or sent SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import logging
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from boardctl.rules import BLACK, WHITE
from boardctl.web.snapshot import WebAction
from tests.remote.client import PageClient
from tests.remote.live import PIN, TICK, LiveSide, Options


def say(line: str) -> None:
    print(line, flush=True)


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("dir", type=Path)
    parser.add_argument("--colour", choices=("white", "black"), required=True)
    parser.add_argument("--script", type=Path, required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--join", default="")
    parser.add_argument("--name", default="")
    parser.add_argument("--clock", default="")
    parser.add_argument("--broker", default="")
    return parser.parse_args(argv)


class Child:
    def __init__(self, args: argparse.Namespace) -> None:
        script = tuple(args.script.read_text().split())
        self.plies = args.plies or len(script)
        colour = WHITE if args.colour == "white" else BLACK
        options = Options(
            colour=colour,
            port=args.port,
            clock=args.clock,
            name=args.name,
            script=script[: self.plies],
            offer=not args.join,
            broker=args.broker,
        )
        args.dir.mkdir(parents=True, exist_ok=True)
        self.side = LiveSide(args.dir, options)
        self.stopping = False
        self.said = {"ply": -1, "code": "", "invite": "", "over": False}
        self.resigned = False
        say(f"url {self.side.url}")
        if args.join and self.side.link.match is None:
            self._join(args.join)

    def _join(self, link: str) -> None:
        """The owner pastes the host's invitation into this board's page."""
        page = PageClient(self.side.url, timeout=30.0)
        page.owner(PIN)
        for _ in range(20):  # the broker may be starting, or the network down a while
            status, body = page.call("api/remote/join", {"link": link})
            if status == 200:
                return
            time.sleep(0.3)
        raise SystemExit(f"cannot join {link}: {body}")

    def run(self) -> None:
        while not self.stopping:
            self.side.step()
            self._report()
            time.sleep(TICK)
        self.side.close()

    def _report(self) -> None:
        side, said = self.side, self.said
        view = side.desk.view
        if view.code and not view.joined and view.code != said["code"]:
            said["code"] = view.code
            say(f"code {view.code}")
        if view.invite and not view.joined and view.invite != said["invite"]:
            said["invite"] = view.invite
            say(f"invite {view.invite}")
        plies = len(side.daemon.game.moves)
        if plies != said["ply"]:
            said["ply"] = plies
            say(f"ply {plies}")
        ending = side.daemon.game.ending()
        if ending is not None and not said["over"]:
            said["over"] = True
            say(f"over {ending.winner} {ending.termination.value}")
        if (
            ending is None
            and not self.resigned
            and plies >= self.plies
            and view.line == tuple(side.daemon.shown.shaper.move_ucis(side.daemon.game))
            and side.daemon.game.position.turn == side.options.colour
        ):
            self.resigned = True  # the script is played out: its mover resigns
            side.daemon.web_action(WebAction("resign"), side.daemon.now)


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(asctime)s %(message)s")
    faulthandler.register(signal.SIGUSR1)  # kill -USR1: every thread's stack, to stderr
    child = Child(arguments(argv))

    def tasks(signum: int, frame: object) -> None:
        """kill -USR2: the web server's tasks and the link's figures, to stderr."""
        loop = child.side.server._loop
        print(f"link: {child.side.link.figures}", file=sys.stderr, flush=True)
        for task in list(asyncio.all_tasks(loop)) if loop is not None else []:
            task.print_stack(file=sys.stderr)

    signal.signal(signal.SIGUSR2, tasks)

    def stop(signum: int, frame: object) -> None:
        child.stopping = True

    signal.signal(signal.SIGTERM, stop)
    child.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
