"""The settings page's endpoints behind the owner's PIN, through aiohttp's test
client: no PIN, no settings; a guest changes nothing; the owner's save
reaches the file and, as one action, the daemon."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from boardctl.config import load_config
from boardctl.settings import SettingsFile
from boardctl.web.server import make_app
from boardctl.web.snapshot import Hub, Snapshot

PIN = "2468"
Check = Callable[[TestClient], Awaitable[None]]


@pytest.fixture
def owner(example_config: Path) -> SettingsFile:
    return SettingsFile(example_config)


def serve(hub: Hub, check: Check, *, pin: str, settings: SettingsFile | None) -> None:
    async def main() -> None:
        app = make_app(hub, pin=pin, settings=settings)
        async with TestClient(TestServer(app)) as client:
            await check(client)

    asyncio.run(main())


async def unlock(client: TestClient) -> None:
    assert (await client.post("/api/login", json={"pin": PIN})).status == 200


def test_the_page_is_html_and_every_page_links_to_it(owner):
    async def check(client: TestClient) -> None:
        response = await client.get("/settings")
        assert response.status == 200 and response.content_type == "text/html"
        text = await response.text()
        assert "/static/settings.js" in text and 'id="settings-form"' in text
        for field in ("game.mode", "engine.skill", "game.clock", "leds.brightness"):
            assert f'name="{field}"' in text
        assert 'href="/settings"' in await (await client.get("/")).text()
        assert (await client.get("/static/settings.js")).status == 200

    serve(Hub(), check, pin=PIN, settings=owner)


def test_without_a_pin_there_are_no_settings(owner):
    before = owner.path.read_bytes()

    async def check(client: TestClient) -> None:
        for response in (
            await client.get("/api/settings"),
            await client.post("/api/settings", json={"engine.skill": "3"}),
        ):
            assert response.status == 403
            assert "no PIN is set" in (await response.json())["error"]

    serve(Hub(), check, pin="", settings=owner)
    assert owner.path.read_bytes() == before


def test_a_guest_can_neither_read_nor_change_the_settings(owner):
    before = owner.path.read_bytes()
    hub = Hub()

    async def check(client: TestClient) -> None:
        assert (await client.get("/api/settings")).status == 401
        assert (await client.post("/api/settings", json={"engine.skill": "3"})).status == 401
        assert (await client.post("/api/login", json={"pin": "1111"})).status == 403
        response = await client.post("/api/settings", json={"engine.skill": "3"})
        assert response.status == 401
        assert (await response.json())["error"] == "unlock the settings with the PIN first"
        client.session.cookie_jar.update_cookies({"boardctl_session": "forged"})
        assert (await client.post("/api/settings", json={"engine.skill": "3"})).status == 401

    serve(hub, check, pin=PIN, settings=owner)
    assert owner.path.read_bytes() == before
    assert hub.take_actions() == []


def test_another_sites_page_cannot_save_even_with_the_owners_cookie(owner):
    before = owner.path.read_bytes()

    async def check(client: TestClient) -> None:
        await unlock(client)
        response = await client.post(
            "/api/settings", json={"engine.skill": "3"}, headers={"Origin": "http://evil.example"}
        )
        assert response.status == 403
        form = await client.post(
            "/api/settings", data="engine.skill=3", headers={"Content-Type": "text/plain"}
        )
        assert form.status == 415

    serve(Hub(), check, pin=PIN, settings=owner)
    assert owner.path.read_bytes() == before


def test_the_owner_reads_the_form_saves_it_and_the_daemon_is_told(owner):
    hub = Hub()
    hub.publish(Snapshot(level=14))  # the engine plays at 14, set at the board

    async def check(client: TestClient) -> None:
        await unlock(client)
        form = await (await client.get("/api/settings")).json()
        assert form["values"]["engine.skill"] == 14
        assert form["values"]["game.clock"] == ""
        refused = await client.post("/api/settings", json={"game.clock": "5+"})
        assert refused.status == 400
        errors = (await refused.json())["errors"]
        assert list(errors) == ["game.clock"]
        saved = await client.post("/api/settings", json={"engine.skill": "9", "game.clock": "5+3"})
        assert saved.status == 200
        answer = await saved.json()
        assert answer["saved"] == [
            {"field": "engine.skill", "when": "now"},
            {"field": "game.clock", "when": "next game"},
        ]
        # The form as the file now has it: the level saved, not the live one.
        assert answer["form"]["values"]["engine.skill"] == 9

    serve(hub, check, pin=PIN, settings=owner)
    config = load_config(owner.path)
    assert (config.engine.skill, config.game.clock) == (9, "5+3")
    [action] = hub.take_actions()
    assert action.kind == "settings" and action.config == config


def test_a_board_without_a_configuration_file_says_where_settings_would_go():
    async def check(client: TestClient) -> None:
        await unlock(client)
        response = await client.get("/api/settings")
        assert response.status == 503
        assert "without a configuration file" in (await response.json())["error"]

    serve(Hub(), check, pin=PIN, settings=None)


def test_a_disk_that_cannot_be_written_is_said_and_the_daemon_is_not_told(owner, monkeypatch):
    hub = Hub()

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr("boardctl.configfile.create_copy", read_only)

    async def check(client: TestClient) -> None:
        await unlock(client)
        response = await client.post("/api/settings", json={"engine.skill": "3"})
        assert response.status == 503
        message = (await response.json())["errors"][""]
        assert message.startswith("cannot save the settings: the disk is read-only")

    serve(hub, check, pin=PIN, settings=owner)
    assert hub.take_actions() == []
    assert load_config(owner.path).engine.skill == 20
