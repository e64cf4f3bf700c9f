"""Remote games through a bad network, with sides and the broker killed
mid-game, and a hostile client on the broker: nothing lost, nothing forged.

Each game is played by real processes on loopback: boards (``tests/remote/
side_child.py``: the daemon on a simulated board, its web server and link, a
hand that plays the script's moves and carries out the other side's) and, for
a browser's player, this process speaking the page's HTTP as remote.js does.

Two forms (``--form``):

* ``boards``: a host board (White) and a board that joins with its
  invitation (Black), neither able to reach the other: they meet at a real
  mosquitto (persistence on), each through a TCP fault proxy of its own
  (:class:`~tests.remote.tcpproxy.TcpProxy`: delays, drips, resets, stalls,
  cuts).  Either board, or the broker, is killed with SIGKILL at random plies
  and started again on its own files; and all along a stranger on the broker
  publishes forged entries of every kind in both sides' names (right numbers,
  right digests, the wrong key), forged statuses and garbage;
* ``browser``: a host board (White) and a player in a browser (Black), whose
  requests go through an HTTP fault proxy (:class:`~tests.remote.faultproxy.
  FaultProxy`); the board may be killed, and the browser "reloads" (logs in
  again from its own cookie).

Each game plays a random legal game of ``--plies`` moves (no castling, en
passant or promotion: those are the reconciler's tests' business), after
which the side to move resigns.  Then both sides' journals and game stores
are read back.  **Lost**: moves of the script missing from a side's game or
store; **doubled**: moves applied more than once (a store with more moves);
**forged**: entries a side holds that its side's key did not sign, or a game
that ended any other way than the scripted resignation.  The sides must also
hold the same game (one state).  The goal is 0, 0 and 0.

Usage: ``.venv/bin/python bench/remote_faults.py [--games 3] [--plies 60]
[--kills 3] [--form both] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardctl.remote.invite import parse_invitation  # noqa: E402
from boardctl.remote.journal import JOURNAL_NAME, Journal  # noqa: E402
from boardctl.remote.match import Match  # noqa: E402
from boardctl.storage.store import GameStore  # noqa: E402
from tests.e2e.kill9_child import long_game  # noqa: E402
from tests.remote.broker import Broker  # noqa: E402
from tests.remote.client import PageClient  # noqa: E402
from tests.remote.faultproxy import FaultProxy, Faults  # noqa: E402
from tests.remote.forger import Forger  # noqa: E402
from tests.remote.tcpproxy import TcpFaults, TcpProxy  # noqa: E402

CHILD = ROOT / "tests" / "remote" / "side_child.py"
GAME_LIMIT = 600.0  # real seconds a game may take before it counts as stuck
OUT_OF_REACH = 240.0  # real seconds the page keeps trying before it gives up
CLOCK = "10+5"  # the games' clocks: a side away or killed must not lose on time
START_LIMIT = 60.0  # real seconds a side may take to start


@dataclass
class Result:
    form: str
    game: int
    plies: int
    kills: int = 0
    reloads: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    doubled: int = 0
    forged: int = 0  # forged entries applied
    forgeries: int = 0  # forged messages published
    broker_kills: int = 0
    same: bool = True  # both sides hold one game
    finished: bool = True
    endings: set[str] = field(default_factory=set)  # how each side's board says it ended
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


class Side:
    """A board's process, its output read line by line with bounded waits."""

    def __init__(self, folder: Path, args: list[str], log: Path) -> None:
        self.folder, self.args, self.log = folder, args, log
        self.lines: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None
        # Each start's process group: a board killed outright leaves what it
        # started (its own broker) running, as a crash would; stop() ends them.
        self.groups: list[int] = []
        self.start()

    def start(self, extra: tuple[str, ...] = ()) -> None:
        with self.log.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(CHILD), str(self.folder), *self.args, *extra],
                stdout=subprocess.PIPE,
                stderr=err,
                start_new_session=True,
            )
        self.groups.append(self.proc.pid)
        self.buffer = b""

    def read(self, timeout: float = 0.0) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        data = os.read(fd, 65536)
        self.buffer += data
        *done, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode() for line in done]

    def wait_for(self, prefix: str, limit: float) -> str:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            for line in reversed(self.lines):
                if line.startswith(prefix):
                    return line[len(prefix) :]
            self.read(0.1)
        raise RuntimeError(f"no {prefix!r} from {self.folder.name}: {self.lines[-5:]}")

    def last(self, prefix: str) -> str | None:
        return next(
            (ln[len(prefix) :] for ln in reversed(self.lines) if ln.startswith(prefix)), None
        )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.lines.append("killed")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for group in self.groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def kept(folder: Path) -> tuple[tuple[str, ...], str, int, tuple[str, ...]]:
    """A side's game line and state, entries not signed by their side, and its store's moves."""
    journal = Journal(folder / JOURNAL_NAME)
    try:
        game = journal.current()
        assert game is not None, f"{folder.name} has no remote game"
        match = Match(journal, game, 0.0)  # every entry checked again as it is read
        keys = {match.colour: match.key.public, match.colour ^ 1: game.other_key}
        forged = sum(1 for e in journal.entries(game.header.key) if not e.signed_by(keys[e.side]))
        state = match.record.state
    finally:
        journal.close()
    store = GameStore(folder / "games.sqlite3")
    try:
        stored = store.load(game.local_game).moves if game.local_game else ()
    finally:
        store.close()
    return state.line, state.id, forged, tuple(stored)


def judge(result: Result, expected: tuple[str, ...], folders: list[Path]) -> None:
    """Count what each side lost, doubled or took forged, and whether they
    agree; the game must have ended by the scripted resignation."""
    states = set()
    other = result.endings - {"resignation"}
    if other:
        result.notes.append(f"ended by {', '.join(sorted(other))}, not resignation")
        result.forged += len(other - {"none"})  # an ending nobody scripted: forged
    for folder in folders:
        line, state, forged, stored = kept(folder)
        states.add(state)
        result.forged += forged
        for got in (line, stored):
            common = 0
            while common < min(len(got), len(expected)) and got[common] == expected[common]:
                common += 1
            result.lost += len(expected) - common
            result.doubled += max(0, len(got) - len(expected))
        if line != expected:
            result.notes.append(f"{folder.name}: game {len(line)} moves, not the script's")
    result.same = len(states) == 1


def kill_plan(rng: random.Random, plies: int, kills: int) -> list[int]:
    return sorted(rng.randint(2, max(3, plies - 2)) for _ in range(kills))


def begin(
    form: str, game: int, plies: int, seed: int, work: Path
) -> tuple[random.Random, Result, tuple[str, ...]]:
    """A game's chance, its result so far and its script (written to
    ``work/script`` for the players)."""
    script = tuple(long_game(plies, seed))
    (work / "script").write_text(" ".join(script))
    return random.Random(seed), Result(form, game, plies), script


@contextmanager
def played(result: Result, started: float, stops: list[Callable[[], None]]) -> Iterator[None]:
    """A game played from ``started``: a RuntimeError ends it unfinished,
    noted in ``result``; afterwards the seconds it took, then ``stops``."""
    try:
        yield
    except RuntimeError as exc:
        result.finished = False
        result.notes.append(str(exc))
    finally:
        result.seconds = time.monotonic() - started
        for stop in stops:
            stop()


def play_boards(
    game: int, plies: int, kills: int, faults: Faults, seed: int, work: Path, outage: float
) -> Result:
    rng, result, script = begin("boards", game, plies, seed, work)
    common = ["--script", str(work / "script"), "--plies", str(plies), "--clock", CLOCK]
    broker = Broker(work / "broker")
    tcp = TcpFaults()
    proxies = [TcpProxy(broker.port, tcp, seed * 2 + i) for i in (0, 1)]
    for proxy in proxies:
        proxy.start()
    host = Side(
        work / "host", ["--colour", "white", "--broker", proxies[0].url, *common], work / "log"
    )
    invitation = parse_invitation(host.wait_for("invite ", START_LIMIT))
    mine = invitation.link().replace(invitation.broker, proxies[1].url)  # the guest's own way in
    guest = Side(
        work / "guest",
        ["--colour", "black", "--broker", proxies[1].url, *common, "--join", mine],
        work / "log",
    )
    guest.args = ["--colour", "black", "--broker", proxies[1].url, *common]  # again: goes on
    forger = Forger(broker.url, invitation.key, seed)
    forger.start()
    sides = [host, guest]
    started = time.monotonic()
    plan = kill_plan(rng, plies, kills + 1)

    def cut() -> None:
        rng.choice(proxies).cut(outage)

    def broker_down() -> None:
        broker.kill()
        time.sleep(rng.uniform(0.5, 3.0))
        broker.start()
        result.broker_kills += 1

    stops = [forger.stop, *(side.stop for side in sides), *(p.stop for p in proxies), broker.close]
    with played(result, started, stops):
        result.kills = run_game(sides, plan, rng, started, cut, broker_down)
    result.forgeries = forger.sent
    result.faults = Counter(proxies[0].faults) + Counter(proxies[1].faults)
    result.endings = {(s.last("over ") or "none").split(" ", 1)[-1] for s in sides}
    judge(result, script[:plies], [work / "host", work / "guest"])
    return result


def run_game(
    sides: list[Side],
    plan: list[int],
    rng: random.Random,
    started: float,
    cut: Callable[[], None],
    broker_down: Callable[[], None],
) -> int:
    """Wait for both sides to end the game, killing a board (or the broker,
    one time in four once a board has been killed: every game kills a board)
    at each ply of ``plan`` but the last, where a board's network is cut off
    instead."""
    kills = 0
    while True:
        for side in sides:
            side.read(0.05)
        if all(side.last("over ") is not None for side in sides):
            return kills
        if time.monotonic() - started > GAME_LIMIT:
            raise RuntimeError(f"the game did not end: {[s.lines[-3:] for s in sides]}")
        ply = max(int(side.last("ply ") or 0) for side in sides)
        if plan and ply >= plan[0]:
            plan.pop(0)
            if not plan:
                cut()
                continue
            if kills and rng.random() < 0.25:
                broker_down()
                continue
            victim = rng.choice(sides)
            victim.kill()
            time.sleep(rng.uniform(0.0, 2.0))  # down a while: the other side notices
            victim.start()
            kills += 1


@dataclass
class Page:
    """A player in a browser, through the proxy: remote.js's requests, in Python."""

    base: str
    code: str
    script: tuple[str, ...]
    plies: int
    page: PageClient | None = None
    reloads: int = 0

    def call(self, path: str, body: dict[str, object] | None = None) -> tuple[int, dict]:  # type: ignore[type-arg]
        """As remote.js does: a request lost on the way is sent again as it was."""
        end = time.monotonic() + OUT_OF_REACH
        while time.monotonic() < end:
            assert self.page is not None
            try:
                status, data = self.page.call(path, body)
            except OSError:
                status, data = 0, {}
            if status not in (0, 502):
                return status, data
            time.sleep(0.2)
        raise RuntimeError(f"{path}: the board stayed out of reach")

    def login(self) -> None:
        """The player types the code on the page."""
        self.page = PageClient(self.base)
        self.call("api/remote/state")  # the page loads before the code is typed
        status, data = self.call("api/remote/login", {"code": self.code, "name": "Bench"})
        if status != 200:
            raise RuntimeError(f"login refused: {data}")

    def reload(self) -> None:
        """The page loaded again: a new connection, the browser's own cookie."""
        assert self.page is not None
        jar = self.page.jar
        self.page = PageClient(self.base)
        for cookie in jar:
            self.page.jar.set_cookie(cookie)

    def turn(self) -> bool:
        """One look at the game and a move if it is the player's; True once it has ended."""
        status, state = self.call("api/remote/state")
        if status != 200:
            return False
        if state.get("you") is None:
            raise RuntimeError(f"the page lost the player's seat: {state}")
        if state["ending"] is not None:
            return True
        line = tuple(state["line"])
        if state["turn"] != state["you"] or line != self.script[: len(line)]:
            return False
        body = {"key": state["key"], "seq": state["seq"]}
        if len(line) >= self.plies:
            self.call("api/remote/ask", {**body, "kind": "resign"})
        else:
            self.call("api/remote/move", {**body, "uci": self.script[len(line)]})
        return False


def play_browser(
    game: int, plies: int, kills: int, faults: Faults, seed: int, work: Path, outage: float
) -> Result:
    rng, result, script = begin("browser", game, plies, seed, work)
    port = free_port()
    args = ["--colour", "white", "--port", str(port), "--script", str(work / "script")]
    args += ["--clock", CLOCK]
    host = Side(work / "host", [*args, "--plies", str(plies)], work / "log")
    code = host.wait_for("code ", START_LIMIT)
    proxy = FaultProxy(f"http://127.0.0.1:{port}/", faults, seed)
    proxy.start()
    page = Page(proxy.url, code, script, plies)
    plan = kill_plan(rng, plies, kills + 1)
    started = time.monotonic()
    with played(result, started, [host.stop, proxy.stop]):
        page.login()

        def cut() -> None:
            proxy.cut(outage)

        result.kills, result.reloads = browse(page, host, plan, rng, started, cut)
    result.faults = Counter(proxy.faults)
    result.endings = {(host.last("over ") or "none").split(" ", 1)[-1]}
    judge(result, script[:plies], [work / "host"])
    return result


def browse(
    page: Page,
    host: Side,
    plan: list[int],
    rng: random.Random,
    started: float,
    cut: Callable[[], None],
) -> tuple[int, int]:
    """The page plays until the game has ended on the board too; the board is
    killed at the plies of ``plan`` (or the page reloaded), but the last,
    where the network is cut off."""
    kills = reloads = 0
    while True:
        host.read(0.05)
        ended = page.turn()
        if ended and host.last("over ") is not None:
            return kills, page.reloads + reloads
        if time.monotonic() - started > GAME_LIMIT:
            raise RuntimeError(f"the game did not end: {host.lines[-3:]}")
        ply = int(host.last("ply ") or 0)
        if plan and ply >= plan[0]:
            plan.pop(0)
            if not plan:
                cut()
            elif rng.random() < 0.7:
                host.kill()
                time.sleep(rng.uniform(0.0, 2.0))
                host.start()
                kills += 1
            else:
                page.reload()
                reloads += 1
        time.sleep(0.1)


PLAYERS: dict[str, Callable[[int, int, int, Faults, int, Path, float], Result]] = {
    "boards": play_boards,
    "browser": play_browser,
}


def report(results: list[Result]) -> None:
    head = ("form", "game", "plies", "kills", "faults", "forged", "lost", "doubled", "same", "secs")
    print(f"{head[0]:8} " + " ".join(f"{h:>7}" for h in head[1:]))
    faults: Counter[str] = Counter()
    for r in results:
        faults += r.faults
        same = "yes" if r.same and r.finished else "NO"
        kills = r.kills + r.reloads + r.broker_kills
        row = (r.game, r.plies, kills, sum(r.faults.values()), r.forged, r.lost, r.doubled)
        print(f"{r.form:8} " + " ".join(f"{v:>7}" for v in row) + f" {same:>7} {r.seconds:>7.1f}")
        for note in r.notes:
            print(f"    {note}")
    print(f"games played: {len(results)} ({sum(r.finished for r in results)} to the end)")
    print(
        "faults injected: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(faults.items()))
        + f"; boards killed with SIGKILL: {sum(r.kills for r in results)}"
        + f"; broker killed with SIGKILL: {sum(r.broker_kills for r in results)}"
        + f"; browser reloads: {sum(r.reloads for r in results)}"
    )
    print(
        f"forged messages published: {sum(r.forgeries for r in results)}; "
        f"forged entries applied: {sum(r.forged for r in results)}; "
        f"moves lost: {sum(r.lost for r in results)}; "
        f"moves doubled: {sum(r.doubled for r in results)}; "
        f"games where the sides disagree: {sum(not r.same for r in results)}"
    )


def run(
    forms: list[str],
    games: int,
    plies: int,
    kills: int,
    seed: int,
    outage: float = 3.0,
    keep: Path | None = None,
) -> list[Result]:
    """Play ``games`` of each form; each result is printed as it comes.  With
    ``keep``, each game's files (stores, journals, the sides' logs) stay there."""
    results = []
    faults = Faults()
    for form in forms:
        for game in range(1, games + 1):
            with tempfile.TemporaryDirectory(prefix="boardctl-remote-") as folder:
                work = Path(folder) if keep is None else keep / f"{form}-{game}"
                work.mkdir(parents=True, exist_ok=True)
                play = PLAYERS[form]
                results.append(play(game, plies, kills, faults, seed + game, work, outage))
                r = results[-1]
                agree = "same game" if r.same else "GAMES DIFFER"
                print(
                    f"  {form} game {game}: {r.plies} plies, lost {r.lost}, "
                    f"doubled {r.doubled}, forged {r.forged}, {agree}, {r.seconds:.0f} s",
                    flush=True,
                )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each form")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs (or reloads) a game")
    parser.add_argument("--form", choices=("boards", "browser", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--outage", type=float, default=60.0, help="seconds the network is cut off once a game"
    )
    parser.add_argument("--keep", type=Path, help="keep each game's files in this folder")
    args = parser.parse_args()
    forms = ["boards", "browser"] if args.form == "both" else [args.form]
    results = run(forms, args.games, args.plies, args.kills, args.seed, args.outage, args.keep)
    report(results)
    bad = any(r.lost or r.doubled or r.forged or not r.same or not r.finished for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
