"""The spectator web server: aiohttp on its own thread and event loop.

It reads the snapshots the daemon publishes on a :class:`Hub` and never calls
into the daemon; actions go back on the hub's queue.  A slow or hostile
client holds up only its own connection: each update is the latest snapshot
(a client that lags skips the ones it missed), a write that does not finish
in ``SEND_TIMEOUT`` drops the client, and the streams' seats, the PIN's
checks, the headers and a malformed request's log line follow the rules of
:mod:`.guard`.

Routes (the README documents the feeds):

=====================  ====================================================
``/``                  the live board (``?view=projector`` for a projector)
``/games``             the stored games; ``/games/N`` replays one,
                       ``/games/N.pgn`` downloads it
``/live.pgn``          the current game; ``/games.pgn`` every stored game
``/api/state``         the current snapshot as JSON; ``/api/events`` the same
                       pushed as Server-Sent Events after every change
``/api/session``       whether actions are possible and unlocked
``/api/login``         POST ``{"pin": …}``: sets the session cookie
``/api/action``        POST ``{"kind": …, "value": …}`` (``review``: a stored
                       game's number; its progress is in the snapshot;
                       ``setup`` a FEN, ``puzzle`` an id, ``replay`` a
                       stored game's number, ``normal``: :mod:`.starts`;
                       ``restart``: the board's program starts again)
``/api/puzzles``       the puzzles the board can set up
``/settings``          the owner's settings (behind the PIN)
``/api/settings``      GET: the settings form's values; POST: save them
=====================  ====================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import json
import logging
import math
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from aiohttp import hdrs, web

from .. import bounded
from ..bounded import BoundedJsonError
from ..engine import MAX_SKILL
from ..errors import BoardctlError
from ..quietlog import QuietLog
from ..remote.link import Link
from ..rules import get_variant
from ..storage.store import StoreError, StoreValueError, UnknownGameError
from .feeds import Versions, http_date, live_pgn, not_modified, state_json
from .games import Replay, StoredGames
from .guard import PinGate, RequestLog, Seats, client_key, same_origin, security_headers
from .owner import Refused, SettingsService
from .pages import ICON, VIEWS, games_page, live_page, replay_page, settings_page
from .remote_routes import LINK, add_remote
from .snapshot import ACTION_KINDS, START_KINDS, ActionKind, Hub, WebAction
from .starts import StartRefused, puzzles_for, refusal, target, under_way

log = logging.getLogger("boardctl.web")

SEND_TIMEOUT = 10.0  # seconds a client may take to accept one update
KEEPALIVE = 15.0  # seconds between comments on a quiet stream (proxies close idle ones)
RETRY_MS = 1000  # how soon a browser reconnects a dropped stream
MAX_BODY = 4096  # bytes of a POST body
COOKIE = "boardctl_session"
# Bytes an event stream's socket may hold unsent: small, so that a client
# that stops reading stalls a write (and is dropped) after a few updates, not
# after megabytes of kernel buffer.
STREAM_BUFFER = 32 * 1024
SHUTDOWN_TIMEOUT = 2.0
MAX_GAME_ID = 10**12


class WebError(BoardctlError, OSError):
    """The web server cannot start (the address is taken or not this machine's)."""


class ServerState:
    """What the handlers share: the change signal, caches and counters."""

    def __init__(self) -> None:
        self.changed = asyncio.Event()
        self.stopping = asyncio.Event()
        self.seats = Seats()
        self.versions = Versions()
        self.pins = PinGate()
        self.quiet = QuietLog(log)
        self._cache: dict[str, tuple[Any, bytes]] = {}

    def bump(self) -> None:
        """A new snapshot: wake every stream (in the server's loop)."""
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    def lookup(self, name: str, key: Any) -> bytes | None:
        hit = self._cache.get(name)
        return hit[1] if hit is not None and hit[0] == key else None

    def keep(self, name: str, key: Any, body: bytes) -> bytes:
        self._cache[name] = (key, body)
        return body

    def cached(self, name: str, key: Any, make: Callable[[], bytes]) -> bytes:
        hit = self.lookup(name, key)
        return hit if hit is not None else self.keep(name, key, make())


HUB = web.AppKey("hub", Hub)
PIN = web.AppKey("pin", str)
SECRET = web.AppKey("secret", bytes)
GAMES = web.AppKey("games", StoredGames)
STATE = web.AppKey("state", ServerState)
SETTINGS: web.AppKey[SettingsService | None] = web.AppKey("settings")
# Monotonic time before which the page may not restart the program (see
# boardctl.daemon.restart.RESTART_GAP); 0: at any time.
RESTART_FROM = web.AppKey("restart_from", float)
RUN = web.AppKey("run", str)  # this start of the program's, told by /api/session
UNSUBSCRIBE: web.AppKey[Callable[[], None]] = web.AppKey("unsubscribe")


# ------------------------------------------------------------ helpers
def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


_REFUSALS: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    401: web.HTTPUnauthorized,
    403: web.HTTPForbidden,
    415: web.HTTPUnsupportedMediaType,
    503: web.HTTPServiceUnavailable,
}


def _refuse(status: int, message: str) -> web.HTTPException:
    return _REFUSALS[status](text=json.dumps({"error": message}), content_type="application/json")


def _conditional(
    request: web.Request, name: str, body: bytes, content_type: str, **headers: str
) -> web.StreamResponse:
    """``body`` with ETag and Last-Modified, or 304 when the client has it."""
    state = request.app[STATE]
    version = state.versions.of(name, body, request.app[HUB].clock())
    common = {
        "ETag": version.etag,
        "Last-Modified": http_date(version.modified),
        "Cache-Control": "no-cache",
        **headers,
    }
    if not_modified(
        version, request.headers.get("If-None-Match"), request.headers.get("If-Modified-Since")
    ):
        return web.Response(status=304, headers=common)
    return web.Response(body=body, content_type=content_type, charset="utf-8", headers=common)


_CORS = {"Access-Control-Allow-Origin": "*"}  # read-only feeds: a hall page on another host


def _game_id(request: web.Request) -> int:
    text = request.match_info["id"]
    if not text.isdecimal() or not text.isascii() or int(text) > MAX_GAME_ID:
        raise web.HTTPNotFound(text="no such game")
    return int(text)


def _token(app: web.Application) -> str:
    return hmac.new(app[SECRET], app[PIN].encode(), hashlib.sha256).hexdigest()


def _authorised(request: web.Request) -> bool:
    app = request.app
    cookie = request.cookies.get(COOKIE, "")
    return bool(app[PIN]) and hmac.compare_digest(cookie.encode(), _token(app).encode())


async def _json_body(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object, read within :data:`MAX_BODY`
    bytes and :func:`boardctl.bounded.loads`'s depth and count.

    :raises web.HTTPException: 415 for another type or any content coding
        (nothing of boardctl's compresses a body, and a compressed one could
        expand past any bound), 413 past :data:`MAX_BODY`, 400 for anything
        that is not a JSON object within bounds.
    """
    if request.content_type != "application/json":
        # Also what keeps another site's plain form from posting here.
        raise _refuse(415, "send the body as application/json")
    if request.headers.get(hdrs.CONTENT_ENCODING, "identity").strip().lower() != "identity":
        raise _refuse(415, "send the body uncompressed (no Content-Encoding)")
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(raw))
    try:
        data = bounded.loads(raw, MAX_BODY)
    except BoundedJsonError as exc:
        raise _refuse(400, f"the body is not JSON we accept: {exc}") from None
    if not isinstance(data, dict):
        raise _refuse(400, "expected a JSON object")
    return data


# ------------------------------------------------------------ handlers
async def live(request: web.Request) -> web.StreamResponse:
    view = request.query.get("view", "")
    if view not in VIEWS:
        return web.Response(status=400, text=f"view must be one of: {', '.join(VIEWS[1:])}")
    # Nothing published yet (seq 0) is no position to draw: the stream brings the first.
    state = _state_body(request.app).decode() if request.app[HUB].latest.seq else ""
    # The page carries the latest snapshot: a cached copy would draw an old position.
    remote = LINK in request.app
    return web.Response(
        text=live_page(view, state, remote=remote),
        content_type="text/html",
        headers={"Cache-Control": "no-cache"},
    )


def _state_body(app: web.Application) -> bytes:
    """The latest snapshot as ``/api/state`` sends it, made once per change."""
    snap = app[HUB].latest
    return app[STATE].cached("state", snap.seq, lambda: state_json(snap).encode())


async def api_state(request: web.Request) -> web.StreamResponse:
    body = _state_body(request.app)
    return _conditional(request, "state", body, "application/json", **_CORS)


async def live_pgn_feed(request: web.Request) -> web.StreamResponse:
    snap = request.app[HUB].latest
    body = request.app[STATE].cached("live.pgn", snap.content(), lambda: live_pgn(snap).encode())
    return _conditional(request, "live.pgn", body, "application/x-chess-pgn", **_CORS)


_T = TypeVar("_T")


def _store_failure(exc: Exception) -> web.Response:
    log.warning("web: stored games: %s", exc)
    return _error(503, f"the stored games cannot be read: {exc}")


async def games_pgn(request: web.Request) -> web.StreamResponse:
    snap = request.app[HUB].latest
    # A review that lands changes a stored game's PGN too (the board tells of it).
    key = (snap.game_id, snap.moves, snap.result, snap.reviews)
    state = request.app[STATE]
    body = state.lookup("games.pgn", key)
    if body is None:
        try:
            body = state.keep("games.pgn", key, (await request.app[GAMES].pgn_all()).encode())
        except (StoreError, StoreValueError) as exc:
            return _store_failure(exc)
    return _conditional(request, "games.pgn", body, "application/x-chess-pgn", **_CORS)


async def games_list(request: web.Request) -> web.StreamResponse:
    try:
        games = await request.app[GAMES].games()
    except StoreError as exc:
        return _store_failure(exc)
    return web.Response(text=games_page(games), content_type="text/html")


async def replay(request: web.Request) -> web.StreamResponse:
    game_id = _game_id(request)
    return web.Response(text=replay_page(game_id), content_type="text/html")


async def _one_game(
    request: web.Request,
    read: Callable[[StoredGames, int], Awaitable[_T]],
    answer: Callable[[int, _T], web.StreamResponse],
) -> web.StreamResponse:
    """One stored game's page or feed: 404 for a game that is not there, 503
    when the store cannot be read, else ``answer`` with what ``read`` got."""
    game_id = _game_id(request)
    try:
        got = await read(request.app[GAMES], game_id)
    except UnknownGameError:
        return _error(404, f"no game {game_id}")
    except (StoreError, StoreValueError) as exc:
        return _store_failure(exc)
    return answer(game_id, got)


async def game_pgn(request: web.Request) -> web.StreamResponse:
    return await _one_game(
        request,
        StoredGames.pgn,
        lambda game_id, text: web.Response(
            text=text,
            content_type="application/x-chess-pgn",
            headers={"Content-Disposition": f'attachment; filename="boardctl-game-{game_id}.pgn"'},
        ),
    )


async def game_json(request: web.Request) -> web.StreamResponse:
    hub = request.app[HUB]

    def answer(game_id: int, replayed: Replay) -> web.StreamResponse:
        # Whether the board reviews games, and where this one's review stands.
        data = replayed.to_json()
        data["reviews"] = hub.latest.reviews is not None
        data["review_status"] = review_status(hub, game_id)
        return web.json_response(data)

    return await _one_game(request, StoredGames.replay, answer)


def review_status(hub: Hub, game_id: int) -> dict[str, Any] | None:
    """The latest word on ``game_id``'s review from the board (None: none)."""
    for status in hub.latest.reviews or ():
        if status.game_id == game_id:
            return dataclasses.asdict(status)
    return None


async def events(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    key = client_key(request.remote)
    refused = state.seats.take(key)
    if refused is not None:
        return _error(503, refused)
    hub = request.app[HUB]
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
            **_CORS,
        }
    )
    try:
        _small_buffers(request)
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        seen = -1
        while not state.stopping.is_set():
            snap = hub.latest
            if snap.seq != seen:
                seen = snap.seq
                body = state.lookup("state", snap.seq) or state.keep(
                    "state", snap.seq, state_json(snap).encode()
                )
                message = b"id: %d\nevent: state\ndata: %s\n\n" % (snap.seq, body)
                await asyncio.wait_for(response.write(message), SEND_TIMEOUT)
                continue
            changed = state.changed
            stop = asyncio.ensure_future(state.stopping.wait())
            wake = asyncio.ensure_future(changed.wait())
            done, pending = await asyncio.wait(
                {stop, wake}, timeout=KEEPALIVE, return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
            if not done:
                await asyncio.wait_for(response.write(b": keep-alive\n\n"), SEND_TIMEOUT)
    except (ConnectionError, TimeoutError, asyncio.CancelledError):
        pass  # the client went away or could not keep up: it reconnects and resyncs
    finally:
        state.seats.give_back(key)
    return response


def _small_buffers(request: web.Request) -> None:
    transport = request.transport
    if transport is None:
        return
    transport.set_write_buffer_limits(high=STREAM_BUFFER)
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_BUFFER)


async def session(request: web.Request) -> web.StreamResponse:
    """Whether actions are possible and unlocked, and ``run``, which differs
    from one start of the program to the next (the settings page waits for a
    new one after a restart)."""
    app = request.app
    return web.json_response(
        {"actions": bool(app[PIN]), "authorised": _authorised(request), "run": app[RUN]},
        headers={"Cache-Control": "no-store"},
    )


async def login(request: web.Request) -> web.StreamResponse:
    app = request.app
    if not app[PIN]:
        return _error(403, "actions are off: no PIN is set in the configuration")
    data = await _json_body(request)
    pin = data.get("pin")
    if not isinstance(pin, str) or not pin or len(pin) > 64:
        return _error(400, "pin: expected a text of 1 to 64 characters")
    pins = app[STATE].pins
    now = time.monotonic()
    key = client_key(request.remote)
    wait = pins.admit(key, now)
    if wait > 0:
        seconds = math.ceil(wait)
        return web.json_response(
            {"error": f"too many wrong PINs from here: try again in {seconds} s"},
            status=429,
            headers={"Retry-After": str(seconds)},
        )
    if not hmac.compare_digest(pin.encode(), app[PIN].encode()):
        pins.wrong(key, now)
        return _error(403, "wrong PIN")
    pins.right(key)
    response = web.json_response({"authorised": True})
    response.set_cookie(COOKIE, _token(app), httponly=True, samesite="Strict", path="/")
    return response


async def action(request: web.Request) -> web.StreamResponse:
    app = request.app
    if not app[PIN]:
        return _error(403, "actions are off: no PIN is set in the configuration")
    if not _authorised(request):
        return _error(401, "unlock the controls with the PIN first")
    data = await _json_body(request)
    kind = data.get("kind")
    if kind not in ACTION_KINDS + START_KINDS:
        return _error(400, f"kind: expected one of {', '.join(ACTION_KINDS + START_KINDS)}")
    value = data.get("value")
    if kind == "level":
        if type(value) is not int or not 0 <= value <= MAX_SKILL:
            return _error(400, f"value: the level is a whole number from 0 to {MAX_SKILL}")
    elif kind == "review":
        refused = await _unreviewable(app, value)
        if refused is not None:
            return refused
    elif kind in START_KINDS:
        return await _start(app, kind, value)
    elif "value" in data:
        return _error(400, f"value: {kind} takes none")
    wait = app[RESTART_FROM] - time.monotonic()
    if kind == "restart" and wait > 0:
        return _error(
            409,
            "the board's program has only just started: it can be restarted in "
            f"{math.ceil(wait)} s (the system gives up on a program that starts too often)",
        )
    app[HUB].request(WebAction(kind, value or 0))
    return web.json_response({"accepted": kind}, status=202)


async def _unreviewable(app: web.Application, value: Any) -> web.Response | None:
    """Why the page may not ask for game ``value``'s review, or None."""
    if type(value) is not int or not 1 <= value <= MAX_GAME_ID:
        return _error(400, "value: the game's number, a whole number from 1")
    if app[HUB].latest.reviews is None:
        return _error(409, "this board does not review games")
    try:
        summary = await app[GAMES].summary(value)
    except UnknownGameError:
        return _error(404, f"no game {value}")
    except (StoreError, StoreValueError) as exc:
        return _store_failure(exc)
    if not summary.finished:
        return _error(409, f"game {value} has not ended: it can be reviewed when it has")
    if not summary.plies:
        return _error(409, f"game {value} has no moves to review")
    return None


async def _start(app: web.Application, kind: ActionKind, value: Any) -> web.Response:
    """A set-up, a puzzle, a stepping or a normal game again, checked as the
    daemon will check it (:mod:`.starts`) against the latest snapshot; the
    stored game to step through is read here, off the daemon's loop."""
    latest = app[HUB].latest
    playing = under_way(latest.mode, len(latest.moves), latest.result != "*")
    why = refusal(kind, latest.mode, playing, LINK in app)
    if why is not None:
        return _error(why.status, why.text)
    text, stepping = "", None
    try:
        if kind in ("setup", "puzzle"):
            if not isinstance(value, str):
                return _error(400, f"value: the {'FEN' if kind == 'setup' else 'puzzle'} as text")
            text = value.strip()
        elif kind == "replay":
            if type(value) is not int or not 1 <= value <= MAX_GAME_ID:
                return _error(400, "value: the game's number, a whole number from 1")
            stepping = await app[GAMES].stepping(value)
        elif value is not None:
            return _error(400, f"value: {kind} takes none")
        target(kind, text, stepping, get_variant(latest.variant))
    except StartRefused as exc:
        return _error(exc.why.status, exc.why.text)
    except UnknownGameError:
        return _error(404, f"no game {value}")
    except (StoreError, StoreValueError) as exc:
        return _store_failure(exc)
    app[HUB].request(WebAction(kind, value if kind == "replay" else 0, stepping, text))
    return web.json_response({"accepted": kind}, status=202)


async def puzzles(request: web.Request) -> web.StreamResponse:
    """The puzzles this board can set up (its own preset's), for the owner's list."""
    variant = get_variant(request.app[HUB].latest.variant)
    return web.json_response({"variant": variant.name, "puzzles": puzzles_for(variant)})


# ------------------------------------------------------------ settings
NO_PIN = "settings are off: no PIN is set in the configuration ([web] pin)"
NO_FILE = (
    "this board was started without a configuration file to keep settings in "
    "(start it with --config PATH)"
)


def _owner_service(request: web.Request) -> SettingsService:
    """The settings service, for the owner only.

    :raises web.HTTPException: 403 without a PIN, 401 before the PIN, 503
        when the board has no configuration file.
    """
    app = request.app
    if not app[PIN]:
        raise _refuse(403, NO_PIN)
    if not _authorised(request):
        raise _refuse(401, "unlock the settings with the PIN first")
    service = app[SETTINGS]
    if service is None:
        raise _refuse(503, NO_FILE)
    return service


async def settings_page_route(request: web.Request) -> web.StreamResponse:
    return web.Response(
        text=settings_page(), content_type="text/html", headers={"Cache-Control": "no-cache"}
    )


async def settings_form(request: web.Request) -> web.StreamResponse:
    service = _owner_service(request)
    form = await asyncio.get_running_loop().run_in_executor(None, service.form)
    level = request.app[HUB].latest.level
    if level is not None:
        # The level the engine plays at (set with the buttons or the live page
        # since the file was written): a save without touching it keeps it.
        form["values"]["engine.skill"] = level
    return web.json_response(form, headers={"Cache-Control": "no-store"})


async def save_settings(request: web.Request) -> web.StreamResponse:
    service = _owner_service(request)
    data = await _json_body(request)
    answer = await asyncio.get_running_loop().run_in_executor(None, service.save, data)
    if isinstance(answer, Refused):
        return web.json_response({"errors": answer.errors}, status=answer.status)
    if answer.action is not None:
        request.app[HUB].request(answer.action)
    # The form again as the file now has it (the level included: the daemon
    # may not have taken it yet, so the live one would be the old one).
    form = await asyncio.get_running_loop().run_in_executor(None, service.form)
    return web.json_response({"saved": [asdict(c) for c in answer.changes], "form": form})


@web.middleware
async def _no_tracebacks(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """A request that fails costs the log at most one line a minute per kind
    of fault, whoever sends it and however often: a body the client broke is
    a 400, a fault of the board's a 500 and one traceback a minute per route."""
    quiet = request.app[STATE].quiet
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except web.RequestPayloadError as exc:
        reason = " ".join(str(exc).split())[:120]
        quiet.warn("body", "web: an unreadable body from %s refused: %s", request.remote, reason)
        return _error(400, "the body could not be read")
    except Exception as exc:
        resource = request.match_info.route.resource
        route = resource.canonical if resource is not None else "?"
        kind = f"{request.method} {route} {type(exc).__name__}"
        quiet.warn(kind, "web: %s %s failed", request.method, route, exc_info=exc)
        return _error(500, "internal error (the board's log has the details)")


def add_static(app: web.Application) -> None:
    """The scripts, styles, piece sprites and icon shipped in the package (no
    CDN: a club's network may have no internet); the icon at /favicon.ico too,
    for a browser that asks there whatever the page names."""
    folder = Path(str(resources.files("boardctl.web") / "static"))
    icon = folder / ICON.removeprefix("/static/")

    async def favicon(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(icon, headers={hdrs.CONTENT_TYPE: "image/svg+xml"})

    app.router.add_static("/static", folder)
    app.router.add_get("/favicon.ico", favicon)


# Every page and API route but the static files and remote play's.
_ROUTES: tuple[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]], ...] = (
    ("GET", "/", live),
    ("GET", "/games", games_list),
    ("GET", r"/games/{id}.pgn", game_pgn),
    ("GET", "/games/{id}", replay),
    ("GET", "/live.pgn", live_pgn_feed),
    ("GET", "/games.pgn", games_pgn),
    ("GET", "/api/state", api_state),
    ("GET", "/api/events", events),
    ("GET", r"/api/games/{id}", game_json),
    ("GET", "/api/session", session),
    ("POST", "/api/login", login),
    ("POST", "/api/action", action),
    ("GET", "/api/puzzles", puzzles),
    ("GET", "/settings", settings_page_route),
    ("GET", "/api/settings", settings_form),
    ("POST", "/api/settings", save_settings),
)


def make_app(
    hub: Hub,
    *,
    pin: str = "",
    db_path: Path | None = None,
    settings: SettingsService | None = None,
    link: Link | None = None,
    restart_from: float = 0.0,
) -> web.Application:
    """The aiohttp application (the tests drive it with aiohttp's test client);
    ``settings``: the configuration file's side of the settings page (None: no
    file, and the page says so); ``link``: remote play's (:mod:`.remote_routes`);
    ``restart_from``: the monotonic time from which the page may restart the program."""
    app = web.Application(middlewares=[same_origin, _no_tracebacks], client_max_size=MAX_BODY)
    app.on_response_prepare.append(security_headers())
    app[HUB] = hub
    app[PIN] = pin
    app[SECRET] = secrets.token_bytes(32)
    app[GAMES] = StoredGames(db_path)
    app[SETTINGS] = settings
    app[RESTART_FROM] = restart_from
    app[RUN] = secrets.token_hex(8)
    for method, path, handler in _ROUTES:  # add_get: HEAD too, as before
        add = app.router.add_get if method == "GET" else app.router.add_post
        add(path, handler)
    add_static(app)
    if link is not None:
        add_remote(app, link, _authorised, _json_body)

    async def started(app: web.Application) -> None:
        state = ServerState()
        app[STATE] = state
        loop = asyncio.get_running_loop()

        def wake() -> None:
            # A closed loop has nobody listening any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(state.bump)

        app[UNSUBSCRIBE] = hub.on_change(wake)

    async def stopping(app: web.Application) -> None:
        app[STATE].stopping.set()

    async def cleanup(app: web.Application) -> None:
        app[UNSUBSCRIBE]()
        await asyncio.get_running_loop().run_in_executor(None, app[GAMES].close)

    app.on_startup.append(started)
    app.on_shutdown.append(stopping)
    app.on_cleanup.append(cleanup)
    return app


def local_address() -> str:
    """The address of the interface that holds the default route: the club's
    local network.  Loopback when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # connect() on UDP only picks the route; no packet is sent.
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737)
            address: str = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


class ServerThread:
    """An aiohttp application served on a thread of its own with its own event
    loop.  ``start()`` returns once it listens (``port`` 0 picks a free port;
    :attr:`url` says which).  ``host`` "auto" is :func:`local_address`.

    :raises WebError: from :meth:`start` when it cannot listen.
    """

    def __init__(self, make: Callable[[], web.Application], *, host: str, port: int) -> None:
        self.make = make
        self.host = local_address() if host == "auto" else host
        self.port = port
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> None:
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="boardctl-web", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise WebError(
                f"web page: cannot listen on {self.host}:{self.port}: "
                f"{getattr(self._error, 'strerror', None) or self._error}"
            )

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # handed to start(), which raises it as one line
            self._error = exc
        finally:
            self._ready.set()
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(
            self.make(),
            shutdown_timeout=SHUTDOWN_TIMEOUT,
            access_log=None,
            logger=RequestLog(logging.getLogger("aiohttp.server")),
            # Bodies reach the handlers as sent: a compressed one is refused
            # there (see _json_body), never expanded by the parser first.
            auto_decompress=False,
        )
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            addresses = runner.addresses
            if addresses:
                self.port = int(addresses[0][1])
            self._ready.set()
            await self._stop.wait()
        finally:
            await runner.cleanup()

    def stop(self) -> None:
        """Stop serving and join the thread (a second call does nothing)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(SHUTDOWN_TIMEOUT + 5)
            self._thread = None


def serve_until_signalled(server: ServerThread, describe: Callable[[str], str]) -> None:
    """Serve until SIGINT or SIGTERM, having said on stderr what is served
    (``describe`` is given the address).  :raises WebError: when it cannot listen."""
    server.start()
    done = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"boardctl hall: {describe(server.url)}", file=sys.stderr)
    try:
        done.wait()
    finally:
        server.stop()


class WebServer(ServerThread):
    """One board's pages and feeds (:func:`make_app`) on their own thread."""

    def __init__(
        self,
        hub: Hub,
        *,
        host: str,
        port: int,
        pin: str = "",
        db_path: Path | None = None,
        settings: SettingsService | None = None,
        link: Link | None = None,
        restart_from: float = 0.0,
    ) -> None:
        super().__init__(
            lambda: make_app(
                hub,
                pin=pin,
                db_path=db_path,
                settings=settings,
                link=link,
                restart_from=restart_from,
            ),
            host=host,
            port=port,
        )
        self.hub = hub
        self.link = link
