"""A tiny fake XBoard engine for the client's tests (standard library only).

It talks like Fairy-Max: features (``done=0`` first, then options, then
``done=1``), ``pong N`` for ``ping N``, ``Illegal move:…`` for a refused move,
``move xxxx`` after ``go``, and some noise around it.  ``--mode`` picks a fault:

  normal        behave
  silent        read everything, answer nothing (the handshake times out)
  die-at-start  exit with code 3 before saying anything
  no-falcon     offer variants without falcon
  hang-on-go    never answer ``go`` (nor anything after it)
  die-on-go     exit with code 4 on ``go``
  resign-on-go  answer ``go`` with ``resign``
  mated-on-go   answer ``go`` with ``0-1 {Black mates}``

``--log PATH`` appends every line received; ``--refuse a,b`` lists moves to
refuse; ``--replies a,b`` the moves it plays, in turn (default e7e5).
"""

from __future__ import annotations

import argparse
import re
import sys
import time

MOVE = re.compile(r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?")


def say(*lines: str) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="normal")
    parser.add_argument("--log")
    parser.add_argument("--refuse", default="")
    parser.add_argument("--replies", default="e7e5")
    opts = parser.parse_args()
    refuse = set(filter(None, opts.refuse.split(",")))
    replies = opts.replies.split(",")
    played = 0
    log = open(opts.log, "a", encoding="utf-8") if opts.log else None  # noqa: SIM115

    if opts.mode == "die-at-start":
        return 3
    say("tellics say     Fake-XBoard 0.1")
    hung = False
    for raw in sys.stdin:
        line = raw.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        if opts.mode == "silent" or hung or not line:
            continue
        command = line.split()[0]
        if command == "protover":
            variants = "normal,shatranj" if opts.mode == "no-falcon" else "normal,falcon,capablanca"
            say(
                'feature myname="Fake XBoard 0.1"',
                "feature setboard=0 ping=1 memory=1 done=0",
                f'feature variants="{variants}"',
                'feature option="Resign -check 0"',
                'feature option="Dummy String Example -string happy birthday!"',
                "feature done=1",
            )
        elif command == "ping":
            say(f"pong {line.split()[1]}")
        elif command == "quit":
            return 0
        elif command == "variant":
            if line.split()[1] not in ("normal", "falcon", "capablanca"):
                say(f"telluser variant {line.split()[1]} not supported")
            else:
                say("piece F& aflafrKafraflKafafsKafsafK")
        elif command == "go":
            if opts.mode == "hang-on-go":
                hung = True
            elif opts.mode == "die-on-go":
                return 4
            elif opts.mode == "resign-on-go":
                say("resign")
            elif opts.mode == "mated-on-go":
                say("0-1 {Black mates}")
            else:
                reply = replies[played % len(replies)]
                played += 1
                time.sleep(0.01)
                say(
                    "# times @ 12345",
                    " 1     12      0        42 " + reply,
                    f"move {reply}",
                    "1/2-1/2 {Draw by repetition}",
                )
        elif MOVE.fullmatch(line):
            if line in refuse:
                say(f"Illegal move:{line}", "")
        elif command in (
            "xboard",
            "accepted",
            "rejected",
            "new",
            "force",
            "st",
            "time",
            "otim",
            "easy",
            "hard",
            "post",
            "nopost",
            "memory",
        ):
            pass
        else:
            say(f"Error (unknown command): {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
