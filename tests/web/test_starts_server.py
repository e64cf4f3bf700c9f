"""The owner's starts through the server (/api/action, /api/puzzles): behind
the PIN, checked against the latest snapshot, one line for what is refused
and nothing asked of the board then."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from boardctl.board.stepping import Stepping
from boardctl.remote.link import Link, LinkSettings
from boardctl.rules import Position
from boardctl.storage.store import GameStore
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub, Snapshot, WebAction

PIN = "2468"


def serve(hub: Hub, check, *, pin: str = PIN, db: Path | None = None, link=None) -> None:
    async def main() -> None:
        app = make_app(hub, pin=pin, db_path=db, link=link)
        async with TestClient(TestServer(app)) as client:
            await check(client)

    asyncio.run(main())


async def post(client: TestClient, kind: str, value=None) -> tuple[int, str]:
    body = {"kind": kind} if value is None else {"kind": kind, "value": value}
    response = await client.post("/api/action", json=body)
    data = await response.json()
    return response.status, data.get("error", "")


def stored(db: Path) -> tuple[int, int]:
    """A game with moves and one without."""
    with GameStore(db) as store:
        played = store.new_game("falcon", Position().fen(), "A", "B", "two-players", 1.7e9)
        store.add_move(played, 1, "e2e4", 1.7e9 + 1)
        empty = store.new_game("falcon", Position().fen(), "A", "B", "two-players", 1.7e9)
    return played, empty


def test_every_start_needs_the_pin(tmp_path):
    hub = Hub()

    async def check(client: TestClient) -> None:
        for kind, value in (("setup", Position().fen()), ("puzzle", "duke-a"), ("normal", None)):
            assert (await post(client, kind, value))[0] == 401

    serve(hub, check)
    serve(hub, check_no_pin, pin="")
    assert hub.take_actions() == []


async def check_no_pin(client: TestClient) -> None:
    assert (await post(client, "setup", Position().fen()))[0] == 403


def test_a_bad_fen_is_one_line_and_nothing_reaches_the_board():
    hub = Hub()

    async def check(client: TestClient) -> None:
        assert (await client.post("/api/login", json={"pin": PIN})).status == 200
        for fen in ("not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", "x" * 400, ""):
            status, error = await post(client, "setup", fen)
            assert status == 400 and error and "\n" not in error, (fen, error)
        assert (await post(client, "setup", 7))[0] == 400
        assert hub.take_actions() == []
        target = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"
        assert (await post(client, "setup", target))[0] == 202
        assert hub.take_actions() == [WebAction("setup", text=target)]

    serve(hub, check)


def test_an_unknown_puzzle_or_one_of_another_preset_is_refused():
    hub = Hub()

    async def check(client: TestClient) -> None:
        await client.post("/api/login", json={"pin": PIN})
        assert await post(client, "puzzle", "nope") == (404, "no puzzle called 'nope'")
        status, error = await post(client, "puzzle", "hex-1")
        assert status == 409 and "hex-1 is played in falcon-hex" in error
        assert hub.take_actions() == []
        assert (await post(client, "puzzle", "duke-a"))[0] == 202
        assert hub.take_actions() == [WebAction("puzzle", text="duke-a")]

    serve(hub, check)


def test_the_puzzle_list_is_the_boards_own_presets():
    async def check(client: TestClient) -> None:
        listed = await (await client.get("/api/puzzles")).json()
        ids = [p["id"] for p in listed["puzzles"]]
        assert "duke-a" in ids and not any(i.startswith(("hex-", "kfk8-")) for i in ids)
        duke = listed["puzzles"][ids.index("duke-a")]
        assert duke["difficulty"] == "medium" and duke["goal"] == "White to mate in 2"

    serve(Hub(), check)
    hub = Hub()
    hub.publish(Snapshot(variant="falcon-hex"))

    async def hexagon(client: TestClient) -> None:
        listed = await (await client.get("/api/puzzles")).json()
        assert {p["id"] for p in listed["puzzles"]} == {"hex-1", "hex-2", "hex-3", "hex-4"}

    serve(hub, hexagon)


def test_a_stored_game_is_read_for_stepping_and_an_unknown_one_refused(tmp_path):
    db = tmp_path / "games.sqlite"
    played, empty = stored(db)
    hub = Hub()

    async def check(client: TestClient) -> None:
        await client.post("/api/login", json={"pin": PIN})
        assert await post(client, "replay", 99) == (404, "no game 99")
        assert await post(client, "replay", empty) == (
            409,
            f"game {empty} has no moves to step through",
        )
        assert (await post(client, "replay", "1"))[0] == 400
        assert hub.take_actions() == []
        assert (await post(client, "replay", played))[0] == 202
        (action,) = hub.take_actions()
        assert action.kind == "replay" and action.value == played
        assert isinstance(action.config, Stepping) and len(action.config.moves) == 1

    serve(hub, check, db=db)


def test_a_game_under_way_is_refused_and_normal_needs_something_to_end():
    hub = Hub()
    hub.publish(Snapshot(moves=("e2e4",), result="*"))

    async def check(client: TestClient) -> None:
        await client.post("/api/login", json={"pin": PIN})
        assert await post(client, "puzzle", "duke-a") == (409, "Finish or end the game first")
        status, error = await post(client, "normal")
        assert status == 409 and error.startswith("No set-up, puzzle or stepping to end")
        hub.publish(Snapshot(moves=("e2e4",), result="1-0"))  # ended: anything goes
        assert (await post(client, "puzzle", "duke-a"))[0] == 202
        hub.publish(Snapshot(moves=("e2e4",), result="*", mode="puzzle"))
        assert (await post(client, "normal"))[0] == 202

    serve(hub, check)


def test_a_remote_board_refuses_every_start(tmp_path):
    from boardctl.remote.desk import Desk
    from boardctl.rules import WHITE

    hub = Hub()
    # offer_at_start=False: a game offered would start a broker of the board's own.
    link = Link(Desk(), tmp_path / "remote.sqlite3", LinkSettings(WHITE, offer_at_start=False))

    async def check(client: TestClient) -> None:
        await client.post("/api/login", json={"pin": PIN})
        status, error = await post(client, "setup", Position().fen())
        assert status == 409 and error.startswith("Not in a remote game")
        assert hub.take_actions() == []

    serve(hub, check, link=link)
