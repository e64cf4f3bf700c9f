"""Remote play's routes, through aiohttp's test client: the player's code and
cookie, moves and offers applied once whatever is repeated, spectators and
wrong codes refused."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from boardctl.remote.desk import Desk, Played
from boardctl.remote.link import Link, LinkSettings
from boardctl.remote.transport import Bus
from boardctl.rules import BLACK, WHITE
from boardctl.web import guard
from boardctl.web.pages import live_page
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub

PIN = "2468"
Check = Callable[[TestClient, Link], Awaitable[None]]


class FakeLan:
    """A broker of the board's own, without a process: the bus is the broker."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.url = port, f"mqtt://127.0.0.1:{port}"

    def close(self) -> None:
        pass


def serve(tmp_path: Path, check: Check, **link: Any) -> None:
    desk, bus = Desk(), Bus()
    remote = Link(
        desk,
        tmp_path / "remote.sqlite3",
        LinkSettings(colour=WHITE, **link),
        transport_for=lambda settings: bus.client(),
        lan_for=FakeLan,  # type: ignore[arg-type]
    )

    async def main() -> None:
        app = make_app(Hub(), pin=PIN, link=remote)
        async with TestClient(TestServer(app)) as client:
            await check(client, remote)

    asyncio.run(main())


async def state(client: TestClient) -> dict[str, Any]:
    response = await client.get("/api/remote/state")
    assert response.status == 200
    return await response.json()  # type: ignore[no-any-return]


async def as_player(client: TestClient, link: Link) -> None:
    assert link.match is not None
    response = await client.post(
        "/api/remote/login", json={"code": link.match.kept.code.lower(), "name": "Anna"}
    )
    assert response.status == 200, await response.text()


def board_plays(link: Link, uci: str) -> None:
    """The daemon's note, as the board player's move reaches the link."""
    assert link.match is not None
    link.desk.tell(Played(link.match.game_key, link.match.changes, uci))
    link.turn()


def test_a_spectator_sees_the_game_but_cannot_play_it(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await as_player(client, link)  # somebody plays: the seat is taken ...
        board_plays(link, "e2e4")
        client.session.cookie_jar.clear()  # ... and this is somebody else
        got = await state(client)
        assert len(got["key"]) == 16 and got["you"] is None and got["legal"] == []
        assert got["code"] == ""  # the code is for the board's screen and its owner
        response = await client.post(
            "/api/remote/move", json={"key": got["key"], "seq": 1, "uci": "e7e5"}
        )
        assert response.status == 401
        for path, body in (
            ("/api/remote/ask", {"key": got["key"], "seq": 1, "kind": "resign"}),
            ("/api/remote/answer", {"key": got["key"], "seq": 1, "kind": "draw", "yes": True}),
        ):
            assert (await client.post(path, json=body)).status == 401
        assert (await state(client))["line"] == ["e2e4"]
        assert (await client.post("/api/remote/login", json={"code": "WRONG"})).status == 403

    serve(tmp_path, check)


def test_the_player_moves_once_however_often_the_request_comes(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await as_player(client, link)
        got = await state(client)
        assert got["you"] == BLACK and got["legal"] == [] and got["turn"] == WHITE
        board_plays(link, "e2e4")
        got = await state(client)
        assert got["line"] == ["e2e4"] and got["turn"] == BLACK
        assert [m[2] for m in got["legal"] if m[2] == "e7e5"] == ["e7e5"]
        body = {"key": got["key"], "seq": 1, "uci": "e7e5"}
        first = await client.post("/api/remote/move", json=body)
        again = await client.post("/api/remote/move", json=body)
        assert (first.status, (await first.json())["verdict"]) == (200, "applied")
        assert (again.status, (await again.json())["verdict"]) == (200, "copy")
        other = await client.post("/api/remote/move", json={**body, "uci": "d7d5"})
        assert other.status == 409
        assert (await state(client))["line"] == ["e2e4", "e7e5"]
        assert link.desk.view.line == ("e2e4", "e7e5")  # the daemon's view
        assert link.match is not None and link.match.record.state.plies == 2

    serve(tmp_path, check)


def test_offers_are_asked_and_answered_on_both_sides(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await as_player(client, link)
        board_plays(link, "e2e4")
        key = (await state(client))["key"]
        await client.post("/api/remote/move", json={"key": key, "seq": 1, "uci": "e7e5"})
        response = await client.post(
            "/api/remote/ask", json={"key": key, "seq": 2, "kind": "takeback"}
        )
        assert response.status == 200
        link.turn()
        assert link.desk.view.asks == ("takeback",)  # the board's screen asks its player
        assert (await state(client))["asked"] == ["takeback"]
        # The owner answers for the board from the page (the board's OK button does the same).
        assert (await client.post("/api/login", json={"pin": PIN})).status == 200
        owner = await state(client)
        assert owner["board_asks"] == ["takeback"]
        response = await client.post("/api/remote/board", json={"kind": "takeback", "yes": True})
        assert response.status == 200
        got = await state(client)
        assert got["line"] == ["e2e4"] and got["turn"] == BLACK
        response = await client.post(
            "/api/remote/ask", json={"key": key, "seq": got["seq"], "kind": "resign"}
        )
        assert response.status == 200
        assert (await state(client))["ending"] == {"winner": WHITE, "reason": "resignation"}

    serve(tmp_path, check)


def test_wrong_codes_are_slowed_down(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        statuses = []
        for _ in range(guard.OWN_TRIES + 2):
            response = await client.post("/api/remote/login", json={"code": "AAAAAAAA"})
            statuses.append(response.status)
        assert statuses[: guard.OWN_TRIES] == [403] * guard.OWN_TRIES
        assert 429 in statuses

    serve(tmp_path, check)


def test_the_owner_offers_a_new_game_and_a_bad_link_is_refused(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        first = (await state(client))["key"]
        assert (await client.post("/api/remote/offer", json={})).status == 401
        await client.post("/api/login", json={"pin": PIN})
        response = await client.post("/api/remote/offer", json={})
        offered = await response.json()
        assert offered["key"] != first and len(offered["code"]) == 8
        assert offered["invite"].startswith("mqtt://") and offered["key"] in offered["invite"]
        assert (await state(client))["code"] == offered["code"]
        response = await client.post("/api/remote/join", json={"link": "not a link"})
        assert response.status == 400
        assert "paste the whole invitation" in (await response.json())["error"]

    serve(tmp_path, check)


@pytest.mark.parametrize("offer", [True, False])
def test_a_board_restarted_goes_on_with_its_game(tmp_path: Path, offer: bool):
    keys = []

    async def first(client: TestClient, link: Link) -> None:
        board_plays(link, "e2e4")
        keys.append((await state(client))["key"])

    async def second(client: TestClient, link: Link) -> None:
        got = await state(client)
        assert (got["key"], got["line"]) == (keys[0], ["e2e4"])

    serve(tmp_path, first)
    serve(tmp_path, second, offer_at_start=offer)


def test_the_live_pages_scripts_declare_no_name_twice():
    """The page's scripts share one global scope: a second ``function say``
    would silently replace the first (the page's speech), a second ``const``
    would stop the script that declares it."""
    page = live_page("", remote=True)
    scripts = re.findall(r'<script src="/static/([a-z]+\.js)"', page)
    assert "remote.js" in scripts
    seen: dict[str, str] = {}
    static = Path(str(resources.files("boardctl.web"))) / "static"
    for script in scripts:
        text = (static / script).read_text("utf-8")
        for name in re.findall(
            r"^(?:async )?(?:function|const|let|class) ([A-Za-z_$][\w$]*)", text, re.M
        ):
            assert name not in seen, f"{name} in {script} and {seen[name]}"
            seen[name] = script


def test_the_code_seats_one_browser_until_the_owner_frees_the_seat(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await as_player(client, link)
        first = client.session.cookie_jar.filter_cookies(client.make_url("/"))
        client.session.cookie_jar.clear()  # a second browser with the same code
        assert link.match is not None
        code = link.match.kept.code
        response = await client.post("/api/remote/login", json={"code": code, "name": "Eve"})
        assert response.status == 409
        assert "seat is taken" in (await response.json())["error"]
        assert (await state(client))["you"] is None
        assert (await client.post("/api/remote/release", json={})).status == 401  # not the owner
        await client.post("/api/login", json={"pin": PIN})
        assert (await state(client))["held"] is True
        assert (await client.post("/api/remote/release", json={})).status == 200
        response = await client.post("/api/remote/login", json={"code": code, "name": "Eve"})
        assert response.status == 200
        assert (await state(client))["you"] == BLACK
        client.session.cookie_jar.clear()
        client.session.cookie_jar.update_cookies(first)  # the first browser, back
        got = await state(client)
        assert got["you"] is None
        move = {"key": got["key"], "seq": got["seq"], "uci": "e7e5"}
        assert (await client.post("/api/remote/move", json=move)).status == 401

    serve(tmp_path, check)


def test_wrong_codes_from_the_players_address_never_slow_the_player(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await as_player(client, link)
        jar = client.session.cookie_jar.filter_cookies(client.make_url("/"))
        client.session.cookie_jar.clear()  # a phone behind the same router mistypes
        for _ in range(guard.OWN_TRIES + 3):
            await client.post("/api/remote/login", json={"code": "WRONGONE"})
        client.session.cookie_jar.update_cookies(jar)
        for uci in ("e7e5", "d7d5"):
            board_plays(link, "e2e4" if uci == "e7e5" else "d2d4")
            got = await state(client)
            body = {"key": got["key"], "seq": got["seq"], "uci": uci}
            response = await client.post("/api/remote/move", json=body)
            assert response.status == 200, await response.text()

    serve(tmp_path, check)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Ann\n[Result]", "name: expected printable characters only"),
        ("Ann\x1b[2J", "name: expected printable characters only"),
        ("\u202eanna", "name: expected printable characters only"),
        ("x" * 41, "name: expected a name of at most 40 characters"),
        (["Ann"], "name: expected text"),
    ],
)
def test_a_player_name_that_is_no_name_is_refused_with_the_reason(tmp_path: Path, name, why):
    async def check(client: TestClient, link: Link) -> None:
        assert link.match is not None
        code = link.match.kept.code
        response = await client.post("/api/remote/login", json={"code": code, "name": name})
        assert response.status == 400
        assert (await response.json())["error"].startswith(why)
        assert link.match.kept.seat == ""  # the seat is still free
        response = await client.post("/api/remote/login", json={"code": code, "name": " Anna "})
        assert response.status == 200
        assert link.match.kept.other == "Anna"

    serve(tmp_path, check)


def test_a_login_whose_answer_was_lost_is_answered_again_from_the_same_page(tmp_path: Path):
    async def check(client: TestClient, link: Link) -> None:
        await state(client)  # the page loads: its session
        loaded = client.session.cookie_jar.filter_cookies(client.make_url("/"))
        assert link.match is not None
        code = link.match.kept.code
        for _ in range(2):  # the second: the first's answer never came back
            response = await client.post("/api/remote/login", json={"code": code, "name": "A"})
            assert response.status == 200, await response.text()
            client.session.cookie_jar.clear()  # whatever the answer said is lost
            client.session.cookie_jar.update_cookies(loaded)
        assert (await state(client))["you"] == BLACK

    serve(tmp_path, check)
