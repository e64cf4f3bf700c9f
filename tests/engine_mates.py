"""A brute-force forced-mate checker, independent of the engine's search."""

from __future__ import annotations

from boardctl.rules import Position


def mates_in(pos: Position, n: int) -> bool:
    """Can the side to move force mate within ``n`` of its moves?"""
    for code in pos.legal_codes():
        pos.make(code)
        ok = _all_replies_lose(pos, n - 1)
        pos.unmake()
        if ok:
            return True
    return False


def forces_mate_with(pos: Position, code: int, n: int) -> bool:
    pos.make(code)
    ok = _all_replies_lose(pos, n - 1)
    pos.unmake()
    return ok


def _all_replies_lose(pos: Position, n: int) -> bool:
    replies = pos.legal_codes()
    if not replies:
        return pos.is_check()
    if n == 0:
        return False
    for reply in replies:
        pos.make(reply)
        ok = mates_in(pos, n)
        pos.unmake()
        if not ok:
            return False
    return True
