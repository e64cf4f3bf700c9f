"""The routes of remote play (docs/remote.md), beside the spectator page's.

=========================  ==================================================
``/api/remote/state``      the remote game for the page: the player's legal
                           moves on their turn, the clocks, the offers
``/api/remote/login``      POST ``{"code", "name"}``: the player's seat, bound
                           to this browser session
``/api/remote/move``       POST ``{"key", "seq", "uci"}`` (the player)
``/api/remote/ask``        POST ``{"key", "seq", "kind"}``: takeback, draw,
                           abort, resign
``/api/remote/answer``     POST ``{"key", "seq", "kind", "yes"}``
``/api/remote/offer``      POST: a new game offered (the owner, with the PIN)
``/api/remote/join``       POST ``{"link": …}``: join another board's game (the owner)
``/api/remote/board``      POST ``{"kind", "yes"}``: the owner answers for the board
``/api/remote/claim``      POST: the owner claims the game from an absent opponent
``/api/remote/release``    POST: the owner frees the player's seat for another browser
=========================  ==================================================

Another board never talks to these: boards meet through the broker
(:mod:`boardctl.remote.link`).  The player in the browser is whoever holds
the session the code was first used from: its token is in the cookie, its
digest in the journal, so it outlives a restart of the board, and a second
browser with the same code is refused until the owner releases the seat.
Wrong codes are slowed down as wrong PINs are (:class:`~boardctl.web.guard.PinGate`).
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import web

from ..names import InvalidName, clean_name
from ..remote.desk import Answered
from ..remote.entry import OFFERS
from ..remote.invite import InviteError
from ..remote.link import JOIN_WAIT, Link
from ..remote.match import Match
from ..rules import BLACK
from .guard import PinGate, client_key
from .layout import board_layout

LINK = web.AppKey("remote_link", Link)
CODES = web.AppKey("remote_codes", PinGate)
OWNER: web.AppKey[Callable[[web.Request], bool]] = web.AppKey("remote_owner")
BODY: web.AppKey[Callable[[web.Request], Awaitable[dict[str, Any]]]] = web.AppKey("remote_body")
PLAYER_COOKIE = "boardctl_player"
PLAYER_ASKS = ("takeback", "draw", "abort", "resign")


def _error(status: int, message: str, **more: Any) -> web.Response:
    return web.json_response({"error": message, **more}, status=status)


def _player(request: web.Request) -> Match | None:
    """The game, when the request comes from the session holding the player's seat."""
    link = request.app[LINK]
    match = link.match
    if match is None or match.browser is None:
        return None
    if not match.holds_seat(request.cookies.get(PLAYER_COOKIE, "")):
        return None
    match.heard = link.monotonic()  # the player is there
    return match


def _answered(link: Link, why: str | None) -> web.Response:
    link.publish()
    link.poke()
    if why in (None, "copy"):
        return web.json_response({"verdict": why or "applied"})
    if why == "stale":
        return _error(409, "the game has moved on", verdict="stale")
    return _error(400, why, verdict="refused")


def _wrong_code(request: web.Request) -> web.Response | None:
    """429 when this address has guessed too often, else None (and it may try)."""
    wait = request.app[CODES].admit(client_key(request.remote), time.monotonic())
    if wait <= 0:
        return None
    seconds = math.ceil(wait)
    return web.json_response(
        {"error": f"too many wrong codes from here: try again in {seconds} s"},
        status=429,
        headers={"Retry-After": str(seconds)},
    )


def _code_ok(request: web.Request, given: Any, match: Match | None) -> bool:
    ok = (
        isinstance(given, str)
        and match is not None
        and bool(match.kept.code)
        and hmac.compare_digest(given.strip().upper().encode(), match.kept.code.encode())
    )
    gate, key = request.app[CODES], client_key(request.remote)
    if ok:
        gate.right(key)
    else:
        gate.wrong(key, time.monotonic())
    return ok


# ---------------------------------------------------------------- the page
def _legal(match: Match, side: int) -> list[list[Any]]:
    """[from, to, uci] of every legal move of ``side``, if it is to move."""
    state = match.record.state
    if state.over() is not None or state.turn != side:
        return []
    pos = state.game.position
    return [[m.from_square, m.to_square, pos.uci(m)] for m in pos.legal_moves()]


def state_of(match: Match, you: int | None, owner: bool, link: Link) -> dict[str, Any]:
    """The remote game as the page shows it to the player (``you``), to the
    owner, or to a spectator (neither)."""
    now = link.monotonic()
    state, view = match.record.state, match.view(now, link.invitation())
    pos = state.game.position
    last = state.game.moves[-1] if state.game.moves else None
    side = you if you is not None else match.colour
    browser = match.browser
    free = view.code != ""
    return {
        "key": match.game_key,
        "seq": match.changes,
        "line": list(state.line),
        "fen": pos.fen(),
        "turn": state.turn if state.over() is None else None,
        "you": you,
        "board_colour": match.colour,
        "seat": match.kept.seat,
        "other": match.kept.other,
        "legal": _legal(match, you) if you is not None else [],
        "last_move": [last.from_square, last.to_square] if last else None,
        "check": pos.kings[pos.turn] if pos.is_check() else None,
        "clocks": list(view.clocks) if view.clocks is not None else None,
        "away": view.away,
        "asks": [s.what for s in browser.asking()] if you is not None and browser else [],
        "asked": list(browser.asked()) if you is not None and browser else [],
        "declined": browser.declined() if you is not None and browser else "",
        "ending": None
        if view.ending is None
        else {"winner": view.ending[0], "reason": view.ending[1]},
        "problem": view.problem,
        "board": board_layout(match.kept.header.variant, side == BLACK),
        "code": match.kept.code if owner and free else "",
        "invite": view.invite if owner else "",
        # Once a board has the seat: its invitation again, for when this board
        # is back at another address (it seats that board, and no other).
        "reinvite": link.invitation(seated=True) if owner and match.kept.seat == "board" else "",
        "invite_problem": link.broker_problem if owner and free else "",
        "board_asks": list(view.asks) if owner else [],
        "held": bool(match.kept.holder) if owner else False,
        "claimable": match.claimable(now) if owner else False,
    }


async def state(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    with link.lock:
        match = link.match
        if match is None:
            return web.json_response({"key": "", "problem": link.problem})
        player = _player(request)
        you = match.colour ^ 1 if player is not None else None
        body = state_of(match, you, request.app[OWNER](request), link)
    response = web.json_response(body, headers={"Cache-Control": "no-store"})
    _session(request, response)
    return response


def _session(request: web.Request, response: web.StreamResponse) -> str:
    """This browser's session token: the one its cookie carries, else a new
    one set now.  The page reads the state before anyone types a code, so a
    login whose answer is lost on the way is sent again from the same
    session, and finds the seat its own."""
    token = request.cookies.get(PLAYER_COOKIE, "")
    if not token:
        token = secrets.token_urlsafe(24)
        response.set_cookie(PLAYER_COOKIE, token, httponly=True, samesite="Strict", path="/")
    return token


async def login(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    data = await request.app[BODY](request)
    slow = _wrong_code(request)
    if slow is not None:
        return slow
    with link.lock:
        match = link.match
        if not _code_ok(request, data.get("code"), match) or match is None:
            return _error(403, "wrong code")
        try:
            name = clean_name(data.get("name", ""), "name", allow_empty=True)
        except InvalidName as exc:
            return _error(400, str(exc))
        response = web.json_response({"player": True, "key": match.game_key})
        why = match.take_browser(name, _session(request, response))
        if why is not None:
            return _error(409, why)
        link.publish()
    return response


def _fields(data: dict[str, Any]) -> tuple[str, int] | None:
    key, seq = data.get("key"), data.get("seq")
    if not isinstance(key, str) or type(seq) is not int or seq < 0:
        return None
    return key, seq


async def _player_act(
    request: web.Request, check: Callable[[dict[str, Any]], str | None], act: Callable[..., Any]
) -> web.StreamResponse:
    """A request of the player's: who, which game, the log it saw, then ``act``."""
    link = request.app[LINK]
    data = await request.app[BODY](request)
    fields = _fields(data)
    bad = "expected key and seq" if fields is None else check(data)
    if bad is not None:
        return _error(400, bad)
    assert fields is not None
    with link.lock:
        match = _player(request)
        if match is None:
            return _error(401, "only the player may do that: enter the player code first")
        if fields[0] != match.game_key:
            return _error(409, "another game", verdict="stale")
        return _answered(link, act(match, data, fields[1], link.monotonic()))


async def move(request: web.Request) -> web.StreamResponse:
    def check(data: dict[str, Any]) -> str | None:
        uci = data.get("uci")
        return None if isinstance(uci, str) and len(uci) <= 10 else "expected a move (uci)"

    return await _player_act(
        request, check, lambda match, data, seq, now: match.browser_plays(data["uci"], seq, now)
    )


async def ask(request: web.Request) -> web.StreamResponse:
    def check(data: dict[str, Any]) -> str | None:
        return None if data.get("kind") in PLAYER_ASKS else f"kind is {', '.join(PLAYER_ASKS)}"

    return await _player_act(
        request, check, lambda match, data, seq, now: match.browser_asks(data["kind"], seq, now)
    )


async def answer(request: web.Request) -> web.StreamResponse:
    def check(data: dict[str, Any]) -> str | None:
        if data.get("kind") not in OFFERS or type(data.get("yes")) is not bool:
            return f"expected kind ({', '.join(OFFERS)}) and yes"
        return None

    return await _player_act(
        request,
        check,
        lambda match, data, seq, now: match.browser_answers(data["kind"], data["yes"], seq, now),
    )


# ---------------------------------------------------------------- the owner
def _owner_only(
    handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """``handler``, refused with 401 unless the request holds the PIN's session."""

    @functools.wraps(handler)
    async def checked(request: web.Request) -> web.StreamResponse:
        if not request.app[OWNER](request):
            return _error(401, "unlock the controls with the PIN first")
        return await handler(request)

    return checked


@_owner_only
async def offer(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    with link.lock:
        if link.journal is None:
            return _error(503, link.problem or "remote play is off")
        match = link.offer(request.url.host or "")
        body = {"key": match.game_key, "code": match.kept.code, "invite": link.invitation()}
    link.poke()
    return web.json_response(body)


@_owner_only
async def join(request: web.Request) -> web.StreamResponse:
    data = await request.app[BODY](request)
    given = data.get("link")
    if not isinstance(given, str) or len(given) > 400:
        return _error(400, "expected the invitation the other board's page gives")
    link = request.app[LINK]
    try:
        with link.lock:
            joining = link.join(given)
    except InviteError as exc:
        return _error(400, str(exc))
    await asyncio.to_thread(joining.done.wait, JOIN_WAIT + 1.0)
    if joining.error or not joining.done.is_set():
        return _error(504, joining.error or "the other board did not answer in time")
    kept = joining.kept
    assert kept is not None
    return web.json_response({"key": kept.header.key, "colour": kept.colour})


@_owner_only
async def board_answer(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    data = await request.app[BODY](request)
    kind, yes = data.get("kind"), data.get("yes")
    if kind not in OFFERS or type(yes) is not bool:
        return _error(400, f"expected kind ({', '.join(OFFERS)}) and yes")
    with link.lock:
        match = link.match
        if match is None:
            return _error(409, "no remote game")
        match.note(Answered(match.game_key, match.changes, kind, yes), link.monotonic())
        link.publish()
    link.poke()
    return web.json_response({"answered": kind})


@_owner_only
async def claim(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    with link.lock:
        match = link.match
        now = link.monotonic()
        if match is None or not match.claimable(now):
            return _error(409, "the opponent is not away long enough to claim the game")
        why = match.board.ask("claim", now, match.away_for(now))
        match.update_seq()
        return _answered(link, why)


@_owner_only
async def release(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    with link.lock:
        match = link.match
        if match is None or not match.release_browser():
            return _error(409, "no player's seat to release")
        link.publish()
    return web.json_response({"released": True})


def add_remote(
    app: web.Application,
    link: Link,
    owner: Callable[[web.Request], bool],
    body: Callable[[web.Request], Awaitable[dict[str, Any]]],
) -> None:
    """Remote play's routes on ``app``, and the link's life tied to the app's."""
    app[LINK] = link
    app[CODES] = PinGate()
    app[OWNER] = owner
    app[BODY] = body

    async def life(app: web.Application) -> AsyncIterator[None]:
        await asyncio.to_thread(link.start)
        yield
        await asyncio.to_thread(link.close)

    app.cleanup_ctx.append(life)
    for path, handler in (
        ("/api/remote/login", login),
        ("/api/remote/move", move),
        ("/api/remote/ask", ask),
        ("/api/remote/answer", answer),
        ("/api/remote/offer", offer),
        ("/api/remote/join", join),
        ("/api/remote/board", board_answer),
        ("/api/remote/claim", claim),
        ("/api/remote/release", release),
    ):
        app.router.add_post(path, handler)
    app.router.add_get("/api/remote/state", state)
