"""``boardctl hall CONFIG``: one page with a club's boards side by side.

Each board stays its own Pi with its own page; the hall page only reads
their ``/api/events`` feeds (which allow any origin) and links to each.
The configuration is a small TOML file::

    port = 8090                  # optional; bind = "auto" as in [web]
    [[board]]
    name = "Table 1"
    url = "http://192.168.1.21:8080/"
    [[board]]
    name = "Table 2"
    url = "http://192.168.1.22:8080/"
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..errors import BoardctlError
from ..hall.place import HALL_PORT
from ..userfiles import load_toml
from .guard import security_headers
from .pages import hall_page
from .server import ServerThread, add_static, serve_until_signalled

MAX_BOARDS = 64
MAX_NAME = 80
DEFAULT_PORT = HALL_PORT


class HallError(BoardctlError, ValueError):
    """A hall configuration that cannot be used; the message says where."""


@dataclass(frozen=True)
class Hall:
    boards: tuple[tuple[str, str], ...]  # (name, URL)
    bind: str = "auto"
    port: int = DEFAULT_PORT


def parse_hall(data: dict[str, Any], source: str = "(text)") -> Hall:
    """:raises HallError: naming the key or the board that is wrong."""
    where = f"hall {source}"
    unknown = set(data) - {"board", "bind", "port"}
    if unknown:
        raise HallError(f"{where}: unknown key {sorted(unknown)[0]!r} (known: board, bind, port)")
    port = data.get("port", DEFAULT_PORT)
    if type(port) is not int or not 1 <= port <= 65535:
        raise HallError(f"{where}: port: expected a whole number from 1 to 65535; got {port!r}")
    bind = data.get("bind", "auto")
    if not isinstance(bind, str) or (bind != "auto" and not _is_address(bind)):
        raise HallError(f"{where}: bind: expected auto or an IP address; got {bind!r}")
    boards = data.get("board")
    if not isinstance(boards, list) or not boards:
        raise HallError(f"{where}: expected at least one [[board]] with a name and a url")
    if len(boards) > MAX_BOARDS:
        raise HallError(f"{where}: at most {MAX_BOARDS} boards; got {len(boards)}")
    out = []
    for number, board in enumerate(boards, start=1):
        at = f"{where}: board {number}"
        if not isinstance(board, dict) or set(board) != {"name", "url"}:
            raise HallError(f"{at}: expected exactly the keys name and url")
        name, url = board["name"], board["url"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise HallError(f"{at}: name: expected a text of 1 to {MAX_NAME} characters")
        if not isinstance(url, str) or not _is_board_url(url):
            raise HallError(f"{at}: url: expected http://HOST[:PORT]/ of a board; got {url!r}")
        out.append((name, url if url.endswith("/") else url + "/"))
    return Hall(tuple(out), bind, port)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_board_url(text: str) -> bool:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and not parts.query
        and not parts.fragment
        and text.isprintable()
        and not any(c in text for c in "\"'<> ")
    )


def load_hall(path: Path) -> Hall:
    """:raises HallError: one line, for a file that cannot be read or used."""
    return parse_hall(load_toml(path, f"hall {path}", HallError), str(path))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"


def make_hall_app(hall: Hall) -> web.Application:
    page = hall_page(hall.boards)

    async def index(request: web.Request) -> web.StreamResponse:
        return web.Response(text=page, content_type="text/html")

    app = web.Application()
    # The tiles read each board's feed: those origins, and no others.
    origins = sorted({_origin(url) for _, url in hall.boards})
    app.on_response_prepare.append(security_headers(origins))
    app.router.add_get("/", index)
    add_static(app)
    return app


def hall_command(path: Path) -> int:
    """Serve the hall until SIGINT or SIGTERM.  :raises HallError: WebError:"""
    hall = load_hall(path)
    server = ServerThread(lambda: make_hall_app(hall), host=hall.bind, port=hall.port)
    serve_until_signalled(server, lambda url: f"{len(hall.boards)} boards on {url}")
    return 0
