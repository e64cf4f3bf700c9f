#!/usr/bin/env python3
"""Probe which castling moves Fairy-Max accepts in `variant falcon`.

Talks to /usr/games/fairymax (Debian's fairymax 5.0b) over the XBoard protocol,
sets up positions with `edit`, feeds moves in `force` mode and detects acceptance
with `ping`/`pong` (a refused move is answered `Illegal move:...`).  After an
accepted move the board is read back with Fairy-Max's debug command `p`.

For every castling attempt the script also evaluates two candidate rules:
  pre  -- the usual rule: king not in check, no square the king passes over or
          lands on attacked, judged in the position BEFORE castling;
  post -- Fairy-Max's rule as read from its source: none of the squares from the
          king's start square to its destination (f1 g1 h1 i1 / f1 e1 d1 c1)
          attacked, judged in the position AFTER castling (king and rook moved).
and prints which one agrees with the engine.

Usage:
  probe_fairymax_castling.py              print the experiment table (markdown)
  probe_fairymax_castling.py --random N   also cross-check the `post` rule on N
                                          random positions (x 2 colours x 2 castlings)
Standard library only.  Exits 0 with a message if the engine is missing.
Results are documented in docs/fairymax-castling.md.
"""

import argparse
import contextlib
import itertools
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

ENGINE = "/usr/games/fairymax"
FILES = "abcdefghij"
NF, NR = 10, 8
TIMEOUT = 15.0  # seconds to wait for a pong


# --------------------------------------------------------------------------
# Board helpers: squares are (file 0..9, rank 1..8); a board is a dict
# square -> piece letter (upper case white, lower case black; F = falcon).


def sq(name):
    return (FILES.index(name[0]), int(name[1:]))


def name(s):
    return f"{FILES[s[0]]}{s[1]}"


def parse_fen(fen):
    board = {}
    ranks = fen.split()[0].split("/")
    assert len(ranks) == NR, fen
    for i, row in enumerate(ranks):
        r = NR - i
        f = 0
        for token in re.findall(r"\d+|\D", row):
            if token.isdigit():
                f += int(token)
            else:
                board[(f, r)] = token
                f += 1
        assert f == NF, fen
    return board


def to_fen(board, side):
    rows = []
    for r in range(NR, 0, -1):
        row = ""
        for piece, run in itertools.groupby(board.get((f, r)) for f in range(NF)):
            n = len(list(run))
            row += str(n) if piece is None else piece * n
        rows.append(row)
    return "/".join(rows) + " " + side


def mirror_sq(s):
    return (s[0], NR + 1 - s[1])


def mirror_move(m):
    a, b = m[:2], m[2:4]
    return name(mirror_sq(sq(a))) + name(mirror_sq(sq(b))) + m[4:]


def mirror_board(board):
    return {mirror_sq(s): p.swapcase() for s, p in board.items()}


# --------------------------------------------------------------------------
# Attack detection (pseudo-legal: can a piece of `color` move/capture onto s?)

KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def falcon_paths():
    """offset -> list of (intermediate1, intermediate2) offsets (3 paths)."""
    out = {}
    for ax, ay in ((1, 3), (3, 1), (2, 3), (3, 2)):
        for sx in (1, -1):
            for sy in (1, -1):
                dx, dy = ax * sx, ay * sy
                if (ax, ay) == (1, 3):
                    twice, once = (0, sy), (sx, sy)
                elif (ax, ay) == (3, 1):
                    twice, once = (sx, 0), (sx, sy)
                elif (ax, ay) == (2, 3):
                    twice, once = (sx, sy), (0, sy)
                else:
                    twice, once = (sx, sy), (sx, 0)
                paths = []
                for order in ((twice, twice, once), (twice, once, twice), (once, twice, twice)):
                    a = order[0]
                    b = (a[0] + order[1][0], a[1] + order[1][1])
                    paths.append((a, b))
                out[(dx, dy)] = paths
    return out


FALCON = falcon_paths()


def on_board(s):
    return 0 <= s[0] < NF and 1 <= s[1] <= NR


def is_white(p):
    return p.isupper()


def attacked(board, s, by_white):
    for (f, r), p in board.items():
        if is_white(p) != by_white:
            continue
        t = p.upper()
        dx, dy = s[0] - f, s[1] - r
        if (dx, dy) == (0, 0):
            continue
        if t == "P":
            fwd = 1 if by_white else -1
            if dy == fwd and abs(dx) == 1:
                return True
        elif t == "N":
            if (dx, dy) in KNIGHT:
                return True
        elif t == "K":
            if max(abs(dx), abs(dy)) == 1:
                return True
        elif t in "RBQ":
            dirs = []
            if t in "RQ":
                dirs += ROOK_DIRS
            if t in "BQ":
                dirs += BISHOP_DIRS
            for ux, uy in dirs:
                x, y = f + ux, r + uy
                while on_board((x, y)):
                    if (x, y) == s:
                        return True
                    if (x, y) in board:
                        break
                    x, y = x + ux, y + uy
        elif t == "F":
            for a, b in FALCON.get((dx, dy), ()):
                if (f + a[0], r + a[1]) not in board and (f + b[0], r + b[1]) not in board:
                    return True
    return False


# Castling geometry, White; Black is the same on rank 8.
CASTLES = {
    # king move: (rook from, rook to, squares that must be empty,
    #             squares the king passes/lands on (pre rule),
    #             squares Fairy-Max tests after castling (post rule))
    "f1i1": ("j1", "h1", ["g1", "h1", "i1"], ["g1", "h1", "i1"], ["f1", "g1", "h1", "i1"]),
    "f1c1": ("a1", "d1", ["b1", "c1", "d1", "e1"], ["e1", "d1", "c1"], ["f1", "e1", "d1", "c1"]),
}


def castle_info(move, white):
    """Normalise a castling input (king move or rook-takes-king) for a side."""
    m = move if white else mirror_move(move)
    alias = {"j1f1": "f1i1", "a1f1": "f1c1"}
    m = alias.get(m, m)
    if m not in CASTLES:
        return None
    return m


def rules_verdict(board, move, white, moved=()):
    """Return (pre_ok, post_ok) for a castling move, or None if not castling."""
    m = castle_info(move, white)
    if m is None:
        return None
    rf, rt, empty, passed, tested = CASTLES[m]

    def S(n):
        s = sq(n)
        return s if white else mirror_sq(s)

    K, R = ("K", "R") if white else ("k", "r")
    virgin = S("f1") not in moved and S(rf) not in moved
    base = (
        board.get(S("f1")) == K
        and board.get(S(rf)) == R
        and virgin
        and all(S(e) not in board for e in empty)
    )
    if not base:
        return (False, False)
    enemy_white = not white
    pre_ok = not attacked(board, S("f1"), enemy_white) and not any(
        attacked(board, S(p), enemy_white) for p in passed
    )
    after = dict(board)
    del after[S("f1")]
    del after[S(rf)]
    after[S(m[2:4])] = K
    after[S(rt)] = R
    post_ok = not any(attacked(after, S(t), enemy_white) for t in tested)
    return (pre_ok, post_ok)


# --------------------------------------------------------------------------
# Engine driver


class EngineDied(Exception):
    pass


class Engine:
    def __init__(self, path=ENGINE):
        self.path = path
        self.proc = None
        self.n = 0
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.q = queue.Queue()
        t = threading.Thread(target=self._reader, args=(self.proc, self.q), daemon=True)
        t.start()
        self.send("xboard")
        self.send("protover 2")
        self.sync()

    @staticmethod
    def _reader(proc, q):
        for line in proc.stdout:
            q.put(line.rstrip("\n"))
        q.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise EngineDied("engine pipe closed") from err

    def sync(self, timeout=TIMEOUT):
        """Send ping, return the output lines received before the pong."""
        self.n += 1
        self.send(f"ping {self.n}")
        want = f"pong {self.n}"
        lines = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {want} within {timeout:.0f}s")
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineDied("engine exited")
            if line.strip() == want:
                return lines
            lines.append(line)

    def restart(self):
        self.close()
        self.start()

    def close(self):
        if self.proc is None:
            return
        with contextlib.suppress(EngineDied):
            self.send("quit")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=2)
        self.proc.kill()  # does nothing to an engine that has quit
        self.proc.wait()
        self.proc = None

    # --- higher level ---
    def setup(self, board, side):
        self.send("new")
        self.send("variant falcon")
        self.send("force")
        self.send("edit")
        self.send("#")
        for want_white in (True, False):
            if not want_white:
                self.send("c")
            for (f, r), p in sorted(board.items()):
                if is_white(p) == want_white:
                    self.send(f"{p.upper()}{name((f, r))}")
        self.send(".")
        if side == "b":
            self.send("black")
            self.send("force")
        out = self.sync()
        bad = [ln for ln in out if ln.startswith("Error") or "Illegal" in ln]
        if bad:
            raise RuntimeError(f"setup failed: {bad}")

    def move(self, mv):
        """True if accepted, False if answered 'Illegal move'."""
        self.send(mv)
        out = self.sync()
        for ln in out:
            if ln.startswith("Illegal move"):
                return False
            if ln.startswith("Error"):
                raise RuntimeError(f"engine error on {mv}: {ln}")
        return True

    def board(self):
        self.send("p")
        out = self.sync()
        rows = [ln.split() for ln in out if ln.startswith(" ")]
        rows = [r for r in rows if len(r) == NF][:NR]
        conv = {"*": "P", "+": "p", "E": "F", "e": "f"}
        b = {}
        for i, row in enumerate(rows):
            for f, c in enumerate(row):
                if c != ".":
                    b[(f, NR - i)] = conv.get(c, c)
        return b


# --------------------------------------------------------------------------
# Experiments.  Each is defined for White; a Black twin is made by mirroring
# ranks and colours (descriptions always name the White squares).

BASE = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R"
START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR"


def fen_mod(base, changes):
    """`base` (a FEN's board) changed by `changes`, in order: "-e2" empties e2,
    "bc4" puts a black bishop on c4."""
    b = parse_fen(base + " w")
    for change in changes.split():
        if change.startswith("-"):
            b.pop(sq(change[1:]), None)
        else:
            b[sq(change[1:])] = change[0]
    return to_fen(b, "w").split()[0]


TESTS = []


def T(group, desc, fen, moves, pre="", note=""):
    """One experiment for each of `moves`, played after the moves `pre` (both
    space-separated)."""
    for move in moves.split():
        TESTS.append(dict(group=group, desc=desc, fen=fen, pre=pre.split(), move=move, note=note))


# Q1: which inputs are castling, where does the rook go
T("Q1", "bare back rank, all unmoved", BASE, "f1b1 f1c1 f1d1 f1e1 f1g1 f1h1 f1i1 f1a1 f1j1")
T("Q1", "bare back rank, all unmoved", BASE, "a1f1 j1f1")
T("Q1", "rook is on h1 after f1i1: rook h1->f1", BASE, "h1f1", pre="f1i1 a7a6")
T("Q1", "j1 empty after f1i1: king i1->j1", BASE, "i1j1", pre="f1i1 a7a6")
T("Q1", "rook is on d1 after f1c1: rook d1->e1", BASE, "d1e1", pre="f1c1 a7a6")
T("Q1", "a1 empty after f1c1: king c1->b1->a1", BASE, "b1a1", pre="f1c1 a7a6 c1b1 a6a5")
KINGSIDE_CLEARED = "g2g4 g7g5 g1h4 g8h5 h1g2 h8g7 i1h3 i8h6"
QUEENSIDE_CLEARED = "d2d4 d7d5 d1e4 d8e5 e2e3 e7e6 e1e2 e8e7 c1d2 c8d7 b1c3 b8c6"
T("Q1", "real game from the start position, kingside cleared", START, "f1i1", KINGSIDE_CLEARED)
T("Q1", "real game from the start position, queenside cleared", START, "f1c1", QUEENSIDE_CLEARED)

# Q2: ordinary conditions
for f in FILES:
    rook = fen_mod(BASE, f"-{f}2 r{f}4")
    T("Q2", f"black rook on {f}4 attacks {f}1 (pawn {f}2 removed)", rook, "f1i1 f1c1")
ROOK_ONLY = "b1 is crossed by the rook only"
T("Q2", "black pawn on h2 attacks g1, i1", fen_mod(BASE, "ph2"), "f1i1 f1c1")
T("Q2", "black pawn on c2 attacks b1, d1", fen_mod(BASE, "pc2"), "f1c1")
T("Q2", "black pawn on a2 attacks b1 only", fen_mod(BASE, "pa2"), "f1c1", note=ROOK_ONLY)
T("Q2", "black knight on h3 attacks g1, i1", fen_mod(BASE, "nh3"), "f1i1")
T("Q2", "black knight on a3 attacks b1 only", fen_mod(BASE, "na3"), "f1c1", note=ROOK_ONLY)
T("Q2", "black bishop on c4 attacks f1 (check)", fen_mod(BASE, "-d3 -e2 bc4"), "f1i1")
for s in ["b1", "c1", "d1", "e1"]:
    T("Q2", f"white knight on {s}", fen_mod(BASE, "N" + s), "f1c1")
T("Q2", "black knight on b1", fen_mod(BASE, "nb1"), "f1c1")
T("Q2", "white knight on b1, rook-takes-king input", fen_mod(BASE, "Nb1"), "a1f1")
for s in ["g1", "h1", "i1"]:
    T("Q2", f"white knight on {s}", fen_mod(BASE, "N" + s), "f1i1")
T("Q2", "king moved f1e1 and back", BASE, "f1i1 f1c1", pre="f1e1 a7a6 e1f1 a6a5")
T("Q2", "j-rook moved j1i1 and back", BASE, "f1i1", pre="j1i1 a7a6 i1j1 a6a5")
T("Q2", "j-rook moved j1i1 and back (a-rook unmoved)", BASE, "f1c1", pre="j1i1 a7a6 i1j1 a6a5")
T("Q2", "a-rook moved a1b1 and back", BASE, "f1c1", pre="a1b1 a7a6 b1a1 a6a5")
T("Q2", "no rook on j1", fen_mod(BASE, "-j1"), "f1i1")
T("Q2", "knight instead of rook on j1", fen_mod(BASE, "-j1 Nj1"), "f1i1")

# Q3: falcon paths that change when castling moves king and rook.  A black
# falcon stands in place of White's pawn on the square named; the other pawns
# on the second rank block its other paths.
FALCON_REACHES = {
    "i2": "checks f1 only via h1,g1",
    "c2": "checks f1 only via d1,e1",
    "d2": "reaches g1 only via e1,f1",
    "e2": "reaches h1 only via f1,g1",
    "h2": "reaches e1 only via g1,f1",
    "g2": "reaches d1 only via f1,e1",
    "f2": "reaches i1 via g1,h1 and c1 via e1,d1",
    "j2": "reaches g1 only via i1,h1",
    "b2": "reaches e1 only via c1,d1",
    "a2": "reaches d1 only via b1,c1",
}
FALCON_PROBES = [
    # the falcon's square, the move tried, a note
    ("i2", "f1i1", "in check; rook on h1 blocks the check afterwards"),
    ("i2", "f1c1", "in check; path h1,g1 still open afterwards"),
    ("i2", "a2a3", "confirms the check is real"),
    ("i2", "f1e1", "plain king move out of check"),
    ("c2", "f1c1", "in check; rook on d1 blocks the check afterwards"),
    ("c2", "f1i1", "in check; path d1,e1 still open afterwards"),
    ("c2", "a2a3", "confirms the check is real"),
    ("d2", "f1i1", "g1 attacked only once f1 is empty"),
    ("d2", "f1c1", ""),
    ("e2", "f1i1", "h1 (rook's new square) attacked only once f1 is empty"),
    ("e2", "f1c1", ""),
    ("h2", "f1c1", "e1 attacked only once f1 is empty"),
    ("h2", "f1i1", ""),
    ("g2", "f1c1", "d1 (rook's new square) attacked only once f1 is empty"),
    ("g2", "f1i1", ""),
    ("f2", "f1i1", "destination attacked before, blocked by rook on h1 after"),
    ("f2", "f1c1", "destination attacked before, blocked by rook on d1 after"),
    ("j2", "f1i1", "passed square attacked before, blocked by king+rook after"),
    ("j2", "f1c1", ""),
    ("b2", "f1c1", "passed square attacked before, blocked by king+rook after"),
    ("b2", "f1i1", ""),
    ("a2", "f1c1", "passed square attacked before, blocked by king on c1 after"),
]
for square, move, note in FALCON_PROBES:
    desc = f"falcon {square} {FALCON_REACHES[square]}"
    T("Q3", desc, fen_mod(BASE, f"-{square} f{square}"), move, note=note)
# a falcon attack on g1 that castling does not affect
T("Q3", "falcon h4 attacks g1 via g3,g2 (unaffected by castling)", fen_mod(BASE, "-g2 fh4"), "f1i1")

# Quirks of the rook-takes-king input: an own piece "takes" the king, and the
# board afterwards shows what Fairy-Max made of it.
QUIRKS = [
    # the piece put on the back rank, its move, what Fairy-Max plays instead
    ("Bh1", "bishop", "h1f1", "f1g1 (h1-1)"),
    ("Qe1", "queen", "e1f1", "f1g1 (e1+2)"),
    ("Bc1", "bishop", "c1f1", "f1e1 (c1+2)"),
]
for piece, piece_name, move, converted in QUIRKS:
    desc = f"own {piece_name} on {piece[1:]} 'takes' king: {move}"
    note = f"converted to {converted}; see board afterwards"
    T("Quirk", desc, fen_mod(BASE, piece), move, note=note)
T("Quirk", "own bishop on h1, plain king move f1g1", fen_mod(BASE, "Bh1"), "f1g1")


def all_tests():
    out = []
    for t in TESTS:
        w = dict(t, colour="White", side="w")
        out.append(w)
        b = mirror_board(parse_fen(t["fen"] + " w"))
        out.append(
            dict(
                t,
                colour="Black",
                side="b",
                fen=to_fen(b, "b").split()[0],
                move=mirror_move(t["move"]),
                pre=[mirror_move(m) for m in t["pre"]],
            )
        )
    return out


def describe_board(b, white):
    """Where the king and the castling rooks stand on the back rank."""
    r = 1 if white else NR
    K, R = ("K", "R") if white else ("k", "r")
    ks = [name(s) for s, p in b.items() if p == K]
    rs = sorted(name(s) for s, p in b.items() if p == R and s[1] == r)
    return "K {}, R {}".format(",".join(ks) or "-", ",".join(rs) or "-")


def run_test(eng, t):
    board = parse_fen(t["fen"] + " w")
    eng.setup(board, t["side"])
    for m in t["pre"]:
        if not eng.move(m):
            return dict(answer=f"SETUP FAILED at {m}", after="", rules=None)
    # rule verdicts need the position after the pre-moves; read it back
    cur = eng.board() if t["pre"] else board
    moved = {sq(m[:2]) for m in t["pre"]}  # origin squares of earlier moves
    rules = rules_verdict(cur, t["move"], t["colour"] == "White", moved)
    ok = eng.move(t["move"])
    after = describe_board(eng.board(), t["colour"] == "White") if ok else ""
    if ok and t["group"] == "Quirk":
        b = eng.board()
        rank = 1 if t["colour"] == "White" else NR
        cells = " ".join(b.get((f, rank)) or "." for f in range(NF))
        after = f"rank {rank}: {cells}"
    return dict(answer="accepted" if ok else "Illegal", after=after, rules=rules)


def fmt_rules(rules, answer):
    if rules is None:
        return "-", "-", ""
    pre, post = rules
    acc = answer == "accepted"

    def s(v):
        return "legal" if v else "illegal"

    match = []
    if pre == acc:
        match.append("pre")
    if post == acc:
        match.append("post")
    return s(pre), s(post), "+".join(match) or "NEITHER"


def print_table(eng, tests):
    hdr = (
        "| # | side | group | position (FEN, side to move) | moves before | "
        "move | Fairy-Max | board after | pre rule | post rule | "
        "agrees | note |"
    )
    print(hdr)
    print("|" + "---|" * 12)
    mism = 0
    for i, t in enumerate(tests, 1):
        try:
            res = run_test(eng, t)
        except (TimeoutError, EngineDied, RuntimeError) as e:
            res = dict(answer=f"ERROR: {e}", after="", rules=None)
            eng.restart()
        pre, post, agree = fmt_rules(res["rules"], res["answer"])
        if res["rules"] is not None and "post" not in agree:
            mism += 1
        cells = [
            str(i),
            t["colour"],
            t["group"],
            f"`{t['fen']} {t['side']}`",
            " ".join(t["pre"]) or "-",
            t["move"],
            res["answer"],
            res["after"],
            pre,
            post,
            agree,
            t["desc"] + ("; " + t["note"] if t["note"] else ""),
        ]
        print("| " + " | ".join(cells) + " |")
        sys.stdout.flush()
    return mism


# --------------------------------------------------------------------------
# Random cross-check of the post rule


def random_position(rng):
    """White to move; Kf1, Ra1, Rj1 unmoved; Black king safe."""
    while True:
        b = {sq("f1"): "K", sq("a1"): "R", sq("j1"): "R"}
        for f in range(NF):
            for r in range(1, NR + 1):
                s = (f, r)
                if s in b:
                    continue
                p_occ = {1: 0.04, 2: 0.35, 3: 0.2, 4: 0.12}.get(r, 0.05)
                if rng.random() >= p_occ:
                    continue
                white = rng.random() < (0.55 if r <= 2 else 0.3)
                pool = "PPFFFNBRQ" if 2 <= r <= 7 else "FFFNBRQ"
                if not white and r in (7, 8):
                    pool = pool.replace("P", "")  # keep black pawns sane
                if white and r >= 7:
                    pool = pool.replace("P", "")
                p = rng.choice(pool)
                b[s] = p if white else p.lower()
        free = [(f, r) for f in range(NF) for r in range(5, NR + 1) if (f, r) not in b]
        bk = rng.choice(free)
        b[bk] = "k"
        if not attacked(b, bk, True):
            return b


def random_check(eng, n, seed):
    rng = random.Random(seed)
    counts = {}
    mism = []
    for _i in range(n):
        wb = random_position(rng)
        for colour in ("White", "Black"):
            board = wb if colour == "White" else mirror_board(wb)
            side = "w" if colour == "White" else "b"
            for move in ("f1i1", "f1c1"):
                mv = move if colour == "White" else mirror_move(move)
                pre, post = rules_verdict(board, mv, colour == "White")
                try:
                    eng.setup(board, side)
                    acc = eng.move(mv)
                except (TimeoutError, EngineDied, RuntimeError) as e:
                    eng.restart()
                    mism.append((to_fen(board, side), mv, f"ERROR {e}"))
                    continue
                key = (post, acc, pre)
                counts[key] = counts.get(key, 0) + 1
                if acc != post:
                    mism.append((to_fen(board, side), mv, f"engine {acc}, post rule {post}"))
    print()
    print(f"Random cross-check: {n} positions x 2 colours x 2 castlings (seed {seed})")
    print()
    print("| post rule | Fairy-Max | pre rule | count |")
    print("|---|---|---|---|")
    for (post, acc, pre), c in sorted(counts.items()):

        def s(v):
            return "legal" if v else "illegal"

        answer = "accepted" if acc else "Illegal"
        print(f"| {s(post)} | {answer} | {s(pre)} | {c} |")
    print()
    print(f"mismatches between Fairy-Max and the post rule: {len(mism)}")
    for m in mism[:20]:
        print("  ", *m)
    return len(mism)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument(
        "--random",
        type=int,
        default=0,
        metavar="N",
        help="cross-check the post rule on N random positions",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-table", action="store_true")
    args = ap.parse_args()
    if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
        print(f"skipped: {args.engine} not found (install Debian's fairymax)")
        return 0
    eng = Engine(args.engine)
    try:
        bad = 0
        if not args.no_table:
            bad += print_table(eng, all_tests())
        if args.random:
            bad += random_check(eng, args.random, args.seed)
    finally:
        eng.close()
    print()
    print(f"castling answers not explained by the post rule: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
