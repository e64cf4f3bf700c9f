"""The settings page's restart of the board's program, as the server sees it:
only the owner may ask, the daemon is told with a "restart" action, a board
under systemd refuses one too soon after its start, and the form names the
saved changes that wait for a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from boardctl.settings import SettingsFile
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub

from .test_settings_server import PIN, Check, unlock


def serve(hub: Hub, check: Check, **options: object) -> None:
    async def main() -> None:
        async with TestClient(TestServer(make_app(hub, **options))) as client:  # type: ignore[arg-type]
            await check(client)

    asyncio.run(main())


def restart(client: TestClient, **body: object):  # type: ignore[no-untyped-def]
    return client.post("/api/action", json={"kind": "restart", **body})


def test_only_the_owner_restarts_the_board():
    hub = Hub()

    async def guest(client: TestClient) -> None:
        response = await restart(client)
        assert response.status == 401
        assert (await client.post("/api/login", json={"pin": "1111"})).status == 403
        assert (await restart(client)).status == 401

    async def no_pin(client: TestClient) -> None:
        assert (await restart(client)).status == 403

    serve(hub, guest, pin=PIN)
    serve(hub, no_pin, pin="")
    assert hub.take_actions() == []


def test_the_owners_restart_is_queued_for_the_daemon():
    hub = Hub()

    async def check(client: TestClient) -> None:
        await unlock(client)
        assert (await restart(client, value=3)).status == 400
        response = await restart(client)
        assert response.status == 202
        assert await response.json() == {"accepted": "restart"}

    serve(hub, check, pin=PIN)
    [action] = hub.take_actions()
    assert action.kind == "restart"


def test_under_systemd_a_restart_too_soon_after_the_start_is_refused():
    hub = Hub()

    async def check(client: TestClient) -> None:
        await unlock(client)
        response = await restart(client)
        assert response.status == 409
        error = (await response.json())["error"]
        assert "only just started" in error and " s " in error

    serve(hub, check, pin=PIN, restart_from=time.monotonic() + 600)
    assert hub.take_actions() == []


def test_each_start_of_the_program_answers_with_its_own_run():
    runs = []

    async def check(client: TestClient) -> None:
        first = await (await client.get("/api/session")).json()
        again = await (await client.get("/api/session")).json()
        assert first["run"] == again["run"]
        runs.append(first["run"])

    serve(Hub(), check, pin=PIN)
    serve(Hub(), check, pin=PIN)
    assert runs[0] != runs[1]


def test_the_form_names_the_saved_changes_that_wait_for_a_restart(example_config: Path):
    path = example_config
    owner = SettingsFile(path)

    async def check(client: TestClient) -> None:
        await unlock(client)
        assert (await (await client.get("/api/settings")).json())["waiting"] == []
        saved = await client.post(
            "/api/settings", json={"game.variant": "falcon-hex", "game.clock": "5+3"}
        )
        answer = await saved.json()
        # The clock waits for the next game only; the hexagon, for a restart.
        assert answer["form"]["waiting"] == ["game.variant"]
        path.write_text(path.read_text().replace('sensors = "sim"', 'sensors = "shiftreg"', 1))
        form = await (await client.get("/api/settings")).json()
        assert form["waiting"] == ["board.sensors", "game.variant"]
        saved = await client.post("/api/settings", json={"game.variant": "falcon"})
        assert (await saved.json())["form"]["waiting"] == ["board.sensors"]

    serve(Hub(), check, pin=PIN, settings=owner)
