"""The routes of remote play (docs/remote.md), beside the spectator page's.

=========================  ==================================================
``/api/remote/state``      the remote game for the page: the player's legal
                           moves on their turn, the clocks, the offers
``/api/remote/login``      POST ``{"code": …}``: the player's cookie
``/api/remote/move``       POST ``{"key", "seq", "uci"}`` (the player)
``/api/remote/ask``        POST ``{"key", "seq", "kind"}``: takeback, draw, resign
``/api/remote/answer``     POST ``{"key", "seq", "kind", "yes"}``
``/api/remote/offer``      POST: a new game offered (the owner, with the PIN)
``/api/remote/join``       POST ``{"link": …}``: join another board's game (the owner)
``/api/remote/board``      POST ``{"kind", "yes"}``: the owner answers for the board
``/api/remote/invite``     GET ``?code=``: the game's header, for a joining board
``/api/remote/peer``       POST: a joining board's exchange of messages
=========================  ==================================================

The player is whoever holds the cookie the code gave: bound to the game's key
and the journal's secret for it, so it outlives a restart of the board, and
nobody without it is taken for the player.  Wrong codes are slowed down as
wrong PINs are (:class:`~boardctl.web.guard.PinGate`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from ..names import InvalidName, clean_name
from ..remote.desk import Answered
from ..remote.log import LogError
from ..remote.match import Match
from ..remote.offers import ANSWERABLE, ASKS
from ..remote.table import Answer, Table, Verdict
from ..rules import BLACK
from .guard import PinGate, client_key
from .layout import board_layout
from .remote_link import JoinError, Link, messages_in

LINK = web.AppKey("remote_link", Link)
CODES = web.AppKey("remote_codes", PinGate)
OWNER: web.AppKey[Callable[[web.Request], bool]] = web.AppKey("remote_owner")
BODY: web.AppKey[Callable[[web.Request], Awaitable[dict[str, Any]]]] = web.AppKey("remote_body")
PLAYER_COOKIE = "boardctl_player"
_STATUS = {Verdict.APPLIED: 200, Verdict.COPY: 200, Verdict.STALE: 409, Verdict.REFUSED: 400}


def _error(status: int, message: str, **more: Any) -> web.Response:
    return web.json_response({"error": message, **more}, status=status)


def player_token(match: Match) -> str:
    return hmac.new(match.kept.secret.encode(), match.key.encode(), hashlib.sha256).hexdigest()


def _player(request: web.Request) -> tuple[Match, Table] | None:
    """The game and its table, when the request comes from its browser player."""
    match = request.app[LINK].match
    if match is None or match.table is None or match.kept.seat != "browser":
        return None
    cookie = request.cookies.get(PLAYER_COOKIE, "")
    if not hmac.compare_digest(cookie.encode(), player_token(match).encode()):
        return None
    match.table.heard = request.app[LINK].monotonic()  # the player is there
    return match, match.table


def _answered(link: Link, answer: Answer) -> web.Response:
    link.publish()
    link.poke()
    if answer.verdict in (Verdict.APPLIED, Verdict.COPY):
        return web.json_response({"verdict": answer.verdict.value})
    return _error(_STATUS[answer.verdict], answer.why, verdict=answer.verdict.value)


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
    log = match.log
    if log.to_move() != side:
        return []
    pos = log.game.position
    return [[m.from_square, m.to_square, pos.uci(m)] for m in pos.legal_moves()]


def state_of(match: Match, you: int | None, owner: bool, now: float) -> dict[str, Any]:
    """The remote game as the page shows it to the player (``you``), to the
    owner, or to a spectator (neither)."""
    log, view = match.log, match.view(now)
    pos = log.game.position
    last = log.game.moves[-1] if log.game.moves else None
    side = you if you is not None else match.colour
    free = view.code != ""
    return {
        "key": match.key,
        "seq": log.seq,
        "line": list(log.line),
        "fen": pos.fen(),
        "turn": log.to_move(),
        "you": you,
        "board_colour": match.colour,
        "seat": match.kept.seat,
        "other": match.kept.other,
        "legal": _legal(match, you) if you is not None else [],
        "last_move": [last.from_square, last.to_square] if last else None,
        "check": pos.kings[pos.turn] if pos.is_check() else None,
        "clocks": list(view.clocks) if view.clocks is not None else None,
        "away": view.away,
        "asks": list(match.asks_of(side)) if you is not None else [],
        "asked": [k for k in ASKS if you is not None and _asked_by(match, you, k)],
        "declined": match.declined(you) if you is not None else "",
        "ending": None
        if view.ending is None
        else {"winner": view.ending[0], "reason": view.ending[1]},
        "problem": view.problem,
        "board": board_layout(match.kept.header.variant, side == BLACK),
        "code": match.kept.code if owner and free else "",
        "board_asks": list(match.asks_of(match.colour)) if owner else [],
    }


def _asked_by(match: Match, side: int, kind: str) -> bool:
    if match.table is None:
        return False
    offers = match.table.offers[side].current(match.log)
    return offers.resign if kind == "resign" else offers.made(kind) is not None  # type: ignore[arg-type]


async def state(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    match = link.match
    if match is None:
        return web.json_response({"key": "", "problem": link.problem})
    player = _player(request)
    you = match.colour ^ 1 if player is not None else None
    owner = request.app[OWNER](request)
    body = state_of(match, you, owner, link.monotonic())
    return web.json_response(body, headers={"Cache-Control": "no-store"})


async def login(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    data = await request.app[BODY](request)
    slow = _wrong_code(request)
    if slow is not None:
        return slow
    match = link.match
    if not _code_ok(request, data.get("code"), match) or match is None:
        return _error(403, "wrong code")
    try:
        name = clean_name(data.get("name", ""), "name", allow_empty=True)
    except InvalidName as exc:
        return _error(400, str(exc))
    if match.kept.role != "host" or not match.take_seat("browser", name, link.monotonic()):
        return _error(409, "another board plays this game")
    response = web.json_response({"player": True, "key": match.key})
    response.set_cookie(
        PLAYER_COOKIE, player_token(match), httponly=True, samesite="Strict", path="/"
    )
    link.publish()
    return response


def _fields(data: dict[str, Any]) -> tuple[str, int] | None:
    key, seq = data.get("key"), data.get("seq")
    if not isinstance(key, str) or type(seq) is not int or seq < 0:
        return None
    return key, seq


async def move(request: web.Request) -> web.StreamResponse:
    player = _player(request)
    if player is None:
        return _error(401, "only the player may move: enter the player code first")
    match, table = player
    data = await request.app[BODY](request)
    fields, uci = _fields(data), data.get("uci")
    if fields is None or not isinstance(uci, str) or len(uci) > 10:
        return _error(400, "expected key, seq and uci")
    link = request.app[LINK]
    return _answered(link, table.play(match.colour ^ 1, *fields, uci, link.monotonic()))


async def ask(request: web.Request) -> web.StreamResponse:
    player = _player(request)
    if player is None:
        return _error(401, "only the player may ask: enter the player code first")
    match, table = player
    data = await request.app[BODY](request)
    fields, kind = _fields(data), data.get("kind")
    if fields is None or kind not in ASKS:
        return _error(400, f"expected key, seq and a kind: {', '.join(ASKS)}")
    link = request.app[LINK]
    return _answered(link, table.ask(match.colour ^ 1, *fields, kind, link.monotonic()))


async def answer(request: web.Request) -> web.StreamResponse:
    player = _player(request)
    if player is None:
        return _error(401, "only the player may answer: enter the player code first")
    match, table = player
    data = await request.app[BODY](request)
    fields, kind, yes = _fields(data), data.get("kind"), data.get("yes")
    if fields is None or kind not in ANSWERABLE or type(yes) is not bool:
        return _error(400, "expected key, seq, kind (takeback or draw) and yes")
    link = request.app[LINK]
    side = match.colour ^ 1
    return _answered(link, table.answer(side, *fields, kind, yes, link.monotonic()))


# ---------------------------------------------------------------- the owner
async def offer(request: web.Request) -> web.StreamResponse:
    if not request.app[OWNER](request):
        return _error(401, "unlock the controls with the PIN first")
    link = request.app[LINK]
    if link.journal is None:
        return _error(503, link.problem or "remote play is off")
    match = link.offer()
    invite = f"{request.scheme}://{request.host}/?join={match.kept.code}"
    return web.json_response({"key": match.key, "code": match.kept.code, "invite": invite})


async def join(request: web.Request) -> web.StreamResponse:
    if not request.app[OWNER](request):
        return _error(401, "unlock the controls with the PIN first")
    data = await request.app[BODY](request)
    given = data.get("link")
    if not isinstance(given, str) or len(given) > 300:
        return _error(400, "expected the link the other board's page gives")
    try:
        match = await request.app[LINK].join(given)
    except JoinError as exc:
        return _error(502, str(exc))
    return web.json_response({"key": match.key, "colour": match.colour})


async def board_answer(request: web.Request) -> web.StreamResponse:
    if not request.app[OWNER](request):
        return _error(401, "unlock the controls with the PIN first")
    link = request.app[LINK]
    match = link.match
    data = await request.app[BODY](request)
    kind, yes = data.get("kind"), data.get("yes")
    if match is None or kind not in ANSWERABLE or type(yes) is not bool:
        return _error(400, "expected kind (takeback or draw) and yes")
    match.note(Answered(match.key, match.log.seq, kind, yes), link.monotonic())
    link.publish()
    link.poke()
    return web.json_response({"answered": kind})


# ---------------------------------------------------------------- another board
async def invite(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    slow = _wrong_code(request)
    if slow is not None:
        return slow
    match = link.match
    if not _code_ok(request, request.query.get("code"), match) or match is None:
        return _error(403, "wrong code")
    if match.kept.role != "host" or match.kept.seat not in ("", "board"):
        return _error(409, "a player in a browser has taken this game's seat")
    return web.json_response({"header": match.kept.header.to_json(), "name": link.name})


async def peer(request: web.Request) -> web.StreamResponse:
    link = request.app[LINK]
    data = await request.app[BODY](request)
    code, name = data.get("code"), data.get("name", "")
    if not isinstance(code, str) or not isinstance(name, str):
        return _error(400, "expected code, name and messages")
    slow = _wrong_code(request)
    if slow is not None:
        return slow
    try:
        messages = messages_in(data.get("messages"))
    except LogError as exc:
        return _error(400, str(exc))
    try:
        out = link.host_exchange(code, name, messages)
    except JoinError as exc:
        if str(exc) == "wrong code":
            request.app[CODES].wrong(client_key(request.remote), time.monotonic())
        return _error(403, str(exc))
    return web.json_response({"messages": out})


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
    app.cleanup_ctx.append(link.run)
    for path, handler in (
        ("/api/remote/login", login),
        ("/api/remote/move", move),
        ("/api/remote/ask", ask),
        ("/api/remote/answer", answer),
        ("/api/remote/offer", offer),
        ("/api/remote/join", join),
        ("/api/remote/board", board_answer),
        ("/api/remote/peer", peer),
    ):
        app.router.add_post(path, handler)
    app.router.add_get("/api/remote/state", state)
    app.router.add_get("/api/remote/invite", invite)
